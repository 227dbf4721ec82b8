/* NH for AVX-512: nh_sse2.c's lane layout, four units per zmm register,
 * so pass p reads the key's sixteen words from 4p on (a new load for every
 * pass: a zmm moves on by four units, past all of them). A last one to
 * three units go through the same code with zero-masked loads: the lanes
 * past the message stay zero, and so do their products. No narrower code,
 * and no read past the message or the key. */
#include <immintrin.h>

#include "nh.h"
#include "nh_xmm.h"

#define NH_MSG_ORDER _MM_SHUFFLE(3, 1, 2, 0) /* m0, m2, m1, m3 */
#define NH_QUAD_UNITS 4
#define NH_QUAD_BYTES (NH_QUAD_UNITS * NH_UNIT_BYTES)

typedef struct nh_acc_avx512 {
    __m512i s[NH_PASSES];
} nh_acc_avx512;

/* Four units at msg against the key from key on; the 32-bit lanes outside
 * keep (four per unit) load as zero. */
static inline __attribute__((always_inline)) void
nh_quad_avx512(nh_acc_avx512 *acc, const uint32_t *key, const uint8_t *msg,
               __mmask16 keep)
{
    __m512i m = _mm512_shuffle_epi32(_mm512_maskz_loadu_epi32(keep, msg),
                                     NH_MSG_ORDER);
    for (int p = 0; p < NH_PASSES; p++) {
        __m512i t = _mm512_add_epi32(
            m, _mm512_maskz_loadu_epi32(keep, key + 4 * p));
        acc->s[p] = _mm512_add_epi64(
            acc->s[p], _mm512_mul_epu32(t, _mm512_srli_epi64(t, 32)));
    }
}

/* The four 128-bit quarters added: _mm512_reduce_add_epi64 adds signed
 * 64-bit integers in C, whose overflow is undefined (and which a mod 2^64
 * sum overflows). */
static inline __attribute__((always_inline)) __m128i
nh_fold_avx512(__m512i s)
{
    return _mm_add_epi64(
        _mm_add_epi64(_mm512_castsi512_si128(s),
                      _mm512_extracti32x4_epi32(s, 1)),
        _mm_add_epi64(_mm512_extracti32x4_epi32(s, 2),
                      _mm512_extracti32x4_epi32(s, 3)));
}

void nh_sums_avx512(const uint32_t *key, const uint8_t *msg, size_t len,
                    uint64_t sums[NH_PASSES])
{
    nh_acc_avx512 acc = { { _mm512_setzero_si512(), _mm512_setzero_si512(),
                            _mm512_setzero_si512(), _mm512_setzero_si512() } };
    for (; len >= NH_QUAD_BYTES; len -= NH_QUAD_BYTES, msg += NH_QUAD_BYTES,
                                 key += 4 * NH_QUAD_UNITS)
        nh_quad_avx512(&acc, key, msg, 0xffff);
    if (len)
        nh_quad_avx512(&acc, key, msg,
                       (__mmask16)((1u << (len / NH_UNIT_BYTES * 4)) - 1));
    nh_add_sums_xmm(sums, nh_fold_avx512(acc.s[0]), nh_fold_avx512(acc.s[1]),
                    nh_fold_avx512(acc.s[2]), nh_fold_avx512(acc.s[3]));
}
