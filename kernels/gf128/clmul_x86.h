/* GF(2^128) products with PCLMULQDQ on xmm, for files compiled with
 * -mpclmul: the Montgomery reduction that GHASH (kernels/aes/aes_x86.h, on
 * byte-reversed blocks with its key powers times x^-1) and POLYVAL
 * (kernels/polyval, on plain little-endian blocks) both use, and one whole
 * product. Force-inlined, so a profile names the caller.
 *
 * For a 255-bit carry-less product z, reduce returns z * x^-128 modulo
 * x^128 + x^127 + x^126 + x^121 + 1, POLYVAL's dot product: 64 bits at a
 * time, the lowest quadword q is cancelled by adding q times the
 * polynomial, which is q * (x^63 + x^62 + x^57) (a multiply by 0xc2 << 56)
 * one quadword up and q itself two quadwords up. */
#ifndef CYCLEBENCH_CLMUL_X86_H
#define CYCLEBENCH_CLMUL_X86_H

#include <immintrin.h>

#define GF128_INLINE static inline __attribute__((always_inline))

/* The reduction constant's quadword, 0xc2 << 56: x^63 + x^62 + x^57. */
#define GF128_POLY_QWORD ((long long)0xc200000000000000ull)

/* The reduction's steps on lo, mid and hi (each a 128-bit lane, or a
 * vector of them), with the operations of their width: XOR, byte shifts
 * per lane, the carry-less product, the swap of a lane's quadwords, and
 * poly, GF128_POLY_QWORD in every lane's low quadword. An expression
 * giving z = hi * x^128 + mid * x^64 + lo (the outer products and the sum
 * of the two middle ones) times x^-128, reduced; assigns lo and hi. */
#define GF128_REDUCE_WITH(lo, mid, hi, poly, XOR, BSLLI, BSRLI, CLMUL, SWAP) \
    ((lo) = XOR(lo, BSLLI(mid, 8)), (hi) = XOR(hi, BSRLI(mid, 8)),           \
     (lo) = XOR(SWAP(lo), CLMUL(lo, poly, 0x00)),                            \
     (lo) = XOR(SWAP(lo), CLMUL(lo, poly, 0x00)), XOR(hi, lo))

#define GF128_SWAP64(v) _mm_shuffle_epi32(v, 0x4e)

GF128_INLINE __m128i gf128_reduce(__m128i lo, __m128i mid, __m128i hi)
{
    const __m128i poly = _mm_set_epi64x(0, GF128_POLY_QWORD);
    return GF128_REDUCE_WITH(lo, mid, hi, poly, _mm_xor_si128, _mm_slli_si128,
                             _mm_srli_si128, _mm_clmulepi64_si128,
                             GF128_SWAP64);
}

/* (lo, mid, hi) += a * b, unreduced: a sum of products is reduced once. */
GF128_INLINE void gf128_mul_add(__m128i *lo, __m128i *mid, __m128i *hi,
                                __m128i a, __m128i b)
{
    *lo = _mm_xor_si128(*lo, _mm_clmulepi64_si128(a, b, 0x00));
    *hi = _mm_xor_si128(*hi, _mm_clmulepi64_si128(a, b, 0x11));
    *mid = _mm_xor_si128(*mid, _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01),
                                             _mm_clmulepi64_si128(a, b, 0x10)));
}

/* a * b * x^-128: POLYVAL's dot(a, b). */
GF128_INLINE __m128i gf128_mul(__m128i a, __m128i b)
{
    __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
    gf128_mul_add(&lo, &mid, &hi, a, b);
    return gf128_reduce(lo, mid, hi);
}

#endif
