#!/usr/bin/env bash
# The AES kernels on the command line: published vectors through `kat` on
# every supported ISA, --decrypt inverting them, a wrong GCM tag giving exit
# 1 with nothing on stdout, and bad options refused with exit 2.
set -u
. "$(dirname "$0")/cli_lib.sh"

"$bin" list >"$tmp/list" || fail "list"
sp=6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51
k128=2b7e151628aed2a6abf7158809cf4f3c
k256=603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4
ctr=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
iv=000102030405060708090a0b0c0d0e0f
zero16=00000000000000000000000000000000
zero32=$zero16$zero16
kerb=636869636b656e207465726979616b69
would17=4920776f756c64206c696b652074686520
would31=4920776f756c64206c696b65207468652047656e6572616c20476175277320
cs2_17=c6353568f2bf8cb4d8a580362da7ff7f97
cs2_31=fc00783e0efdb2c1d445d4c8eff7ed2297687268d6ecccc0c07b25e25ecfe5
xts1=917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e
gcm2=0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf
gcm14=cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919
# The HCTR2 authors' XCTR-AES-256 vector 1 (tests/vectors/xctr_aes256.json).
xk256=775cc0739a6497912feee020c204592e97d2a770b3b0216b8fbfb851a8ea0f62
xnonce=318e1fcdfd23eb7f8a1f1b23532744e5
xpt=cdff8c9b945a513f409356936639631fbfe6a4fabe799303f5667416fce4ce
xct=8bd3c3ce66f8664cadd6f50fd8995a75a13cab0b213657728829e9ea4a8de9

while read -r kernel isa support; do
    case "$kernel" in aes128-ctr) ;; *) continue ;; esac
    if [ "$support" != supported ]; then
        skipped=$((skipped + 1)); echo "SKIP kat aes*@$isa: unsupported on this CPU"
        expect_status "aes128-ctr@$isa refused on this CPU" 2 "$sp" aes128-ctr --isa="$isa" --key=$k128 --iv=$ctr
        continue
    fi
    i=--isa=$isa
    expect_kat "aes128-ctr@$isa SP 800-38A F.5.1" "$sp" \
        874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff aes128-ctr $i --key=$k128 --iv=$ctr
    expect_kat "aes256-ctr@$isa SP 800-38A F.5.5, 31 bytes" "${sp:0:62}" \
        601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5 aes256-ctr $i --key=$k256 --iv=$ctr
    expect_kat "aes128-cbc@$isa SP 800-38A F.2.1" "$sp" \
        7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2 aes128-cbc $i --key=$k128 --iv=$iv
    expect_kat "aes256-cbc@$isa SP 800-38A F.2.5 --decrypt" \
        f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d "$sp" aes256-cbc $i --key=$k256 --iv=$iv --decrypt
    expect_kat "aes128-cbc@$isa CS2, 17 bytes (RFC 3962, where CS3 = CS2)" "$would17" "$cs2_17" \
        aes128-cbc $i --key=$kerb --iv=$zero16
    expect_kat "aes128-cbc@$isa CS2, 31 bytes (RFC 3962)" "$would31" "$cs2_31" \
        aes128-cbc $i --key=$kerb --iv=$zero16
    expect_kat "aes128-cbc@$isa CS2 --decrypt, 31 bytes" "$cs2_31" "$would31" \
        aes128-cbc $i --key=$kerb --iv=$zero16 --decrypt
    expect_kat "aes128-xts@$isa IEEE 1619 vector 1, --sector=0" "$zero32" "$xts1" \
        aes128-xts $i --key=$zero32 --sector=0
    expect_kat "aes128-xts@$isa IEEE 1619 vector 1, --tweak, --decrypt" "$xts1" "$zero32" \
        aes128-xts $i --key=$zero32 --tweak=$zero16 --decrypt
    expect_kat "aes128-gcm@$isa GCM test case 2" "$zero16" "$gcm2" \
        aes128-gcm $i --key=$zero16 --iv=000000000000000000000000
    expect_kat "aes256-gcm@$isa GCM test case 14 --decrypt" "$gcm14" "$zero16" \
        aes256-gcm $i --key=$zero32 --iv=000000000000000000000000 --decrypt
    expect_status "aes256-gcm@$isa wrong tag: exit 1, nothing on stdout" 1 \
        "${gcm14:0:62}00" aes256-gcm $i --key=$zero32 --iv=000000000000000000000000 --decrypt
    expect_status "aes128-gcm@$isa AAD changed: exit 1" 1 "$gcm2" \
        aes128-gcm $i --key=$zero16 --iv=000000000000000000000000 --aad=00 --decrypt
    expect_kat "aes256-xctr@$isa the HCTR2 authors' vector 1" "$xpt" "$xct" \
        aes256-xctr $i --key=$xk256 --iv=$xnonce
    expect_kat "aes256-xctr@$isa inverts itself" "$xct" "$xpt" \
        aes256-xctr $i --key=$xk256 --iv=$xnonce
done <"$tmp/list"

