/* NH for SSE2: one unit per xmm register. A unit's words are shuffled once
 * to m0, m2, m1, m3; with a pass's key words (stored in that order) added,
 * each 64-bit lane holds one product's two factors, which pmuludq
 * multiplies after a shift brings the upper one down: (m0+k0)(m2+k2) in
 * lane 0, (m1+k1)(m3+k3) in lane 1. One shuffle per unit, where shuffling
 * the factors apart takes two per pass. Pass p of unit u reads the key
 * that pass p - 1 of unit u + 1 reads, so each unit loads one new key
 * vector. */
#include <emmintrin.h>

#include "nh.h"
#include "nh_xmm.h"

#define NH_MSG_ORDER _MM_SHUFFLE(3, 1, 2, 0) /* m0, m2, m1, m3 */

/* The two products of one pass over one unit, in 64-bit lanes. */
static inline __attribute__((always_inline)) __m128i
nh_products_sse2(__m128i m, __m128i k)
{
    __m128i t = _mm_add_epi32(m, k);
    return _mm_mul_epu32(t, _mm_srli_epi64(t, 32));
}

static inline __attribute__((always_inline)) __m128i
nh_load_sse2(const void *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

void nh_sums_sse2(const uint32_t *key, const uint8_t *msg, size_t len,
                  uint64_t sums[NH_PASSES])
{
    __m128i s0 = _mm_setzero_si128(), s1 = s0, s2 = s0, s3 = s0;
    __m128i k0 = nh_load_sse2(key), k1 = nh_load_sse2(key + 4),
            k2 = nh_load_sse2(key + 8);
    for (; len; len -= NH_UNIT_BYTES, msg += NH_UNIT_BYTES, key += 4) {
        __m128i m = _mm_shuffle_epi32(nh_load_sse2(msg), NH_MSG_ORDER);
        __m128i k3 = nh_load_sse2(key + 12);
        s0 = _mm_add_epi64(s0, nh_products_sse2(m, k0));
        s1 = _mm_add_epi64(s1, nh_products_sse2(m, k1));
        s2 = _mm_add_epi64(s2, nh_products_sse2(m, k2));
        s3 = _mm_add_epi64(s3, nh_products_sse2(m, k3));
        k0 = k1;
        k1 = k2;
        k2 = k3;
    }
    nh_add_sums_xmm(sums, s0, s1, s2, s3);
}
