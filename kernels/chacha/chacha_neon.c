/* ChaCha for arm64 Advanced SIMD. Three layouts, picked by length:
 *  - five blocks a batch: four in NEON lanes, one word per lane
 *    ("vertical", as in chacha_xmm.h), and a fifth in general-purpose
 *    registers, its rounds interleaved with the vector ones. NEON has two
 *    vector pipes on the cores this aims at while the integer ALUs would sit
 *    idle; the scalar block keeps them busy at no cost to the vector chain.
 *    OpenSSL's chacha-armv8 (4xNEON+1xIALU) does the same.
 *  - four vertical blocks alone, for a last batch of 129 to 319 bytes.
 *  - rows, one block a register set, two in flight, for at most two blocks.
 * Rotates: by 16 is rev32 on halfwords, by 8 a tbl byte permute, by 12 and 7
 * a shift and a shift-right-insert. */
#include <arm_neon.h>
#include <string.h>

#include "chacha.h"
#include "chacha_pre.h"
#include "chacha_rows.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "chacha_neon.c loads ChaCha's little-endian words natively"
#endif

#define CHACHA_NEON_INLINE static inline __attribute__((always_inline))

static const uint8_t chacha_rot8_neon[16] = {
    3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
};
static const uint32_t chacha_sigma_neon[4] = {
    0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
};

#define ROTV(v, n) vsriq_n_u32(vshlq_n_u32(v, n), v, 32 - (n))
#define ROTV16(v) vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(v)))
#define ROTV12(v) ROTV(v, 12)
#define ROTV8(v)                                                              \
    vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(v), rot8))
#define ROTV7(v) ROTV(v, 7)
#define ROTS(x, n) ((uint32_t)((x) << (n)) | ((x) >> (32 - (n))))

/* One add-xor-rotate step, a += b; d ^= a; d <<<= n, on word vectors vA,
 * and also on the scalar block's words xA for ARX_VS. */
#define ARX_V(a, b, d, n)                                                     \
    v##a = vaddq_u32(v##a, v##b);                                             \
    v##d = veorq_u32(v##d, v##a);                                             \
    v##d = ROTV##n(v##d);
#define ARX_VS(a, b, d, n)                                                    \
    ARX_V(a, b, d, n)                                                         \
    x##a += x##b;                                                             \
    x##d ^= x##a;                                                             \
    x##d = ROTS(x##d, n);

/* Four quarter-rounds side by side, one step at a time, so that each step's
 * independent operations can issue together. */
#define QUARTERROUND4(ARX, a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2,    \
                      a3, b3, c3, d3)                                         \
    ARX(a0, b0, d0, 16) ARX(a1, b1, d1, 16)                                   \
    ARX(a2, b2, d2, 16) ARX(a3, b3, d3, 16)                                   \
    ARX(c0, d0, b0, 12) ARX(c1, d1, b1, 12)                                   \
    ARX(c2, d2, b2, 12) ARX(c3, d3, b3, 12)                                   \
    ARX(a0, b0, d0, 8) ARX(a1, b1, d1, 8)                                     \
    ARX(a2, b2, d2, 8) ARX(a3, b3, d3, 8)                                     \
    ARX(c0, d0, b0, 7) ARX(c1, d1, b1, 7)                                     \
    ARX(c2, d2, b2, 7) ARX(c3, d3, b3, 7)

#define DIAGONAL_ROUND(ARX)                                                   \
    QUARTERROUND4(ARX, 0, 5, 10, 15, 1, 6, 11, 12, 2, 7, 8, 13, 3, 4, 9, 14)
#define DOUBLE_ROUND(ARX)                                                     \
    QUARTERROUND4(ARX, 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)  \
    DIAGONAL_ROUND(ARX)
/* Column 0's quarter-round alone. */
#define QUARTERROUND1(ARX, a, b, c, d)                                        \
    ARX(a, b, d, 16) ARX(c, d, b, 12) ARX(a, b, d, 8) ARX(c, d, b, 7)

#define LOAD_VECTORS(s)                                                       \
    uint32x4_t v0 = s[0], v1 = s[1], v2 = s[2], v3 = s[3];                    \
    uint32x4_t v4 = s[4], v5 = s[5], v6 = s[6], v7 = s[7];                    \
    uint32x4_t v8 = s[8], v9 = s[9], v10 = s[10], v11 = s[11];                \
    uint32x4_t v12 = s[12], v13 = s[13], v14 = s[14], v15 = s[15]

