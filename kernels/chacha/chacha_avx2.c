/* ChaCha for AVX2: the layouts of chacha_ymm.h, with the vertical rounds in
 * assembly. pshufb does the rotates by 16 and 8; 12 and 7 are
 * shift/shift/or. */
#include <immintrin.h>

#include "chacha.h"
#include "chacha_pre.h"

#define CHACHA_ISA(name) name##_avx2
/* pshufb masks of the rotates by 16 and 8, for the assembly and the row
 * rounds. */
static const uint8_t rot16[32] = {
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
};
static const uint8_t rot8[32] = {
    3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
    3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
};

#define ROTL(v, n)                                                            \
    _mm256_or_si256(_mm256_slli_epi32(v, n), _mm256_srli_epi32(v, 32 - (n)))
#define ROTL16(v)                                                             \
    _mm256_shuffle_epi8(v, _mm256_loadu_si256((const __m256i *)rot16))
#define ROTL12(v) ROTL(v, 12)
#define ROTL8(v)                                                              \
    _mm256_shuffle_epi8(v, _mm256_loadu_si256((const __m256i *)rot8))
#define ROTL7(v) ROTL(v, 7)

/* The vertical double rounds are written in assembly because 16 state
 * vectors fill all 16 ymm registers, and GCC then spills values that are on
 * the critical path (measured slower; clang does no better). Here the assignment is fixed, as in OpenSSL's chacha-x86_64.pl:
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

/* Column 0's quarter-round alone. */
#define QUARTERROUND1(a, b, c, d)                                             \
    ADD(a, b) XOR(d, a) ROT16(d) ADD(c, d) XOR(b, c) ROT(b, 12)               \
    ADD(a, b) XOR(d, a) ROT8(d) ADD(c, d) XOR(b, c) ROT(b, 7)
/* Word i of pre in every lane of ymm j. */
#define PRE(i, j) "vpbroadcastd " #i "*4(%[p]), " Y(j) "\n\t"

/* x = the eight states s after `rounds` rounds (no feed-forward). The loop
 * runs at least once: rounds is 8, 12 or 20. s and x are 32-byte aligned.
 * With pre (not NULL), columns 1-3 start from its words, their first
 * quarter-rounds done: the first double round is column 0's quarter-round
 * and the diagonal round, entered with the registers as the column round
 * leaves them (words 10 and 11 in ymm8 and ymm9, 8 and 9 in x). */
static inline __attribute__((always_inline)) void
permute8(__m256i x[16], const __m256i s[16], const uint32_t *pre,
         unsigned rounds)
{
    unsigned double_rounds = rounds / 2;
    const uint32_t *p = chacha_pre_operand(pre);
    __asm__(
        "vmovdqu %[rot16], %%ymm11\n\t"
        "test %[use], %[use]\n\t"
        "jz 3f\n\t"
        LOAD(0) LOAD(4) LOAD(8) LOAD(12)
        PRE(1, 1) PRE(2, 2) PRE(3, 3) PRE(5, 5) PRE(6, 6) PRE(7, 7)
        PRE(13, 13) PRE(14, 14) PRE(15, 15)
        QUARTERROUND1(0, 4, 8, 12)
        "vmovdqa %%ymm8, 8*32(%[x])\n\t"
        PRE(9, 10)
        "vmovdqa %%ymm10, 9*32(%[x])\n\t"
        PRE(10, 8) PRE(11, 9)
        "jmp 2f\n\t"
        "3:\n\t"
        LOAD(0) LOAD(1) LOAD(2) LOAD(3) LOAD(4) LOAD(5) LOAD(6) LOAD(7)
        LOAD(8) LOAD(9) LOAD(12) LOAD(13) LOAD(14) LOAD(15)
        "vmovdqa 10*32(%[s]), %%ymm10\n\t"
        "vmovdqa %%ymm10, 10*32(%[x])\n\t"
        "vmovdqa 11*32(%[s]), %%ymm10\n\t"
        "vmovdqa %%ymm10, 11*32(%[x])\n\t"
        ".p2align 5\n\t"
        "1:\n\t"
        QUARTERROUND2(0, 4, 8, 12, 1, 5, 9, 13)
        SWAP_C(8, 10)
        QUARTERROUND2(2, 6, 8, 14, 3, 7, 9, 15)
        "2:\n\t"
        QUARTERROUND2(0, 5, 8, 15, 1, 6, 9, 12)
        SWAP_C(10, 8)
        QUARTERROUND2(2, 7, 8, 13, 3, 4, 9, 14)
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        STORE(0) STORE(1) STORE(2) STORE(3) STORE(4) STORE(5) STORE(6)
        STORE(7) STORE(8) STORE(9) STORE(12) STORE(13) STORE(14) STORE(15)
        : [n] "+r"(double_rounds), "=m"(*(__m256i(*)[16])x)
        : [s] "r"(s), [x] "r"(x), [p] "r"(p), [use] "r"(pre != NULL),
          "m"(*(const __m256i(*)[16])s), "m"(*(const uint32_t(*)[16])p),
          [rot16] "m"(rot16), [rot8] "m"(rot8)
        : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
          "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
          "xmm14", "xmm15");
}

/* chacha_stream_xor_rows_avx2, and chacha_xor_ymm on permute8 above. */
#include "chacha_ymm.h"

void chacha_stream_xor_avx2(uint8_t *out, const uint8_t *in, size_t len,
                            const uint8_t key[CHACHA_KEY_BYTES],
                            const uint8_t row3[16], unsigned rounds)
{
    chacha_xor_ymm(out, in, len, key, _mm_loadu_si128((const __m128i *)row3),
                   rounds);
}
