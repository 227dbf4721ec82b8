/* The layouts of chacha_ymm.h, one width up, with vprold doing every rotate
 * in one instruction:
 *  - thirty-two blocks as two sets of sixteen, each block in one 32-bit
 *    lane of a zmm register ("vertical"), for 2048-byte batches and a last
 *    batch of more than sixteen blocks (ZSTEP2 says why two);
 *  - sixteen blocks so for a 1024-byte batch and a last batch of more than
 *    eight blocks;
 *  - the rest through chacha_ymm.h, the code chacha_avx2.c runs: eight
 *    blocks vertical in ymm registers, for a last five to eight; rows
 *    ("horizontal") in ymm registers, two blocks per set and up to two sets,
 *    for at most four blocks;
 *  - two streams of eight blocks each in the sixteen lanes
 *    (chacha_stream_xor2_avx512, at the end of the file).
 * With 32 vector registers the state never spills; the sixteen- and
 * thirty-two-block batches are in assembly all the same, the rounds for
 * the reasons at permute16, the rest of a batch for those at blocks32. */
#include <immintrin.h>
#include <string.h>

#include "chacha.h"
#include "chacha_pre.h"

#define CHACHA_ISA(name) name##_avx512

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

/* Given lane L of w[g] = words 4g..4g+3 of block 4L + j, v[L] = block
 * 4L + j (lane L of every w[g]): a 4x4 transpose of 128-bit lanes. */
static inline __attribute__((always_inline)) void
transpose_lanes16(__m512i v[4], __m512i w0, __m512i w1, __m512i w2,
                  __m512i w3)
{
    __m512i u0 = _mm512_shuffle_i32x4(w0, w1, 0x44); /* w0.0 w0.1 w1.0 w1.1 */
    __m512i u1 = _mm512_shuffle_i32x4(w0, w1, 0xee); /* w0.2 w0.3 w1.2 w1.3 */
    __m512i u2 = _mm512_shuffle_i32x4(w2, w3, 0x44);
    __m512i u3 = _mm512_shuffle_i32x4(w2, w3, 0xee);
    v[0] = _mm512_shuffle_i32x4(u0, u2, 0x88); /* w0.0 w1.0 w2.0 w3.0 */
    v[1] = _mm512_shuffle_i32x4(u0, u2, 0xdd); /* w0.1 w1.1 w2.1 w3.1 */
    v[2] = _mm512_shuffle_i32x4(u1, u3, 0x88);
    v[3] = _mm512_shuffle_i32x4(u1, u3, 0xdd);
}

/* The sixteen-block double rounds in assembly, each state vector in one
 * fixed register, zmm0-15, as OpenSSL's chacha-x86_64.pl has them: from C,
 * GCC renames the vectors at every iteration and pays 16 zmm moves per
 * double round. The four quarter-rounds of a round are staggered one step
 * apart, so that adds, xors and rotates (port 0 only at this width) are
 * always mixed in what is ready, and no four rotates come due at once:
 * with the sibling hyperthread busy the core's window is halved, and the
 * lockstep order (four adds, four xors, four rotates) lost 3-4% there
 * (docs/kernels.md, "The code's choices", ChaCha). */
