/* Each row of the 4x4 state in two xmm registers, as in the BLAKE2
 * reference blake2b-round.h; rotations by whole bytes are pshufb. Two
 * departures from the reference:
 *  - Diagonalisation rotates rows a, c and d and leaves b in place. b is
 *    the last word G produces, so the next step can start as soon as it is
 *    ready while the alignrs overlap with its computation. The diagonal
 *    step then sees its G's in the order 3, 0, 1, 2, and its message words
 *    are gathered in that order. Moving b, as the reference does,
 *    measured slower.
 *  - Message pairs are a movq and a pinsrq from the block. The reference's
 *    unpack/alignr of preloaded words measured slower: they compete
 *    with the rotations for the two shuffle pipes, and without VEX's
 *    three-operand forms this kernel is close to throughput-bound. */
#include <smmintrin.h>
#include <string.h>

#include "blake2b.h"
#include "blake2b_consts.h"

#define BLAKE2B_INLINE static inline __attribute__((always_inline))

/* The state as row halves: s[0..1] = a, s[2..3] = b, s[4..5] = c,
 * s[6..7] = d, low lanes first. */
typedef struct blake2b_rows_sse41 {
    __m128i s[8];
} blake2b_rows_sse41;

BLAKE2B_INLINE __m128i blake2b_ror32_sse41(__m128i x)
{
    return _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1));
}

BLAKE2B_INLINE __m128i blake2b_ror24_sse41(__m128i x)
{
    const __m128i r24 = _mm_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2,
                                      11, 12, 13, 14, 15, 8, 9, 10);
    return _mm_shuffle_epi8(x, r24);
}

BLAKE2B_INLINE __m128i blake2b_ror16_sse41(__m128i x)
{
    const __m128i r16 = _mm_setr_epi8(2, 3, 4, 5, 6, 7, 0, 1,
                                      10, 11, 12, 13, 14, 15, 8, 9);
    return _mm_shuffle_epi8(x, r16);
}

BLAKE2B_INLINE __m128i blake2b_ror63_sse41(__m128i x)
{
    return _mm_xor_si128(_mm_srli_epi64(x, 63), _mm_add_epi64(x, x));
}

BLAKE2B_INLINE __m128i blake2b_msg_pair_sse41(const uint8_t *block,
                                              unsigned x, unsigned y)
{
    long long lo, hi;
    memcpy(&lo, block + 8 * x, sizeof lo);
    memcpy(&hi, block + 8 * y, sizeof hi);
    return _mm_insert_epi64(_mm_cvtsi64_si128(lo), hi, 1);
}

/* a + m + b with a + m kept as a value: left free, the compiler
 * reassociates the sum to (m + b) + a, putting two adds after b on the
 * critical path instead of one. */
BLAKE2B_INLINE __m128i blake2b_add3_sse41(__m128i a, __m128i m, __m128i b)
{
    __m128i am = _mm_add_epi64(a, m);
    __asm__("" : "+x"(am));
    return _mm_add_epi64(am, b);
}

/* Four G's at once, one per lane; mx and my hold each G's first and second
 * message word, low pair then high pair. */
BLAKE2B_INLINE void blake2b_g4_sse41(blake2b_rows_sse41 *v, __m128i mx0,
                                     __m128i mx1, __m128i my0, __m128i my1)
{
    __m128i *s = v->s;
    s[0] = blake2b_add3_sse41(s[0], mx0, s[2]);
    s[1] = blake2b_add3_sse41(s[1], mx1, s[3]);
    s[6] = blake2b_ror32_sse41(_mm_xor_si128(s[6], s[0]));
    s[7] = blake2b_ror32_sse41(_mm_xor_si128(s[7], s[1]));
    s[4] = _mm_add_epi64(s[4], s[6]);
    s[5] = _mm_add_epi64(s[5], s[7]);
    s[2] = blake2b_ror24_sse41(_mm_xor_si128(s[2], s[4]));
    s[3] = blake2b_ror24_sse41(_mm_xor_si128(s[3], s[5]));
    s[0] = blake2b_add3_sse41(s[0], my0, s[2]);
    s[1] = blake2b_add3_sse41(s[1], my1, s[3]);
    s[6] = blake2b_ror16_sse41(_mm_xor_si128(s[6], s[0]));
    s[7] = blake2b_ror16_sse41(_mm_xor_si128(s[7], s[1]));
    s[4] = _mm_add_epi64(s[4], s[6]);
    s[5] = _mm_add_epi64(s[5], s[7]);
    s[2] = blake2b_ror63_sse41(_mm_xor_si128(s[2], s[4]));
    s[3] = blake2b_ror63_sse41(_mm_xor_si128(s[3], s[5]));
}

/* Lane j of a gets a[j-1], of c gets c[j+1], of d gets d[j+2], so lane j
 * holds diagonal G (j-1) mod 4. */
