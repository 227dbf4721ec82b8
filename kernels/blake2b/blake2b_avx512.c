/* BLAKE2b for AVX-512: the avx2 kernel (blake2b_ymm.h, the same source)
 * with AVX-512VL's vprorq for every rotation: one single-cycle instruction
 * each, where AVX2 spends two cycles on ror63 (three instructions) and on
 * the pshufb of ror24 and ror16 (on AMD). Rotations, adds and xors are all
 * of G's critical path. Rows stay in ymm registers: a row is four words,
 * and zmm would only add lane crossing. */
#include <immintrin.h>

#include "blake2b.h"

#define BLAKE2B_ISA(name) name##_avx512
#define BLAKE2B_INLINE static inline __attribute__((always_inline))

BLAKE2B_INLINE __m256i blake2b_ror32_avx512(__m256i x)
{
    return _mm256_ror_epi64(x, 32);
}

BLAKE2B_INLINE __m256i blake2b_ror24_avx512(__m256i x)
{
    return _mm256_ror_epi64(x, 24);
}

BLAKE2B_INLINE __m256i blake2b_ror16_avx512(__m256i x)
{
    return _mm256_ror_epi64(x, 16);
}

BLAKE2B_INLINE __m256i blake2b_ror63_avx512(__m256i x)
{
    return _mm256_ror_epi64(x, 63);
}

/* blake2b_compress_avx512 */
#include "blake2b_ymm.h"

/* blake2b_compress_x4_avx512 */
#include "blake2b_x4_ymm.h"
