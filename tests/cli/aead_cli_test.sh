#!/usr/bin/env bash
# The command line for Poly1305, the ChaCha20-Poly1305 AEADs, RC4 and the
# other OpenSSL ciphers, and libgcrypt's of them: known answers on every supported ISA, --decrypt
# round trips, a bad tag exiting 1 with nothing on stdout, and bad input
# exiting 2.
set -u
. "$(dirname "$0")/cli_lib.sh"

"$bin" list >"$tmp/list"
# runs_here <kernel> <isa>: list calls it supported. Otherwise a SKIP for
# an ISA of ours (the CPU lacks it), and a failure for another library's
# kernel: ci/install-deps.sh installs OpenSSL, its legacy provider and
# libsodium, and none of the library kernels here needs a CPU feature.
runs_here() {
    grep -q "^$1 $2 supported$" "$tmp/list" && return 0
    case $1 in gcrypt:*) gcrypt_built || return 1 ;; esac # checked above
    if [ "$2" = external ]; then
        fail "kat $1: unsupported here, but ci/install-deps.sh installs its library ($(grep "^$1 " "$tmp/list"))"
    else
        skip "kat $1@$2: unsupported on this CPU"
    fi
    return 1
}
for k in poly1305 chacha20-poly1305 xchacha20-poly1305 rc4; do
    grep -q "^$k generic supported$" "$tmp/list" && ok "list has $k generic" ||
        fail "list lacks '$k generic supported'"
done
for k in openssl:chacha20-poly1305 sodium:chacha20poly1305-ietf \
         sodium:xchacha20poly1305 sodium:poly1305 openssl:rc4 \
         openssl:des-ede3-cbc openssl:bf-cbc openssl:camellia-128-cbc \
         openssl:camellia-256-cbc; do
    grep -q "^$k external supported$" "$tmp/list" &&
        ok "list has $k, supported" || fail "list lacks '$k external supported'"
done
# ci/install-deps.sh installs libgcrypt: its kernels must run here, unless
# the build left it out, which they then say.
gcrypt_listed gcrypt:poly1305 gcrypt:chacha20-poly1305 gcrypt:camellia-128-cbc \
    gcrypt:camellia-256-cbc

# RFC 8439 2.5.2 (Poly1305) and 2.8.2 (the AEAD); draft-irtf-cfrg-xchacha
# A.3.1 (XChaCha20-Poly1305): the same plaintext and AAD.
poly_key=85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b
poly_msg=43727970746f6772617068696320466f72756d2052657365617263682047726f7570
poly_tag=a8061dc1305136c6c22b8baf0c0127a9
aead_key=808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f
aad=50515253c0c1c2c3c4c5c6c7
sunscreen=4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a204966204920636f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73637265656e20776f756c642062652069742e
ietf_nonce=070000004041424344454647
ietf_sealed=d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b61161ae10b594f09e26a7e902ecbd0600691
x_nonce=404142434445464748494a4b4c4d4e4f5051525354555657
x_sealed=bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b4522f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff921f9664c97637da9768812f615c68b13b52ec0875924c1c7987947deafd8780acf49
bad_sealed=${ietf_sealed%?}0 # last tag byte 0x91 -> 0x90

while read -r kernel isa support; do
    case "$kernel" in
    poly1305|chacha20-poly1305|xchacha20-poly1305|sodium:poly1305|openssl:chacha20-poly1305|sodium:chacha20poly1305-ietf|sodium:xchacha20poly1305|gcrypt:poly1305|gcrypt:chacha20-poly1305) ;;
    *) continue ;;
    esac
    runs_here "$kernel" "$isa" || continue
    case "$kernel" in
    poly1305|sodium:poly1305|gcrypt:poly1305)
        expect_kat "kat $kernel@$isa RFC 8439 2.5.2" $poly_msg $poly_tag \
            "$kernel" --isa="$isa" --key=$poly_key ;;
    xchacha20-poly1305|sodium:xchacha20poly1305)
        expect_kat "kat $kernel@$isa xchacha A.3.1" $sunscreen $x_sealed \
            "$kernel" --isa="$isa" --key=$aead_key --nonce=$x_nonce --aad=$aad
        expect_kat "kat $kernel@$isa --decrypt xchacha A.3.1" $x_sealed $sunscreen \
            "$kernel" --isa="$isa" --key=$aead_key --nonce=$x_nonce --aad=$aad --decrypt ;;
    *)
        expect_kat "kat $kernel@$isa RFC 8439 2.8.2" $sunscreen $ietf_sealed \
            "$kernel" --isa="$isa" --key=$aead_key --nonce=$ietf_nonce --aad=$aad
        expect_kat "kat $kernel@$isa --decrypt RFC 8439 2.8.2" $ietf_sealed $sunscreen \
            "$kernel" --isa="$isa" --key=$aead_key --nonce=$ietf_nonce --aad=$aad --decrypt
        expect_status "kat $kernel@$isa --decrypt bad tag exits 1" 1 $bad_sealed \
            "$kernel" --isa="$isa" --key=$aead_key --nonce=$ietf_nonce --aad=$aad --decrypt
        expect_status "kat $kernel@$isa --decrypt wrong AAD exits 1" 1 $ietf_sealed \
            "$kernel" --isa="$isa" --key=$aead_key --nonce=$ietf_nonce --aad=${aad%??} --decrypt ;;
    esac