#define ZR(i) "%%zmm" #i
#define ZADD(a, b) "vpaddd " ZR(b) ", " ZR(a) ", " ZR(a) "\n\t"
#define ZXOR(d, a) "vpxord " ZR(a) ", " ZR(d) ", " ZR(d) "\n\t"
#define ZROL(d, n) "vprold $" #n ", " ZR(d) ", " ZR(d) "\n\t"
/* Step k, 0 to 11, of the quarter-round on a, b, c, d. */
#define ZQ0(a, b, c, d) ZADD(a, b)
#define ZQ1(a, b, c, d) ZXOR(d, a)
#define ZQ2(a, b, c, d) ZROL(d, 16)
#define ZQ3(a, b, c, d) ZADD(c, d)
#define ZQ4(a, b, c, d) ZXOR(b, c)
#define ZQ5(a, b, c, d) ZROL(b, 12)
#define ZQ6(a, b, c, d) ZADD(a, b)
#define ZQ7(a, b, c, d) ZXOR(d, a)
#define ZQ8(a, b, c, d) ZROL(d, 8)
#define ZQ9(a, b, c, d) ZADD(c, d)
#define ZQ10(a, b, c, d) ZXOR(b, c)
#define ZQ11(a, b, c, d) ZROL(b, 7)
/* Four quarter-rounds, the i-th i steps behind the first. */
#define ZROUND(p, q, r, s)                                                    \
    ZQ0 p                                                                     \
    ZQ1 p ZQ0 q                                                               \
    ZQ2 p ZQ1 q ZQ0 r                                                         \
    ZQ3 p ZQ2 q ZQ1 r ZQ0 s                                                   \
    ZQ4 p ZQ3 q ZQ2 r ZQ1 s                                                   \
    ZQ5 p ZQ4 q ZQ3 r ZQ2 s                                                   \
    ZQ6 p ZQ5 q ZQ4 r ZQ3 s                                                   \
    ZQ7 p ZQ6 q ZQ5 r ZQ4 s                                                   \
    ZQ8 p ZQ7 q ZQ6 r ZQ5 s                                                   \
    ZQ9 p ZQ8 q ZQ7 r ZQ6 s                                                   \
    ZQ10 p ZQ9 q ZQ8 r ZQ7 s                                                  \
    ZQ11 p ZQ10 q ZQ9 r ZQ8 s                                                 \
    ZQ11 q ZQ10 r ZQ9 s                                                       \
    ZQ11 r ZQ10 s                                                             \
    ZQ11 s
#define ZLOAD(i) "vmovdqa64 " #i "*64(%[s]), " ZR(i) "\n\t"
#define ZSTORE(i) "vmovdqa64 " ZR(i) ", " #i "*64(%[x])\n\t"
/* Word i of the precomputed state (chacha_vertical.h's VERTICAL_PRE) in
 * every lane of zmm j. */
#define ZPRE(i, j) "vpbroadcastd " #i "*4(%[p]), " ZR(j) "\n\t"
/* Columns 1-3 so: word i in the register given in its place. */
#define ZPRE_COLUMNS(o1, o2, o3, o5, o6, o7, o9, o10, o11, o13, o14, o15)    \
    ZPRE(1, o1) ZPRE(2, o2) ZPRE(3, o3) ZPRE(5, o5) ZPRE(6, o6)               \
    ZPRE(7, o7) ZPRE(9, o9) ZPRE(10, o10) ZPRE(11, o11) ZPRE(13, o13)         \
    ZPRE(14, o14) ZPRE(15, o15)
/* The column round's quarter-round on column 0, all twelve steps. */
#define ZCOLUMN0(p)                                                           \
    ZQ0 p ZQ1 p ZQ2 p ZQ3 p ZQ4 p ZQ5 p ZQ6 p ZQ7 p ZQ8 p ZQ9 p ZQ10 p ZQ11 p

/* Word i of set h (0 or 1) of the zmm_pair states at s, into zmm j. */
#define ZLOADP(i, h, j) "vmovdqa64 " #i "*128+" #h "*64(%[s]), " ZR(j) "\n\t"
/* The feed-forward: zmm j += word i of the states at s, a word's vectors
 * `stride` bytes apart from byte h on. */
#define ZFEED(i, stride, h, j)                                                \
    "vpaddd " #i "*" #stride "+" #h "(%[s]), " ZR(j) ", " ZR(j) "\n\t"
/* dst = op(src1, src2), op an instruction and its immediate if any. */
#define ZOP(op, src2, src1, dst)                                              \
    op " " ZR(src2) ", " ZR(src1) ", " ZR(dst) "\n\t"
/* A 4x4 transpose of zmm a-d in place through the temporaries t0-t3, in
 * two steps of a low and a high interleave (lo1/hi1, then lo2/hi2). */
#define ZTRANSPOSE(lo1, hi1, lo2, hi2, a, b, c, d, t0, t1, t2, t3)            \
    ZOP(lo1, b, a, t0) ZOP(hi1, b, a, t1) ZOP(lo1, d, c, t2)                  \
    ZOP(hi1, d, c, t3) ZOP(lo2, t2, t0, a) ZOP(hi2, t2, t0, b)                \
    ZOP(lo2, t3, t1, c) ZOP(hi2, t3, t1, d)