/* The vertical state: word i of each of four blocks in s[i], the 64-bit
 * counter ctr + lane in words 12 and 13. */
typedef struct chacha_vstate_neon {
    uint32x4_t s[16];
} chacha_vstate_neon;

CHACHA_NEON_INLINE void set_counters(chacha_vstate_neon *st, uint64_t ctr)
{
    static const uint32_t lanes[4] = { 0, 1, 2, 3 };
    uint32x4_t lo = vaddq_u32(vdupq_n_u32((uint32_t)ctr), vld1q_u32(lanes));
    /* A lane whose low word wrapped is below the first lane's: all ones,
     * which subtracted carries one into the high word. */
    uint32x4_t wrapped = vcltq_u32(lo, vdupq_n_u32((uint32_t)ctr));
    st->s[12] = lo;
    st->s[13] = vsubq_u32(vdupq_n_u32((uint32_t)(ctr >> 32)), wrapped);
}

/* Transpose four word vectors into 16 bytes of each of four blocks and
 * write them, xored with in, at out + 64 * block. */
CHACHA_NEON_INLINE void store4(uint8_t *out, const uint8_t *in, uint32x4_t a,
                               uint32x4_t b, uint32x4_t c, uint32x4_t d)
{
    uint64x2_t ab0 = vreinterpretq_u64_u32(vtrn1q_u32(a, b));
    uint64x2_t ab1 = vreinterpretq_u64_u32(vtrn2q_u32(a, b));
    uint64x2_t cd0 = vreinterpretq_u64_u32(vtrn1q_u32(c, d));
    uint64x2_t cd1 = vreinterpretq_u64_u32(vtrn2q_u32(c, d));
    uint64x2_t v[4] = {
        vtrn1q_u64(ab0, cd0), vtrn1q_u64(ab1, cd1),
        vtrn2q_u64(ab0, cd0), vtrn2q_u64(ab1, cd1),
    };
    for (int i = 0; i < 4; i++) {
        uint8x16_t m = vld1q_u8(in + 64 * i);
        vst1q_u8(out + 64 * i, veorq_u8(vreinterpretq_u8_u64(v[i]), m));
    }
}

#define STORE_VERTICAL(out, in, s)                                            \
    store4(out, in, vaddq_u32(v0, s[0]), vaddq_u32(v1, s[1]),                 \
           vaddq_u32(v2, s[2]), vaddq_u32(v3, s[3]));                         \
    store4(out + 16, in + 16, vaddq_u32(v4, s[4]), vaddq_u32(v5, s[5]),       \
           vaddq_u32(v6, s[6]), vaddq_u32(v7, s[7]));                         \
    store4(out + 32, in + 32, vaddq_u32(v8, s[8]), vaddq_u32(v9, s[9]),       \
           vaddq_u32(v10, s[10]), vaddq_u32(v11, s[11]));                     \
    store4(out + 48, in + 48, vaddq_u32(v12, s[12]), vaddq_u32(v13, s[13]),   \
           vaddq_u32(v14, s[14]), vaddq_u32(v15, s[15]))

/* 256 bytes: out = in ^ the keystream of the four blocks in st. */
CHACHA_NEON_INLINE void blocks4(uint8_t *out, const uint8_t *in,
                                const chacha_vstate_neon *st, unsigned rounds)
{
    const uint8x16_t rot8 = vld1q_u8(chacha_rot8_neon);
    const uint32x4_t *s = st->s;
    LOAD_VECTORS(s);
    for (unsigned r = 0; r < rounds; r += 2) {
        DOUBLE_ROUND(ARX_V)
    }
    STORE_VERTICAL(out, in, s);
}

CHACHA_NEON_INLINE uint64_t load64_le(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

CHACHA_NEON_INLINE void store64_le(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, sizeof v);
}

/* Columns 1-3 of the vectors and of the scalar block from pre's words. */
#define PRE_COLUMN(i) v##i = vdupq_n_u32(pre[i]), x##i = pre[i]
#define PRE_COLUMNS()                                                         \
    (PRE_COLUMN(1), PRE_COLUMN(2), PRE_COLUMN(3), PRE_COLUMN(5),              \
     PRE_COLUMN(6), PRE_COLUMN(7), PRE_COLUMN(9), PRE_COLUMN(10),             \
     PRE_COLUMN(11), PRE_COLUMN(13), PRE_COLUMN(14), PRE_COLUMN(15))

