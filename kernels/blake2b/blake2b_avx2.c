/* BLAKE2b for AVX2: the row layout of blake2b_ymm.h, with rotations by
 * whole bytes as shuffles and ror63 as shift, add and xor. */
#include <immintrin.h>

#include "blake2b.h"

#define BLAKE2B_ISA(name) name##_avx2
#define BLAKE2B_INLINE static inline __attribute__((always_inline))

BLAKE2B_INLINE __m256i blake2b_ror32_avx2(__m256i x)
{
    return _mm256_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1));
}

BLAKE2B_INLINE __m256i blake2b_ror24_avx2(__m256i x)
{
    const __m256i r24 = _mm256_setr_epi8(
        3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10,
        3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10);
    return _mm256_shuffle_epi8(x, r24);
}

BLAKE2B_INLINE __m256i blake2b_ror16_avx2(__m256i x)
{
    const __m256i r16 = _mm256_setr_epi8(
        2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9,
        2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9);
    return _mm256_shuffle_epi8(x, r16);
}

BLAKE2B_INLINE __m256i blake2b_ror63_avx2(__m256i x)
{
    return _mm256_xor_si256(_mm256_srli_epi64(x, 63), _mm256_add_epi64(x, x));
}

/* blake2b_compress_avx2 */
#include "blake2b_ymm.h"

/* blake2b_compress_x4_avx2 */
#include "blake2b_x4_ymm.h"
