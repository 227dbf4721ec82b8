/* ChaCha in xmm registers, the body of chacha_sse2.c and chacha_ssse3.c,
 * which differ only in how they rotate by 16 and by 8. Two layouts, picked by
 * length, as in chacha_ymm.h:
 *  - four blocks, one per 32-bit lane ("vertical"): vector i holds word i of
 *    all four blocks, so rounds need no shuffles and the blocks are
 *    transposed only when written. For 256-byte batches, and for a last
 *    batch of more than two blocks.
 *  - rows ("horizontal"): an xmm register holds one row of a block, with up
 *    to two blocks in flight, for at most two blocks.
 *
 * Internal to kernels/chacha/, included once by each file above after it
 * defines
 *   CHACHA_ISA(name)    name with the ISA suffix, e.g. name##_sse2
 *   ROTL16(v), ROTL8(v) the rotates by 16 and 8 of each word of an __m128i
 * and compiled with that file's flags. It defines
 * CHACHA_ISA(chacha_stream_xor) and CHACHA_ISA(chacha_stream_xor_rows);
 * everything else is force-inlined. */
#if !defined(CHACHA_ISA) || !defined(ROTL16) || !defined(ROTL8)
#error "define CHACHA_ISA, ROTL16 and ROTL8 before including chacha_xmm.h"
#endif

#include <emmintrin.h>

#include "chacha.h"
#include "chacha_rows.h"

#define ROTL(v, n)                                                            \
    _mm_or_si128(_mm_slli_epi32(v, n), _mm_srli_epi32(v, 32 - (n)))

/* Four quarter-rounds side by side, one step at a time, so that each step's
 * four independent operations can issue together. */
#define QUARTERROUND4(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2,         \
                      a3, b3, c3, d3)                                         \
    do {                                                                      \
        a0 = _mm_add_epi32(a0, b0); a1 = _mm_add_epi32(a1, b1);               \
        a2 = _mm_add_epi32(a2, b2); a3 = _mm_add_epi32(a3, b3);               \
        d0 = ROTL16(_mm_xor_si128(d0, a0));                                   \
        d1 = ROTL16(_mm_xor_si128(d1, a1));                                   \
        d2 = ROTL16(_mm_xor_si128(d2, a2));                                   \
        d3 = ROTL16(_mm_xor_si128(d3, a3));                                   \
        c0 = _mm_add_epi32(c0, d0); c1 = _mm_add_epi32(c1, d1);               \
        c2 = _mm_add_epi32(c2, d2); c3 = _mm_add_epi32(c3, d3);               \
        b0 = ROTL(_mm_xor_si128(b0, c0), 12);                                 \
        b1 = ROTL(_mm_xor_si128(b1, c1), 12);                                 \
        b2 = ROTL(_mm_xor_si128(b2, c2), 12);                                 \
        b3 = ROTL(_mm_xor_si128(b3, c3), 12);                                 \
        a0 = _mm_add_epi32(a0, b0); a1 = _mm_add_epi32(a1, b1);               \
        a2 = _mm_add_epi32(a2, b2); a3 = _mm_add_epi32(a3, b3);               \
        d0 = ROTL8(_mm_xor_si128(d0, a0));                                    \
        d1 = ROTL8(_mm_xor_si128(d1, a1));                                    \
        d2 = ROTL8(_mm_xor_si128(d2, a2));                                    \
        d3 = ROTL8(_mm_xor_si128(d3, a3));                                    \
        c0 = _mm_add_epi32(c0, d0); c1 = _mm_add_epi32(c1, d1);               \
        c2 = _mm_add_epi32(c2, d2); c3 = _mm_add_epi32(c3, d3);               \
        b0 = ROTL(_mm_xor_si128(b0, c0), 7);                                  \
        b1 = ROTL(_mm_xor_si128(b1, c1), 7);                                  \
        b2 = ROTL(_mm_xor_si128(b2, c2), 7);                                  \
        b3 = ROTL(_mm_xor_si128(b3, c3), 7);                                  \
    } while (0)

/* lo:hi += n per lane, carrying out of the low word. SSE2 compares only
 * signed, so both sides are biased by 2^31 to compare unsigned. */
