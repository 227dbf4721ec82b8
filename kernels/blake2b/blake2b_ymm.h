/* BLAKE2b compression with one row of the 4x4 state per ymm register, the
 * body of blake2b_avx2.c and blake2b_avx512.c, which differ only in their
 * rotations. Diagonalisation rotates rows a, c and d with vpermq and leaves
 * b in place: b is the last word G produces, so the next step can start as
 * soon as it is ready while the permutes (several cycles of latency each)
 * overlap with its computation. Moving b, as the reference does, puts a
 * permute on the critical path and measured slower. The diagonal step
 * then sees its G's in the order 3, 0, 1, 2, and its message words are
 * gathered in that order. Message vectors are four broadcast loads merged by
 * blends; unpacks of preloaded words did no better, and vpgatherqq was
 * slower.
 *
 * Internal to kernels/blake2b/, included once by each file above after it
 * defines
 *   BLAKE2B_ISA(name)  name with the ISA suffix, e.g. name##_avx2
 *   BLAKE2B_INLINE     static inline __attribute__((always_inline))
 *   BLAKE2B_ISA(blake2b_ror32), ..._ror24, ..._ror16, ..._ror63
 *                      BLAKE2B_INLINE rotations right of each 64-bit word
 *                      of an __m256i
 * and compiled with that file's flags. It defines
 * BLAKE2B_ISA(blake2b_compress); everything else is force-inlined. */
#if !defined(BLAKE2B_ISA) || !defined(BLAKE2B_INLINE)
#error "define BLAKE2B_ISA and BLAKE2B_INLINE before including blake2b_ymm.h"
#endif

#include <immintrin.h>
#include <string.h>

#include "blake2b.h"
#include "blake2b_consts.h"

typedef struct blake2b_rows_ymm {
    __m256i a, b, c, d;
} blake2b_rows_ymm;

/* a + m + b with a + m kept as a value: left free, the compiler
 * reassociates the sum to (m + b) + a, putting two adds after b on the
 * critical path instead of one. */
BLAKE2B_INLINE __m256i blake2b_add3_ymm(__m256i a, __m256i m, __m256i b)
{
    __m256i am = _mm256_add_epi64(a, m);
    __asm__("" : "+x"(am));
    return _mm256_add_epi64(am, b);
}

BLAKE2B_INLINE __m256i blake2b_bcast_ymm(const uint8_t *block, unsigned i)
{
    long long w;
    memcpy(&w, block + 8 * i, sizeof w);
    return _mm256_set1_epi64x(w);
}

/* (m[i0], m[i1], m[i2], m[i3]) */
BLAKE2B_INLINE __m256i blake2b_msg4_ymm(const uint8_t *block, unsigned i0,
                                        unsigned i1, unsigned i2, unsigned i3)
{
    __m256i v = _mm256_blend_epi32(blake2b_bcast_ymm(block, i0),
                                   blake2b_bcast_ymm(block, i1), 0x0c);
    v = _mm256_blend_epi32(v, blake2b_bcast_ymm(block, i2), 0x30);
    return _mm256_blend_epi32(v, blake2b_bcast_ymm(block, i3), 0xc0);
}

/* Four G's at once, one per lane; mx and my hold each G's first and second
 * message word. */
BLAKE2B_INLINE void blake2b_g4_ymm(blake2b_rows_ymm *v, __m256i mx,
                                   __m256i my)
{
    v->a = blake2b_add3_ymm(v->a, mx, v->b);
    v->d = BLAKE2B_ISA(blake2b_ror32)(_mm256_xor_si256(v->d, v->a));
    v->c = _mm256_add_epi64(v->c, v->d);
    v->b = BLAKE2B_ISA(blake2b_ror24)(_mm256_xor_si256(v->b, v->c));
    v->a = blake2b_add3_ymm(v->a, my, v->b);
    v->d = BLAKE2B_ISA(blake2b_ror16)(_mm256_xor_si256(v->d, v->a));
    v->c = _mm256_add_epi64(v->c, v->d);
    v->b = BLAKE2B_ISA(blake2b_ror63)(_mm256_xor_si256(v->b, v->c));
}

