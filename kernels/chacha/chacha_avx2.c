/* Two layouts, picked by length:
 *  - eight blocks, one per 32-bit lane ("vertical"): vector i holds word i of
 *    all eight blocks, so rounds need no shuffles and the blocks are
 *    transposed only when written. Throughput-bound: for 512-byte batches,
 *    and for a last batch of more than four blocks.
 *  - rows ("horizontal"): a ymm holds one row of two blocks, in up to two
 *    sets of four rows, for at most four blocks. Latency-bound, but it does
 *    not pay for eight blocks to get one.
 * pshufb does the rotates by 16 and 8; 12 and 7 are shift/shift/or. */
#include <immintrin.h>

#include "chacha.h"

/* The vertical double rounds are written in assembly because 16 state
 * vectors fill all 16 ymm registers, and GCC then spills values that are on
 * the critical path (about 8% slower at 16 KiB on Zen 4; clang does no
 * better). Here the assignment is fixed, as in OpenSSL's chacha-x86_64.pl:
 * a, b and d rows stay in registers, two of the four c rows live on the
 * stack and swap with the other two mid-round, ymm10 is the shift temporary
 * and ymm11 holds the rotate-by-16 mask. */
#define Y(i) "%%ymm" #i
#define ADD(a, b) "vpaddd " Y(b) ", " Y(a) ", " Y(a) "\n\t"
#define XOR(d, a) "vpxor " Y(a) ", " Y(d) ", " Y(d) "\n\t"
#define ROT16(v) "vpshufb %%ymm11, " Y(v) ", " Y(v) "\n\t"
#define ROT8(v) "vpshufb %[rot8], " Y(v) ", " Y(v) "\n\t"
#define ROT(v, n)                                                             \
    "vpslld $" #n ", " Y(v) ", %%ymm10\n\t"                                   \
    "vpsrld $32-" #n ", " Y(v) ", " Y(v) "\n\t"                               \
    "vpor %%ymm10, " Y(v) ", " Y(v) "\n\t"
/* Two quarter-rounds, interleaved step by step. */
#define QUARTERROUND2(a0, b0, c0, d0, a1, b1, c1, d1)                         \
    ADD(a0, b0) XOR(d0, a0) ROT16(d0)                                         \
    ADD(a1, b1) XOR(d1, a1) ROT16(d1)                                         \
    ADD(c0, d0) XOR(b0, c0) ROT(b0, 12)                                       \
    ADD(c1, d1) XOR(b1, c1) ROT(b1, 12)                                       \
    ADD(a0, b0) XOR(d0, a0) ROT8(d0)                                          \
    ADD(a1, b1) XOR(d1, a1) ROT8(d1)                                          \
    ADD(c0, d0) XOR(b0, c0) ROT(b0, 7)                                        \
    ADD(c1, d1) XOR(b1, c1) ROT(b1, 7)
#define LOAD(i) "vmovdqa " #i "*32(%[s]), " Y(i) "\n\t"
#define STORE(i) "vmovdqa " Y(i) ", " #i "*32(%[x])\n\t"
/* ymm8/ymm9 hold one pair of c rows (words 8-9 or 10-11), the other pair
 * waits at its place in x: park the pair in registers at x[out], x[out + 1]
 * and fetch x[in], x[in + 1]. */
#define SWAP_C(out, in)                                                       \
    "vmovdqa %%ymm8, " #out "*32(%[x])\n\t"                                   \
    "vmovdqa %%ymm9, " #out "*32+32(%[x])\n\t"                                \
    "vmovdqa " #in "*32(%[x]), %%ymm8\n\t"                                    \
    "vmovdqa " #in "*32+32(%[x]), %%ymm9\n\t"

/* x = the eight states s after `rounds` rounds (no feed-forward). The loop
 * runs at least once: rounds is 8, 12 or 20. s and x are 32-byte aligned. */
