/* Vectors of 128-bit lanes, four per zmm register (AVX-512 F, VL and BW;
 * VPCLMULQDQ and VAES where those primitives are used): the names of
 * lanes_xmm.h. */
#ifndef CYCLEBENCH_LANES_ZMM_H
#define CYCLEBENCH_LANES_ZMM_H

#include <immintrin.h>
#include <stdint.h>

typedef __m512i vec;

/* Xor of the four lanes: halves, then quarters. */
static inline __attribute__((always_inline)) __m128i lanes_fold_zmm(__m512i v)
{
    __m256i x = _mm256_xor_si256(_mm512_castsi512_si256(v),
                                 _mm512_extracti64x4_epi64(v, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(x),
                         _mm256_extracti128_si256(x, 1));
}

static inline __attribute__((always_inline)) __m512i
lanes_set4_zmm(__m128i b0, __m128i b1, __m128i b2, __m128i b3)
{
    __m512i v = _mm512_castsi128_si512(b0);
    v = _mm512_inserti32x4(v, b1, 1);
    v = _mm512_inserti32x4(v, b2, 2);
    return _mm512_inserti32x4(v, b3, 3);
}

/* The first m blocks (0 < m < 4) by plain xmm and ymm loads and stores,
 * not masked ones: on Intel cores a load cannot take its data from a
 * masked store still in flight, nor a masked load from plain stores, and
 * waits for them to retire (measured: docs/kernels.md, "The code's choices",
 * partial vectors). */
static inline __attribute__((always_inline)) __m512i
lanes_load_part_zmm(const uint8_t *p, int m)
{
    __m128i b0 = _mm_loadu_si128((const __m128i *)(const void *)p);
    if (m == 1)
        return _mm512_zextsi128_si512(b0);
    __m512i v = _mm512_zextsi256_si512(
        _mm256_loadu_si256((const __m256i *)(const void *)p));
    if (m == 2)
        return v;
    return _mm512_inserti32x4(
        v, _mm_loadu_si128((const __m128i *)(const void *)(p + 32)), 2);
}

static inline __attribute__((always_inline)) void
lanes_store_part_zmm(uint8_t *p, __m512i v, int m)
{
    if (m == 1) {
        _mm_storeu_si128((__m128i *)(void *)p, _mm512_castsi512_si128(v));
        return;
    }
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_castsi512_si256(v));
    if (m == 3)
        _mm_storeu_si128((__m128i *)(void *)(p + 32),
                         _mm512_extracti32x4_epi32(v, 2));
}

#define LANES 4
#define V_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define V_STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define V_ZERO() _mm512_setzero_si512()
#define V_XOR(a, b) _mm512_xor_si512(a, b)
#define V_XOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#define V_CLMUL(a, b, imm) _mm512_clmulepi64_epi128(a, b, imm)
#define V_BSLLI(v, n) _mm512_bslli_epi128(v, n)
#define V_BSRLI(v, n) _mm512_bsrli_epi128(v, n)
#define V_SWAP64(v) _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0x4e)
#define V_AESENC(s, k) _mm512_aesenc_epi128(s, k)
#define V_AESENCLAST(s, k) _mm512_aesenclast_epi128(s, k)
#define V_AESDEC(s, k) _mm512_aesdec_epi128(s, k)
#define V_AESDECLAST(s, k) _mm512_aesdeclast_epi128(s, k)
#define V_BCAST(b) _mm512_broadcast_i32x4(b)
#define V_ZEXT(b) _mm512_zextsi128_si512(b)
#define V_LANE(v, i) _mm512_extracti32x4_epi32(v, i)
#define V_FOLD(v) lanes_fold_zmm(v)
#define V_SET4(b0, b1, b2, b3) lanes_set4_zmm(b0, b1, b2, b3)
#define V_LOAD_PART(p, m) lanes_load_part_zmm(p, m)
#define V_STORE_PART(p, v, m) lanes_store_part_zmm(p, v, m)

#endif
