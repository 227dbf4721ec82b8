#!/usr/bin/env bash
# poly1305_avx512.c's logic on any CPU: compiled against plain-C stand-ins
# for the AVX-512 intrinsics it uses (tests/c/emulated/immintrin.h) and
# checked against the generic variant. No CPU here may have AVX-512, so this
# is the only run its code gets before it meets one.
set -u
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cflags="-std=c11 -O2 -Wall -Wextra -Werror -Wno-psabi -D_GNU_SOURCE"
if gcc $cflags -c kernels/poly1305/poly1305.c -o "$tmp/poly1305.o" &&
   gcc $cflags -c kernels/poly1305/poly1305_generic.c -o "$tmp/generic.o" &&
   gcc $cflags -mavx2 -c kernels/poly1305/poly1305_avx2.c -o "$tmp/avx2.o" &&
   gcc $cflags -mavx512f -mavx512vl -mavx512bw -mavx512ifma \
       -c kernels/poly1305/poly1305_avx512ifma.c -o "$tmp/avx512ifma.o" &&
   gcc $cflags -Itests/c/emulated -c kernels/poly1305/poly1305_avx512.c -o "$tmp/avx512.o" &&
   gcc $cflags tests/c/emulated/poly1305_avx512_check.c "$tmp"/*.o -o "$tmp/check"; then
    "$tmp/check"
else
    echo "FAIL poly1305_avx512.c does not build against tests/c/emulated/immintrin.h"
    echo "# counts: 0 1 0"
    exit 1
fi
