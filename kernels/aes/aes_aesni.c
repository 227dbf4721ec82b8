/* AES-NI and PCLMULQDQ on xmm: one block per register, eight in flight.
 * The kernels are aes_x86.h's; this file supplies the vector primitives
 * that kernels/simd/lanes_xmm.h does not. */
#include <immintrin.h>

#include "../simd/lanes_xmm.h"

#define AESX_ISA aesni
#define V_SHUF8(v, m) _mm_shuffle_epi8(v, m)
#define V_ADD32(a, b) _mm_add_epi32(a, b)
#define V_ADD64(a, b) _mm_add_epi64(a, b)
#define V_SLLI64(v, n) _mm_slli_epi64(v, n)
#define V_SRLI64(v, n) _mm_srli_epi64(v, n)
#define V_LANE0(v) (v)
#define V_LAST_LANE(v) (v)
/* Never called with one lane (see V_LOAD_PART). */
#define V_LANE_AT(v, i) ((void)(i), (v))
#define V_SHIFT_IN(b, v) ((void)(v), (b))
#define V_LANE_QWORDS(k) _mm_set_epi64x(0, (k))
#define V_LANE_LAST_BYTES(k) _mm_set_epi64x(AESX_TOP_BYTE(k), 0)

#include "aes_x86.h"