/* transpose_words16 in place: a, b, c, d then hold its t[0]-t[3]. */
#define ZWORDS(a, b, c, d, t0, t1, t2, t3)                                    \
    ZTRANSPOSE("vpunpckldq", "vpunpckhdq", "vpunpcklqdq", "vpunpckhqdq", a,   \
               b, c, d, t0, t1, t2, t3)
/* transpose_lanes16 in place. */
#define ZLANES(a, b, c, d, t0, t1, t2, t3)                                    \
    ZTRANSPOSE("vshufi32x4 $0x44,", "vshufi32x4 $0xee,", "vshufi32x4 $0x88,", \
               "vshufi32x4 $0xdd,", a, b, c, d, t0, t1, t2, t3)
/* Bytes 64 j.. of the set's 1024 at `at`: out = in ^ zmm r. */
#define ZXOR_OUT(r, at)                                                       \
    "vpxord " #at "(%[in]), " ZR(r) ", " ZR(r) "\n\t"                         \
    "vmovdqu64 " ZR(r) ", " #at "(%[out])\n\t"
/* One set's keystream in zmm b..b+15 (word i in zmm b+i, block in lane L
 * of each) to out = in ^ keystream at byte `at`, through t0-t3: the words'
 * transposes leave zmm b + 4g + j with words 4g..4g+3 of blocks 4L + j,
 * the lanes' then leave zmm b + r with block r whole. */
#define ZSET_OUT(b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13,  \
                 b14, b15, t0, t1, t2, t3, at)                                \
    ZWORDS(b0, b1, b2, b3, t0, t1, t2, t3)                                    \
    ZWORDS(b4, b5, b6, b7, t0, t1, t2, t3)                                    \
    ZWORDS(b8, b9, b10, b11, t0, t1, t2, t3)                                  \
    ZWORDS(b12, b13, b14, b15, t0, t1, t2, t3)                                \
    ZLANES(b0, b4, b8, b12, t0, t1, t2, t3)                                   \
    ZXOR_OUT(b0, at + 0) ZXOR_OUT(b4, at + 256) ZXOR_OUT(b8, at + 512)         \
    ZXOR_OUT(b12, at + 768)                                                   \
    ZLANES(b1, b5, b9, b13, t0, t1, t2, t3)                                   \
    ZXOR_OUT(b1, at + 64) ZXOR_OUT(b5, at + 320) ZXOR_OUT(b9, at + 576)       \
    ZXOR_OUT(b13, at + 832)                                                   \
    ZLANES(b2, b6, b10, b14, t0, t1, t2, t3)                                  \
    ZXOR_OUT(b2, at + 128) ZXOR_OUT(b6, at + 384) ZXOR_OUT(b10, at + 640)     \
    ZXOR_OUT(b14, at + 896)                                                   \
    ZLANES(b3, b7, b11, b15, t0, t1, t2, t3)                                  \
    ZXOR_OUT(b3, at + 192) ZXOR_OUT(b7, at + 448) ZXOR_OUT(b11, at + 704)     \
    ZXOR_OUT(b15, at + 960)
#define ZFEED_SET(st, h, b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11,   \
                  b12, b13, b14, b15)                                         \
    ZFEED(0, st, h, b0) ZFEED(1, st, h, b1) ZFEED(2, st, h, b2)               \
    ZFEED(3, st, h, b3) ZFEED(4, st, h, b4) ZFEED(5, st, h, b5)               \
    ZFEED(6, st, h, b6) ZFEED(7, st, h, b7) ZFEED(8, st, h, b8)               \
    ZFEED(9, st, h, b9) ZFEED(10, st, h, b10) ZFEED(11, st, h, b11)           \
    ZFEED(12, st, h, b12) ZFEED(13, st, h, b13) ZFEED(14, st, h, b14)         \
    ZFEED(15, st, h, b15)

/* The sixteen-block rounds as permute16 and blocks16 run them: the states
 * from s into zmm0-15, rounds as given below. */
