#!/usr/bin/env bash
# AES-GCM-SIV on the command line: RFC 8452's vectors through `kat` on
# every supported ISA and on libgcrypt's kernels, --decrypt inverting them,
# a changed tag or AAD exiting 1 with nothing on stdout, and bad input (a
# nonce that is not 12 bytes, a wrong key, a --decrypt input shorter than
# the tag) refused with exit 2 before anything is computed.
set -u
. "$(dirname "$0")/cli_lib.sh"

# RFC 8452 C.1 and C.2, the last vector of each (Wycheproof tcIds 24 and
# 123 in tests/vectors/wycheproof_aes_gcm_siv_test.json): AAD and message
# both end in a partial block.
k128=f901cfe8a69615a93fdf7a98cad48179
n128=6245709fb18853f68d833640
a128=7576f7028ec6eb5ea7e298342a94d4b202b370ef9768ec6561c4fe6b7e7296fa859c21
p128=e42a3c02c25b64869e146d7b233987bddfc240871d
s128=391cc328d484a4f46406181bcd62efd9b3ee197d052d15506c84a9edd65e13e9d24a2a6e70
k256=3c535de192eaed3822a2fbbe2ca9dfc88255e14a661b8aa82cc54236093bbc23
n256=688089e55540db1872504e1c
a256=734320ccc9d9bbbb19cb81b2af4ecbc3e72834321f7aa0f70b7282b4f33df23f167541
p256=ced532ce4159b035277d4dfbb7db62968b13cd4eec
s256=626660c26ea6612fb17ad91e8e767639edd6c9faee9d6c7029675b89eaf4ba1ded1a286594

"$bin" list >"$tmp/list" || fail "list"
for k in aes128-gcm-siv aes256-gcm-siv; do
    grep -q "^$k generic supported$" "$tmp/list" && ok "list has $k generic" ||
        fail "list lacks '$k generic supported'"
done
gcrypt_listed gcrypt:aes-128-gcm-siv gcrypt:aes-256-gcm-siv

while read -r kernel isa support; do
    case "$kernel" in
    aes128-gcm-siv|gcrypt:aes-128-gcm-siv) bits=128 ;;
    aes256-gcm-siv|gcrypt:aes-256-gcm-siv) bits=256 ;;
    *) continue ;;
    esac
    if [ "$support" != supported ]; then
        # gcrypt_listed above has said whether that is right.
        skip "$kernel@$isa: unsupported here"
        continue
    fi
    if [ $bits = 128 ]; then
        key=$k128 nonce=$n128 aad=$a128 pt=$p128 sealed=$s128
    else
        key=$k256 nonce=$n256 aad=$a256 pt=$p256 sealed=$s256
    fi
    expect_kat "kat $kernel@$isa RFC 8452 C.${bits:0:1}" $pt $sealed \
        "$kernel" --isa="$isa" --key=$key --nonce=$nonce --aad=$aad
    expect_kat "kat $kernel@$isa --decrypt" $sealed $pt \
        "$kernel" --isa="$isa" --key=$key --nonce=$nonce --aad=$aad --decrypt
    expect_status "kat $kernel@$isa --decrypt, a changed tag: exit 1" 1 \
        "${sealed%?}$(printf '%x' $(( (0x${sealed: -1} + 1) % 16 )))" \
        "$kernel" --isa="$isa" --key=$key --nonce=$nonce --aad=$aad --decrypt
    expect_status "kat $kernel@$isa --decrypt, the AAD cut: exit 1" 1 $sealed \
        "$kernel" --isa="$isa" --key=$key --nonce=$nonce --aad=${aad%??} --decrypt
done <"$tmp/list"

expect_usage_on "an 11-byte nonce" $p128 \
    "$bin" kat aes128-gcm-siv --key=$k128 --nonce=${n128%??}
expect_usage_on "a 16-byte nonce" $p128 \
    "$bin" kat aes128-gcm-siv --key=$k128 --nonce=${n128}00000000
expect_usage_on "no nonce" $p128 "$bin" kat aes256-gcm-siv --key=$k256
expect_usage_on "aes128-gcm-siv with a 32-byte key" $p128 \
    "$bin" kat aes128-gcm-siv --key=$k256 --nonce=$n128
expect_usage_on "aes256-gcm-siv with a 16-byte key" $p128 \
    "$bin" kat aes256-gcm-siv --key=$k128 --nonce=$n128
expect_usage_on "--decrypt of 15 bytes, less than the tag" ${s128:0:30} \
    "$bin" kat aes128-gcm-siv --key=$k128 --nonce=$n128 --decrypt
expect_usage_on "gcm-siv takes no --iv" $p128 \
    "$bin" kat aes128-gcm-siv --key=$k128 --nonce=$n128 --iv=$n128
finish