static inline __attribute__((always_inline)) void
counter_add(__m128i *lo, __m128i *hi, __m128i n)
{
    const __m128i bias = _mm_set1_epi32((int)0x80000000u);
    __m128i sum = _mm_add_epi32(*lo, n);
    __m128i wrapped = _mm_cmpgt_epi32(_mm_xor_si128(*lo, bias),
                                      _mm_xor_si128(sum, bias));
    *hi = _mm_sub_epi32(*hi, wrapped);
    *lo = sum;
}

/* Transpose four word-vectors into 16 bytes of each of four blocks and write
 * them, xored with in, at out + 64 * block. */
static inline __attribute__((always_inline)) void
store4(uint8_t *out, const uint8_t *in, __m128i a, __m128i b, __m128i c,
       __m128i d)
{
    __m128i ab_lo = _mm_unpacklo_epi32(a, b), ab_hi = _mm_unpackhi_epi32(a, b);
    __m128i cd_lo = _mm_unpacklo_epi32(c, d), cd_hi = _mm_unpackhi_epi32(c, d);
    __m128i v[4] = {
        _mm_unpacklo_epi64(ab_lo, cd_lo), _mm_unpackhi_epi64(ab_lo, cd_lo),
        _mm_unpacklo_epi64(ab_hi, cd_hi), _mm_unpackhi_epi64(ab_hi, cd_hi),
    };
    for (int i = 0; i < 4; i++) {
        __m128i m = _mm_loadu_si128((const __m128i *)(in + 64 * i));
        _mm_storeu_si128((__m128i *)(out + 64 * i), _mm_xor_si128(v[i], m));
    }
}

/* 256 bytes: out = in ^ keystream of the four blocks in s. */
static inline __attribute__((always_inline)) void
blocks4(uint8_t *out, const uint8_t *in, const __m128i s[16], unsigned rounds)
{
    __m128i x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3];
    __m128i x4 = s[4], x5 = s[5], x6 = s[6], x7 = s[7];
    __m128i x8 = s[8], x9 = s[9], x10 = s[10], x11 = s[11];
    __m128i x12 = s[12], x13 = s[13], x14 = s[14], x15 = s[15];
    for (unsigned r = 0; r < rounds; r += 2) {
        QUARTERROUND4(x0, x4, x8, x12, x1, x5, x9, x13,
                      x2, x6, x10, x14, x3, x7, x11, x15);
        QUARTERROUND4(x0, x5, x10, x15, x1, x6, x11, x12,
                      x2, x7, x8, x13, x3, x4, x9, x14);
    }
    store4(out, in, _mm_add_epi32(x0, s[0]), _mm_add_epi32(x1, s[1]),
           _mm_add_epi32(x2, s[2]), _mm_add_epi32(x3, s[3]));
    store4(out + 16, in + 16, _mm_add_epi32(x4, s[4]),
           _mm_add_epi32(x5, s[5]), _mm_add_epi32(x6, s[6]),
           _mm_add_epi32(x7, s[7]));
    store4(out + 32, in + 32, _mm_add_epi32(x8, s[8]),
           _mm_add_epi32(x9, s[9]), _mm_add_epi32(x10, s[10]),
           _mm_add_epi32(x11, s[11]));
    store4(out + 48, in + 48, _mm_add_epi32(x12, s[12]),
           _mm_add_epi32(x13, s[13]), _mm_add_epi32(x14, s[14]),
           _mm_add_epi32(x15, s[15]));
}

/* Whole 256-byte batches of four blocks (chacha_vertical.h). */
#define VERTICAL_NAME xor_vertical
#define VERTICAL_VEC __m128i
#define VERTICAL_LANES 4
#define VERTICAL_SET1 _mm_set1_epi32
#define VERTICAL_LANE_INDEX _mm_setr_epi32(0, 1, 2, 3)
#define VERTICAL_COUNTER_ADD counter_add
#define VERTICAL_BATCH blocks4
#include "chacha_vertical.h"

/* The four column quarter-rounds of one block held as rows. */
#define ROW_ROUND(a, b, c, d)                                                 \
    do {                                                                      \
        a = _mm_add_epi32(a, b);                                              \
        d = ROTL16(_mm_xor_si128(d, a));                                      \
        c = _mm_add_epi32(c, d);                                              \
        b = ROTL(_mm_xor_si128(b, c), 12);                                    \
        a = _mm_add_epi32(a, b);                                              \
        d = ROTL8(_mm_xor_si128(d, a));                                       \
        c = _mm_add_epi32(c, d);                                              \
        b = ROTL(_mm_xor_si128(b, c), 7);                                     \
    } while (0)