#define ZRUN16                                                                \
    "test %[use], %[use]\n\t"                                                 \
    "jz 3f\n\t"                                                               \
    ZLOAD(0) ZLOAD(4) ZLOAD(8) ZLOAD(12)                                      \
    ZPRE_COLUMNS(1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15)                     \
    ZCOLUMN0((0, 4, 8, 12))                                                   \
    "jmp 2f\n\t"                                                              \
    "3:\n\t"                                                                  \
    ZLOAD(0) ZLOAD(1) ZLOAD(2) ZLOAD(3) ZLOAD(4) ZLOAD(5) ZLOAD(6) ZLOAD(7)    \
    ZLOAD(8) ZLOAD(9) ZLOAD(10) ZLOAD(11) ZLOAD(12) ZLOAD(13) ZLOAD(14)       \
    ZLOAD(15)                                                                 \
    ".p2align 5\n\t"                                                          \
    "1:\n\t"                                                                  \
    ZROUND((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15))      \
    "2:\n\t"                                                                  \
    ZROUND((0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14))      \
    "dec %[n]\n\t"                                                            \
    "jnz 1b\n\t"

/* x = the sixteen states s after `rounds` rounds (no feed-forward). The
 * loop runs at least once: rounds is 8, 12 or 20. With pre (not NULL),
 * columns 1-3 start from its words, their first quarter-rounds done, and
 * the first double round is column 0's quarter-round and the diagonal
 * round. */
static inline __attribute__((always_inline)) void
permute16(__m512i x[16], const __m512i s[16], const uint32_t *pre,
          unsigned rounds)
{
    unsigned double_rounds = rounds / 2;
    const uint32_t *p = chacha_pre_operand(pre);
    __asm__(ZRUN16
            ZSTORE(0) ZSTORE(1) ZSTORE(2) ZSTORE(3) ZSTORE(4) ZSTORE(5)
            ZSTORE(6) ZSTORE(7) ZSTORE(8) ZSTORE(9) ZSTORE(10) ZSTORE(11)
            ZSTORE(12) ZSTORE(13) ZSTORE(14) ZSTORE(15)
            : [n] "+r"(double_rounds), "=m"(*(__m512i(*)[16])x)
            : [s] "r"(s), [x] "r"(x), [p] "r"(p), [use] "r"(pre != NULL),
              "m"(*(const __m512i(*)[16])s), "m"(*(const uint32_t(*)[16])p)
            : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
              "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
              "xmm14", "xmm15");
}

/* The keystream of the sixteen blocks in s, x being s after its rounds,
 * as transpose_words16 leaves it: w[g][j] holds, in lane L, words
 * 4g..4g+3 of block 4L + j. */
static inline __attribute__((always_inline)) void
keystream16_from(__m512i w[4][4], const __m512i x[16], const __m512i s[16])
{
    __m512i x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
    __m512i x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
    __m512i x8 = x[8], x9 = x[9], x10 = x[10], x11 = x[11];
    __m512i x12 = x[12], x13 = x[13], x14 = x[14], x15 = x[15];
    transpose_words16(w[0], ADD512(x0, s[0]), ADD512(x1, s[1]),
                      ADD512(x2, s[2]), ADD512(x3, s[3]));
    transpose_words16(w[1], ADD512(x4, s[4]), ADD512(x5, s[5]),
                      ADD512(x6, s[6]), ADD512(x7, s[7]));
    transpose_words16(w[2], ADD512(x8, s[8]), ADD512(x9, s[9]),
                      ADD512(x10, s[10]), ADD512(x11, s[11]));
    transpose_words16(w[3], ADD512(x12, s[12]), ADD512(x13, s[13]),
                      ADD512(x14, s[14]), ADD512(x15, s[15]));
}

/* 1024 bytes: out = in ^ keystream of the sixteen blocks in s; pre as for
 * permute16. One statement, as blocks32 below, the transposes through
 * zmm16-19. */
