#!/usr/bin/env bash
# The HCTR2 kernels on the command line: the HCTR2 authors' vectors through
# `kat` on every supported ISA, with and without a tweak, --decrypt
# inverting them; and bad input refused with exit 2, one line on stderr and
# nothing on stdout.
set -u
. "$(dirname "$0")/cli_lib.sh"

# expect_kat <name> <input hex> <want hex> <args...>: exit 0 and that output.
expect_kat() {
    local name=$1 input=$2 want=$3; shift 3
    local got status
    got=$(printf '%s' "$input" | unhex | "$bin" kat "$@" | hex; exit "${PIPESTATUS[2]}")
    status=$?
    [ $status -eq 0 ] && [ "$got" = "$want" ] && ok "$name" || fail "$name: status $status, got $got"
}

# expect_refused <name> <input hex> <args...>
expect_refused() {
    local name=$1 input=$2; shift 2
    printf '%s' "$input" | unhex >"$tmp/in"
    expect_usage "$name" sh -c '"$0" kat "$@" <"'"$tmp/in"'"' "$bin" "$@"
}

# tests/vectors/hctr2_aes128.json "Random ( 1)" of 31 bytes with a 32-byte
# tweak, and hctr2_aes256.json's first (16 bytes, no tweak).
k128=e7d17748760bcd342a2de774ca119cae
t128=711c4962d95b505e6887bcf689ffed30e4e5bdb6104f9f6628065af42735cde5
p128=87038f06a86154da0145d401ef4a22cf78159fbd64bd2cb9401d72ae5363a5
c128=4ea10527b845e4a1bb30b4a6127463d617c9cc2f1864e0060aa0ff72107b22
k256=7fc7152ae1f5fda4176769aec92bba82a314e7cfadfd8540da7b7d24bdf17d07
p256=9be382c65ac19fad4659b80bacc857a0
c256=596a76ff906fbe9b792767778fed2361

"$bin" list >"$tmp/list" || fail "list"
while read -r kernel isa support; do
    [ "$kernel" = aes128-hctr2 ] || continue
    if [ "$support" != supported ]; then
        skip "aes*-hctr2@$isa: unsupported on this CPU"
        continue
    fi
    expect_kat "aes128-hctr2@$isa, 31 bytes, 32-byte tweak" "$p128" "$c128" \
        aes128-hctr2 --isa="$isa" --key=$k128 --tweak=$t128
    expect_kat "aes128-hctr2@$isa --decrypt" "$c128" "$p128" \
        aes128-hctr2 --isa="$isa" --key=$k128 --tweak=$t128 --decrypt
    expect_kat "aes256-hctr2@$isa, one block, no tweak" "$p256" "$c256" \
        aes256-hctr2 --isa="$isa" --key=$k256
    expect_kat "aes256-hctr2@$isa --decrypt, empty --tweak" "$c256" "$p256" \
        aes256-hctr2 --isa="$isa" --key=$k256 --tweak= --decrypt
done <"$tmp/list"

expect_refused "hctr2 under 16 bytes" "${p128:0:30}" aes128-hctr2 --key=$k128 --tweak=$t128
expect_refused "hctr2 of nothing" "" aes128-hctr2 --key=$k128
expect_refused "aes128-hctr2 with a 32-byte key" "$p128" aes128-hctr2 --key=$k256
expect_refused "aes256-hctr2 with a 16-byte key" "$p128" aes256-hctr2 --key=$k128
expect_refused "hctr2 without --key" "$p128" aes128-hctr2 --tweak=$t128
expect_refused "hctr2 takes no --iv" "$p128" aes128-hctr2 --key=$k128 --iv=$k128
expect_refused "hctr2 takes no --sector" "$p128" aes128-hctr2 --key=$k128 --sector=7
expect_refused "xctr nonce of 15 bytes" "$p128" aes128-xctr --key=$k128 --iv=${k128:0:30}
# The --sector refusal names what the kernel takes instead.
printf '%s' "$p128" | unhex | "$bin" kat aes128-hctr2 --key=$k128 --sector=7 2>"$tmp/err" >/dev/null
grep -q -- "--tweak=HEX" "$tmp/err" && ok "the --sector refusal names --tweak: $(cat "$tmp/err")" ||
    fail "the --sector refusal does not name --tweak: $(cat "$tmp/err")"
finish