/* Line the diagonals up as columns (and back). Rows 0, 2 and 3 move rather
 * than 1-3: row 1 is the last one a round writes and the first the next
 * reads, so shuffling it would lengthen the dependency chain. */
#define SHUFFLE_ROWS(a, c, d, ai, ci, di)                                     \
    do {                                                                      \
        a = _mm_shuffle_epi32(a, ai);                                         \
        c = _mm_shuffle_epi32(c, ci);                                         \
        d = _mm_shuffle_epi32(d, di);                                         \
    } while (0)
#define DIAGONALIZE(a, c, d) SHUFFLE_ROWS(a, c, d, 0x93, 0x39, 0x4e)
#define UNDIAGONALIZE(a, c, d) SHUFFLE_ROWS(a, c, d, 0x39, 0x93, 0x4e)

/* out = in ^ the keystream of one block in rows, for len <= 64. */
static inline __attribute__((always_inline)) void
store_rows(uint8_t *out, const uint8_t *in, size_t len, __m128i a, __m128i b,
           __m128i c, __m128i d)
{
    __m128i ks[4] = { a, b, c, d };
    size_t i = 0;
    for (; i + 16 <= len; i += 16) {
        __m128i m = _mm_loadu_si128((const __m128i *)(in + i));
        _mm_storeu_si128((__m128i *)(out + i), _mm_xor_si128(m, ks[i / 16]));
    }
    if (i < len) {
        uint8_t tail[16];
        _mm_storeu_si128((__m128i *)tail, ks[i / 16]);
        for (size_t j = 0; i + j < len; j++)
            out[i + j] = in[i + j] ^ tail[j];
    }
}

/* At most 128 bytes (two blocks) in rows; the second block runs only when
 * needed. Not inlined, as in chacha_ymm.h, to keep the batch loop's frame
 * its own. */
static __attribute__((noinline)) void
CHACHA_ISA(chacha_stream_xor_rows)(uint8_t *out, const uint8_t *in,
                                   size_t len, const uint8_t *key,
                                   __m128i row3, unsigned rounds)
{
    const __m128i s0 = _mm_setr_epi32(0x61707865, 0x3320646e, 0x79622d32,
                                      0x6b206574);
    const __m128i s1 = _mm_loadu_si128((const __m128i *)key);
    const __m128i s2 = _mm_loadu_si128((const __m128i *)(key + 16));
    /* The counter is the low 64-bit half of row 3: a 64-bit add carries
     * from word 12 into word 13 as the layout requires. */
    const __m128i t3 = _mm_add_epi64(row3, _mm_setr_epi32(1, 0, 0, 0));
    const int two_blocks = len > 64;

    __m128i a0 = s0, b0 = s1, c0 = s2, d0 = row3;
    __m128i a1 = s0, b1 = s1, c1 = s2, d1 = t3;
    CHACHA_ROW_DOUBLE_ROUNDS(rounds, two_blocks, a0, b0, c0, d0, a1, b1, c1, d1)
    store_rows(out, in, two_blocks ? 64 : len, _mm_add_epi32(a0, s0),
               _mm_add_epi32(b0, s1), _mm_add_epi32(c0, s2),
               _mm_add_epi32(d0, row3));
    if (two_blocks)
        store_rows(out + 64, in + 64, len - 64, _mm_add_epi32(a1, s0),
                   _mm_add_epi32(b1, s1), _mm_add_epi32(c1, s2),
                   _mm_add_epi32(d1, t3));
}

void CHACHA_ISA(chacha_stream_xor)(uint8_t *out, const uint8_t *in,
                                   size_t len,
                                   const uint8_t key[CHACHA_KEY_BYTES],
                                   const uint8_t row3[16], unsigned rounds)
{
    __m128i r3 = _mm_loadu_si128((const __m128i *)row3);
    size_t done = 0;
    if (len > 128) {
        done = xor_vertical(out, in, len, key, r3, rounds);
        r3 = _mm_add_epi64(r3, _mm_cvtsi64_si128((long long)(done / 64)));
    }
    if (done < len)
        CHACHA_ISA(chacha_stream_xor_rows)(out + done, in + done, len - done,
                                           key, r3, rounds);
}
