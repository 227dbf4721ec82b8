#!/usr/bin/env bash
# Adiantum on the command line: google/adiantum vectors through `kat` on
# every supported ISA, --decrypt inverting them, every ISA agreeing on a
# 4096-byte sector and its round trip, and bad input refused with exit 2,
# one line and nothing on stdout.
set -u
. "$(dirname "$0")/cli_lib.sh"

"$bin" list >"$tmp/list" || fail "list"
case $(bin_arch) in
x86_64) isas="generic sse2 avx2 avx512" ;;
*) isas="generic" ;;
esac
for k in adiantum adiantum20 adiantum8; do
    for isa in $isas; do
        grep -Eq "^$k $isa (supported|unsupported)$" "$tmp/list" &&
            ok "list has $k@$isa" || fail "list lacks $k@$isa"
    done
done

# google/adiantum XChaCha12_AES256 "Random (1)" (16 bytes, no tweak) and
# the "Random (3)" vectors of XChaCha12, 20 and 8 (31 bytes, 17-byte tweak:
# a partial NH unit and a partial Poly1305 block).
k16=7fc7152ae1f5fda4176769aec92bba82a314e7cfadfd8540da7b7d24bdf17d07
p16=9be382c65ac19fad4659b80bacc857a0
c16=820ae44477dd9a186f80288b25070e85
k31=f7ab791b4e2d702b15c2fcc65d76db70b7a15197cf84d80a6d926117dedce111
t31=844428c896630ae2226eb9f7ed935830e1
p31=f9f35be5bc21e8b84ceeb52d620ae4650639700385da48b644cd4a57a2ce40
c31_12=f30935a89cd26fbf25833e0209497ba85bf1ffcce884a9bedb3bb778adc03a
c31_20=8781af9a6097b32793499e43b745d0ad7c7013dda69bc8dcf23af642476d37
c31_8=ecf18f0dc14c2158335d3e4e95194b95fb4e4baf2aea1e6c225f79d7ebd3ba

# A 4096-byte sector with Linux's 32-byte tweak; generic's output is the
# one every ISA must give.
sector=$(for i in $(seq 0 255); do printf '%02x' $((i * 7 % 256)); done)
sector=$sector$sector$sector$sector$sector$sector$sector$sector
sector=$sector$sector
tweak32=0700000000000000000000000000000000000000000000000000000000000000
want_sector=$(kat_hex "$sector" adiantum --isa=generic --key=$k31 --tweak=$tweak32)
status=$?
check "generic encrypts a 4096-byte sector to 4096 bytes (status $status, ${#want_sector} hex digits)" -- \
    [ $status -eq 0 -a ${#want_sector} -eq 8192 ]

while read -r kernel isa support; do
    case "$kernel" in adiantum) ;; *) continue ;; esac
    if [ "$support" != supported ]; then
        skip "kat adiantum*@$isa: unsupported on this CPU"
        expect_status "adiantum@$isa refused on this CPU" 2 "$p16" adiantum \
            --isa="$isa" --key=$k16
        continue
    fi
    i=--isa=$isa
    expect_kat "adiantum@$isa Random (1), no tweak" "$p16" "$c16" adiantum $i --key=$k16
    expect_kat "adiantum@$isa --decrypt Random (1)" "$c16" "$p16" adiantum $i --key=$k16 --decrypt
    expect_kat "adiantum@$isa --tweak= (empty) is no tweak" "$p16" "$c16" adiantum $i \
        --key=$k16 --tweak=
    for r in 12 20 8; do
        name=adiantum$r want=c31_$r
        [ $r = 12 ] && name=adiantum
        expect_kat "$name@$isa Random (3), 17-byte tweak" "$p31" "${!want}" $name $i \
            --key=$k31 --tweak=$t31
        expect_kat "$name@$isa --decrypt Random (3)" "${!want}" "$p31" $name $i \
            --key=$k31 --tweak=$t31 --decrypt
    done
    expect_kat "adiantum@$isa 4096-byte sector as generic" "$sector" "$want_sector" \
        adiantum $i --key=$k31 --tweak=$tweak32
    expect_kat "adiantum@$isa --decrypt of generic's sector" "$want_sector" "$sector" \
        adiantum $i --key=$k31 --tweak=$tweak32 --decrypt
done <"$tmp/list"

expect_status "adiantum 15-byte message" 2 "${p16:2}" adiantum --key=$k16
expect_status "adiantum empty message" 2 "" adiantum --key=$k16
expect_status "adiantum --decrypt of 15 bytes" 2 "${c16:2}" adiantum --key=$k16 --decrypt
expect_status "adiantum20 31-byte key" 2 "$p16" adiantum20 --key=${k16:2}
expect_status "adiantum8 33-byte key" 2 "$p16" adiantum8 --key=${k16}00
expect_status "adiantum without --key" 2 "$p16" adiantum --tweak=$t31
expect_status "adiantum takes no --nonce" 2 "$p16" adiantum --key=$k16 --nonce=$t31
expect_status "adiantum takes no --sector (the tweak carries it)" 2 "$p16" adiantum --key=$k16 --sector=7
expect_status "adiantum --tweak of odd hex" 2 "$p16" adiantum --key=$k16 --tweak=abc

finish