static inline __attribute__((always_inline)) void
blocks16(uint8_t *out, const uint8_t *in, const __m512i s[16],
         const uint32_t *pre, unsigned rounds)
{
    unsigned double_rounds = rounds / 2;
    const uint32_t *p = chacha_pre_operand(pre);
    __asm__(ZRUN16
            ZFEED_SET(64, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                      15)
            ZSET_OUT(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                     16, 17, 18, 19, 0)
            : [n] "+r"(double_rounds), "=m"(*(uint8_t(*)[1024])out)
            : [s] "r"(s), [in] "r"(in), [out] "r"(out), [p] "r"(p),
              [use] "r"(pre != NULL), "m"(*(const __m512i(*)[16])s),
              "m"(*(const uint8_t(*)[1024])in),
              "m"(*(const uint32_t(*)[16])p)
            : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
              "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
              "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19");
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

/* Whole 1024-byte batches of sixteen blocks (chacha_vertical.h). */
#define VERTICAL_NAME xor_vertical16
#define VERTICAL_VEC __m512i
#define VERTICAL_LANES 16
#define VERTICAL_SET1 _mm512_set1_epi32
#define VERTICAL_LANE_INDEX                                                  \
    _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define VERTICAL_COUNTER_ADD counter_add16
#define VERTICAL_BATCH blocks16
#define VERTICAL_PRE
#include "chacha_vertical.h"

/* Thirty-two blocks: two sets of sixteen, lanes 0-15 and 16-31 of a pair
 * of zmm registers, through blocks32. */
typedef struct {
    __m512i lo, hi;
} zmm_pair;

static inline __attribute__((always_inline)) zmm_pair set1_pair(int x)
{
    return (zmm_pair){ _mm512_set1_epi32(x), _mm512_set1_epi32(x) };
}

static inline __attribute__((always_inline)) void
counter_add_pair(zmm_pair *lo, zmm_pair *hi, zmm_pair n)
{
    counter_add16(&lo->lo, &hi->lo, n.lo);
    counter_add16(&lo->hi, &hi->hi, n.hi);
}

/* Two sets of sixteen states at once, s in zmm0-15 and t in zmm16-31,
 * each step of one set followed by the same step of the other. One set's
 * round cannot start before the previous round's quarter-rounds end, and
 * on AMD Zen 4 (vprold two cycles there) that wait left the 512-bit
 * pipes idle: the other set fills it (docs/kernels.md, "The code's
 * choices", ChaCha). */
#define ZSTEP2(k, p, P) ZQ##k p ZQ##k P
/* Column 0's quarter-round on both sets, step by step. */
#define ZCOLUMN0_2(p, P)                                                      \
    ZSTEP2(0, p, P) ZSTEP2(1, p, P) ZSTEP2(2, p, P) ZSTEP2(3, p, P)           \
    ZSTEP2(4, p, P) ZSTEP2(5, p, P) ZSTEP2(6, p, P) ZSTEP2(7, p, P)           \
    ZSTEP2(8, p, P) ZSTEP2(9, p, P) ZSTEP2(10, p, P) ZSTEP2(11, p, P)
#define ZROUND2(p, q, r, s, P, Q, R, S)                                       \
    ZSTEP2(0, p, P)                                                           \
    ZSTEP2(1, p, P) ZSTEP2(0, q, Q)                                           \
    ZSTEP2(2, p, P) ZSTEP2(1, q, Q) ZSTEP2(0, r, R)                           \
    ZSTEP2(3, p, P) ZSTEP2(2, q, Q) ZSTEP2(1, r, R) ZSTEP2(0, s, S)           \
    ZSTEP2(4, p, P) ZSTEP2(3, q, Q) ZSTEP2(2, r, R) ZSTEP2(1, s, S)           \
    ZSTEP2(5, p, P) ZSTEP2(4, q, Q) ZSTEP2(3, r, R) ZSTEP2(2, s, S)           \
    ZSTEP2(6, p, P) ZSTEP2(5, q, Q) ZSTEP2(4, r, R) ZSTEP2(3, s, S)           \
    ZSTEP2(7, p, P) ZSTEP2(6, q, Q) ZSTEP2(5, r, R) ZSTEP2(4, s, S)           \
    ZSTEP2(8, p, P) ZSTEP2(7, q, Q) ZSTEP2(6, r, R) ZSTEP2(5, s, S)           \
    ZSTEP2(9, p, P) ZSTEP2(8, q, Q) ZSTEP2(7, r, R) ZSTEP2(6, s, S)           \
    ZSTEP2(10, p, P) ZSTEP2(9, q, Q) ZSTEP2(8, r, R) ZSTEP2(7, s, S)          \
    ZSTEP2(11, p, P) ZSTEP2(10, q, Q) ZSTEP2(9, r, R) ZSTEP2(8, s, S)         \
    ZSTEP2(11, q, Q) ZSTEP2(10, r, R) ZSTEP2(9, s, S)                         \
    ZSTEP2(11, r, R) ZSTEP2(10, s, S)                                         \
    ZSTEP2(11, s, S)
/* 2048 bytes: out = in ^ keystream of the thirty-two blocks in s (set 0
 * the .lo halves, set 1 the .hi), after `rounds` rounds; pre as for
 * permute16, the same words for both sets. The rounds, feed-forward,
 * transposes and XOR all in one statement, the states never leaving
 * their registers: from C, the rounds' results went through memory and
 * the batch stored 100 zmm registers where its output is 32, at two
 * cycles a 512-bit store on Zen 4 (docs/kernels.md, "The code's
 * choices", ChaCha). Set 0's transposes borrow zmm28-31, set 1's words
 * 12-15, parked in `park` meanwhile; set 1's use zmm0-3. */
static inline __attribute__((always_inline)) void
blocks32(uint8_t *out, const uint8_t *in, const zmm_pair s[16],
         const uint32_t *pre, unsigned rounds)
{
    unsigned double_rounds = rounds / 2;
    const uint32_t *p = chacha_pre_operand(pre);
    __m512i park[4];
    __asm__("test %[use], %[use]\n\t"
            "jz 3f\n\t"
            ZLOADP(0, 0, 0) ZLOADP(4, 0, 4) ZLOADP(8, 0, 8) ZLOADP(12, 0, 12)
            ZLOADP(0, 1, 16) ZLOADP(4, 1, 20) ZLOADP(8, 1, 24)
            ZLOADP(12, 1, 28)
            ZPRE_COLUMNS(1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15)
            ZPRE_COLUMNS(17, 18, 19, 21, 22, 23, 25, 26, 27, 29, 30, 31)
            ZCOLUMN0_2((0, 4, 8, 12), (16, 20, 24, 28))
            "jmp 2f\n\t"
            "3:\n\t"
            ZLOADP(0, 0, 0) ZLOADP(1, 0, 1) ZLOADP(2, 0, 2) ZLOADP(3, 0, 3)
            ZLOADP(4, 0, 4) ZLOADP(5, 0, 5) ZLOADP(6, 0, 6) ZLOADP(7, 0, 7)
            ZLOADP(8, 0, 8) ZLOADP(9, 0, 9) ZLOADP(10, 0, 10)
            ZLOADP(11, 0, 11) ZLOADP(12, 0, 12) ZLOADP(13, 0, 13)
            ZLOADP(14, 0, 14) ZLOADP(15, 0, 15)
            ZLOADP(0, 1, 16) ZLOADP(1, 1, 17) ZLOADP(2, 1, 18)
            ZLOADP(3, 1, 19) ZLOADP(4, 1, 20) ZLOADP(5, 1, 21)
            ZLOADP(6, 1, 22) ZLOADP(7, 1, 23) ZLOADP(8, 1, 24)
            ZLOADP(9, 1, 25) ZLOADP(10, 1, 26) ZLOADP(11, 1, 27)
            ZLOADP(12, 1, 28) ZLOADP(13, 1, 29) ZLOADP(14, 1, 30)
            ZLOADP(15, 1, 31)
            ".p2align 5\n\t"
            "1:\n\t"
            ZROUND2((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14),
                    (3, 7, 11, 15), (16, 20, 24, 28), (17, 21, 25, 29),
                    (18, 22, 26, 30), (19, 23, 27, 31))
            "2:\n\t"
            ZROUND2((0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13),
                    (3, 4, 9, 14), (16, 21, 26, 31), (17, 22, 27, 28),
                    (18, 23, 24, 29), (19, 20, 25, 30))
            "dec %[n]\n\t"
            "jnz 1b\n\t"
            "vmovdqa64 " ZR(28) ", 0(%[park])\n\t"
            "vmovdqa64 " ZR(29) ", 64(%[park])\n\t"
            "vmovdqa64 " ZR(30) ", 128(%[park])\n\t"
            "vmovdqa64 " ZR(31) ", 192(%[park])\n\t"
            ZFEED_SET(128, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
            ZSET_OUT(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                     28, 29, 30, 31, 0)
            "vmovdqa64 0(%[park]), " ZR(28) "\n\t"
            "vmovdqa64 64(%[park]), " ZR(29) "\n\t"
            "vmovdqa64 128(%[park]), " ZR(30) "\n\t"
            "vmovdqa64 192(%[park]), " ZR(31) "\n\t"
            ZFEED_SET(128, 64, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                      29, 30, 31)
            ZSET_OUT(16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
                     30, 31, 0, 1, 2, 3, 1024)
            : [n] "+r"(double_rounds), "=m"(*(uint8_t(*)[2048])out),
              "=m"(park)
            : [s] "r"(s), [in] "r"(in), [out] "r"(out), [park] "r"(park),
              [p] "r"(p), [use] "r"(pre != NULL),
              "m"(*(const zmm_pair(*)[16])s),
              "m"(*(const uint8_t(*)[2048])in),
              "m"(*(const uint32_t(*)[16])p)
            : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
              "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
              "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20",
              "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27",
              "xmm28", "xmm29", "xmm30", "xmm31");
}

#define VERTICAL_NAME xor_vertical32
#define VERTICAL_VEC zmm_pair
#define VERTICAL_LANES 32
#define VERTICAL_SET1 set1_pair
#define VERTICAL_LANE_INDEX                                                  \
    ((zmm_pair){ _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, \
                                   13, 14, 15),                              \
                 _mm512_setr_epi32(16, 17, 18, 19, 20, 21, 22, 23, 24, 25,   \
                                   26, 27, 28, 29, 30, 31) })
#define VERTICAL_COUNTER_ADD counter_add_pair
#define VERTICAL_BATCH blocks32
#define VERTICAL_PRE
#include "chacha_vertical.h"

/* Eight blocks: chacha_ymm.h, with vprold. */

#define ROTL16(v) _mm256_rol_epi32(v, 16)
#define ROTL12(v) _mm256_rol_epi32(v, 12)
#define ROTL8(v) _mm256_rol_epi32(v, 8)
#define ROTL7(v) _mm256_rol_epi32(v, 7)

/* x = the eight states s after `rounds` rounds (no feed-forward). Here at
 * most one batch of a message runs through it, the first, so pre is always
 * NULL (chacha_vertical.h). */
static inline __attribute__((always_inline)) void
permute8(__m256i x[16], const __m256i s[16], const uint32_t *pre,
         unsigned rounds)
{
    (void)pre;
    __m256i x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3];
    __m256i x4 = s[4], x5 = s[5], x6 = s[6], x7 = s[7];
    __m256i x8 = s[8], x9 = s[9], x10 = s[10], x11 = s[11];
    __m256i x12 = s[12], x13 = s[13], x14 = s[14], x15 = s[15];
    for (unsigned r = 0; r < rounds; r += 2)
        DOUBLEROUND(ADD256, XOR256, ROL256);
    x[0] = x0; x[1] = x1; x[2] = x2; x[3] = x3;
    x[4] = x4; x[5] = x5; x[6] = x6; x[7] = x7;
    x[8] = x8; x[9] = x9; x[10] = x10; x[11] = x11;
    x[12] = x12; x[13] = x13; x[14] = x14; x[15] = x15;
}

