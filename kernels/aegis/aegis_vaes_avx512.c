/* AEGIS-128X4 and AEGIS-256X4 on zmm with VAES: one state word of all four
 * lanes per register, the AES round of all four one vaesenc, and the
 * keystream's xors and and in two vpternlogq. The state machine is
 * aegis_lanes.h's; this file supplies its vector primitives. */
#include <immintrin.h>

typedef __m512i vec;

/* Xor of the four lanes. */
static inline __attribute__((always_inline)) __m128i
fold_aegis_vaes_avx512(__m512i v)
{
    __m256i x = _mm256_xor_si256(_mm512_castsi512_si256(v),
                                 _mm512_extracti64x4_epi64(v, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(x),
                         _mm256_extracti128_si256(x, 1));
}

#define AEGIS_ISA vaes_avx512
#define AEGIS128 aegis128x4
#define AEGIS256 aegis256x4
#define LANES 4
#define V_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define V_STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define V_XOR(a, b) _mm512_xor_si512(a, b)
#define V_XOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
/* 0x78: a ^ (b & c), with a, b, c the bits 0xf0, 0xcc, 0xaa. */
#define V_XOR_AND(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x78)
#define V_AESENC(s, k) _mm512_aesenc_epi128(s, k)
#define V_BCAST(p)                                                            \
    _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define V_LANE_QWORDS(k)                                                      \
    _mm512_set_epi64(0, (k) + 3, 0, (k) + 2, 0, (k) + 1, 0, (k))
#define V_FOLD(v) fold_aegis_vaes_avx512(v)

#include "aegis_lanes.h"
