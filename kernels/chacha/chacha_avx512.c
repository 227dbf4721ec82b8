/* The layouts of chacha_avx2.c, one width up, with vprold doing every rotate
 * in one instruction:
 *  - sixteen blocks, one per 32-bit lane of a zmm register ("vertical"), for
 *    1024-byte batches and a last batch of more than eight blocks;
 *  - eight blocks vertical in ymm registers, for a last five to eight;
 *  - rows ("horizontal") in ymm registers, two blocks per set and up to two
 *    sets, for at most four blocks.
 * With 32 vector registers the state never spills, so unlike the avx2 file
 * there is no assembly here. */
#include <immintrin.h>

#include "chacha.h"

/* One quarter-round, with the vector width's add, xor and rotate. */
#define QUARTERROUND(add, xor, rol, a, b, c, d)                               \
    do {                                                                      \
        a = add(a, b); d = rol(xor(d, a), 16);                                \
        c = add(c, d); b = rol(xor(b, c), 12);                                \
        a = add(a, b); d = rol(xor(d, a), 8);                                 \
        c = add(c, d); b = rol(xor(b, c), 7);                                 \
    } while (0)

/* A column round and a diagonal round on sixteen vectors of words. */
#define DOUBLEROUND(add, xor, rol)                                            \
    do {                                                                      \
        QUARTERROUND(add, xor, rol, x0, x4, x8, x12);                         \
        QUARTERROUND(add, xor, rol, x1, x5, x9, x13);                         \
        QUARTERROUND(add, xor, rol, x2, x6, x10, x14);                        \
        QUARTERROUND(add, xor, rol, x3, x7, x11, x15);                        \
        QUARTERROUND(add, xor, rol, x0, x5, x10, x15);                        \
        QUARTERROUND(add, xor, rol, x1, x6, x11, x12);                        \
        QUARTERROUND(add, xor, rol, x2, x7, x8, x13);                         \
        QUARTERROUND(add, xor, rol, x3, x4, x9, x14);                         \
    } while (0)

#define ADD512 _mm512_add_epi32
#define XOR512 _mm512_xor_si512
#define ROL512 _mm512_rol_epi32
#define ADD256 _mm256_add_epi32
#define XOR256 _mm256_xor_si256
#define ROL256 _mm256_rol_epi32

/* Sixteen blocks. */

/* Transpose four word-vectors (words i..i+3 of the sixteen blocks) into 16
 * bytes of each block: 4x4 word transposes within each 128-bit lane leave
 * t[j] with, in lane L, the words of block 4L + j. */
static inline __attribute__((always_inline)) void
transpose_words16(__m512i t[4], __m512i a, __m512i b, __m512i c, __m512i d)
{
    __m512i ab0 = _mm512_unpacklo_epi32(a, b);
    __m512i ab1 = _mm512_unpackhi_epi32(a, b);
    __m512i cd0 = _mm512_unpacklo_epi32(c, d);
    __m512i cd1 = _mm512_unpackhi_epi32(c, d);
    t[0] = _mm512_unpacklo_epi64(ab0, cd0);
    t[1] = _mm512_unpackhi_epi64(ab0, cd0);
    t[2] = _mm512_unpacklo_epi64(ab1, cd1);
    t[3] = _mm512_unpackhi_epi64(ab1, cd1);
}

/* Given lane L of w[g] = words 4g..4g+3 of block 4L + j, write block 4L + j
 * (lane L of every w[g]), xored with in, at out + 256 * L: a 4x4 transpose
 * of 128-bit lanes. */