# The same sector as --sector=N and as its little-endian --tweak.
sector_is_tweak() {
    local by_sector by_tweak
    by_sector=$(kat_hex "$sp$sp" aes256-xts --key=$k256$k256 --sector=258) &&
        by_tweak=$(kat_hex "$sp$sp" aes256-xts --key=$k256$k256 \
            --tweak=02010000000000000000000000000000) &&
        [ ${#by_sector} -eq 128 ] && [ "$by_sector" = "$by_tweak" ]
}
check "aes256-xts --sector=258 == --tweak=0201..." -- sector_is_tweak

expect_status "cbc under 16 bytes" 2 616263 aes128-cbc --key=$k128 --iv=$iv
expect_status "xts under 16 bytes" 2 616263 aes128-xts --key=$zero32 --sector=0
expect_status "xts with --tweak and --sector" 2 "$sp" aes128-xts --key=$zero32 --sector=0 --tweak=$zero16
expect_status "xts without a tweak" 2 "$sp" aes128-xts --key=$zero32
expect_status "xts short tweak" 2 "$sp" aes128-xts --key=$zero32 --tweak=00
expect_status "xts one key only" 2 "$sp" aes128-xts --key=$zero16 --sector=0
expect_status "ctr without --iv" 2 "$sp" aes128-ctr --key=$k128
expect_status "ctr 12-byte iv" 2 "$sp" aes128-ctr --key=$k128 --iv=000000000000000000000000
expect_status "ctr takes no --decrypt" 2 "$sp" aes128-ctr --key=$k128 --iv=$ctr --decrypt
expect_status "aes256-ctr with a 16-byte key" 2 "$sp" aes256-ctr --key=$k128 --iv=$ctr
expect_status "xctr 12-byte nonce" 2 "$sp" aes128-xctr --key=$k128 --iv=000000000000000000000000
expect_status "xctr without --iv" 2 "$sp" aes128-xctr --key=$k128
expect_status "aes256-xctr with a 16-byte key" 2 "$sp" aes256-xctr --key=$k128 --iv=$ctr
expect_status "xctr takes no --sector" 2 "$sp" aes128-xctr --key=$k128 --iv=$ctr --sector=1
expect_status "gcm 16-byte iv" 2 "$sp" aes128-gcm --key=$k128 --iv=$ctr
expect_status "gcm --decrypt shorter than a tag" 2 616263 aes128-gcm --key=$k128 --iv=000000000000000000000000 --decrypt
expect_status "gcm takes no --tweak" 2 "$sp" aes128-gcm --key=$k128 --iv=000000000000000000000000 --tweak=$zero16
expect_status "cbc takes no --aad" 2 "$sp" aes128-cbc --key=$k128 --iv=$iv --aad=00
expect_status "openssl:aes-256-gcm wrong tag: exit 1" 1 "${gcm14:0:62}00" \
    openssl:aes-256-gcm --key=$zero32 --iv=000000000000000000000000 --decrypt
expect_status "openssl:aes-128-xts refuses equal key halves" 2 "$zero32" \
    openssl:aes-128-xts --key=$zero32 --sector=0
expect_kat "openssl:aes-128-cbc CS2, 31 bytes" "$would31" "$cs2_31" openssl:aes-128-cbc --key=$kerb --iv=$zero16
# libgcrypt's (ci/install-deps.sh installs it: never skipped; a build
# without it says so, and runs none).
gcrypt_listed gcrypt:aes-128-ctr gcrypt:aes-256-ctr gcrypt:aes-128-cbc gcrypt:aes-256-cbc \
    gcrypt:aes-128-xts gcrypt:aes-256-xts gcrypt:aes-128-gcm gcrypt:aes-256-gcm
if gcrypt_built; then
expect_kat "gcrypt:aes-128-ctr SP 800-38A F.5.1" "$sp" \
    874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff gcrypt:aes-128-ctr --key=$k128 --iv=$ctr
expect_kat "gcrypt:aes-256-cbc SP 800-38A F.2.5 --decrypt" \
    f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d "$sp" gcrypt:aes-256-cbc --key=$k256 --iv=$iv --decrypt
expect_kat "gcrypt:aes-128-cbc CS2, 31 bytes (RFC 3962)" "$would31" "$cs2_31" \
    gcrypt:aes-128-cbc --key=$kerb --iv=$zero16
expect_kat "gcrypt:aes-128-cbc CS2 --decrypt, 17 bytes" "$cs2_17" "$would17" \
    gcrypt:aes-128-cbc --key=$kerb --iv=$zero16 --decrypt
expect_kat "gcrypt:aes-128-xts IEEE 1619 vector 1, --sector=0" "$zero32" "$xts1" \
    gcrypt:aes-128-xts --key=$zero32 --sector=0
expect_kat "gcrypt:aes-128-gcm GCM test case 2" "$zero16" "$gcm2" \
    gcrypt:aes-128-gcm --key=$zero16 --iv=000000000000000000000000
expect_kat "gcrypt:aes-256-gcm GCM test case 14 --decrypt" "$gcm14" "$zero16" \
    gcrypt:aes-256-gcm --key=$zero32 --iv=000000000000000000000000 --decrypt
expect_status "gcrypt:aes-256-gcm wrong tag: exit 1" 1 "${gcm14:0:62}00" \
    gcrypt:aes-256-gcm --key=$zero32 --iv=000000000000000000000000 --decrypt
fi
if grep -q '^sodium:aes256gcm external supported$' "$tmp/list"; then
    expect_kat "sodium:aes256gcm GCM test case 14" "$zero16" "$gcm14" \
        sodium:aes256gcm --key=$zero32 --iv=000000000000000000000000
else
    skipped=$((skipped + 1)); echo "SKIP sodium:aes256gcm: unsupported here"
fi

finish
