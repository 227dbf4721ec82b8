#!/usr/bin/env bash
# The command line's contract: `list` format, `kat` known answers, and bad
# input giving one line on stderr, exit status 2 and nothing on stdout.
set -u
. "$(dirname "$0")/cli_lib.sh"

# expect_usage_error <name> <args...>: exit 2, one stderr line, no stdout.
# The message on stdin is $INPUT, or "abc".
expect_usage_error() {
    local name=$1; shift
    printf '%s' "${INPUT:-abc}" >"$tmp/stdin"
    STDIN=$tmp/stdin expect_usage "$name" "$bin" "$@"
}

# list: "<kernel> <isa> <supported|unsupported>" or a # comment.
"$bin" list >"$tmp/list"
if [ $? -eq 0 ] && awk '/^#/ { next }
        NF != 3 || ($3 != "supported" && $3 != "unsupported") { bad = 1 }
        END { exit bad }' "$tmp/list"; then
    ok "list lines have the form <kernel> <isa> <supported|unsupported>"
else
    fail "list format"
fi
for k in chacha20 chacha12 chacha8 xchacha20 xchacha12 xchacha8 blake2b lioness lioness12 lioness8 lioness-x4 memcpy; do
    grep -q "^$k generic supported$" "$tmp/list" && ok "list has $k generic" ||
        fail "list lacks '$k generic supported'"
done

key=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
sunscreen=$(printf '%s' "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it." | hex)
sunscreen_ct=6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0bf91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d807ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab77937365af90bbf74a35be6b40b8eedf2785e42874d
while read -r kernel isa support; do
    case "$kernel" in chacha20) ;; *) continue ;; esac
    if [ "$support" = supported ]; then
        expect_kat "kat chacha20@$isa RFC 8439 2.4.2" "$sunscreen" "$sunscreen_ct" \
            chacha20 --isa="$isa" --key=$key --nonce=000000000000004a00000000 --counter=1
    else
        skipped=$((skipped + 1)); echo "SKIP kat chacha20@$isa: unsupported on this CPU"
        expect_usage_error "kat chacha20@$isa refused on this CPU" kat chacha20 --isa="$isa" --key=$key --nonce=0000000000000000
    fi
done <"$tmp/list"

# RFC 7693 appendix A: BLAKE2b-512("abc").
expect_kat "kat blake2b abc (RFC 7693 A)" 616263 \
    ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923 \
    blake2b
expect_kat "kat memcpy copies" 616263 616263 memcpy

# LIONESS: the first shared compatibility vector, both directions, through
# the CLI.
lioness_key=$(sed -n 's/^key=//p' tests/vectors/lioness_compat.txt | head -1)
lioness_block=$(sed -n 's/^block=//p' tests/vectors/lioness_compat.txt | head -1)
lioness_ct=$(sed -n 's/^ciphertext=//p' tests/vectors/lioness_compat.txt | head -1)
expect_kat "kat lioness compat vector 0" "$lioness_block" "$lioness_ct" \
    lioness --key="$lioness_key"
expect_kat "kat lioness --decrypt compat vector 0" "$lioness_ct" "$lioness_block" \
    lioness --key="$lioness_key" --decrypt

# lioness-x4: the vector in all four cells gives its ciphertext four times.
expect_kat "kat lioness-x4 compat vector 0 in four cells" \
    "$lioness_block$lioness_block$lioness_block$lioness_block" \
    "$lioness_ct$lioness_ct$lioness_ct$lioness_ct" lioness-x4 --key="$lioness_key"
INPUT=$(printf '%0203d' 0) expect_usage_error "lioness-x4 input of 203 bytes (not four cells)" kat lioness-x4 --key="$lioness_key"
INPUT=$(printf '%0160d' 0) expect_usage_error "lioness-x4 cells of 40 bytes" kat lioness-x4 --key="$lioness_key"

INPUT=$(printf '%040d' 0) expect_usage_error "lioness block of 40 bytes" kat lioness --key="$lioness_key"
INPUT=$(printf '%0100d' 0) expect_usage_error "lioness key of 207 bytes" kat lioness --key="${lioness_key:2}"
INPUT=$(printf '%0100d' 0) expect_usage_error "lioness --rounds=7" kat lioness --key="$lioness_key" --rounds=7
INPUT=$(printf '%0100d' 0) expect_usage_error "sodium:lioness --rounds=8" kat sodium:lioness --key="$lioness_key" --rounds=8
expect_usage_error "chacha20 takes no --rounds" kat chacha20 --key=$key --nonce=0000000000000000 --rounds=20

expect_usage_error "no subcommand"
expect_usage_error "unknown subcommand" frobnicate
expect_usage_error "kat without kernel" kat
expect_usage_error "unknown kernel" kat chacha21 --key=$key --nonce=0000000000000000
expect_usage_error "unknown ISA" kat chacha20 --isa=mmx --key=$key --nonce=0000000000000000
expect_usage_error "short key" kat chacha20 --key=0001 --nonce=0000000000000000
expect_usage_error "missing key" kat chacha20 --nonce=0000000000000000
expect_usage_error "wrong nonce length" kat chacha20 --key=$key --nonce=00000000000000000000
expect_usage_error "xchacha 12-byte nonce" kat xchacha20 --key=$key --nonce=000000000000000000000000
expect_usage_error "non-hex key" kat chacha20 --key=zz0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f --nonce=0000000000000000
expect_usage_error "odd hex digits" kat chacha20 --key=${key}0 --nonce=0000000000000000
expect_usage_error "counter beyond 2^64" kat chacha20 --key=$key --nonce=0000000000000000 --counter=18446744073709551616
expect_usage_error "counter not a number" kat chacha20 --key=$key --nonce=0000000000000000 --counter=12x
INPUT=$(printf '%0100d' 0) expect_usage_error "IETF counter wraps in a 2-block message" \
    kat chacha20 --key=$key --nonce=000000000000000000000000 --counter=4294967295
expect_usage_error "IETF counter over 32 bits" kat chacha20 --key=$key --nonce=000000000000000000000000 --counter=4294967296
expect_usage_error "blake2b out-len 0" kat blake2b --out-len=0
expect_usage_error "blake2b out-len 65" kat blake2b --out-len=65
expect_usage_error "blake2b key 65 bytes" kat blake2b --key=${key}${key}00
expect_usage_error "blake2b with nonce" kat blake2b --nonce=00
expect_usage_error "unknown option" kat blake2b --rounds=7
expect_usage_error "list with arguments" list extra

finish
