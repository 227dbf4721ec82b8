#!/usr/bin/env bash
# The AEGIS kernels on the command line: `list` shows the six at their
# ISAs; on every supported ISA a vector of the draft's appendix A with
# either tag, opened back with --decrypt; a bad tag or changed AAD exits 1
# with nothing on stdout; bad input (key, nonce, --tag-len, a --decrypt
# input shorter than the tag) exits 2 with one line and nothing on stdout.
set -u
. "$(dirname "$0")/cli_lib.sh"

"$bin" list >"$tmp/list"
case $(bin_arch) in
x86_64) want_rows=("aegis128l aesni" "aegis128l ssse3" "aegis256 aesni" "aegis256 ssse3"
                   "aegis128x2 vaes-avx2" "aegis128x4 vaes-avx512"
                   "aegis256x2 vaes-avx2" "aegis256x4 vaes-avx512") ;;
aarch64) want_rows=("aegis128l ce" "aegis256 ce" "aegis128l neon" "aegis256 neon") ;;
*) want_rows=() ;;
esac
for k in aegis128l aegis256 aegis128x2 aegis128x4 aegis256x2 aegis256x4; do
    want_rows+=("$k generic")
done
for row in "${want_rows[@]}"; do
    grep -Eq "^$row (supported|unsupported)$" "$tmp/list" && ok "list has $row" ||
        fail "list lacks '$row'"
done
rows=$(grep -c '^aegis' "$tmp/list")
[ "$rows" -eq ${#want_rows[@]} ] && ok "list has ${#want_rows[@]} AEGIS rows" ||
    fail "list has $rows AEGIS rows, not ${#want_rows[@]}"

# The draft's appendix A: A.2.5 and A.3.5 (a partial block), and the X
# forms' test vector 2 (120 bytes, 04 05 06 07 thirty times).
k128=10010000000000000000000000000000
n128=10000200000000000000000000000000
k256=${k128}00000000000000000000000000000000
n256=${n128}00000000000000000000000000000000
ad=0001020304050607
msg14=000102030405060708090a0b0c0d
xk=000102030405060708090a0b0c0d0e0f
xn=101112131415161718191a1b1c1d1e1f
xk256=$xk$xn
xn256=${xn}202122232425262728292a2b2c2d2e2f
xad=0102030401020304
xmsg=$(for _ in $(seq 30); do printf 04050607; done)

# vector <kernel>: key nonce ad msg ct tag128 tag256
vector() {
    case $1 in
    aegis128l) echo $k128 $n128 $ad $msg14 79d94593d8c2119d7e8fd9b8fc77 \
        5c04b3dba849b2701effbe32c7f0fab7 \
        86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac ;;
    aegis256) echo $k256 $n256 $ad $msg14 f373079ed84b2709faee37358458 \
        c60b9c2d33ceb058f96e6dd03c215652 \
        8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9 ;;
    aegis128x2) echo $xk $xn $xad $xmsg \
        5795544301997f93621b278809d6331b3bfa6f18e90db12c4aa35965b5e98c5fc6fb4e54bcb6111842c20637252eff747cb3a8f85b37de80919a589fe0f24872bc926360696739e05520647e390989e1eb5fd42f99678a0276a498f8c454761c9d6aacb647ad56be62b29c22cd4b5761b38f43d5a5ee062f \
        1aebc200804f405cab637f2adebb6d77 \
        c471876f9b4978c44f2ae1ce770cdb11a094ee3feca64e7afcd48bfe52c60eca ;;
    aegis128x4) echo $xk $xn $xad $xmsg \
        e836118562f4479c9d35c17356a833114c21f9aa39e4dda5e5c87f4152a00fce9a7c38f832eafe8b1c12f8a7cf12a81a1ad8a9c24ba9dedfbdaa586ffea67ddc801ea97d9ab4a872f42d0e352e2713dacd609f9442c17517c5a29daf3e2a3fac4ff6b1380c4e46df7b086af6ce6bc1ed594b8dd64aed2a7e \
        0e56ab94e2e85db80f9d54010caabfb4 \
        69abf0f64a137dd6e122478d777e98bc422823006cf57f5ee822dd78397230b2 ;;
    aegis256x2) echo $xk256 $xn256 $xad $xmsg \
        72120c2ea8236180d67859001f4729077b7064c414384fe3a7b52f1571f4f8a7d0f01e18db4f3bc0adb150702e5d147a8d36522132761b994c1bd395589e2ccf0790dfe2a3d12d61cd666b2859827739db4037dd3124c78424459376f6cac08e1a7223a2a43e398ce6385cd654a19f481cba3b8f25910b42 \
        635d391828520bf1512763f0c8f5cdbd \
        b5668d3317159e9cc5d46e4803c3a76ad63bb42b3f47956d94f30db8cb366ad7 ;;
    aegis256x4) echo $xk256 $xn256 $xad $xmsg \
        bfc2085b7e8017da99b0b6d646ae4d01f4ba8f2e7dfca1d759ae48a135139b9aaac6b4f5db810d426be1fdaff4e1454153a34b11da78ed7e418ee2ee9853042e95536aecbb694cea1b16a478eb0d4d1bf6509b1ce652a45af58e0e46ffccfa2d0426e702391d2ff5813808b81748a490dd656465fed61f09 \
        b63b611b13975e2f3dc3cb6c2397bfcd \
        7847eace74409ee56c8f4cf63a9c2841ce7c8bd567d7c0ca514c879a190b978c ;;
    esac
}