/* Lane j of a gets a[j-1], of c gets c[j+1], of d gets d[j+2], so lane j
 * holds diagonal G (j-1) mod 4. */
BLAKE2B_INLINE void blake2b_diagonalize_ymm(blake2b_rows_ymm *v)
{
    v->a = _mm256_permute4x64_epi64(v->a, _MM_SHUFFLE(2, 1, 0, 3));
    v->c = _mm256_permute4x64_epi64(v->c, _MM_SHUFFLE(0, 3, 2, 1));
    v->d = _mm256_permute4x64_epi64(v->d, _MM_SHUFFLE(1, 0, 3, 2));
}

BLAKE2B_INLINE void blake2b_undiagonalize_ymm(blake2b_rows_ymm *v)
{
    v->a = _mm256_permute4x64_epi64(v->a, _MM_SHUFFLE(0, 3, 2, 1));
    v->c = _mm256_permute4x64_epi64(v->c, _MM_SHUFFLE(2, 1, 0, 3));
    v->d = _mm256_permute4x64_epi64(v->d, _MM_SHUFFLE(1, 0, 3, 2));
}

BLAKE2B_INLINE void blake2b_round_ymm(blake2b_rows_ymm *v,
                                      const uint8_t *block, unsigned r)
{
    const uint8_t *z = blake2b_sigma[r];
    blake2b_g4_ymm(v, blake2b_msg4_ymm(block, z[0], z[2], z[4], z[6]),
                   blake2b_msg4_ymm(block, z[1], z[3], z[5], z[7]));
    blake2b_diagonalize_ymm(v);
    blake2b_g4_ymm(v, blake2b_msg4_ymm(block, z[14], z[8], z[10], z[12]),
                   blake2b_msg4_ymm(block, z[15], z[9], z[11], z[13]));
    blake2b_undiagonalize_ymm(v);
}

void BLAKE2B_ISA(blake2b_compress)(uint64_t h[8], uint64_t t[2],
                                   const uint8_t *blocks, size_t nblocks,
                                   uint64_t inc, uint64_t f0)
{
    const __m256i iv0 = _mm256_loadu_si256((const __m256i *)&blake2b_iv[0]);
    const __m256i iv1 = _mm256_loadu_si256((const __m256i *)&blake2b_iv[4]);
    __m256i h0 = _mm256_loadu_si256((const __m256i *)&h[0]);
    __m256i h1 = _mm256_loadu_si256((const __m256i *)&h[4]);
    uint64_t t0 = t[0], t1 = t[1];

    for (; nblocks; nblocks--, blocks += BLAKE2B_BLOCK_BYTES) {
        blake2b_rows_ymm v;
        t0 += inc;
        t1 += t0 < inc;
        v.a = h0;
        v.b = h1;
        v.c = iv0;
        v.d = _mm256_xor_si256(iv1, _mm256_set_epi64x(0, (long long)f0,
                                                      (long long)t1,
                                                      (long long)t0));
        blake2b_round_ymm(&v, blocks, 0);
        blake2b_round_ymm(&v, blocks, 1);
        blake2b_round_ymm(&v, blocks, 2);
        blake2b_round_ymm(&v, blocks, 3);
        blake2b_round_ymm(&v, blocks, 4);
        blake2b_round_ymm(&v, blocks, 5);
        blake2b_round_ymm(&v, blocks, 6);
        blake2b_round_ymm(&v, blocks, 7);
        blake2b_round_ymm(&v, blocks, 8);
        blake2b_round_ymm(&v, blocks, 9);
        blake2b_round_ymm(&v, blocks, 10);
        blake2b_round_ymm(&v, blocks, 11);
        h0 = _mm256_xor_si256(h0, _mm256_xor_si256(v.a, v.c));
        h1 = _mm256_xor_si256(h1, _mm256_xor_si256(v.b, v.d));
    }
    _mm256_storeu_si256((__m256i *)&h[0], h0);
    _mm256_storeu_si256((__m256i *)&h[4], h1);
    t[0] = t0;
    t[1] = t1;
}
