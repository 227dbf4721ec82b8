/* AEGIS-128X2 and AEGIS-256X2 on ymm with VAES: one state word of both
 * lanes per register, the AES round of both one vaesenc. The state machine
 * is aegis_lanes.h's; this file supplies its vector primitives. */
#include <immintrin.h>

typedef __m256i vec;

#define AEGIS_ISA vaes_avx2
#define AEGIS128 aegis128x2
#define AEGIS256 aegis256x2
#define LANES 2
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define V_STOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define V_XOR(a, b) _mm256_xor_si256(a, b)
#define V_XOR3(a, b, c) _mm256_xor_si256(_mm256_xor_si256(a, b), c)
#define V_XOR_AND(a, b, c) _mm256_xor_si256(a, _mm256_and_si256(b, c))
#define V_AESENC(s, k) _mm256_aesenc_epi128(s, k)
#define V_BCAST(p)                                                            \
    _mm256_broadcastsi128_si256(                                              \
        _mm_loadu_si128((const __m128i *)(const void *)(p)))
#define V_LANE_QWORDS(k) _mm256_set_epi64x(0, (k) + 1, 0, (k))
#define V_FOLD(v)                                                             \
    _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1))

#include "aegis_lanes.h"