while read -r kernel isa support; do
    case "$kernel" in aegis*) ;; *) continue ;; esac
    if [ "$support" != supported ]; then
        skip "kat $kernel@$isa: unsupported here"
        continue
    fi
    read -r key nonce aad msg ct tag16 tag32 <<<"$(vector "$kernel")"
    base=("$kernel" --isa="$isa" --key="$key" --nonce="$nonce" --aad="$aad")
    expect_kat "kat $kernel@$isa draft vector, 16-byte tag" "$msg" "$ct$tag16" "${base[@]}"
    expect_kat "kat $kernel@$isa draft vector, --tag-len=32" "$msg" "$ct$tag32" \
        "${base[@]}" --tag-len=32
    expect_kat "kat $kernel@$isa --decrypt" "$ct$tag16" "$msg" "${base[@]}" --decrypt
    expect_kat "kat $kernel@$isa --decrypt --tag-len=32" "$ct$tag32" "$msg" \
        "${base[@]}" --decrypt --tag-len=32
    bad=${tag32%?}$(printf '%x' $(( (0x${tag32: -1} + 1) % 16 )))
    expect_status "kat $kernel@$isa --decrypt of a changed tag exits 1" 1 "$ct$bad" \
        "${base[@]}" --decrypt --tag-len=32
    expect_status "kat $kernel@$isa --decrypt with changed AAD exits 1" 1 "$ct$tag16" \
        "$kernel" --isa="$isa" --key="$key" --nonce="$nonce" --aad="${aad%?}0" --decrypt
done <"$tmp/list"

# An empty message seals to its tag alone, which opens to nothing.
for tag_len in 16 32; do
    sealed=$(kat_hex '' aegis128l --key=$k128 --nonce=$n128 --tag-len=$tag_len)
    status=$?
    check "empty message seals to a $tag_len-byte tag (status $status): '$sealed'" -- \
        [ $status -eq 0 -a ${#sealed} -eq $((2 * tag_len)) ]
    expect_kat "a bare $tag_len-byte tag opens to nothing" "$sealed" '' \
        aegis128l --key=$k128 --nonce=$n128 --tag-len=$tag_len --decrypt
done

expect_status "aegis128l 32-byte key" 2 00 aegis128l --key=$k256 --nonce=$n128
expect_status "aegis256 16-byte key" 2 00 aegis256 --key=$k128 --nonce=$n256
expect_status "aegis128x4 12-byte nonce" 2 00 aegis128x4 --key=$k128 --nonce=000000000000000000000000
expect_status "aegis256x2 16-byte nonce" 2 00 aegis256x2 --key=$k256 --nonce=$n128
expect_status "aegis128l without --nonce" 2 00 aegis128l --key=$k128
expect_status "aegis128l --tag-len=24" 2 00 aegis128l --key=$k128 --nonce=$n128 --tag-len=24
expect_status "aegis128l --tag-len=128 (bits, not bytes)" 2 00 aegis128l --key=$k128 --nonce=$n128 --tag-len=128
expect_status "aegis256 --tag-len=0" 2 00 aegis256 --key=$k256 --nonce=$n256 --tag-len=0
expect_status "aegis128x2 --tag-len=sixteen" 2 00 aegis128x2 --key=$k128 --nonce=$n128 --tag-len=sixteen
expect_status "aegis128l --decrypt of 15 bytes" 2 000000000000000000000000000000 \
    aegis128l --key=$k128 --nonce=$n128 --decrypt
expect_status "aegis256x4 --decrypt of 31 bytes with --tag-len=32" 2 \
    00000000000000000000000000000000000000000000000000000000000000 \
    aegis256x4 --key=$k256 --nonce=$n256 --decrypt --tag-len=32
expect_status "aegis128l takes no --iv" 2 00 aegis128l --key=$k128 --nonce=$n128 --iv=$n128

finish
