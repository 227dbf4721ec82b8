/* VAES and VPCLMULQDQ on zmm: four blocks per register, thirty-two in
 * flight. The kernels are aes_x86.h's, the same source as vaes-avx2's;
 * this file supplies the vector primitives that kernels/simd/lanes_zmm.h
 * does not. Where AVX-512 is missing the tests run this file on stand-in
 * intrinsics (tests/c/emulated/). */
#include <immintrin.h>
#include <stdint.h>

#include "../simd/lanes_zmm.h"

/* Lane i of v, i a variable: one vpermq. */
static inline __attribute__((always_inline)) __m128i
lane_at_vaes_avx512(__m512i v, int i)
{
    __m512i idx = _mm512_add_epi64(_mm512_set1_epi64(2 * i),
                                   _mm512_setr_epi64(0, 1, 0, 0, 0, 0, 0, 0));
    return _mm512_castsi512_si128(_mm512_permutexvar_epi64(idx, v));
}

#define AESX_ISA vaes_avx512
#define V_SHUF8(v, m) _mm512_shuffle_epi8(v, m)
#define V_ADD32(a, b) _mm512_add_epi32(a, b)
#define V_ADD64(a, b) _mm512_add_epi64(a, b)
#define V_SLLI64(v, n) _mm512_slli_epi64(v, n)
#define V_SRLI64(v, n) _mm512_srli_epi64(v, n)
#define V_LANE0(v) _mm512_castsi512_si128(v)
#define V_LAST_LANE(v) _mm512_extracti32x4_epi32(v, 3)
#define V_LANE_AT(v, i) lane_at_vaes_avx512(v, i)
/* valignq takes lanes 1-3 from v's lanes 0-2 and lane 0 from the second
 * operand's lane 3. */
#define V_SHIFT_IN(b, v) _mm512_alignr_epi64(v, _mm512_broadcast_i32x4(b), 6)
#define V_LANE_QWORDS(k)                                                      \
    _mm512_set_epi64(0, (k) + 3, 0, (k) + 2, 0, (k) + 1, 0, (k))
#define V_LANE_LAST_BYTES(k)                                                  \
    _mm512_set_epi64(AESX_TOP_BYTE((k) + 3), 0, AESX_TOP_BYTE((k) + 2), 0,    \
                     AESX_TOP_BYTE((k) + 1), 0, AESX_TOP_BYTE(k), 0)

#include "aes_x86.h"