/* 320 bytes: the four blocks of st, then at out + 256 the block whose
 * words are w (its counter four past st's first). With pre (not NULL, the
 * same for all five blocks: chacha_pre.h), columns 1-3 start from its
 * words and the first double round is column 0's quarter-round and the
 * diagonal round. */
CHACHA_NEON_INLINE void blocks5(uint8_t *out, const uint8_t *in,
                                const chacha_vstate_neon *st,
                                const uint32_t w[16], const uint32_t *pre,
                                unsigned rounds)
{
    const uint8x16_t rot8 = vld1q_u8(chacha_rot8_neon);
    const uint32x4_t *s = st->s;
    LOAD_VECTORS(s);
    uint32_t x0 = w[0], x1 = w[1], x2 = w[2], x3 = w[3];
    uint32_t x4 = w[4], x5 = w[5], x6 = w[6], x7 = w[7];
    uint32_t x8 = w[8], x9 = w[9], x10 = w[10], x11 = w[11];
    uint32_t x12 = w[12], x13 = w[13], x14 = w[14], x15 = w[15];
    unsigned r = 0;
    if (pre) {
        PRE_COLUMNS();
        QUARTERROUND1(ARX_VS, 0, 4, 8, 12)
        DIAGONAL_ROUND(ARX_VS)
        r = 2;
    }
    for (; r < rounds; r += 2) {
        DOUBLE_ROUND(ARX_VS)
    }
    STORE_VERTICAL(out, in, s);
    const uint32_t x[16] = { x0, x1, x2, x3, x4, x5, x6, x7,
                             x8, x9, x10, x11, x12, x13, x14, x15 };
    for (int i = 0; i < 16; i += 2) {
        uint64_t k = (uint64_t)(x[i] + w[i]) |
                     (uint64_t)(x[i + 1] + w[i + 1]) << 32;
        store64_le(out + 256 + 4 * i, load64_le(in + 256 + 4 * i) ^ k);
    }
}

/* Whole 320- and 256-byte batches, then a last batch of more than two
 * blocks through a stack buffer. Returns the bytes done: all of len, or the
 * whole batches when at most two blocks are left. */
CHACHA_NEON_INLINE size_t xor_vertical(uint8_t *out, const uint8_t *in,
                                       size_t len, const uint8_t *key,
                                       const uint8_t row3[16], uint64_t ctr,
                                       unsigned rounds)
{
    chacha_vstate_neon st;
    uint32_t w[16];
    memcpy(w, chacha_sigma_neon, 16);
    memcpy(w + 4, key, 32);
    memcpy(w + 12, row3, 16);
    for (int i = 0; i < 16; i++)
        st.s[i] = vdupq_n_u32(w[i]);
    chacha_pre pre;
    chacha_pre_init(&pre, w);

    size_t done = 0;
    for (; len - done >= 320; done += 320, ctr += 5) {
        set_counters(&st, ctr);
        w[12] = (uint32_t)(ctr + 4);
        w[13] = (uint32_t)((ctr + 4) >> 32);
        /* Not for the first batch (chacha_vertical.h says why). */
        blocks5(out + done, in + done, &st, w,
                done ? chacha_pre_for(&pre, ctr, 5) : NULL, rounds);
    }
    set_counters(&st, ctr);
    if (len - done >= 256) {
        blocks4(out + done, in + done, &st, rounds);
        done += 256;
        set_counters(&st, ctr + 4);
    }
    if (len - done > 128) {
        /* xored with zeros: the bare keystream, so that nothing past len
         * is read or written. */
        static const uint8_t zeros[256];
        uint8_t ks[256];
        blocks4(ks, zeros, &st, rounds);
        for (size_t i = 0; done + i < len; i++)
            out[done + i] = in[done + i] ^ ks[i];
        done = len;
    }
    return done;
}

/* The four column quarter-rounds of one block held as rows. */
#define ROW_ROUND(a, b, c, d)                                                 \
    do {                                                                      \
        a = vaddq_u32(a, b);                                                  \
        d = veorq_u32(d, a);                                                  \
        d = ROTV16(d);                                                        \
        c = vaddq_u32(c, d);                                                  \
        b = veorq_u32(b, c);                                                  \
        b = ROTV12(b);                                                        \
        a = vaddq_u32(a, b);                                                  \
        d = veorq_u32(d, a);                                                  \
        d = ROTV8(d);                                                         \
        c = vaddq_u32(c, d);                                                  \
        b = veorq_u32(b, c);                                                  \
        b = ROTV7(b);                                                         \
    } while (0)

