/* Keccak-p[1600] with AVX-512: every three-input XOR and chi's
 * a ^ (~b & c) one vpternlogq, every rotation one vprolq
 * (keccak_lanes.h has the rounds). One state keeps each lane in the low
 * half of its own xmm register: AVX-512 has 32 of them, enough for the
 * state and theta's parities, where the scalar code spills. KangarooTwelve's
 * leaves run eight at a time, one state per 64-bit element of a zmm. */
#include <immintrin.h>

#include "keccak.h"

#define KL_V __m128i
#define KL_N 1
#define KL_NAME(f) f##_x1_avx512
#define KL_XOR3(a, b, c) _mm_ternarylogic_epi64(a, b, c, 0x96)
#define KL_THETA_D(p, q) _mm_xor_si128(p, _mm_rol_epi64(q, 1))
#define KL_XOR_ROL(a, d, n) _mm_rol_epi64(_mm_xor_si128(a, d), n)
#define KL_XOR(a, b) _mm_xor_si128(a, b)
#define KL_CHI(a, b, c) _mm_ternarylogic_epi64(a, b, c, 0xd2)
#define KL_RC(a, rc) _mm_xor_si128(a, _mm_set1_epi64x((long long)(rc)))
#include "keccak_lanes.h"
#undef KL_V
#undef KL_N
#undef KL_NAME
#undef KL_XOR3
#undef KL_THETA_D
#undef KL_XOR_ROL
#undef KL_XOR
#undef KL_CHI
#undef KL_RC

void keccak_permute_avx512(uint64_t state[KECCAK_LANES], unsigned rounds)
{
    __m128i a[KECCAK_LANES];
    for (unsigned i = 0; i < KECCAK_LANES; i++)
        a[i] = _mm_cvtsi64_si128((long long)state[i]);
    keccak_lanes_rounds_x1_avx512(a, rounds);
    for (unsigned i = 0; i < KECCAK_LANES; i++)
        state[i] = (uint64_t)_mm_cvtsi128_si64(a[i]);
}

#define KL_V __m512i
#define KL_N 8
#define KL_NAME(f) f##_x8_avx512
#define KL_XOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#define KL_THETA_D(p, q) _mm512_xor_si512(p, _mm512_rol_epi64(q, 1))
#define KL_XOR_ROL(a, d, n) _mm512_rol_epi64(_mm512_xor_si512(a, d), n)
#define KL_XOR(a, b) _mm512_xor_si512(a, b)
#define KL_CHI(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0xd2)
#define KL_RC(a, rc) _mm512_xor_si512(a, _mm512_set1_epi64((long long)(rc)))
#define KL_GATHER(p, stride)                                                 \
    _mm512_i64gather_epi64(_mm512_setr_epi64(0, (stride), 2 * (stride),      \
                                             3 * (stride), 4 * (stride),     \
                                             5 * (stride), 6 * (stride),     \
                                             7 * (stride)),                  \
                           (const void *)(p), 1)
#define KL_STORE(u, a) _mm512_storeu_si512((void *)(u), a)
#include "keccak_lanes.h"

void keccak_kt_leaves_avx512(const uint8_t *in, unsigned security,
                             uint8_t *cv)
{
    keccak_lanes_leaves_x8_avx512(in, security, cv);
}