/* chacha_stream_xor_rows_avx512, and chacha_xor_ymm on permute8 above. */
#include "chacha_ymm.h"

void chacha_stream_xor_avx512(uint8_t *out, const uint8_t *in, size_t len,
                              const uint8_t key[CHACHA_KEY_BYTES],
                              const uint8_t row3[16], unsigned rounds)
{
    __m128i r3 = _mm_loadu_si128((const __m128i *)row3);
    size_t done = 0, d;
    if (len > 1024) {
        done = xor_vertical32(out, in, len, key, r3, rounds);
        r3 = _mm_add_epi64(r3, _mm_cvtsi64_si128((long long)(done / 64)));
    }
    if (len - done > 512) {
        d = xor_vertical16(out + done, in + done, len - done, key, r3, rounds);
        r3 = _mm_add_epi64(r3, _mm_cvtsi64_si128((long long)(d / 64)));
        done += d;
    }
    chacha_xor_ymm(out + done, in + done, len - done, key, r3, rounds);
}

/* Two streams at once (LIONESS's cells): lanes 0-7 of the sixteen run
 * eight blocks of stream 0, lanes 8-15 eight of stream 1, each under its
 * own key and row 3. One cell's S pass in LIONESS is about eight blocks
 * (a 509-byte cell XORs 469 bytes), so alone it fills only the ymm
 * layout; two fill a zmm pass, which costs well under two eight-block
 * single-stream calls (docs/kernels.md, "The code's choices", ChaCha).
 * The last blocks of a stream are cut with byte masks, so nothing past len
 * is read or written and no tail goes through a buffer. */

