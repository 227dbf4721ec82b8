/* NH for AVX2: nh_sse2.c's lane layout, two units per ymm register (the
 * low half unit u, the high half unit u + 1), so pass p reads the key's
 * eight words from 4p on. Pass p of units u, u + 1 reads what pass p - 2
 * of units u + 2, u + 3 reads: two new key vectors per pair of units. A
 * last odd unit goes through the same code with masked loads, which leave
 * the high half zero, and so its products too: no narrower code and no
 * read past the message or the key. */
#include <immintrin.h>

#include "nh.h"
#include "nh_xmm.h"

#define NH_MSG_ORDER _MM_SHUFFLE(3, 1, 2, 0) /* m0, m2, m1, m3 */
#define NH_PAIR_BYTES (2 * NH_UNIT_BYTES)

typedef struct nh_acc_avx2 {
    __m256i s[NH_PASSES];
} nh_acc_avx2;

static inline __attribute__((always_inline)) __m256i
nh_products_avx2(__m256i m, __m256i k)
{
    __m256i t = _mm256_add_epi32(m, k);
    return _mm256_mul_epu32(t, _mm256_srli_epi64(t, 32));
}

/* m: two units' words in pairing order; k[p]: pass p's key for them. */
static inline __attribute__((always_inline)) void
nh_pair_avx2(nh_acc_avx2 *acc, __m256i m, const __m256i k[NH_PASSES])
{
    for (int p = 0; p < NH_PASSES; p++)
        acc->s[p] = _mm256_add_epi64(acc->s[p], nh_products_avx2(m, k[p]));
}

static inline __attribute__((always_inline)) __m256i
nh_load_avx2(const void *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

static inline __attribute__((always_inline)) __m128i
nh_fold_avx2(__m256i s)
{
    return _mm_add_epi64(_mm256_castsi256_si128(s),
                         _mm256_extracti128_si256(s, 1));
}

void nh_sums_avx2(const uint32_t *key, const uint8_t *msg, size_t len,
                  uint64_t sums[NH_PASSES])
{
    nh_acc_avx2 acc = { { _mm256_setzero_si256(), _mm256_setzero_si256(),
                          _mm256_setzero_si256(), _mm256_setzero_si256() } };
    __m256i k[NH_PASSES];
    k[0] = nh_load_avx2(key);
    k[1] = nh_load_avx2(key + 4);
    for (; len >= NH_PAIR_BYTES;
         len -= NH_PAIR_BYTES, msg += NH_PAIR_BYTES, key += 8) {
        k[2] = nh_load_avx2(key + 8);
        k[3] = nh_load_avx2(key + 12);
        nh_pair_avx2(&acc, _mm256_shuffle_epi32(nh_load_avx2(msg),
                                                NH_MSG_ORDER), k);
        k[0] = k[2];
        k[1] = k[3];
    }
    if (len) {
        const __m256i low = _mm256_setr_epi32(-1, -1, -1, -1, 0, 0, 0, 0);
        __m256i m = _mm256_maskload_epi32((const int *)msg, low);
        for (int p = 0; p < NH_PASSES; p++)
            k[p] = _mm256_maskload_epi32((const int *)(key + 4 * p), low);
        nh_pair_avx2(&acc, _mm256_shuffle_epi32(m, NH_MSG_ORDER), k);
    }
    nh_add_sums_xmm(sums, nh_fold_avx2(acc.s[0]), nh_fold_avx2(acc.s[1]),
                    nh_fold_avx2(acc.s[2]), nh_fold_avx2(acc.s[3]));
}
