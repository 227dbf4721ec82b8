/* vaes-avx512's logic on four xmm lanes, for tests/c/test_aes.c: its own
 * object because the instantiation below is most of that test's compile
 * time (9 minutes under the sanitizers at -O3; the Makefile builds this
 * one at -O1 there). */
#include <stdlib.h>

#include "../../kernels/aes/aes.h"
#include "aes_emu4.h"

/* vaes-avx512 cannot run on every machine, but its kernels are aes_x86.h's
 * with four blocks per vector. Instantiated here once more on a vector of
 * four xmm lanes whose primitives mirror the zmm ones, the 4-lane logic
 * (batch sizes, tails, lane shifts, 32 GHASH powers, tweak steps of x^4)
 * is tested wherever AES-NI is; only the zmm intrinsics themselves are not. */
#pragma GCC push_options
#pragma GCC target("sse4.1,aes,pclmul")
#include <immintrin.h>

typedef struct emu4 {
    __m128i l[4];
} vec;

#define EMU_INLINE static inline __attribute__((always_inline))
#define EMU_LANES(expr)                                                       \
    vec r;                                                                    \
    for (int i = 0; i < 4; i++)                                               \
        r.l[i] = (expr);                                                      \
    return r

EMU_INLINE vec emu_loadu(const void *p)
{
    EMU_LANES(_mm_loadu_si128((const __m128i *)p + i));
}

EMU_INLINE void emu_storeu(void *p, vec v)
{
    for (int i = 0; i < 4; i++)
        _mm_storeu_si128((__m128i *)p + i, v.l[i]);
}

EMU_INLINE vec emu_bcast(__m128i b) { EMU_LANES(b); }
EMU_INLINE vec emu_xor(vec a, vec b) { EMU_LANES(_mm_xor_si128(a.l[i], b.l[i])); }
EMU_INLINE vec emu_aesenc(vec a, vec b) { EMU_LANES(_mm_aesenc_si128(a.l[i], b.l[i])); }
EMU_INLINE vec emu_aesenclast(vec a, vec b) { EMU_LANES(_mm_aesenclast_si128(a.l[i], b.l[i])); }
EMU_INLINE vec emu_aesdec(vec a, vec b) { EMU_LANES(_mm_aesdec_si128(a.l[i], b.l[i])); }
EMU_INLINE vec emu_aesdeclast(vec a, vec b) { EMU_LANES(_mm_aesdeclast_si128(a.l[i], b.l[i])); }
EMU_INLINE vec emu_shuf8(vec a, vec m) { EMU_LANES(_mm_shuffle_epi8(a.l[i], m.l[i])); }
EMU_INLINE vec emu_add32(vec a, vec b) { EMU_LANES(_mm_add_epi32(a.l[i], b.l[i])); }
EMU_INLINE vec emu_add64(vec a, vec b) { EMU_LANES(_mm_add_epi64(a.l[i], b.l[i])); }
EMU_INLINE vec emu_slli64(vec a, int n) { EMU_LANES(_mm_slli_epi64(a.l[i], n)); }
EMU_INLINE vec emu_srli64(vec a, int n) { EMU_LANES(_mm_srli_epi64(a.l[i], n)); }
EMU_INLINE vec emu_load_part(const void *p, int m)
{
    EMU_LANES(i < m ? _mm_loadu_si128((const __m128i *)p + i) : _mm_setzero_si128());
}

EMU_INLINE void emu_store_part(void *p, vec v, int m)
{
    for (int i = 0; i < m; i++)
        _mm_storeu_si128((__m128i *)p + i, v.l[i]);
}

/* The byte shifts take an immediate: one case per count used. */
#define EMU_BYTE_SHIFT(name, intrinsic)                                       \
    EMU_INLINE vec name(vec a, int n)                                         \
    {                                                                         \
        switch (n) {                                                          \
        case 1: { EMU_LANES(intrinsic(a.l[i], 1)); }                          \
        case 2: { EMU_LANES(intrinsic(a.l[i], 2)); }                          \
        case 3: { EMU_LANES(intrinsic(a.l[i], 3)); }                          \
        case 4: { EMU_LANES(intrinsic(a.l[i], 4)); }                          \
        case 8: { EMU_LANES(intrinsic(a.l[i], 8)); }                          \
        case 12: { EMU_LANES(intrinsic(a.l[i], 12)); }                        \
        case 13: { EMU_LANES(intrinsic(a.l[i], 13)); }                        \
        case 14: { EMU_LANES(intrinsic(a.l[i], 14)); }                        \
        case 15: { EMU_LANES(intrinsic(a.l[i], 15)); }                        \
        default: abort();                                                     \
        }                                                                     \
    }