/* Word i of both streams: stream 0's in lanes 0-7, stream 1's in 8-15. */
static inline __attribute__((always_inline)) __m512i
words_x2(const uint8_t *const p[2], int i)
{
    uint32_t w0, w1;
    memcpy(&w0, p[0] + 4 * i, 4);
    memcpy(&w1, p[1] + 4 * i, 4);
    return _mm512_mask_set1_epi32(_mm512_set1_epi32((int)w0), 0xff00,
                                  (int)w1);
}

static inline __attribute__((always_inline)) void
state16_x2(__m512i s[16], const uint8_t *const key[2],
           const uint8_t *const row3[2])
{
    s[0] = _mm512_set1_epi32(0x61707865);
    s[1] = _mm512_set1_epi32(0x3320646e);
    s[2] = _mm512_set1_epi32(0x79622d32);
    s[3] = _mm512_set1_epi32(0x6b206574);
    for (int i = 0; i < 8; i++)
        s[4 + i] = words_x2(key, i);
    for (int i = 0; i < 4; i++)
        s[12 + i] = words_x2(row3, i);
    counter_add16(&s[12], &s[13],
                  _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5,
                                    6, 7));
}

/* out = in ^ ks for the n bytes of a block that are in the message. */
static inline __attribute__((always_inline)) void
xor_block_upto(uint8_t *out, const uint8_t *in, __m512i ks, size_t n)
{
    if (n >= 64) {
        _mm512_storeu_si512(out, _mm512_xor_si512(ks, _mm512_loadu_si512(in)));
        return;
    }
    __mmask64 m = _cvtu64_mask64((1ull << n) - 1);
    _mm512_mask_storeu_epi8(out, m,
                            _mm512_xor_si512(ks, _mm512_maskz_loadu_epi8(m, in)));
}