BLAKE2B_INLINE void blake2b_diagonalize_sse41(blake2b_rows_sse41 *v)
{
    __m128i *s = v->s, t;
    t = s[0];
    s[0] = _mm_alignr_epi8(s[0], s[1], 8);
    s[1] = _mm_alignr_epi8(s[1], t, 8);
    t = s[4];
    s[4] = _mm_alignr_epi8(s[5], s[4], 8);
    s[5] = _mm_alignr_epi8(t, s[5], 8);
    t = s[6];
    s[6] = s[7];
    s[7] = t;
}

BLAKE2B_INLINE void blake2b_undiagonalize_sse41(blake2b_rows_sse41 *v)
{
    __m128i *s = v->s, t;
    t = s[0];
    s[0] = _mm_alignr_epi8(s[1], s[0], 8);
    s[1] = _mm_alignr_epi8(t, s[1], 8);
    t = s[4];
    s[4] = _mm_alignr_epi8(s[4], s[5], 8);
    s[5] = _mm_alignr_epi8(s[5], t, 8);
    t = s[6];
    s[6] = s[7];
    s[7] = t;
}

BLAKE2B_INLINE void blake2b_round_sse41(blake2b_rows_sse41 *v,
                                        const uint8_t *block, unsigned r)
{
    const uint8_t *z = blake2b_sigma[r];
    blake2b_g4_sse41(v, blake2b_msg_pair_sse41(block, z[0], z[2]),
                     blake2b_msg_pair_sse41(block, z[4], z[6]),
                     blake2b_msg_pair_sse41(block, z[1], z[3]),
                     blake2b_msg_pair_sse41(block, z[5], z[7]));
    blake2b_diagonalize_sse41(v);
    blake2b_g4_sse41(v, blake2b_msg_pair_sse41(block, z[14], z[8]),
                     blake2b_msg_pair_sse41(block, z[10], z[12]),
                     blake2b_msg_pair_sse41(block, z[15], z[9]),
                     blake2b_msg_pair_sse41(block, z[11], z[13]));
    blake2b_undiagonalize_sse41(v);
}

void blake2b_compress_sse41(uint64_t h[8], uint64_t t[2],
                            const uint8_t *blocks, size_t nblocks,
                            uint64_t inc, uint64_t f0)
{
    const __m128i iv0 = _mm_loadu_si128((const __m128i *)&blake2b_iv[0]);
    const __m128i iv1 = _mm_loadu_si128((const __m128i *)&blake2b_iv[2]);
    const __m128i iv2 = _mm_loadu_si128((const __m128i *)&blake2b_iv[4]);
    const __m128i iv3 = _mm_loadu_si128((const __m128i *)&blake2b_iv[6]);
    __m128i h0 = _mm_loadu_si128((const __m128i *)&h[0]);
    __m128i h1 = _mm_loadu_si128((const __m128i *)&h[2]);
    __m128i h2 = _mm_loadu_si128((const __m128i *)&h[4]);
    __m128i h3 = _mm_loadu_si128((const __m128i *)&h[6]);
    uint64_t t0 = t[0], t1 = t[1];

    for (; nblocks; nblocks--, blocks += BLAKE2B_BLOCK_BYTES) {
        blake2b_rows_sse41 v;
        t0 += inc;
        t1 += t0 < inc;
        v.s[0] = h0;
        v.s[1] = h1;
        v.s[2] = h2;
        v.s[3] = h3;
        v.s[4] = iv0;
        v.s[5] = iv1;
        v.s[6] = _mm_xor_si128(iv2, _mm_set_epi64x((long long)t1,
                                                   (long long)t0));
        v.s[7] = _mm_xor_si128(iv3, _mm_set_epi64x(0, (long long)f0));
        blake2b_round_sse41(&v, blocks, 0);
        blake2b_round_sse41(&v, blocks, 1);
        blake2b_round_sse41(&v, blocks, 2);
        blake2b_round_sse41(&v, blocks, 3);
        blake2b_round_sse41(&v, blocks, 4);
        blake2b_round_sse41(&v, blocks, 5);
        blake2b_round_sse41(&v, blocks, 6);
        blake2b_round_sse41(&v, blocks, 7);
        blake2b_round_sse41(&v, blocks, 8);
        blake2b_round_sse41(&v, blocks, 9);
        blake2b_round_sse41(&v, blocks, 10);
        blake2b_round_sse41(&v, blocks, 11);
        h0 = _mm_xor_si128(h0, _mm_xor_si128(v.s[0], v.s[4]));
        h1 = _mm_xor_si128(h1, _mm_xor_si128(v.s[1], v.s[5]));
        h2 = _mm_xor_si128(h2, _mm_xor_si128(v.s[2], v.s[6]));
        h3 = _mm_xor_si128(h3, _mm_xor_si128(v.s[3], v.s[7]));
    }
    _mm_storeu_si128((__m128i *)&h[0], h0);
    _mm_storeu_si128((__m128i *)&h[2], h1);
    _mm_storeu_si128((__m128i *)&h[4], h2);
    _mm_storeu_si128((__m128i *)&h[6], h3);
    t[0] = t0;
    t[1] = t1;
}
