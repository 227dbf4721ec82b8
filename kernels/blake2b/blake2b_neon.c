/* BLAKE2b for arm64 Advanced SIMD: each row of the 4x4 state in two
 * 128-bit registers, the layout of blake2b_sse41.c, whose notes on leaving
 * row b in place during diagonalisation apply here too. Rotations: by 32 is
 * rev64 on words, by 24 and 16 a tbl byte permute, by 63 an add and a
 * shift-right-insert. The block is loaded once into eight registers; each
 * message pair is then one permute of two of them (trn, ext or ins, which
 * GCC picks for the constant lane pattern). */
#include <arm_neon.h>

#include "blake2b.h"
#include "blake2b_consts.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "blake2b_neon.c loads BLAKE2b's little-endian words natively"
#endif

#define BLAKE2B_INLINE static inline __attribute__((always_inline))

/* The state as row halves: s[0..1] = a, s[2..3] = b, s[4..5] = c,
 * s[6..7] = d, low lanes first. */
typedef struct blake2b_rows_neon {
    uint64x2_t s[8];
} blake2b_rows_neon;

/* tbl indices of the rotations by 24 and 16 of each 64-bit lane. */
static const uint8_t blake2b_r24_neon[16] = { 3, 4, 5, 6, 7, 0, 1, 2,
                                              11, 12, 13, 14, 15, 8, 9, 10 };
static const uint8_t blake2b_r16_neon[16] = { 2, 3, 4, 5, 6, 7, 0, 1,
                                              10, 11, 12, 13, 14, 15, 8, 9 };

BLAKE2B_INLINE uint64x2_t blake2b_ror32_neon(uint64x2_t x)
{
    return vreinterpretq_u64_u32(vrev64q_u32(vreinterpretq_u32_u64(x)));
}

BLAKE2B_INLINE uint64x2_t blake2b_ror24_neon(uint64x2_t x)
{
    return vreinterpretq_u64_u8(vqtbl1q_u8(vreinterpretq_u8_u64(x),
                                           vld1q_u8(blake2b_r24_neon)));
}

BLAKE2B_INLINE uint64x2_t blake2b_ror16_neon(uint64x2_t x)
{
    return vreinterpretq_u64_u8(vqtbl1q_u8(vreinterpretq_u8_u64(x),
                                           vld1q_u8(blake2b_r16_neon)));
}

BLAKE2B_INLINE uint64x2_t blake2b_ror63_neon(uint64x2_t x)
{
    return vsriq_n_u64(vaddq_u64(x, x), x, 63);
}

/* (w[x], w[y]) from the block's words held in pairs, m[i] = (w[2i],
 * w[2i + 1]). x and y are constants once the rounds are unrolled. */
BLAKE2B_INLINE uint64x2_t blake2b_msg_pair_neon(const uint64x2_t m[8],
                                                unsigned x, unsigned y)
{
    const uint64x2_t lanes = { x % 2, 2 + y % 2 };
    return __builtin_shuffle(m[x / 2], m[y / 2], lanes);
}

/* a + m + b with a + m kept as a value (see blake2b_sse41.c). */
BLAKE2B_INLINE uint64x2_t blake2b_add3_neon(uint64x2_t a, uint64x2_t m,
                                            uint64x2_t b)
{
    uint64x2_t am = vaddq_u64(a, m);
    __asm__("" : "+w"(am));
    return vaddq_u64(am, b);
}

/* Four G's at once, one per lane; mx and my hold each G's first and second
 * message word, low pair then high pair. */
BLAKE2B_INLINE void blake2b_g4_neon(blake2b_rows_neon *v, uint64x2_t mx0,
                                    uint64x2_t mx1, uint64x2_t my0,
                                    uint64x2_t my1)
{
    uint64x2_t *s = v->s;
    s[0] = blake2b_add3_neon(s[0], mx0, s[2]);
    s[1] = blake2b_add3_neon(s[1], mx1, s[3]);
    s[6] = blake2b_ror32_neon(veorq_u64(s[6], s[0]));
    s[7] = blake2b_ror32_neon(veorq_u64(s[7], s[1]));
    s[4] = vaddq_u64(s[4], s[6]);
    s[5] = vaddq_u64(s[5], s[7]);
    s[2] = blake2b_ror24_neon(veorq_u64(s[2], s[4]));
    s[3] = blake2b_ror24_neon(veorq_u64(s[3], s[5]));
    s[0] = blake2b_add3_neon(s[0], my0, s[2]);
    s[1] = blake2b_add3_neon(s[1], my1, s[3]);
    s[6] = blake2b_ror16_neon(veorq_u64(s[6], s[0]));
    s[7] = blake2b_ror16_neon(veorq_u64(s[7], s[1]));
    s[4] = vaddq_u64(s[4], s[6]);
    s[5] = vaddq_u64(s[5], s[7]);
    s[2] = blake2b_ror63_neon(veorq_u64(s[2], s[4]));
    s[3] = blake2b_ror63_neon(veorq_u64(s[3], s[5]));
}