/* Bytes at..at+511 of both streams, those below len. */
static inline __attribute__((always_inline)) void
blocks16_x2(uint8_t *const out[2], const uint8_t *const in[2], size_t at,
            size_t len, const __m512i s[16], unsigned rounds)
{
    __m512i w[4][4], x[16];
    permute16(x, s, NULL, rounds);
    keystream16_from(w, x, s);
    for (int j = 0; j < 4; j++) {
        __m512i v[4];
        transpose_lanes16(v, w[0][j], w[1][j], w[2][j], w[3][j]);
        /* v[L] is block 4L + j of the sixteen: stream L / 2's block
         * 4 (L % 2) + j. */
        for (int l = 0; l < 4; l++) {
            size_t start = at + 64 * (4 * (l % 2) + j);
            if (start < len)
                xor_block_upto(out[l / 2] + start, in[l / 2] + start, v[l],
                               len - start);
        }
    }
}

/* Two-stream passes while more than two blocks of each stream are left;
 * two blocks or fewer go stream by stream through chacha_xor_ymm's rows
 * (chacha_stream_xor_rows_avx512, this file's ymm code): a pass costs the
 * same for one block as for eight, so it pays over the two rows calls
 * only above two blocks a stream, and over two single-stream calls from
 * there on (measured: docs/kernels.md, "The code's choices", ChaCha). */
#define XOR2_ROWS_MAX 128

void chacha_stream_xor2_avx512(uint8_t *const out[2],
                               const uint8_t *const in[2], size_t len,
                               const uint8_t *const key[2],
                               const uint8_t *const row3[2], unsigned rounds)
{
    size_t at = 0;
    if (len > XOR2_ROWS_MAX) {
        __m512i s[16];
        state16_x2(s, key, row3);
        for (; at < len && len - at > XOR2_ROWS_MAX; at += 512) {
            blocks16_x2(out, in, at, len, s, rounds);
            counter_add16(&s[12], &s[13], _mm512_set1_epi32(8));
        }
        if (at >= len)
            return;
    }
    for (int j = 0; j < 2; j++) {
        __m128i r3 = _mm_add_epi64(_mm_loadu_si128((const __m128i *)row3[j]),
                                   _mm_cvtsi64_si128((long long)(at / 64)));
        chacha_xor_ymm(out[j] + at, in[j] + at, len - at, key[j], r3, rounds);
    }
}
