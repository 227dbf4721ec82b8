#!/usr/bin/env bash
# The Ascon kernels on the command line: `list` shows ascon-aead128 at
# generic only and ascon-aead128-x8 at its ISAs; on every supported ISA Wycheproof's tcId
# 208 (a block and a byte of data and of message) seals and opens, for
# ascon-aead128-x8 in each of its eight messages, and eight messages under
# eight nonces seal as ascon-aead128 seals each alone; a bad tag in one of
# the eight exits 1 with nothing on stdout; bad input (a nonce of the
# other kernel's length, an input that is not eight messages) exits 2 with
# one line.
set -u
. "$(dirname "$0")/cli_lib.sh"

"$bin" list >"$tmp/list"
# ascon-aead128 has generic's one-message code only; the eight-message
# kernel has a row per ISA with lanes.
case $(bin_arch) in
x86_64) x8_isas=(avx512 avx2 generic) ;;
aarch64) x8_isas=(neon generic) ;;
*) x8_isas=(generic) ;;
esac
for k in ascon-aead128 ascon-aead128-x8; do
    isas=(generic)
    [ "$k" = ascon-aead128 ] || isas=("${x8_isas[@]}")
    for isa in "${isas[@]}"; do
        check "list has $k $isa" -- grep -Eq "^$k $isa (supported|unsupported)$" "$tmp/list"
    done
    rows=$(grep -c "^$k " "$tmp/list")
    check "list has ${#isas[@]} $k rows (has $rows)" -- [ "$rows" -eq ${#isas[@]} ]
done

key=000102030405060708090a0b0c0d0e0f
nonce=101112131415161718191a1b1c1d1e1f
ad=303132333435363738393a3b3c3d3e3f40
msg=808182838485868788898a8b8c8d8e8f90
sealed=1fd767bb9d49516513d24f879aa8483be219d9ba6915aa84688884fc9a4aee77ba
times8() { printf "$1%.0s" 1 2 3 4 5 6 7 8; }
# Eight nonces: the vector's with its last byte 0x1f xored with 0..7.
nonces=$(for j in 0 1 2 3 4 5 6 7; do printf '%s%02x' "${nonce%??}" $((0x1f ^ j)); done)

while read -r kernel isa support; do
    case "$kernel" in ascon-aead128 | ascon-aead128-x8) ;; *) continue ;; esac
    if [ "$support" != supported ]; then
        skip "kat $kernel@$isa: unsupported here"
        continue
    fi
    if [ "$kernel" = ascon-aead128 ]; then
        base=("$kernel" --isa="$isa" --key=$key --nonce=$nonce --aad=$ad)
        expect_kat "kat $kernel@$isa tcId 208" $msg $sealed "${base[@]}"
        expect_kat "kat $kernel@$isa tcId 208 --decrypt" $sealed $msg \
            "${base[@]}" --decrypt
        continue
    fi
    base=("$kernel" --isa="$isa" --key=$key --nonce="$(times8 $nonce)" --aad=$ad)
    expect_kat "kat $kernel@$isa tcId 208 in each of eight messages" \
        "$(times8 $msg)" "$(times8 $sealed)" "${base[@]}"
    expect_kat "kat $kernel@$isa tcId 208 --decrypt in each of eight" \
        "$(times8 $sealed)" "$(times8 $msg)" "${base[@]}" --decrypt
    bad=$(times8 $sealed)
    bad=${bad%?}$(printf '%x' $(( (0x${bad: -1} + 1) % 16 )))
    expect_status "kat $kernel@$isa --decrypt with the last message's tag changed exits 1" \
        1 "$bad" "${base[@]}" --decrypt
    want=$(for j in 0 1 2 3 4 5 6 7; do
        kat_hex $msg ascon-aead128 --key=$key --aad=$ad \
            --nonce="${nonces:$((32 * j)):32}"
    done)
    expect_kat "kat $kernel@$isa: eight nonces, each message as ascon-aead128 seals it" \
        "$(times8 $msg)" "$want" ascon-aead128-x8 --isa="$isa" --key=$key \
        --nonce="$nonces" --aad=$ad
done <"$tmp/list"

expect_status "ascon-aead128-x8 with one 16-byte nonce" 2 "$(times8 $msg)" \
    ascon-aead128-x8 --key=$key --nonce=$nonce
expect_status "ascon-aead128 with eight nonces" 2 $msg \
    ascon-aead128 --key=$key --nonce="$nonces"
expect_status "ascon-aead128-x8 on 17 bytes, not eight messages" 2 $msg \
    ascon-aead128-x8 --key=$key --nonce="$nonces"
expect_status "ascon-aead128-x8 --decrypt of eight 15-byte messages" 2 \
    "$(times8 000000000000000000000000000000)" \
    ascon-aead128-x8 --key=$key --nonce="$nonces" --decrypt

finish