/* Lane j of a gets a[j-1], of c gets c[j+1], of d gets d[j+2], so lane j
 * holds diagonal G (j-1) mod 4. */
BLAKE2B_INLINE void blake2b_diagonalize_neon(blake2b_rows_neon *v)
{
    uint64x2_t *s = v->s, t;
    t = s[0];
    s[0] = vextq_u64(s[1], s[0], 1);
    s[1] = vextq_u64(t, s[1], 1);
    t = s[4];
    s[4] = vextq_u64(s[4], s[5], 1);
    s[5] = vextq_u64(s[5], t, 1);
    t = s[6];
    s[6] = s[7];
    s[7] = t;
}

BLAKE2B_INLINE void blake2b_undiagonalize_neon(blake2b_rows_neon *v)
{
    uint64x2_t *s = v->s, t;
    t = s[0];
    s[0] = vextq_u64(s[0], s[1], 1);
    s[1] = vextq_u64(s[1], t, 1);
    t = s[4];
    s[4] = vextq_u64(s[5], s[4], 1);
    s[5] = vextq_u64(t, s[5], 1);
    t = s[6];
    s[6] = s[7];
    s[7] = t;
}

BLAKE2B_INLINE void blake2b_round_neon(blake2b_rows_neon *v,
                                       const uint64x2_t m[8], unsigned r)
{
    const uint8_t *z = blake2b_sigma[r];
    blake2b_g4_neon(v, blake2b_msg_pair_neon(m, z[0], z[2]),
                    blake2b_msg_pair_neon(m, z[4], z[6]),
                    blake2b_msg_pair_neon(m, z[1], z[3]),
                    blake2b_msg_pair_neon(m, z[5], z[7]));
    blake2b_diagonalize_neon(v);
    blake2b_g4_neon(v, blake2b_msg_pair_neon(m, z[14], z[8]),
                    blake2b_msg_pair_neon(m, z[10], z[12]),
                    blake2b_msg_pair_neon(m, z[15], z[9]),
                    blake2b_msg_pair_neon(m, z[11], z[13]));
    blake2b_undiagonalize_neon(v);
}

void blake2b_compress_neon(uint64_t h[8], uint64_t t[2],
                           const uint8_t *blocks, size_t nblocks,
                           uint64_t inc, uint64_t f0)
{
    const uint64x2_t iv0 = vld1q_u64(&blake2b_iv[0]);
    const uint64x2_t iv1 = vld1q_u64(&blake2b_iv[2]);
    const uint64x2_t iv2 = vld1q_u64(&blake2b_iv[4]);
    const uint64x2_t iv3 = vld1q_u64(&blake2b_iv[6]);
    uint64x2_t h0 = vld1q_u64(&h[0]), h1 = vld1q_u64(&h[2]);
    uint64x2_t h2 = vld1q_u64(&h[4]), h3 = vld1q_u64(&h[6]);
    uint64_t t0 = t[0], t1 = t[1];

    for (; nblocks; nblocks--, blocks += BLAKE2B_BLOCK_BYTES) {
        blake2b_rows_neon v;
        uint64x2_t m[8];
        for (int i = 0; i < 8; i++)
            m[i] = vreinterpretq_u64_u8(vld1q_u8(blocks + 16 * i));
        t0 += inc;
        t1 += t0 < inc;
        v.s[0] = h0;
        v.s[1] = h1;
        v.s[2] = h2;
        v.s[3] = h3;
        v.s[4] = iv0;
        v.s[5] = iv1;
        v.s[6] = veorq_u64(iv2, vcombine_u64(vcreate_u64(t0),
                                             vcreate_u64(t1)));
        v.s[7] = veorq_u64(iv3, vcombine_u64(vcreate_u64(f0),
                                             vcreate_u64(0)));
        blake2b_round_neon(&v, m, 0);
        blake2b_round_neon(&v, m, 1);
        blake2b_round_neon(&v, m, 2);
        blake2b_round_neon(&v, m, 3);
        blake2b_round_neon(&v, m, 4);
        blake2b_round_neon(&v, m, 5);
        blake2b_round_neon(&v, m, 6);
        blake2b_round_neon(&v, m, 7);
        blake2b_round_neon(&v, m, 8);
        blake2b_round_neon(&v, m, 9);
        blake2b_round_neon(&v, m, 10);
        blake2b_round_neon(&v, m, 11);
        h0 = veorq_u64(h0, veorq_u64(v.s[0], v.s[4]));
        h1 = veorq_u64(h1, veorq_u64(v.s[1], v.s[5]));
        h2 = veorq_u64(h2, veorq_u64(v.s[2], v.s[6]));
        h3 = veorq_u64(h3, veorq_u64(v.s[3], v.s[7]));
    }
    vst1q_u64(&h[0], h0);
    vst1q_u64(&h[2], h1);
    vst1q_u64(&h[4], h2);
    vst1q_u64(&h[6], h3);
    t[0] = t0;
    t[1] = t1;
}
