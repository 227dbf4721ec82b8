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

/* Multi-buffer: two chains a pass, one per 64-bit lane, register i holding
 * state word i of both (the layout of blake2b_x4_ymm.h at half its width).
 * The two chains' G's keep both vector pipes busy where one chain's
 * dependent steps leave them idle; four chains at once would need the
 * 32 registers for the state alone, so the four run as two pairs. */

/* m[i] = word i of each of the two blocks. */
BLAKE2B_INLINE void blake2b_load_x2_neon(uint64x2_t m[16], const uint8_t *a,
                                         const uint8_t *b)
{
    for (int i = 0; i < 16; i += 2) {
        uint64x2_t ra = vreinterpretq_u64_u8(vld1q_u8(a + 8 * i));
        uint64x2_t rb = vreinterpretq_u64_u8(vld1q_u8(b + 8 * i));
        m[i] = vzip1q_u64(ra, rb);
        m[i + 1] = vzip2q_u64(ra, rb);
    }
}

BLAKE2B_INLINE void blake2b_g_x2_neon(uint64x2_t v[16], unsigned a,
                                      unsigned b, unsigned c, unsigned d,
                                      uint64x2_t x, uint64x2_t y)
{
    v[a] = blake2b_add3_neon(v[a], x, v[b]);
    v[d] = blake2b_ror32_neon(veorq_u64(v[d], v[a]));
    v[c] = vaddq_u64(v[c], v[d]);
    v[b] = blake2b_ror24_neon(veorq_u64(v[b], v[c]));
    v[a] = blake2b_add3_neon(v[a], y, v[b]);
    v[d] = blake2b_ror16_neon(veorq_u64(v[d], v[a]));
    v[c] = vaddq_u64(v[c], v[d]);
    v[b] = blake2b_ror63_neon(veorq_u64(v[b], v[c]));
}

BLAKE2B_INLINE void blake2b_round_x2_neon(uint64x2_t v[16],
                                          const uint64x2_t m[16], unsigned r)
{
    const uint8_t *z = blake2b_sigma[r];
    blake2b_g_x2_neon(v, 0, 4, 8, 12, m[z[0]], m[z[1]]);
    blake2b_g_x2_neon(v, 1, 5, 9, 13, m[z[2]], m[z[3]]);
    blake2b_g_x2_neon(v, 2, 6, 10, 14, m[z[4]], m[z[5]]);
    blake2b_g_x2_neon(v, 3, 7, 11, 15, m[z[6]], m[z[7]]);
    blake2b_g_x2_neon(v, 0, 5, 10, 15, m[z[8]], m[z[9]]);
    blake2b_g_x2_neon(v, 1, 6, 11, 12, m[z[10]], m[z[11]]);
    blake2b_g_x2_neon(v, 2, 7, 8, 13, m[z[12]], m[z[13]]);
    blake2b_g_x2_neon(v, 3, 4, 9, 14, m[z[14]], m[z[15]]);
}

/* Chains j and j + 1 of h, from blocks a and b, the counter from t. */
static __attribute__((noinline)) void
blake2b_compress_x2_neon(uint64_t h[8][4], unsigned j, const uint64_t t[2],
                         const uint8_t *a, const uint8_t *b, size_t nblocks,
                         uint64_t inc, uint64_t f0)
{
    uint64_t t0 = t[0], t1 = t[1];
    for (; nblocks; nblocks--, a += BLAKE2B_BLOCK_BYTES,
                    b += BLAKE2B_BLOCK_BYTES) {
        uint64x2_t m[16], v[16];
        blake2b_load_x2_neon(m, a, b);
        t0 += inc;
        t1 += t0 < inc;
        for (unsigned i = 0; i < 8; i++) {
            v[i] = vld1q_u64(&h[i][j]);
            v[i + 8] = vdupq_n_u64(blake2b_iv[i]);
        }
        v[12] = veorq_u64(v[12], vdupq_n_u64(t0));
        v[13] = veorq_u64(v[13], vdupq_n_u64(t1));
        v[14] = veorq_u64(v[14], vdupq_n_u64(f0));
        blake2b_round_x2_neon(v, m, 0);
        blake2b_round_x2_neon(v, m, 1);
        blake2b_round_x2_neon(v, m, 2);
        blake2b_round_x2_neon(v, m, 3);
        blake2b_round_x2_neon(v, m, 4);
        blake2b_round_x2_neon(v, m, 5);
        blake2b_round_x2_neon(v, m, 6);
        blake2b_round_x2_neon(v, m, 7);
        blake2b_round_x2_neon(v, m, 8);
        blake2b_round_x2_neon(v, m, 9);
        blake2b_round_x2_neon(v, m, 10);
        blake2b_round_x2_neon(v, m, 11);
        for (unsigned i = 0; i < 8; i++)
            vst1q_u64(&h[i][j], veorq_u64(vld1q_u64(&h[i][j]),
                                          veorq_u64(v[i], v[i + 8])));
    }
}

void blake2b_compress_x4_neon(uint64_t h[8][4], uint64_t t[2],
                              const uint8_t *const blocks[4], size_t nblocks,
                              uint64_t inc, uint64_t f0)
{
    blake2b_compress_x2_neon(h, 0, t, blocks[0], blocks[1], nblocks, inc, f0);
    blake2b_compress_x2_neon(h, 2, t, blocks[2], blocks[3], nblocks, inc, f0);
    /* Both pairs advanced the counter from t; so does t, by the bytes
     * of all blocks at once (less than 2^64, so it carries at most once). */
    uint64_t bytes = nblocks * inc;
    t[0] += bytes;
    t[1] += t[0] < bytes;
}