EMU_BYTE_SHIFT(emu_bslli, _mm_slli_si128)
EMU_BYTE_SHIFT(emu_bsrli, _mm_srli_si128)
EMU_INLINE vec emu_swap64(vec a) { EMU_LANES(_mm_shuffle_epi32(a.l[i], 0x4e)); }
EMU_INLINE vec emu_zext(__m128i b) { EMU_LANES(i ? _mm_setzero_si128() : b); }
EMU_INLINE vec emu_shift_in(__m128i b, vec v) { EMU_LANES(i ? v.l[i - 1] : b); }
EMU_INLINE vec emu_lane_qwords(int k) { EMU_LANES(_mm_set_epi64x(0, k + i)); }

EMU_INLINE vec emu_clmul(vec a, vec b, int imm)
{
    switch (imm) {
    case 0x00: { EMU_LANES(_mm_clmulepi64_si128(a.l[i], b.l[i], 0x00)); }
    case 0x01: { EMU_LANES(_mm_clmulepi64_si128(a.l[i], b.l[i], 0x01)); }
    case 0x10: { EMU_LANES(_mm_clmulepi64_si128(a.l[i], b.l[i], 0x10)); }
    default: { EMU_LANES(_mm_clmulepi64_si128(a.l[i], b.l[i], 0x11)); }
    }
}

EMU_INLINE __m128i emu_fold(vec v)
{
    return _mm_xor_si128(_mm_xor_si128(v.l[0], v.l[1]),
                         _mm_xor_si128(v.l[2], v.l[3]));
}

EMU_INLINE vec emu_set4(__m128i b0, __m128i b1, __m128i b2, __m128i b3)
{
    return (vec){ { b0, b1, b2, b3 } };
}

#define AESX_ISA emu4
#define LANES 4
#define V_LOADU(p) emu_loadu(p)
#define V_STOREU(p, v) emu_storeu(p, v)
#define V_ZERO() emu_bcast(_mm_setzero_si128())
#define V_XOR(a, b) emu_xor(a, b)
#define V_XOR3(a, b, c) emu_xor(emu_xor(a, b), c)
#define V_AESENC(s, k) emu_aesenc(s, k)
#define V_AESENCLAST(s, k) emu_aesenclast(s, k)
#define V_AESDEC(s, k) emu_aesdec(s, k)
#define V_AESDECLAST(s, k) emu_aesdeclast(s, k)
#define V_CLMUL(a, b, imm) emu_clmul(a, b, imm)
#define V_SHUF8(v, m) emu_shuf8(v, m)
#define V_ADD32(a, b) emu_add32(a, b)
#define V_ADD64(a, b) emu_add64(a, b)
#define V_SLLI64(v, n) emu_slli64(v, n)
#define V_SRLI64(v, n) emu_srli64(v, n)
#define V_BSLLI(v, n) emu_bslli(v, n)
#define V_BSRLI(v, n) emu_bsrli(v, n)
#define V_SWAP64(v) emu_swap64(v)
#define V_BCAST(b) emu_bcast(b)
#define V_ZEXT(b) emu_zext(b)
#define V_LANE0(v) ((v).l[0])
#define V_LAST_LANE(v) ((v).l[3])
#define V_LANE_AT(v, i) ((v).l[i])
#define V_SHIFT_IN(b, v) emu_shift_in(b, v)
#define V_FOLD(v) emu_fold(v)
#define V_LANE_QWORDS(k) emu_lane_qwords(k)
#define V_SET4(b0, b1, b2, b3) emu_set4(b0, b1, b2, b3)
#define V_LOAD_PART(p, m) emu_load_part(p, m)
#define V_STORE_PART(p, v, m) emu_store_part(p, v, m)

#include "../../kernels/aes/aes_x86.h"
#pragma GCC pop_options

AES_DECLARE_ISA(emu4);
const aes_impl aes_emu4_impl = {
    { "vaes-avx512 logic on 4 xmm lanes", CPU_AESNI | CPU_PCLMUL | CPU_SSE41 },
    aes_expand_emu4, aes_encrypt_emu4, aes_decrypt_emu4, aes_ctr_emu4,
    aes_cbc_encrypt_emu4, aes_cbc_decrypt_emu4, aes_xts_encrypt_emu4,
    aes_xts_decrypt_emu4, ghash_init_emu4, ghash_update_emu4,
    aes_gcm_encrypt_emu4, aes_gcm_decrypt_emu4,
};