static inline __attribute__((always_inline)) void
store_lanes16(uint8_t *out, const uint8_t *in, __m512i w0, __m512i w1,
              __m512i w2, __m512i w3)
{
    __m512i u0 = _mm512_shuffle_i32x4(w0, w1, 0x44); /* w0.0 w0.1 w1.0 w1.1 */
    __m512i u1 = _mm512_shuffle_i32x4(w0, w1, 0xee); /* w0.2 w0.3 w1.2 w1.3 */
    __m512i u2 = _mm512_shuffle_i32x4(w2, w3, 0x44);
    __m512i u3 = _mm512_shuffle_i32x4(w2, w3, 0xee);
    __m512i v[4] = {
        _mm512_shuffle_i32x4(u0, u2, 0x88), /* w0.0 w1.0 w2.0 w3.0 */
        _mm512_shuffle_i32x4(u0, u2, 0xdd), /* w0.1 w1.1 w2.1 w3.1 */
        _mm512_shuffle_i32x4(u1, u3, 0x88),
        _mm512_shuffle_i32x4(u1, u3, 0xdd),
    };
    for (int l = 0; l < 4; l++) {
        __m512i m = _mm512_loadu_si512(in + 256 * l);
        _mm512_storeu_si512(out + 256 * l, _mm512_xor_si512(v[l], m));
    }
}

/* 1024 bytes: out = in ^ keystream of the sixteen blocks in s. */
static inline __attribute__((always_inline)) void
blocks16(uint8_t *out, const uint8_t *in, const __m512i s[16],
         unsigned rounds)
{
    __m512i x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3];
    __m512i x4 = s[4], x5 = s[5], x6 = s[6], x7 = s[7];
    __m512i x8 = s[8], x9 = s[9], x10 = s[10], x11 = s[11];
    __m512i x12 = s[12], x13 = s[13], x14 = s[14], x15 = s[15];
    for (unsigned r = 0; r < rounds; r += 2)
        DOUBLEROUND(ADD512, XOR512, ROL512);
    __m512i w0[4], w1[4], w2[4], w3[4];
    transpose_words16(w0, ADD512(x0, s[0]), ADD512(x1, s[1]),
                      ADD512(x2, s[2]), ADD512(x3, s[3]));
    transpose_words16(w1, ADD512(x4, s[4]), ADD512(x5, s[5]),
                      ADD512(x6, s[6]), ADD512(x7, s[7]));
    transpose_words16(w2, ADD512(x8, s[8]), ADD512(x9, s[9]),
                      ADD512(x10, s[10]), ADD512(x11, s[11]));
    transpose_words16(w3, ADD512(x12, s[12]), ADD512(x13, s[13]),
                      ADD512(x14, s[14]), ADD512(x15, s[15]));
    for (int j = 0; j < 4; j++)
        store_lanes16(out + 64 * j, in + 64 * j, w0[j], w1[j], w2[j], w3[j]);
}

/* lo:hi += n per lane, carrying out of the low word. */
static inline __attribute__((always_inline)) void
counter_add16(__m512i *lo, __m512i *hi, __m512i n)
{
    __m512i sum = _mm512_add_epi32(*lo, n);
    __mmask16 wrapped = _mm512_cmplt_epu32_mask(sum, *lo);
    *hi = _mm512_mask_add_epi32(*hi, wrapped, *hi, _mm512_set1_epi32(1));
    *lo = sum;
}

/* Whole 1024-byte batches, then a last batch of more than eight blocks
 * through a stack buffer. Returns the bytes done: all of len, or the whole
 * batches when at most eight blocks are left. */
