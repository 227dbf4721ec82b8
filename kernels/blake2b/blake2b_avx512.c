/* BLAKE2b for AVX-512: the avx2 kernel (blake2b_ymm.h, the same source)
 * with AVX-512VL's vprorq for the rotations by 24, 16 and 63. Rows stay in
 * ymm registers: a row is four words, and zmm would only add lane crossing.
 *
 * One chain (blake2b_compress_avx512) is latency-bound: each of G's eight
 * steps waits for the one before, so what counts is the latency of an add,
 * an xor and a rotate, not how many instructions there are. vprorq pays
 * only where it is faster than avx2's rotation of the same amount:
 *  - Intel: vprorq is one dependent operation where avx2's ror63 is two
 *    (shift and add in parallel, then xor), so each step's chain is
 *    shorter.
 *  - Zen 4: LLVM 19's znver4 model (llvm-mca-19 -mcpu=znver4) gives
 *    vprorq/vprolq on ymm the same latency as avx2's ror63 and its pshufb
 *    for ror24 and ror16, so those gain nothing; and ror32, which GCC
 *    compiles from _mm256_ror_epi64 to vprolq, is slower there than
 *    avx2's vpshufd. So ror32 stays vpshufd here, and on that model the
 *    two kernels' steps are equal.
 * Four chains (blake2b_compress_x4_avx512, blake2b_x4_ymm.h) are bound by
 * instruction throughput instead, and there one instruction per rotation
 * against avx2's three for ror63 pays on both. The measurements are in
 * docs/kernels.md, "The code's choices", BLAKE2b. */
#include <immintrin.h>

#include "blake2b.h"

#define BLAKE2B_ISA(name) name##_avx512
#define BLAKE2B_INLINE static inline __attribute__((always_inline))

BLAKE2B_INLINE __m256i blake2b_ror32_avx512(__m256i x)
{
    return _mm256_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1));
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
