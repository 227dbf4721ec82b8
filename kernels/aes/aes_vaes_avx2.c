/* VAES and VPCLMULQDQ on ymm: two blocks per register, sixteen in flight.
 * The kernels are aes_x86.h's; this file supplies its vector primitives. */
#include <immintrin.h>

typedef __m256i vec;

#define AESX_ISA vaes_avx2
#define LANES 2
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define V_STOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define V_ZERO() _mm256_setzero_si256()
#define V_XOR(a, b) _mm256_xor_si256(a, b)
#define V_XOR3(a, b, c) _mm256_xor_si256(_mm256_xor_si256(a, b), c)
#define V_AESENC(s, k) _mm256_aesenc_epi128(s, k)
#define V_AESENCLAST(s, k) _mm256_aesenclast_epi128(s, k)
#define V_AESDEC(s, k) _mm256_aesdec_epi128(s, k)
#define V_AESDECLAST(s, k) _mm256_aesdeclast_epi128(s, k)
#define V_CLMUL(a, b, imm) _mm256_clmulepi64_epi128(a, b, imm)
#define V_SHUF8(v, m) _mm256_shuffle_epi8(v, m)
#define V_ADD32(a, b) _mm256_add_epi32(a, b)
#define V_ADD64(a, b) _mm256_add_epi64(a, b)
#define V_SLLI64(v, n) _mm256_slli_epi64(v, n)
#define V_SRLI64(v, n) _mm256_srli_epi64(v, n)
#define V_BSLLI(v, n) _mm256_bslli_epi128(v, n)
#define V_BSRLI(v, n) _mm256_bsrli_epi128(v, n)
#define V_SWAP64(v) _mm256_shuffle_epi32(v, 0x4e)
#define V_BCAST(b) _mm256_broadcastsi128_si256(b)
#define V_ZEXT(b) _mm256_zextsi128_si256(b)
#define V_LANE0(v) _mm256_castsi256_si128(v)
#define V_LAST_LANE(v) _mm256_extracti128_si256(v, 1)
/* With two lanes, the only lane asked for is the last. */
#define V_LANE_AT(v, i) ((void)(i), V_LAST_LANE(v))
#define V_SHIFT_IN(b, v)                                                      \
    _mm256_inserti128_si256(_mm256_castsi128_si256(b),                        \
                            _mm256_castsi256_si128(v), 1)
#define V_FOLD(v)                                                             \
    _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1))
#define V_LANE_QWORDS(k) _mm256_set_epi64x(0, (k) + 1, 0, (k))
/* With two lanes, a part is one block. */
#define V_LOAD_PART(p, m)                                                     \
    ((void)(m), _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(p))))
#define V_STORE_PART(p, v, m)                                                 \
    ((void)(m), _mm_storeu_si128((__m128i *)(void *)(p), _mm256_castsi256_si128(v)))
#define V_SET4(b0, b1, b2, b3) ((void)(b2), (void)(b3), _mm256_set_m128i(b1, b0))

#include "aes_x86.h"
