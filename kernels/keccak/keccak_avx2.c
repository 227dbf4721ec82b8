/* KangarooTwelve's leaves four at a time with AVX2, one state per 64-bit
 * element of a ymm register (keccak_lanes.h has the rounds): a rotation is
 * two shifts and an OR, chi an ANDN and an XOR. The row's one-state
 * permutation is generic's (keccak.c): with sixteen ymm registers and no
 * rotate, one state in vectors does not beat the scalar code. */
#include <immintrin.h>

#include "keccak.h"

#define KL_V __m256i
#define KL_N 4
#define KL_NAME(f) f##_x4_avx2
#define KL_ROL(a, n)                                                         \
    _mm256_or_si256(_mm256_slli_epi64(a, n), _mm256_srli_epi64(a, 64 - (n)))
#define KL_XOR(a, b) _mm256_xor_si256(a, b)
#define KL_XOR3(a, b, c) KL_XOR(KL_XOR(a, b), c)
#define KL_THETA_D(p, q) KL_XOR(p, KL_ROL(q, 1))
/* a ^ d appears twice; the compiler computes it once. */
#define KL_XOR_ROL(a, d, n) KL_ROL(KL_XOR(a, d), n)
#define KL_CHI(a, b, c) KL_XOR(a, _mm256_andnot_si256(b, c))
#define KL_RC(a, rc) KL_XOR(a, _mm256_set1_epi64x((long long)(rc)))
#define KL_GATHER(p, stride)                                                 \
    _mm256_i64gather_epi64((const long long *)(const void *)(p),             \
                           _mm256_setr_epi64x(0, (stride), 2 * (stride),     \
                                              3 * (stride)),                 \
                           1)
#define KL_STORE(u, a) _mm256_storeu_si256((__m256i *)(void *)(u), a)

#include "keccak_lanes.h"

void keccak_kt_leaves_avx2(const uint8_t *in, unsigned security, uint8_t *cv)
{
    keccak_lanes_leaves_x4_avx2(in, security, cv);
}