done <"$tmp/list"

# An empty message seals to its tag alone, and opens to nothing.
empty_tag=$(kat_hex '' chacha20-poly1305 --key=$aead_key --nonce=$ietf_nonce)
status=$?
check "empty message seals to a 16-byte tag (status $status): '$empty_tag'" -- \
    [ $status -eq 0 -a ${#empty_tag} -eq 32 ]
expect_kat "a bare tag opens to an empty message" "$empty_tag" '' \
    chacha20-poly1305 --key=$aead_key --nonce=$ietf_nonce --decrypt

# RC4 (broken; for comparison only): RFC 6229, 40-bit key, offset 0.
for k in rc4:generic openssl:rc4:external; do
    runs_here "${k%:*}" "${k##*:}" || continue
    expect_kat "kat ${k%:*} RFC 6229 40-bit key" 00000000000000000000000000000000 \
        b2396305f03dc027ccc3524a0a1118a8 "${k%:*}" --key=0102030405
done

# The OpenSSL and libgcrypt CBC ciphers: one block under a zero IV is the published block
# vector, and --decrypt undoes it.
cbc_kat() { # <kernel> <key> <plaintext> <ciphertext> <iv bytes>
    local iv
    iv=$(printf "%0$(($5 * 2))d" 0)
    runs_here "$1" external || return
    expect_kat "kat $1 known answer" "$3" "$4" "$1" --key="$2" --iv="$iv"
    expect_kat "kat $1 --decrypt known answer" "$4" "$3" "$1" --key="$2" --iv="$iv" --decrypt
}
cbc_kat openssl:des-ede3-cbc 0123456789abcdef23456789abcdef01456789abcdef0123 \
    5468652071756663 a826fd8ce53b855f 8
cbc_kat openssl:bf-cbc f0e1d2c3b4a5968778695a4b3c2d1e0f fedcba9876543210 93142887ee3be15c 8
cbc_kat openssl:camellia-128-cbc 0123456789abcdeffedcba9876543210 \
    0123456789abcdeffedcba9876543210 67673138549669730857065648eabe43 16
cbc_kat openssl:camellia-256-cbc \
    0123456789abcdeffedcba987654321000112233445566778899aabbccddeeff \
    0123456789abcdeffedcba9876543210 9acc237dff16d76c20ef7c919e3a7509 16
cbc_kat gcrypt:camellia-128-cbc 0123456789abcdeffedcba9876543210 \
    0123456789abcdeffedcba9876543210 67673138549669730857065648eabe43 16
cbc_kat gcrypt:camellia-256-cbc \
    0123456789abcdeffedcba987654321000112233445566778899aabbccddeeff \
    0123456789abcdeffedcba9876543210 9acc237dff16d76c20ef7c919e3a7509 16

expect_status "poly1305 short key" 2 00 poly1305 --key=0001
expect_status "poly1305 takes no --nonce" 2 00 poly1305 --key=$poly_key --nonce=00
expect_status "chacha20-poly1305 8-byte nonce" 2 00 chacha20-poly1305 --key=$aead_key --nonce=0000000000000000
expect_status "xchacha20-poly1305 12-byte nonce" 2 00 xchacha20-poly1305 --key=$aead_key --nonce=$ietf_nonce
expect_status "chacha20-poly1305 --decrypt of 15 bytes" 2 000000000000000000000000000000 \
    chacha20-poly1305 --key=$aead_key --nonce=$ietf_nonce --decrypt
expect_status "rc4 key of 257 bytes" 2 00 rc4 --key=$(printf '%0514d' 0)
expect_status "rc4 empty key" 2 00 rc4 --key=
expect_status "camellia-128-cbc partial block" 2 0011 openssl:camellia-128-cbc \
    --key=0123456789abcdeffedcba9876543210 --iv=00000000000000000000000000000000
expect_status "gcrypt:camellia-256-cbc partial block" 2 0011 gcrypt:camellia-256-cbc \
    --key=0123456789abcdeffedcba987654321000112233445566778899aabbccddeeff \
    --iv=00000000000000000000000000000000
expect_status "des-ede3-cbc missing --iv" 2 0000000000000000 openssl:des-ede3-cbc \
    --key=0123456789abcdef23456789abcdef01456789abcdef0123

finish