static inline __attribute__((always_inline)) size_t
xor_vertical16(uint8_t *out, const uint8_t *in, size_t len,
               const uint8_t *key, __m128i row3, unsigned rounds)
{
    __m512i s[16];
    s[0] = _mm512_set1_epi32(0x61707865);
    s[1] = _mm512_set1_epi32(0x3320646e);
    s[2] = _mm512_set1_epi32(0x79622d32);
    s[3] = _mm512_set1_epi32(0x6b206574);
    for (int i = 0; i < 8; i++)
        s[4 + i] = _mm512_broadcastd_epi32(_mm_loadu_si32(key + 4 * i));
    s[12] = _mm512_broadcastd_epi32(row3);
    s[13] = _mm512_broadcastd_epi32(_mm_srli_si128(row3, 4));
    s[14] = _mm512_broadcastd_epi32(_mm_srli_si128(row3, 8));
    s[15] = _mm512_broadcastd_epi32(_mm_srli_si128(row3, 12));
    counter_add16(&s[12], &s[13],
                  _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                    13, 14, 15));

    size_t done = 0;
    for (; len - done >= 1024; done += 1024) {
        blocks16(out + done, in + done, s, rounds);
        counter_add16(&s[12], &s[13], _mm512_set1_epi32(16));
    }
    if (len - done > 512) {
        /* xored with zeros: the bare keystream, so that nothing past len
         * is read or written. */
        static const uint8_t zeros[1024];
        uint8_t ks[1024];
        blocks16(ks, zeros, s, rounds);
        for (size_t i = 0; done + i < len; i++)
            out[done + i] = in[done + i] ^ ks[i];
        done = len;
    }
    return done;
}

/* Eight blocks: as chacha_avx2.c, with vprold. */

/* Transpose eight word-vectors (words i..i+7 of the eight blocks) into 32
 * bytes of each block and write them, xored with in, at out + 64 * block. */
static inline __attribute__((always_inline)) void
store8(uint8_t *out, const uint8_t *in, __m256i a, __m256i b, __m256i c,
       __m256i d, __m256i e, __m256i f, __m256i g, __m256i h)
{
    /* 4x4 transposes within 128-bit halves: lo[j] holds words 0-3 of
     * blocks j and j + 4, hi[j] words 4-7 of them. */
    __m256i ab0 = _mm256_unpacklo_epi32(a, b);
    __m256i ab1 = _mm256_unpackhi_epi32(a, b);
    __m256i cd0 = _mm256_unpacklo_epi32(c, d);
    __m256i cd1 = _mm256_unpackhi_epi32(c, d);
    __m256i ef0 = _mm256_unpacklo_epi32(e, f);
    __m256i ef1 = _mm256_unpackhi_epi32(e, f);
    __m256i gh0 = _mm256_unpacklo_epi32(g, h);
    __m256i gh1 = _mm256_unpackhi_epi32(g, h);
    __m256i lo[4] = {
        _mm256_unpacklo_epi64(ab0, cd0), _mm256_unpackhi_epi64(ab0, cd0),
        _mm256_unpacklo_epi64(ab1, cd1), _mm256_unpackhi_epi64(ab1, cd1),
    };
    __m256i hi[4] = {
        _mm256_unpacklo_epi64(ef0, gh0), _mm256_unpackhi_epi64(ef0, gh0),
        _mm256_unpacklo_epi64(ef1, gh1), _mm256_unpackhi_epi64(ef1, gh1),
    };
    for (int j = 0; j < 4; j++) {
        __m256i v0 = _mm256_permute2x128_si256(lo[j], hi[j], 0x20);
        __m256i v1 = _mm256_permute2x128_si256(lo[j], hi[j], 0x31);
        __m256i m0 = _mm256_loadu_si256((const __m256i *)(in + 64 * j));
        __m256i m1 = _mm256_loadu_si256((const __m256i *)(in + 64 * j + 256));
        _mm256_storeu_si256((__m256i *)(out + 64 * j),
                            _mm256_xor_si256(v0, m0));
        _mm256_storeu_si256((__m256i *)(out + 64 * j + 256),
                            _mm256_xor_si256(v1, m1));
    }
}