/* Line the diagonals up as columns (and back), moving rows 0, 2 and 3 so
 * that row 1, last written and first read, stays off the shuffles (see
 * chacha_xmm.h). */
#define SHUFFLE_ROWS(a, c, d, an, cn)                                         \
    do {                                                                      \
        a = vextq_u32(a, a, an);                                              \
        c = vextq_u32(c, c, cn);                                              \
        d = vextq_u32(d, d, 2);                                               \
    } while (0)
#define DIAGONALIZE(a, c, d) SHUFFLE_ROWS(a, c, d, 3, 1)
#define UNDIAGONALIZE(a, c, d) SHUFFLE_ROWS(a, c, d, 1, 3)

/* out = in ^ the keystream of one block in rows, for len <= 64. */
CHACHA_NEON_INLINE void store_rows(uint8_t *out, const uint8_t *in,
                                   size_t len, uint32x4_t a, uint32x4_t b,
                                   uint32x4_t c, uint32x4_t d)
{
    uint32x4_t ks[4] = { a, b, c, d };
    size_t i = 0;
    for (; i + 16 <= len; i += 16) {
        uint8x16_t m = vld1q_u8(in + i);
        vst1q_u8(out + i, veorq_u8(m, vreinterpretq_u8_u32(ks[i / 16])));
    }
    if (i < len) {
        uint8_t tail[16];
        vst1q_u8(tail, vreinterpretq_u8_u32(ks[i / 16]));
        for (size_t j = 0; i + j < len; j++)
            out[i + j] = in[i + j] ^ tail[j];
    }
}

/* At most 128 bytes (two blocks) in rows; the second block runs only when
 * needed. Not inlined, as in chacha_xmm.h, to keep the batch loop's frame
 * its own. */
static __attribute__((noinline)) void
chacha_stream_xor_rows_neon(uint8_t *out, const uint8_t *in, size_t len,
                            const uint8_t *key, uint64x2_t row3,
                            unsigned rounds)
{
    static const uint64_t one[2] = { 1, 0 };
    const uint8x16_t rot8 = vld1q_u8(chacha_rot8_neon);
    const uint32x4_t s0 = vld1q_u32(chacha_sigma_neon);
    const uint32x4_t s1 = vreinterpretq_u32_u8(vld1q_u8(key));
    const uint32x4_t s2 = vreinterpretq_u32_u8(vld1q_u8(key + 16));
    /* The counter is the low 64-bit half of row 3: a 64-bit add carries
     * from word 12 into word 13 as the layout requires. */
    const uint32x4_t r0 = vreinterpretq_u32_u64(row3);
    const uint32x4_t r1 = vreinterpretq_u32_u64(vaddq_u64(row3,
                                                          vld1q_u64(one)));
    const int two_blocks = len > 64;

    uint32x4_t a0 = s0, b0 = s1, c0 = s2, d0 = r0;
    uint32x4_t a1 = s0, b1 = s1, c1 = s2, d1 = r1;
    CHACHA_ROW_DOUBLE_ROUNDS(rounds, two_blocks, a0, b0, c0, d0, a1, b1, c1, d1)
    store_rows(out, in, two_blocks ? 64 : len, vaddq_u32(a0, s0),
               vaddq_u32(b0, s1), vaddq_u32(c0, s2), vaddq_u32(d0, r0));
    if (two_blocks)
        store_rows(out + 64, in + 64, len - 64, vaddq_u32(a1, s0),
                   vaddq_u32(b1, s1), vaddq_u32(c1, s2), vaddq_u32(d1, r1));
}

void chacha_stream_xor_neon(uint8_t *out, const uint8_t *in, size_t len,
                            const uint8_t key[CHACHA_KEY_BYTES],
                            const uint8_t row3[16], unsigned rounds)
{
    uint64x2_t r3 = vreinterpretq_u64_u8(vld1q_u8(row3));
    size_t done = 0;
    if (len > 128) {
        done = xor_vertical(out, in, len, key, row3, vgetq_lane_u64(r3, 0),
                            rounds);
        r3 = vsetq_lane_u64(vgetq_lane_u64(r3, 0) + done / 64, r3, 0);
    }
    if (done < len)
        chacha_stream_xor_rows_neon(out + done, in + done, len - done, key,
                                    r3, rounds);
}
