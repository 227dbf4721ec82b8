/* VAES and VPCLMULQDQ on ymm: two blocks per register, sixteen in flight.
 * The kernels are aes_x86.h's; this file supplies the vector primitives
 * that kernels/simd/lanes_ymm.h does not. */
#include <immintrin.h>

#include "../simd/lanes_ymm.h"

#define AESX_ISA vaes_avx2
#define V_SHUF8(v, m) _mm256_shuffle_epi8(v, m)
#define V_ADD32(a, b) _mm256_add_epi32(a, b)
#define V_ADD64(a, b) _mm256_add_epi64(a, b)
#define V_SLLI64(v, n) _mm256_slli_epi64(v, n)
#define V_SRLI64(v, n) _mm256_srli_epi64(v, n)
#define V_LANE0(v) _mm256_castsi256_si128(v)
#define V_LAST_LANE(v) _mm256_extracti128_si256(v, 1)
/* With two lanes, the only lane asked for is the last. */
#define V_LANE_AT(v, i) ((void)(i), V_LAST_LANE(v))
#define V_SHIFT_IN(b, v)                                                      \
    _mm256_inserti128_si256(_mm256_castsi128_si256(b),                        \
                            _mm256_castsi256_si128(v), 1)
#define V_LANE_QWORDS(k) _mm256_set_epi64x(0, (k) + 1, 0, (k))
#define V_LANE_LAST_BYTES(k)                                                  \
    _mm256_set_epi64x(AESX_TOP_BYTE((k) + 1), 0, AESX_TOP_BYTE(k), 0)

#include "aes_x86.h"