static inline __attribute__((always_inline)) void
permute8(__m256i x[16], const __m256i s[16], unsigned rounds)
{
    static const uint8_t rot16[32] = {
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
    };
    static const uint8_t rot8[32] = {
        3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
        3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
    };
    unsigned double_rounds = rounds / 2;
    __asm__(
        LOAD(0) LOAD(1) LOAD(2) LOAD(3) LOAD(4) LOAD(5) LOAD(6) LOAD(7)
        LOAD(8) LOAD(9) LOAD(12) LOAD(13) LOAD(14) LOAD(15)
        "vmovdqa 10*32(%[s]), %%ymm10\n\t"
        "vmovdqa %%ymm10, 10*32(%[x])\n\t"
        "vmovdqa 11*32(%[s]), %%ymm10\n\t"
        "vmovdqa %%ymm10, 11*32(%[x])\n\t"
        "vmovdqu %[rot16], %%ymm11\n\t"
        ".p2align 5\n\t"
        "1:\n\t"
        QUARTERROUND2(0, 4, 8, 12, 1, 5, 9, 13)
        SWAP_C(8, 10)
        QUARTERROUND2(2, 6, 8, 14, 3, 7, 9, 15)
        QUARTERROUND2(0, 5, 8, 15, 1, 6, 9, 12)
        SWAP_C(10, 8)
        QUARTERROUND2(2, 7, 8, 13, 3, 4, 9, 14)
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        STORE(0) STORE(1) STORE(2) STORE(3) STORE(4) STORE(5) STORE(6)
        STORE(7) STORE(8) STORE(9) STORE(12) STORE(13) STORE(14) STORE(15)
        : [n] "+r"(double_rounds), "=m"(*(__m256i(*)[16])x)
        : [s] "r"(s), [x] "r"(x), "m"(*(const __m256i(*)[16])s),
          [rot16] "m"(rot16), [rot8] "m"(rot8)
        : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
          "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
          "xmm14", "xmm15");
}

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
    __m256i x[16];
    permute8(x, s, rounds);
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

/* Whole 512-byte batches, then a last batch of more than four blocks through
 * a stack buffer. Returns the bytes done: all of len, or the whole batches
 * when at most four blocks are left. */
static inline __attribute__((always_inline)) size_t
xor_vertical(uint8_t *out, const uint8_t *in, size_t len, const uint8_t *key,
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
    counter_add(&s[12], &s[13], _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));

    size_t done = 0;
    for (; len - done >= 512; done += 512) {
        blocks8(out + done, in + done, s, rounds);
        counter_add(&s[12], &s[13], _mm256_set1_epi32(8));
    }
    if (len - done > 256) {
        /* xored with zeros: the bare keystream, so that nothing past len
         * is read or written. */
        static const uint8_t zeros[512];
        uint8_t ks[512];
        blocks8(ks, zeros, s, rounds);
        for (size_t i = 0; done + i < len; i++)
            out[done + i] = in[done + i] ^ ks[i];
        done = len;
    }
    return done;
}

#define ROTL(v, n)                                                            \
    _mm256_or_si256(_mm256_slli_epi32(v, n), _mm256_srli_epi32(v, 32 - (n)))

/* The four column quarter-rounds of a row set (two blocks). */
#define ROW_ROUND(a, b, c, d)                                                 \
    do {                                                                      \
        a = _mm256_add_epi32(a, b);                                           \
        d = _mm256_shuffle_epi8(_mm256_xor_si256(d, a), rot16);               \
        c = _mm256_add_epi32(c, d);                                           \
        b = ROTL(_mm256_xor_si256(b, c), 12);                                 \
        a = _mm256_add_epi32(a, b);                                           \
        d = _mm256_shuffle_epi8(_mm256_xor_si256(d, a), rot8);                \
        c = _mm256_add_epi32(c, d);                                           \
        b = ROTL(_mm256_xor_si256(b, c), 7);                                  \
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
 * loop ran 10% slower. */
static __attribute__((noinline)) void
chacha_stream_xor_rows_avx2(uint8_t *out, const uint8_t *in, size_t len,
                            const uint8_t *key, __m128i row3, unsigned rounds)
{
    const __m256i rot16 = _mm256_setr_epi8(
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
    const __m256i rot8 = _mm256_setr_epi8(
        3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
        3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
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
    store_rows(out, in, two_sets ? 128 : len, _mm256_add_epi32(a0, s0),
               _mm256_add_epi32(b0, s1), _mm256_add_epi32(c0, s2),
               _mm256_add_epi32(d0, s3));
    if (two_sets)
        store_rows(out + 128, in + 128, len - 128, _mm256_add_epi32(a1, s0),
                   _mm256_add_epi32(b1, s1), _mm256_add_epi32(c1, s2),
                   _mm256_add_epi32(d1, t3));
}

void chacha_stream_xor_avx2(uint8_t *out, const uint8_t *in, size_t len,
                            const uint8_t key[CHACHA_KEY_BYTES],
                            const uint8_t row3[16], unsigned rounds)
{
    __m128i r3 = _mm_loadu_si128((const __m128i *)row3);
    size_t done = 0;
    if (len > 256) {
        done = xor_vertical(out, in, len, key, r3, rounds);
        r3 = _mm_add_epi64(r3, _mm_cvtsi64_si128((long long)(done / 64)));
    }
    if (done < len)
        chacha_stream_xor_rows_avx2(out + done, in + done, len - done, key,
                                    r3, rounds);
}
