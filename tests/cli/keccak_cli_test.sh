#!/usr/bin/env bash
# The Keccak kernels on the command line: published vectors through `kat`
# on every supported ISA (--domain in decimal and in 0x hex, --out-len,
# --custom, a KT128 message over two leaves); their options as list --json
# states them; and bad input refused with exit 2, one line on stderr and
# nothing on stdout.
set -u
. "$(dirname "$0")/cli_lib.sh"

# expect_kat <name> <input hex> <want hex> <args...>: exit 0 and that output.
expect_kat() {
    local name=$1 input=$2 want=$3; shift 3
    local got status
    got=$(printf '%s' "$input" | unhex | "$bin" kat "$@" | hex; exit "${PIPESTATUS[2]}")
    status=$?
    [ $status -eq 0 ] && [ "$got" = "${want,,}" ] && ok "$name" || fail "$name: status $status, got $got"
}

# expect_refused <name> <kat args...>: exit 2, one stderr line, no stdout.
expect_refused() {
    local name=$1; shift
    printf x >"$tmp/stdin"
    STDIN=$tmp/stdin expect_usage "$name" "$bin" kat "$@"
}

# ptn <n>: RFC 9861's ptn(n), 00 01 .. FA repeating, in hex.
ptn() { "$python" -c 'import sys; print(bytes(i % 251 for i in range(int(sys.argv[1]))).hex())' "$1"; }

# tests/vectors/sha3_shake_vectors.json and rfc9861_turboshake_kt.json.
sha3_137=CE9D7DC90913EE5D92745019479A5352C6D6279BEF18ED07DC0A83EE8084DACA
shake_1_64=B8D01DF855F7075882C636F6DDEACF41E5DE0BBF30042EF0A86E36F4B8600D546C516501A6A3C821678D3D9943FA9E74B9B99FCCD47AECC91DD1F4946B8355B3
ts128_ff3_d6=3D03988BB59E681851A192F429AE03988E8F444BC06036A3F1A7D2CCD758D174
ts128_empty_d11=8B035AB8F8EA7B410217167458332E46F54BE4FF8354BAF3687104A6D24B0EAB
ts256_ff_d6=738D7B4E37D18B7F22AD1B5313E357E3DD7D07056A26A303C433FA3533455280F4F5A7D4F700EFB437FE6D281405E07BE32A0A972E22E63ADC1B090DAEFE004B
kt128_ff_c41=D848C5068CED736F4462159B9867FD4C20B808ACC3D5BC48E0B06BA0A3762EC4
kt128_8192=48F256F6772F9EDFB6A8B661EC92DC93B95EBD05A08A17B39AE3490870C926C3
kt256_c1=9280F5CC39B54A5A594EC63DE0BB99371E4609D44BF845C2F5B8C316D72B159811F748F23E3FABBE5C3226EC96C62186DF2D33E9DF74C5069CEECBB4DD10EFF6
m137=$(ptn 137) m1=$(ptn 1) m8192=$(ptn 8192) c41=$(ptn 41) c1=$(ptn 1)

"$bin" list >"$tmp/list" || fail "list"
while read -r kernel isa support; do
    [ "$kernel" = sha3-256 ] || continue
    if [ "$support" != supported ]; then
        skip "keccak@$isa: unsupported on this CPU"
        continue
    fi
    expect_kat "sha3-256@$isa, ptn(137)" "$m137" $sha3_137 sha3-256 --isa="$isa"
    expect_kat "shake256@$isa, ptn(1), --out-len=64" "$m1" $shake_1_64 \
        shake256 --isa="$isa" --out-len=64
    expect_kat "shake256@$isa, default 32 bytes" "$m1" ${shake_1_64:0:64} \
        shake256 --isa="$isa"
    expect_kat "turboshake128@$isa, FF FF FF, --domain=6" ffffff $ts128_ff3_d6 \
        turboshake128 --isa="$isa" --domain=6
    expect_kat "turboshake128@$isa, empty, --domain=0x0B" "" $ts128_empty_d11 \
        turboshake128 --isa="$isa" --domain=0x0B
    expect_kat "turboshake256@$isa, FF, --domain=0x06 --out-len=64" ff $ts256_ff_d6 \
        turboshake256 --isa="$isa" --domain=0x06 --out-len=64
    expect_kat "kt128@$isa, FF, 41-byte --custom" ff $kt128_ff_c41 \
        kt128 --isa="$isa" --custom=$c41
    expect_kat "kt128@$isa, ptn(8192): two leaves" "$m8192" $kt128_8192 \
        kt128 --isa="$isa"
    expect_kat "kt256@$isa, empty, 1-byte --custom, --out-len=64" "" $kt256_c1 \
        kt256 --isa="$isa" --custom=$c1 --out-len=64
done <"$tmp/list"

# The options, as list --json states them for the tools.
check "list --json states each Keccak kernel's options" -- "$python" -c '
import json, subprocess, sys
d = json.loads(subprocess.check_output([sys.argv[1], "list", "--json"]))
ks = {k["name"]: k for k in (d["kernels"] if isinstance(d, dict) else d)}
opts = lambda n: {o["name"]: (o.get("min"), o.get("max")) for o in ks[n]["options"]}
assert opts("sha3-256") == {}, opts("sha3-256")
assert opts("shake256") == {"out-len": (1, 1 << 20)}, opts("shake256")
for n in ("turboshake128", "turboshake256"):
    assert opts(n) == {"out-len": (1, 1 << 20), "domain": (1, 127)}, opts(n)
for n in ("kt128", "kt256"):
    assert opts(n) == {"out-len": (1, 1 << 20), "custom": (0, None)}, opts(n)
' "$bin"

expect_refused "turboshake128 --domain=0" turboshake128 --domain=0
expect_refused "turboshake128 --domain=128" turboshake128 --domain=128
expect_refused "turboshake256 --domain=0x80" turboshake256 --domain=0x80
expect_refused "turboshake128 --domain=0x (no digits)" turboshake128 --domain=0x
expect_refused "turboshake128 --domain=0x1G" turboshake128 --domain=0x1G
expect_refused "shake256 --out-len=0" shake256 --out-len=0
expect_refused "kt128 --out-len=0" kt128 --out-len=0
expect_refused "sha3-256 takes no --out-len" sha3-256 --out-len=32
expect_refused "kt128 takes no --domain" kt128 --domain=7
expect_refused "shake256 takes no --custom" shake256 --custom=00
expect_refused "kt256 --custom of odd hex digits" kt256 --custom=abc
# The --domain refusal names the range.
printf x | "$bin" kat turboshake128 --domain=200 2>"$tmp/err" >/dev/null
grep -q "1 to 127" "$tmp/err" && ok "the --domain refusal names 1 to 127: $(cat "$tmp/err")" ||
    fail "the --domain refusal does not name 1 to 127: $(cat "$tmp/err")"
finish
