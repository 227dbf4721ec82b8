/* Four independent BLAKE2b chains in step, one per 64-bit lane of a ymm
 * register: the multi-buffer layout (as in BLAKE2bp's leaves). Register i
 * holds state word i of all four chains, so G works on whole registers, no
 * row ever needs diagonalising, and the four chains' G's fill the vector
 * pipes that one chain's dependent steps leave idle. This is what lets a
 * caller with several equal-length messages (LIONESS cells) beat the
 * latency bound of one compression after another.
 *
 * Internal to kernels/blake2b/, included after blake2b_ymm.h by the files
 * that define its rotations (blake2b_avx2.c, blake2b_avx512.c). It defines
 * BLAKE2B_ISA(blake2b_compress_x4). */
#if !defined(BLAKE2B_ISA) || !defined(BLAKE2B_INLINE)
#error "define BLAKE2B_ISA and BLAKE2B_INLINE before including blake2b_x4_ymm.h"
#endif

#include <immintrin.h>

#include "blake2b.h"
#include "blake2b_consts.h"

/* m[i] = word i of each lane's block: a 4x4 transpose of 64-bit words per
 * quarter of the block. */
BLAKE2B_INLINE void blake2b_load_x4(__m256i m[16],
                                    const uint8_t *const block[4])
{
    for (unsigned i = 0; i < 16; i += 4) {
        __m256i r0 = _mm256_loadu_si256((const __m256i *)(block[0] + 8 * i));
        __m256i r1 = _mm256_loadu_si256((const __m256i *)(block[1] + 8 * i));
        __m256i r2 = _mm256_loadu_si256((const __m256i *)(block[2] + 8 * i));
        __m256i r3 = _mm256_loadu_si256((const __m256i *)(block[3] + 8 * i));
        __m256i lo01 = _mm256_unpacklo_epi64(r0, r1);
        __m256i hi01 = _mm256_unpackhi_epi64(r0, r1);
        __m256i lo23 = _mm256_unpacklo_epi64(r2, r3);
        __m256i hi23 = _mm256_unpackhi_epi64(r2, r3);
        m[i] = _mm256_permute2x128_si256(lo01, lo23, 0x20);
        m[i + 1] = _mm256_permute2x128_si256(hi01, hi23, 0x20);
        m[i + 2] = _mm256_permute2x128_si256(lo01, lo23, 0x31);
        m[i + 3] = _mm256_permute2x128_si256(hi01, hi23, 0x31);
    }
}

BLAKE2B_INLINE void blake2b_g_x4(__m256i v[16], unsigned a, unsigned b,
                                 unsigned c, unsigned d, __m256i x, __m256i y)
{
    v[a] = blake2b_add3_ymm(v[a], x, v[b]);
    v[d] = BLAKE2B_ISA(blake2b_ror32)(_mm256_xor_si256(v[d], v[a]));
    v[c] = _mm256_add_epi64(v[c], v[d]);
    v[b] = BLAKE2B_ISA(blake2b_ror24)(_mm256_xor_si256(v[b], v[c]));
    v[a] = blake2b_add3_ymm(v[a], y, v[b]);
    v[d] = BLAKE2B_ISA(blake2b_ror16)(_mm256_xor_si256(v[d], v[a]));
    v[c] = _mm256_add_epi64(v[c], v[d]);
    v[b] = BLAKE2B_ISA(blake2b_ror63)(_mm256_xor_si256(v[b], v[c]));
}

BLAKE2B_INLINE void blake2b_round_x4(__m256i v[16], const __m256i m[16],
                                     unsigned r)
{
    const uint8_t *z = blake2b_sigma[r];
    blake2b_g_x4(v, 0, 4, 8, 12, m[z[0]], m[z[1]]);
    blake2b_g_x4(v, 1, 5, 9, 13, m[z[2]], m[z[3]]);
    blake2b_g_x4(v, 2, 6, 10, 14, m[z[4]], m[z[5]]);
    blake2b_g_x4(v, 3, 7, 11, 15, m[z[6]], m[z[7]]);
    blake2b_g_x4(v, 0, 5, 10, 15, m[z[8]], m[z[9]]);
    blake2b_g_x4(v, 1, 6, 11, 12, m[z[10]], m[z[11]]);
    blake2b_g_x4(v, 2, 7, 8, 13, m[z[12]], m[z[13]]);
    blake2b_g_x4(v, 3, 4, 9, 14, m[z[14]], m[z[15]]);
}

void BLAKE2B_ISA(blake2b_compress_x4)(uint64_t h[8][4], uint64_t t[2],
                                      const uint8_t *const blocks[4],
                                      size_t nblocks, uint64_t inc,
                                      uint64_t f0)
{
    const uint8_t *p[4] = { blocks[0], blocks[1], blocks[2], blocks[3] };
    uint64_t t0 = t[0], t1 = t[1];

    for (; nblocks; nblocks--) {
        __m256i m[16], v[16];
        blake2b_load_x4(m, p);
        t0 += inc;
        t1 += t0 < inc;
        for (unsigned i = 0; i < 8; i++) {
            v[i] = _mm256_loadu_si256((const __m256i *)h[i]);
            v[i + 8] = _mm256_set1_epi64x((long long)blake2b_iv[i]);
        }
        v[12] = _mm256_xor_si256(v[12], _mm256_set1_epi64x((long long)t0));
        v[13] = _mm256_xor_si256(v[13], _mm256_set1_epi64x((long long)t1));
        v[14] = _mm256_xor_si256(v[14], _mm256_set1_epi64x((long long)f0));
        blake2b_round_x4(v, m, 0);
        blake2b_round_x4(v, m, 1);
        blake2b_round_x4(v, m, 2);
        blake2b_round_x4(v, m, 3);
        blake2b_round_x4(v, m, 4);
        blake2b_round_x4(v, m, 5);
        blake2b_round_x4(v, m, 6);
        blake2b_round_x4(v, m, 7);
        blake2b_round_x4(v, m, 8);
        blake2b_round_x4(v, m, 9);
        blake2b_round_x4(v, m, 10);
        blake2b_round_x4(v, m, 11);
        for (unsigned i = 0; i < 8; i++) {
            __m256i hi = _mm256_loadu_si256((const __m256i *)h[i]);
            hi = _mm256_xor_si256(hi, _mm256_xor_si256(v[i], v[i + 8]));
            _mm256_storeu_si256((__m256i *)h[i], hi);
        }
        for (unsigned j = 0; j < 4; j++)
            p[j] += BLAKE2B_BLOCK_BYTES;
    }
    t[0] = t0;
    t[1] = t1;
}
