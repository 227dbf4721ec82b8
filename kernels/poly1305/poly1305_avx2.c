/* Poly1305, four blocks at a time in the 64-bit lanes of ymm registers
 * (poly1305_vector.h, its loop's multiply in assembly here), with the
 * scalar core for short calls and tails. */
#include <immintrin.h>

#include "poly1305.h"
#include "poly1305_scalar.h"

#define LANES 4
#define VEC __m256i
#define V_ADD _mm256_add_epi64
#define V_MUL _mm256_mul_epu32
#define V_AND _mm256_and_si256
#define V_OR _mm256_or_si256
#define V_SRL _mm256_srli_epi64
#define V_SLL _mm256_slli_epi64
#define V_SET1(x) _mm256_set1_epi64x((long long)(x))
#define V_LOAD(p) _mm256_load_si256((const __m256i *)(p))
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
#define V_UNPACKLO _mm256_unpacklo_epi64
#define V_UNPACKHI _mm256_unpackhi_epi64
#define V_LANE0(x) _mm256_set_epi64x(0, 0, 0, (long long)(x))
#define V_HSUM hsum_avx2
#define V_ZEROUPPER _mm256_zeroupper

POLY1305_INLINE uint64_t hsum_avx2(__m256i v)
{
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v),
                              _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi64(s, _mm_unpackhi_epi64(s, s));
    return (uint64_t)_mm_cvtsi128_si64(s);
}

/* The loop's multiply, as vector_mul computes it, in assembly: GCC
 * hoists the rows into registers, spills, and orders the products badly,
 * which measured slower. Here each product
 * reads its row from memory, limb of h by limb of h, so that only h, the
 * five sums and one product are live. Row k of r is rows[k], 5 r[k] is
 * rows[4 + k]. */
static inline __attribute__((always_inline)) void
mul_loop_avx2(__m256i h[5], const uint64_t (*rows)[POLY1305_MAX_LANES])
{
    __m256i d0, d1, d2, d3, d4, t;
#define MUL(row, hh, d)                                                       \
    "vpmuludq " #row "*64(%[r]), %[" #hh "], %[" #d "]\n\t"
#define MAC(row, hh, d)                                                       \
    "vpmuludq " #row "*64(%[r]), %[" #hh "], %[t]\n\t"                        \
    "vpaddq %[t], %[" #d "], %[" #d "]\n\t"
    __asm__(MUL(0, h0, d0) MUL(1, h0, d1) MUL(2, h0, d2) MUL(3, h0, d3)
            MUL(4, h0, d4)
            MAC(8, h1, d0) MAC(0, h1, d1) MAC(1, h1, d2) MAC(2, h1, d3)
            MAC(3, h1, d4)
            MAC(7, h2, d0) MAC(8, h2, d1) MAC(0, h2, d2) MAC(1, h2, d3)
            MAC(2, h2, d4)
            MAC(6, h3, d0) MAC(7, h3, d1) MAC(8, h3, d2) MAC(0, h3, d3)
            MAC(1, h3, d4)
            MAC(5, h4, d0) MAC(6, h4, d1) MAC(7, h4, d2) MAC(8, h4, d3)
            MAC(0, h4, d4)
            : [d0] "=&x"(d0), [d1] "=&x"(d1), [d2] "=&x"(d2), [d3] "=&x"(d3),
              [d4] "=&x"(d4), [t] "=&x"(t)
            : [h0] "x"(h[0]), [h1] "x"(h[1]), [h2] "x"(h[2]), [h3] "x"(h[3]),
              [h4] "x"(h[4]), [r] "r"(rows),
              "m"(*(const uint64_t(*)[9][POLY1305_MAX_LANES])rows));
#undef MUL
#undef MAC
    h[0] = d0;
    h[1] = d1;
    h[2] = d2;
    h[3] = d3;
    h[4] = d4;
}
#define VECTOR_MUL_LOOP mul_loop_avx2

#define POLY1305_ISA avx2
#include "poly1305_vector.h"
