/* Stand-ins for the AVX-512 (and few AVX2) intrinsics that the emulated
 * kernels use: the files the Makefile's EMULATED_KERNELS compile a second
 * time with this directory first on the include path, so that
 * `#include <immintrin.h>` finds this file (the scheme, and what it cannot
 * cover: emulated.h). The xmm intrinsics are the compiler's own, from the
 * SSE4.1, AES-NI and PCLMULQDQ headers. Each zmm one here is, as Intel's
 * intrinsics guide defines it, the xmm operation on each of four 128-bit
 * lanes where there is one, else plain C on the 64-bit words or bytes. An
 * aligned load traps when it is not aligned. A kernel that joins the
 * scheme adds the intrinsics it needs here. */
#ifndef CYCLEBENCH_EMULATED_IMMINTRIN_H
#define CYCLEBENCH_EMULATED_IMMINTRIN_H

#include <smmintrin.h>    /* SSE4.1 and below */
#include <stdint.h>
#include <string.h>
#include <wmmintrin.h>    /* AES-NI and PCLMULQDQ */
#include <x86gprintrin.h> /* _addcarry_u64 and friends, as the real one */

#if defined(__clang__)
/* clang declares it in adxintrin.h, which only its own immintrin.h may
 * include: the same builtin, as that header wraps it. */
static inline __attribute__((always_inline)) unsigned char
_addcarry_u64(unsigned char c, unsigned long long a, unsigned long long b,
              unsigned long long *out)
{
    return __builtin_ia32_addcarryx_u64(c, a, b, out);
}
#endif

typedef union {
    __m128i x[2];
} __m256i;

typedef union {
    _Alignas(64) uint64_t q[8];
    uint32_t d[16];
    uint8_t b[64];
    __m128i x[4];
} __m512i;

typedef int _MM_PERM_ENUM;

#define EMU static inline __attribute__((always_inline))
/* The result r, with expr done for each i below n. */
#define EMU_EACH(n, expr)                                                     \
    __m512i r;                                                                \
    for (int i = 0; i < (n); i++)                                             \
        expr;                                                                 \
    return r
/* The xmm operation op on each 128-bit lane. */
#define EMU_LANES(op, ...) EMU_EACH(4, r.x[i] = op(__VA_ARGS__))

/* 256-bit */

EMU __m256i _mm256_loadu_si256(const __m256i *p)
{
    __m256i r;
    memcpy(&r, p, sizeof r);
    return r;
}

EMU void _mm256_storeu_si256(__m256i *p, __m256i a)
{
    memcpy(p, &a, sizeof a);
}

EMU __m256i _mm256_xor_si256(__m256i a, __m256i b)
{
    a.x[0] = _mm_xor_si128(a.x[0], b.x[0]);
    a.x[1] = _mm_xor_si128(a.x[1], b.x[1]);
    return a;
}

EMU __m128i _mm256_castsi256_si128(__m256i a) { return a.x[0]; }
EMU __m128i _mm256_extracti128_si256(__m256i a, int i) { return a.x[i & 1]; }
/* No register state to clear here. */
EMU void _mm256_zeroupper(void) {}

/* Loads, stores and constants */

EMU __m512i _mm512_loadu_si512(const void *p)
{
    __m512i r;
    memcpy(&r, p, sizeof r);
    return r;
}

EMU __m512i _mm512_load_si512(const void *p)
{
    if ((uintptr_t)p % 64 != 0)
        __builtin_trap();
    return _mm512_loadu_si512(p);
}

EMU void _mm512_storeu_si512(void *p, __m512i a) { memcpy(p, &a, sizeof a); }
EMU __m512i _mm512_setzero_si512(void) { EMU_EACH(8, r.q[i] = 0); }
EMU __m512i _mm512_set1_epi64(long long a) { EMU_EACH(8, r.q[i] = (uint64_t)a); }

EMU __m512i _mm512_maskz_set1_epi64(uint8_t k, long long a)
{
    EMU_EACH(8, r.q[i] = (k >> i & 1) ? (uint64_t)a : 0);
}

/* Arguments from the highest quadword down. */
EMU __m512i _mm512_set_epi64(long long e7, long long e6, long long e5,
                             long long e4, long long e3, long long e2,
                             long long e1, long long e0)
{
    const long long e[8] = { e0, e1, e2, e3, e4, e5, e6, e7 };
    EMU_EACH(8, r.q[i] = (uint64_t)e[i]);
}