/* 512 bytes: out = in ^ keystream of the eight blocks in s. */
static inline __attribute__((always_inline)) void
blocks8(uint8_t *out, const uint8_t *in, const __m256i s[16], unsigned rounds)
{
    __m256i x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3];
    __m256i x4 = s[4], x5 = s[5], x6 = s[6], x7 = s[7];
    __m256i x8 = s[8], x9 = s[9], x10 = s[10], x11 = s[11];
    __m256i x12 = s[12], x13 = s[13], x14 = s[14], x15 = s[15];
    for (unsigned r = 0; r < rounds; r += 2)
        DOUBLEROUND(ADD256, XOR256, ROL256);
    store8(out, in, ADD256(x0, s[0]), ADD256(x1, s[1]), ADD256(x2, s[2]),
           ADD256(x3, s[3]), ADD256(x4, s[4]), ADD256(x5, s[5]),
           ADD256(x6, s[6]), ADD256(x7, s[7]));
    store8(out + 32, in + 32, ADD256(x8, s[8]), ADD256(x9, s[9]),
           ADD256(x10, s[10]), ADD256(x11, s[11]), ADD256(x12, s[12]),
           ADD256(x13, s[13]), ADD256(x14, s[14]), ADD256(x15, s[15]));
}

/* Five to eight blocks (256 < len <= 512), through a stack buffer unless
 * they fill the batch. */
