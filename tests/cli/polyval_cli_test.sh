#!/usr/bin/env bash
# `kat polyval` on the command line: every vector of tests/vectors/polyval.json
# (google/hctr2) on every supported ISA, a message that is not whole blocks
# hashed zero-padded, and bad keys refused with exit 2.
set -u
. "$(dirname "$0")/cli_lib.sh"
python=/usr/bin/python3 # Debian's, with nothing from a virtualenv

# One vector a line: key, message (maybe empty), hash.
"$python" -c '
import json, sys
for t in json.load(open(sys.argv[1])):
    print(t["input"]["key_hex"], t["input"]["message_hex"] or "-", t["hash_hex"])
' tests/vectors/polyval.json >"$tmp/vectors" || fail "reading polyval.json"

"$bin" list >"$tmp/list" || fail "list"
isas=0
while read -r kernel isa support; do
    [ "$kernel" = polyval ] || continue
    isas=$((isas + 1))
    if [ "$support" != supported ]; then
        skip "kat polyval@$isa: unsupported on this CPU"
        continue
    fi
    n=0 bad=0
    while read -r key msg want; do
        [ "$msg" = - ] && msg=
        got=$(kat_hex "$msg" "polyval@$isa" --key="$key") || got="exit status $?"
        n=$((n + 1))
        [ "$got" = "$want" ] || { bad=$((bad + 1)); echo "  key $key, ${#msg} hex digits: got $got, want $want"; }
    done <"$tmp/vectors"
    [ "$n" -eq 45 ] && [ "$bad" -eq 0 ] && ok "kat polyval@$isa: 45 google/hctr2 vectors" ||
        fail "kat polyval@$isa: $bad of $n vectors differ"
    # 33 bytes are two blocks and one zero-padded: the same as 48 bytes
    # ending in fifteen zeros.
    msg33=$(head -c 33 /dev/urandom | hex)
    a=$(kat_hex "$msg33" "polyval@$isa" --key=25629347589242761d31f826ba4b757b) ||
        a="exit status $?"
    b=$(kat_hex "$msg33$(printf '%030d' 0)" "polyval@$isa" --key=25629347589242761d31f826ba4b757b) ||
        b="exit status $?"
    [ ${#a} -eq 32 ] && [ "$a" = "$b" ] && ok "kat polyval@$isa: a partial block is zero-padded" ||
        fail "kat polyval@$isa: 33 bytes $a, padded to 48 $b"
done <"$tmp/list"
case $(bin_arch) in
x86_64) want_isas=4 ;;
*) want_isas=1 ;;
esac
[ "$isas" -eq "$want_isas" ] && ok "list shows polyval at $want_isas ISAs" ||
    fail "list shows polyval at $isas ISAs, not $want_isas"

expect_usage "polyval without --key" "$bin" kat polyval
expect_usage "polyval 15-byte key" "$bin" kat polyval --key=25629347589242761d31f826ba4b75
expect_usage "polyval 17-byte key" "$bin" kat polyval --key=25629347589242761d31f826ba4b757b00
expect_usage "polyval 8-byte key" "$bin" kat polyval --key=2562934758924276
expect_usage "polyval key of odd hex" "$bin" kat polyval --key=25629347589242761d31f826ba4b757
expect_usage "polyval takes no --iv" "$bin" kat polyval --key=25629347589242761d31f826ba4b757b --iv=00
expect_usage "polyval@nonsense" "$bin" kat polyval@nonsense --key=25629347589242761d31f826ba4b757b

finish
