/* AES-NI and PCLMULQDQ on xmm: one block per register, eight in flight.
 * The kernels are aes_x86.h's; this file supplies its vector primitives. */
#include <immintrin.h>

typedef __m128i vec;

#define AESX_ISA aesni
#define LANES 1
#define V_LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define V_STOREU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)
#define V_ZERO() _mm_setzero_si128()
#define V_XOR(a, b) _mm_xor_si128(a, b)
#define V_XOR3(a, b, c) _mm_xor_si128(_mm_xor_si128(a, b), c)
#define V_AESENC(s, k) _mm_aesenc_si128(s, k)
#define V_AESENCLAST(s, k) _mm_aesenclast_si128(s, k)
#define V_AESDEC(s, k) _mm_aesdec_si128(s, k)
#define V_AESDECLAST(s, k) _mm_aesdeclast_si128(s, k)
#define V_CLMUL(a, b, imm) _mm_clmulepi64_si128(a, b, imm)
#define V_SHUF8(v, m) _mm_shuffle_epi8(v, m)
#define V_ADD32(a, b) _mm_add_epi32(a, b)
#define V_ADD64(a, b) _mm_add_epi64(a, b)
#define V_SLLI64(v, n) _mm_slli_epi64(v, n)
#define V_SRLI64(v, n) _mm_srli_epi64(v, n)
#define V_BSLLI(v, n) _mm_slli_si128(v, n)
#define V_BSRLI(v, n) _mm_srli_si128(v, n)
#define V_SWAP64(v) _mm_shuffle_epi32(v, 0x4e)
#define V_BCAST(b) (b)
#define V_ZEXT(b) (b)
#define V_LANE0(v) (v)
#define V_LAST_LANE(v) (v)
/* Never called with one lane (see V_LOAD_PART). */
#define V_LANE_AT(v, i) ((void)(i), (v))
#define V_SHIFT_IN(b, v) ((void)(v), (b))
#define V_FOLD(v) (v)
#define V_LANE_QWORDS(k) _mm_set_epi64x(0, (k))
/* Never called: with one block per vector there is no part of one. */
#define V_LOAD_PART(p, m) ((void)(m), V_LOADU(p))
#define V_STORE_PART(p, v, m) ((void)(m), V_STOREU(p, v))
#define V_SET4(b0, b1, b2, b3) ((void)(b1), (void)(b2), (void)(b3), (b0))

#include "aes_x86.h"
