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

/* z = hi * x^128 + mid * x^64 + lo: the outer products and the sum of the
 * two middle ones. */
GF128_INLINE __m128i gf128_reduce(__m128i lo, __m128i mid, __m128i hi)
{
    const __m128i poly = _mm_set_epi64x(0, (long long)0xc200000000000000ull);
    lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
    hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
    __m128i t = _mm_clmulepi64_si128(lo, poly, 0x00);
    lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), t);
    t = _mm_clmulepi64_si128(lo, poly, 0x00);
    lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), t);
    return _mm_xor_si128(hi, lo);
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
