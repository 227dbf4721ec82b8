/* Vectors of 128-bit lanes, two per ymm register (AVX2; VPCLMULQDQ and VAES
 * where those primitives are used): the names of lanes_xmm.h. */
#ifndef CYCLEBENCH_LANES_YMM_H
#define CYCLEBENCH_LANES_YMM_H

#include <immintrin.h>

typedef __m256i vec;

#define LANES 2
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define V_STOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define V_ZERO() _mm256_setzero_si256()
#define V_XOR(a, b) _mm256_xor_si256(a, b)
#define V_XOR3(a, b, c) _mm256_xor_si256(_mm256_xor_si256(a, b), c)
#define V_AND(a, b) _mm256_and_si256(a, b)
#define V_ADD8(a, b) _mm256_add_epi8(a, b)
#define V_CLMUL(a, b, imm) _mm256_clmulepi64_epi128(a, b, imm)
#define V_AESENC(s, k) _mm256_aesenc_epi128(s, k)
#define V_AESENCLAST(s, k) _mm256_aesenclast_epi128(s, k)
#define V_AESDEC(s, k) _mm256_aesdec_epi128(s, k)
#define V_AESDECLAST(s, k) _mm256_aesdeclast_epi128(s, k)
#define V_BCAST(b) _mm256_broadcastsi128_si256(b)
#define V_ZEXT(b) _mm256_zextsi128_si256(b)
#define V_LANE(v, i) _mm256_extracti128_si256(v, i)
#define V_FOLD(v)                                                             \
    _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1))
/* With two lanes, a part is one block. */
#define V_LOAD_PART(p, m)                                                     \
    ((void)(m), _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(p))))
#define V_STORE_PART(p, v, m)                                                 \
    ((void)(m), _mm_storeu_si128((__m128i *)(void *)(p), _mm256_castsi256_si128(v)))
#define V_SET4(b0, b1, b2, b3) ((void)(b2), (void)(b3), _mm256_set_m128i(b1, b0))
#define V_GATHER(p, o)                                                        \
    _mm256_loadu2_m128i((const __m128i *)(const void *)((p)[1] + (o)),        \
                        (const __m128i *)(const void *)((p)[0] + (o)))

#endif