EMU __m512i _mm512_setr_epi64(long long e0, long long e1, long long e2,
                              long long e3, long long e4, long long e5,
                              long long e6, long long e7)
{
    return _mm512_set_epi64(e7, e6, e5, e4, e3, e2, e1, e0);
}

/* Lanes: casts, inserts, extracts, broadcasts, permutes */

EMU __m512i _mm512_castsi128_si512(__m128i a)
{
    EMU_EACH(4, r.x[i] = i ? _mm_setzero_si128() : a);
}

EMU __m512i _mm512_zextsi128_si512(__m128i a) { return _mm512_castsi128_si512(a); }

EMU __m512i _mm512_zextsi256_si512(__m256i a)
{
    EMU_EACH(4, r.x[i] = i < 2 ? a.x[i] : _mm_setzero_si128());
}

EMU __m128i _mm512_castsi512_si128(__m512i a) { return a.x[0]; }

EMU __m256i _mm512_castsi512_si256(__m512i a)
{
    __m256i r = { { a.x[0], a.x[1] } };
    return r;
}

EMU __m256i _mm512_extracti64x4_epi64(__m512i a, int i)
{
    __m256i r = { { a.x[2 * (i & 1)], a.x[2 * (i & 1) + 1] } };
    return r;
}

EMU __m128i _mm512_extracti32x4_epi32(__m512i a, int i) { return a.x[i & 3]; }

EMU __m512i _mm512_inserti32x4(__m512i a, __m128i b, int i)
{
    a.x[i & 3] = b;
    return a;
}

EMU __m512i _mm512_broadcast_i32x4(__m128i a) { EMU_EACH(4, r.x[i] = a); }

/* Quadword i of the result is quadword idx[i] (mod 8) of a. */
EMU __m512i _mm512_permutexvar_epi64(__m512i idx, __m512i a)
{
    EMU_EACH(8, r.q[i] = a.q[idx.q[i] & 7]);
}

/* a above b, shifted down by n quadwords: the low eight. */
EMU __m512i _mm512_alignr_epi64(__m512i a, __m512i b, int n)
{
    EMU_EACH(8, r.q[i] = i + (n & 7) < 8 ? b.q[i + (n & 7)] : a.q[i + (n & 7) - 8]);
}

EMU __m512i _mm512_unpacklo_epi64(__m512i a, __m512i b)
{
    EMU_LANES(_mm_unpacklo_epi64, a.x[i], b.x[i]);
}

EMU __m512i _mm512_unpackhi_epi64(__m512i a, __m512i b)
{
    EMU_LANES(_mm_unpackhi_epi64, a.x[i], b.x[i]);
}

/* Within each 128-bit lane, doubleword j is doubleword imm[2j+1:2j]. */
EMU __m512i _mm512_shuffle_epi32(__m512i a, _MM_PERM_ENUM imm)
{
    EMU_EACH(16, r.d[i] = a.d[(i & ~3) + (imm >> 2 * (i & 3) & 3)]);
}

EMU __m512i _mm512_shuffle_epi8(__m512i a, __m512i m)
{
    EMU_LANES(_mm_shuffle_epi8, a.x[i], m.x[i]);
}

/* The xmm byte shifts take an immediate: one case per count, and zero
 * beyond 15 as for the zmm forms. */
#define EMU_BYTE_SHIFT(name, xmm_shift)                                       \
    EMU __m512i name(__m512i a, int n)                                        \
    {                                                                         \
        switch (n) {                                                          \
        case 0: return a;                                                     \
        case 1: { EMU_LANES(xmm_shift, a.x[i], 1); }                          \
        case 2: { EMU_LANES(xmm_shift, a.x[i], 2); }                          \
        case 3: { EMU_LANES(xmm_shift, a.x[i], 3); }                          \
        case 4: { EMU_LANES(xmm_shift, a.x[i], 4); }                          \
        case 5: { EMU_LANES(xmm_shift, a.x[i], 5); }                          \
        case 6: { EMU_LANES(xmm_shift, a.x[i], 6); }                          \
        case 7: { EMU_LANES(xmm_shift, a.x[i], 7); }                          \
        case 8: { EMU_LANES(xmm_shift, a.x[i], 8); }                          \
        case 9: { EMU_LANES(xmm_shift, a.x[i], 9); }                          \
        case 10: { EMU_LANES(xmm_shift, a.x[i], 10); }                        \
        case 11: { EMU_LANES(xmm_shift, a.x[i], 11); }                        \
        case 12: { EMU_LANES(xmm_shift, a.x[i], 12); }                        \
        case 13: { EMU_LANES(xmm_shift, a.x[i], 13); }                        \
        case 14: { EMU_LANES(xmm_shift, a.x[i], 14); }                        \
        case 15: { EMU_LANES(xmm_shift, a.x[i], 15); }                        \
        default: return _mm512_setzero_si512();                               \
        }                                                                     \
    }
