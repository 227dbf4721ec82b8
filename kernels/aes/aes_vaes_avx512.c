/* VAES and VPCLMULQDQ on zmm: four blocks per register, thirty-two in
 * flight. The kernels are aes_x86.h's, the same source as vaes-avx2's;
 * this file supplies its vector primitives. Where AVX-512 is missing the
 * tests run this file on stand-in intrinsics (tests/c/emulated/). */
#include <immintrin.h>
#include <stdint.h>

typedef __m512i vec;

/* Xor of the four lanes. */
static inline __attribute__((always_inline)) __m128i fold_vaes_avx512(__m512i v)
{
    __m256i x = _mm256_xor_si256(_mm512_castsi512_si256(v),
                                 _mm512_extracti64x4_epi64(v, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(x),
                         _mm256_extracti128_si256(x, 1));
}

static inline __attribute__((always_inline)) __m512i
set4_vaes_avx512(__m128i b0, __m128i b1, __m128i b2, __m128i b3)
{
    __m512i v = _mm512_castsi128_si512(b0);
    v = _mm512_inserti32x4(v, b1, 1);
    v = _mm512_inserti32x4(v, b2, 2);
    return _mm512_inserti32x4(v, b3, 3);
}

/* The first m blocks (0 < m < 4) by plain xmm and ymm loads and stores,
 * not masked ones: on this host (Intel, family 6 model 207) a load cannot
 * take its data from a masked store still in flight, nor a masked load
 * from plain stores, and waits for them to retire. Masked, a CTR message
 * of 8 bytes (one keystream block, stored, then read back by the caller)
 * took 1.4 times vaes-avx2's ticks. */
static inline __attribute__((always_inline)) __m512i
load_part_vaes_avx512(const uint8_t *p, int m)
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
store_part_vaes_avx512(uint8_t *p, __m512i v, int m)
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

/* Lane i of v, i a variable: one vpermq. */
static inline __attribute__((always_inline)) __m128i
lane_at_vaes_avx512(__m512i v, int i)
{
    __m512i idx = _mm512_add_epi64(_mm512_set1_epi64(2 * i),
                                   _mm512_setr_epi64(0, 1, 0, 0, 0, 0, 0, 0));
    return _mm512_castsi512_si128(_mm512_permutexvar_epi64(idx, v));
}

#define AESX_ISA vaes_avx512
#define LANES 4
#define V_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define V_STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define V_ZERO() _mm512_setzero_si512()
#define V_XOR(a, b) _mm512_xor_si512(a, b)
#define V_XOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#define V_AESENC(s, k) _mm512_aesenc_epi128(s, k)
#define V_AESENCLAST(s, k) _mm512_aesenclast_epi128(s, k)
#define V_AESDEC(s, k) _mm512_aesdec_epi128(s, k)
#define V_AESDECLAST(s, k) _mm512_aesdeclast_epi128(s, k)
#define V_CLMUL(a, b, imm) _mm512_clmulepi64_epi128(a, b, imm)
#define V_SHUF8(v, m) _mm512_shuffle_epi8(v, m)
#define V_ADD32(a, b) _mm512_add_epi32(a, b)
#define V_ADD64(a, b) _mm512_add_epi64(a, b)
#define V_SLLI64(v, n) _mm512_slli_epi64(v, n)
#define V_SRLI64(v, n) _mm512_srli_epi64(v, n)
#define V_BSLLI(v, n) _mm512_bslli_epi128(v, n)
#define V_BSRLI(v, n) _mm512_bsrli_epi128(v, n)
#define V_SWAP64(v) _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0x4e)
#define V_BCAST(b) _mm512_broadcast_i32x4(b)
#define V_ZEXT(b) _mm512_zextsi128_si512(b)
#define V_LANE0(v) _mm512_castsi512_si128(v)
#define V_LAST_LANE(v) _mm512_extracti32x4_epi32(v, 3)
#define V_LANE_AT(v, i) lane_at_vaes_avx512(v, i)
/* valignq takes lanes 1-3 from v's lanes 0-2 and lane 0 from the second
 * operand's lane 3. */
#define V_SHIFT_IN(b, v) _mm512_alignr_epi64(v, _mm512_broadcast_i32x4(b), 6)
#define V_FOLD(v) fold_vaes_avx512(v)
#define V_LANE_QWORDS(k)                                                      \
    _mm512_set_epi64(0, (k) + 3, 0, (k) + 2, 0, (k) + 1, 0, (k))
#define V_LOAD_PART(p, m) load_part_vaes_avx512(p, m)
#define V_STORE_PART(p, v, m) store_part_vaes_avx512(p, v, m)
#define V_SET4(b0, b1, b2, b3) set4_vaes_avx512(b0, b1, b2, b3)

#include "aes_x86.h"
