/* aegis_lanes.h's vector primitives on xmm, one lane: AEGIS-128L and
 * AEGIS-256 with one state word per register. The including file defines
 * AEGIS_ISA and V_AESENC(state, round_key), its AES round, first. */
#include <emmintrin.h>

typedef __m128i vec;

#define AEGIS128 aegis128l
#define AEGIS256 aegis256
#define LANES 1
#define V_LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define V_STOREU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)
#define V_XOR(a, b) _mm_xor_si128(a, b)
#define V_XOR3(a, b, c) _mm_xor_si128(_mm_xor_si128(a, b), c)
#define V_XOR_AND(a, b, c) _mm_xor_si128(a, _mm_and_si128(b, c))
#define V_BCAST(p) V_LOADU(p)
#define V_LANE_QWORDS(k) _mm_set_epi64x(0, (k))
#define V_FOLD(v) (v)

#include "aegis_lanes.h"