EMU_BYTE_SHIFT(_mm512_bslli_epi128, _mm_slli_si128)
EMU_BYTE_SHIFT(_mm512_bsrli_epi128, _mm_srli_si128)
#undef EMU_BYTE_SHIFT

/* Arithmetic and logic */

EMU __m512i _mm512_add_epi32(__m512i a, __m512i b) { EMU_LANES(_mm_add_epi32, a.x[i], b.x[i]); }
EMU __m512i _mm512_add_epi64(__m512i a, __m512i b) { EMU_LANES(_mm_add_epi64, a.x[i], b.x[i]); }
EMU __m512i _mm512_and_si512(__m512i a, __m512i b) { EMU_LANES(_mm_and_si128, a.x[i], b.x[i]); }
EMU __m512i _mm512_or_si512(__m512i a, __m512i b) { EMU_LANES(_mm_or_si128, a.x[i], b.x[i]); }
EMU __m512i _mm512_xor_si512(__m512i a, __m512i b) { EMU_LANES(_mm_xor_si128, a.x[i], b.x[i]); }

/* A count above 63 gives zero, in both forms. */
EMU __m512i _mm512_slli_epi64(__m512i a, unsigned n)
{
    EMU_LANES(_mm_slli_epi64, a.x[i], (int)n);
}

EMU __m512i _mm512_srli_epi64(__m512i a, unsigned n)
{
    EMU_LANES(_mm_srli_epi64, a.x[i], (int)n);
}

/* The low 32 bits of each quadword, multiplied to 64. */
EMU __m512i _mm512_mul_epu32(__m512i a, __m512i b)
{
    EMU_LANES(_mm_mul_epu32, a.x[i], b.x[i]);
}

EMU long long _mm512_reduce_add_epi64(__m512i a)
{
    uint64_t s = 0;
    for (int i = 0; i < 8; i++)
        s += a.q[i];
    return (long long)s;
}

/* Bit k of imm is the result where (a, b, c) are the bits of k. */
EMU __m512i _mm512_ternarylogic_epi64(__m512i a, __m512i b, __m512i c, int imm)
{
    __m512i r;
    for (int i = 0; i < 8; i++) {
        r.q[i] = 0;
        for (int k = 0; k < 8; k++)
            if (imm >> k & 1)
                r.q[i] |= (k & 4 ? a.q[i] : ~a.q[i]) &
                          (k & 2 ? b.q[i] : ~b.q[i]) & (k & 1 ? c.q[i] : ~c.q[i]);
    }
    return r;
}

/* VAES and VPCLMULQDQ: the xmm instruction on each 128-bit lane. */

EMU __m512i _mm512_aesenc_epi128(__m512i a, __m512i k)
{
    EMU_LANES(_mm_aesenc_si128, a.x[i], k.x[i]);
}

EMU __m512i _mm512_aesenclast_epi128(__m512i a, __m512i k)
{
    EMU_LANES(_mm_aesenclast_si128, a.x[i], k.x[i]);
}

EMU __m512i _mm512_aesdec_epi128(__m512i a, __m512i k)
{
    EMU_LANES(_mm_aesdec_si128, a.x[i], k.x[i]);
}

EMU __m512i _mm512_aesdeclast_epi128(__m512i a, __m512i k)
{
    EMU_LANES(_mm_aesdeclast_si128, a.x[i], k.x[i]);
}

/* The xmm form takes its selector as an immediate: one case each. */
EMU __m512i _mm512_clmulepi64_epi128(__m512i a, __m512i b, int imm)
{
    switch (imm & 0x11) {
    case 0x00: { EMU_LANES(_mm_clmulepi64_si128, a.x[i], b.x[i], 0x00); }
    case 0x01: { EMU_LANES(_mm_clmulepi64_si128, a.x[i], b.x[i], 0x01); }
    case 0x10: { EMU_LANES(_mm_clmulepi64_si128, a.x[i], b.x[i], 0x10); }
    default: { EMU_LANES(_mm_clmulepi64_si128, a.x[i], b.x[i], 0x11); }
    }
}

#undef EMU_LANES
#undef EMU_EACH
#undef EMU
#endif