static inline __attribute__((always_inline)) void
xor_vertical8(uint8_t *out, const uint8_t *in, size_t len, const uint8_t *key,
              __m128i row3, unsigned rounds)
{
    __m256i s[16];
    s[0] = _mm256_set1_epi32(0x61707865);
    s[1] = _mm256_set1_epi32(0x3320646e);
    s[2] = _mm256_set1_epi32(0x79622d32);
    s[3] = _mm256_set1_epi32(0x6b206574);
    for (int i = 0; i < 8; i++)
        s[4 + i] = _mm256_broadcastd_epi32(_mm_loadu_si32(key + 4 * i));
    s[12] = _mm256_broadcastd_epi32(row3);
    s[13] = _mm256_broadcastd_epi32(_mm_srli_si128(row3, 4));
    s[14] = _mm256_broadcastd_epi32(_mm_srli_si128(row3, 8));
    s[15] = _mm256_broadcastd_epi32(_mm_srli_si128(row3, 12));
    __m256i sum = _mm256_add_epi32(s[12],
                                   _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    __mmask8 wrapped = _mm256_cmplt_epu32_mask(sum, s[12]);
    s[13] = _mm256_mask_add_epi32(s[13], wrapped, s[13], _mm256_set1_epi32(1));
    s[12] = sum;

    if (len == 512) {
        blocks8(out, in, s, rounds);
        return;
    }
    static const uint8_t zeros[512];
    uint8_t ks[512];
    blocks8(ks, zeros, s, rounds);
    for (size_t i = 0; i < len; i++)
        out[i] = in[i] ^ ks[i];
}

/* One to four blocks in rows: as chacha_avx2.c, with vprold. */

/* The four column quarter-rounds of a row set (two blocks). */
#define ROW_ROUND(a, b, c, d) QUARTERROUND(ADD256, XOR256, ROL256, a, b, c, d)

/* Line the diagonals up as columns (and back). Rows 0, 2 and 3 move rather
 * than 1-3: row 1 is the last one a round writes and the first the next
 * reads, so shuffling it would lengthen the dependency chain. */
#define SHUFFLE_ROWS(a, c, d, ai, ci, di)                                     \
    do {                                                                      \
        a = _mm256_shuffle_epi32(a, ai);                                      \
        c = _mm256_shuffle_epi32(c, ci);                                      \
        d = _mm256_shuffle_epi32(d, di);                                      \
    } while (0)
#define DIAGONALIZE(a, c, d) SHUFFLE_ROWS(a, c, d, 0x93, 0x39, 0x4e)
#define UNDIAGONALIZE(a, c, d) SHUFFLE_ROWS(a, c, d, 0x39, 0x93, 0x4e)

/* out = in ^ the keystream of one row set (two blocks), for len <= 128. */
static inline __attribute__((always_inline)) void
store_rows(uint8_t *out, const uint8_t *in, size_t len, __m256i a, __m256i b,
           __m256i c, __m256i d)
{
    __m256i ks[4] = {
        _mm256_permute2x128_si256(a, b, 0x20),
        _mm256_permute2x128_si256(c, d, 0x20),
        _mm256_permute2x128_si256(a, b, 0x31),
        _mm256_permute2x128_si256(c, d, 0x31),
    };
    size_t i = 0;
    for (; i + 32 <= len; i += 32) {
        __m256i m = _mm256_loadu_si256((const __m256i *)(in + i));
        _mm256_storeu_si256((__m256i *)(out + i),
                            _mm256_xor_si256(m, ks[i / 32]));
    }
    if (i < len) {
        uint8_t tail[32];
        _mm256_storeu_si256((__m256i *)tail, ks[i / 32]);
        for (size_t j = 0; i + j < len; j++)
            out[i + j] = in[i + j] ^ tail[j];
    }
}

/* At most 256 bytes (four blocks) in rows: set 0 holds blocks 0 and 1, set 1
 * blocks 2 and 3, which runs only when needed. Not inlined, as in the avx2
 * file, to keep the batch loop's frame its own. */
static __attribute__((noinline)) void
chacha_stream_xor_rows_avx512(uint8_t *out, const uint8_t *in, size_t len,
                              const uint8_t *key, __m128i row3,
                              unsigned rounds)
{
    const __m256i s0 = _mm256_setr_epi32(0x61707865, 0x3320646e, 0x79622d32,
                                         0x6b206574, 0x61707865, 0x3320646e,
                                         0x79622d32, 0x6b206574);
    const __m256i s1 = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)key));
    const __m256i s2 = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(key + 16)));
    /* The counter is the low 64-bit half of row 3: a 64-bit add carries
     * from word 12 into word 13 as the layout requires. */
    const __m256i r3 = _mm256_broadcastsi128_si256(row3);
    const __m256i s3 = _mm256_add_epi64(r3, _mm256_set_epi64x(0, 1, 0, 0));
    const __m256i t3 = _mm256_add_epi64(r3, _mm256_set_epi64x(0, 3, 0, 2));
    const int two_sets = len > 128;

    __m256i a0 = s0, b0 = s1, c0 = s2, d0 = s3;
    __m256i a1 = s0, b1 = s1, c1 = s2, d1 = t3;
    for (unsigned r = 0; r < rounds; r += 2) {
        ROW_ROUND(a0, b0, c0, d0);
        if (two_sets)
            ROW_ROUND(a1, b1, c1, d1);
        DIAGONALIZE(a0, c0, d0);
        if (two_sets)
            DIAGONALIZE(a1, c1, d1);
        ROW_ROUND(a0, b0, c0, d0);
        if (two_sets)
            ROW_ROUND(a1, b1, c1, d1);
        UNDIAGONALIZE(a0, c0, d0);
        if (two_sets)
            UNDIAGONALIZE(a1, c1, d1);
    }
    store_rows(out, in, two_sets ? 128 : len, ADD256(a0, s0), ADD256(b0, s1),
               ADD256(c0, s2), ADD256(d0, s3));
    if (two_sets)
        store_rows(out + 128, in + 128, len - 128, ADD256(a1, s0),
                   ADD256(b1, s1), ADD256(c1, s2), ADD256(d1, t3));
}

void chacha_stream_xor_avx512(uint8_t *out, const uint8_t *in, size_t len,
                              const uint8_t key[CHACHA_KEY_BYTES],
                              const uint8_t row3[16], unsigned rounds)
{
    __m128i r3 = _mm_loadu_si128((const __m128i *)row3);
    size_t done = 0;
    if (len > 512) {
        done = xor_vertical16(out, in, len, key, r3, rounds);
        r3 = _mm_add_epi64(r3, _mm_cvtsi64_si128((long long)(done / 64)));
    }
    if (len - done > 256) {
        xor_vertical8(out + done, in + done, len - done, key, r3, rounds);
        return;
    }
    if (done < len)
        chacha_stream_xor_rows_avx512(out + done, in + done, len - done, key,
                                      r3, rounds);
}
