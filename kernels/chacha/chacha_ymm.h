/* ChaCha in ymm registers, shared by chacha_avx2.c and chacha_avx512.c, for
 * up to eight blocks at a time. Two layouts, picked by length:
 *  - eight blocks, one per 32-bit lane ("vertical"): vector i holds word i of
 *    all eight blocks, so rounds need no shuffles and the blocks are
 *    transposed only when written. Throughput-bound: for 512-byte batches,
 *    and for a last batch of more than four blocks.
 *  - rows ("horizontal"): a ymm holds one row of two blocks, in up to two
 *    sets of four rows, for at most four blocks. Latency-bound, but it does
 *    not pay for eight blocks to get one.
 *
 * Internal to kernels/chacha/, included once by each file above after it
 * defines
 *   CHACHA_ISA(name)    name with the ISA suffix, e.g. name##_avx2
 *   ROTL16(v), ROTL12(v), ROTL8(v), ROTL7(v)
 *                       the rotates of each word of an __m256i
 *   permute8(x, s, pre, rounds)
 *                       a force-inlined function: x = the eight states s
 *                       after `rounds` rounds, no feed-forward (both arrays
 *                       of 16 __m256i, 32-byte aligned); pre NULL or words
 *                       to start columns 1-3 from (chacha_vertical.h,
 *                       VERTICAL_PRE), which it may ignore
 * and compiled with that file's flags. It defines
 * CHACHA_ISA(chacha_stream_xor_rows) and the force-inlined chacha_xor_ymm,
 * which the including file's chacha_stream_xor calls. */
#if !defined(CHACHA_ISA) || !defined(ROTL16) || !defined(ROTL12) ||          \
    !defined(ROTL8) || !defined(ROTL7)
#error "define CHACHA_ISA and ROTL16/12/8/7 before including chacha_ymm.h"
#endif

#include <immintrin.h>

#include "chacha.h"
#include "chacha_rows.h"

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
blocks8(uint8_t *out, const uint8_t *in, const __m256i s[16],
        const uint32_t *pre, unsigned rounds)
{
    __m256i x[16];
    permute8(x, s, pre, rounds);
    for (int i = 0; i < 16; i++)
        x[i] = _mm256_add_epi32(x[i], s[i]);
    store8(out, in, x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]);
    store8(out + 32, in + 32, x[8], x[9], x[10], x[11], x[12], x[13], x[14],
           x[15]);
}

/* lo:hi += n per lane, carrying out of the low word (an unsigned compare,
 * made signed by biasing both sides by 2^31). */
static inline __attribute__((always_inline)) void
counter_add(__m256i *lo, __m256i *hi, __m256i n)
{
    const __m256i bias = _mm256_set1_epi32((int)0x80000000u);
    __m256i sum = _mm256_add_epi32(*lo, n);
    __m256i wrapped = _mm256_cmpgt_epi32(_mm256_xor_si256(*lo, bias),
                                         _mm256_xor_si256(sum, bias));
    *hi = _mm256_sub_epi32(*hi, wrapped);
    *lo = sum;
}

/* Whole 512-byte batches of eight blocks (chacha_vertical.h). */
#define VERTICAL_NAME xor_vertical8
#define VERTICAL_VEC __m256i
#define VERTICAL_LANES 8
#define VERTICAL_SET1 _mm256_set1_epi32
#define VERTICAL_LANE_INDEX _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define VERTICAL_COUNTER_ADD counter_add
#define VERTICAL_BATCH blocks8
#define VERTICAL_PRE
#include "chacha_vertical.h"

/* The four column quarter-rounds of a row set (two blocks). */
#define ROW_ROUND(a, b, c, d)                                                 \
    do {                                                                      \
        a = _mm256_add_epi32(a, b);                                           \
        d = ROTL16(_mm256_xor_si256(d, a));                                   \
        c = _mm256_add_epi32(c, d);                                           \
        b = ROTL12(_mm256_xor_si256(b, c));                                   \
        a = _mm256_add_epi32(a, b);                                           \
        d = ROTL8(_mm256_xor_si256(d, a));                                    \
        c = _mm256_add_epi32(c, d);                                           \
        b = ROTL7(_mm256_xor_si256(b, c));                                    \
    } while (0)

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
 * blocks 2 and 3. The second set runs only when needed: two sets together
 * are at the machine's issue limit, which lengthens the dependency chain a
 * lone set is bound by. Not inlined: in one frame with the batch loop, that
 * loop measured slower. */
static __attribute__((noinline)) void
CHACHA_ISA(chacha_stream_xor_rows)(uint8_t *out, const uint8_t *in,
                                   size_t len, const uint8_t *key,
                                   __m128i row3, unsigned rounds)
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
    CHACHA_ROW_DOUBLE_ROUNDS(rounds, two_sets, a0, b0, c0, d0, a1, b1, c1, d1)
    store_rows(out, in, two_sets ? 128 : len, _mm256_add_epi32(a0, s0),
               _mm256_add_epi32(b0, s1), _mm256_add_epi32(c0, s2),
               _mm256_add_epi32(d0, s3));
    if (two_sets)
        store_rows(out + 128, in + 128, len - 128, _mm256_add_epi32(a1, s0),
                   _mm256_add_epi32(b1, s1), _mm256_add_epi32(c1, s2),
                   _mm256_add_epi32(d1, t3));
}

/* out = in ^ keystream for len bytes from the counter in row3: eight-block
 * batches while more than four blocks are left, then rows. */
static inline __attribute__((always_inline)) void
chacha_xor_ymm(uint8_t *out, const uint8_t *in, size_t len,
               const uint8_t *key, __m128i row3, unsigned rounds)
{
    size_t done = 0;
    if (len > 256) {
        done = xor_vertical8(out, in, len, key, row3, rounds);
        row3 = _mm_add_epi64(row3, _mm_cvtsi64_si128((long long)(done / 64)));
    }
    if (done < len)
        CHACHA_ISA(chacha_stream_xor_rows)(out + done, in + done, len - done,
                                           key, row3, rounds);
}
