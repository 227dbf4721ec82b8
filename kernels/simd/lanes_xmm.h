/* Vectors of 128-bit lanes, one lane per xmm register: the primitives that
 * kernels/polyval/polyval_x86.h and kernels/cgo/cgo_x86.h are written in,
 * for an ISA file compiled with at least SSE4.1 and PCLMULQDQ (and AES-NI
 * where the AES primitives are used). lanes_ymm.h and lanes_zmm.h define
 * the same names for two and four lanes. Per lane unless said:
 *   V_LOADU(p) V_STOREU(p, v) V_ZERO() V_XOR(a, b) V_XOR3(a, b, c)
 *   V_AND(a, b) V_ADD8(a, b) V_CLMUL(a, b, imm)
 *   V_AESENC V_AESENCLAST V_AESDEC V_AESDECLAST (state, round key)
 *   V_BCAST(b)      the block b in every lane
 *   V_ZEXT(b)       b in lane 0, zero elsewhere
 *   V_LANE(v, i)    lane i (a constant below LANES) as a block
 *   V_FOLD(v)       xor of all lanes, as a block
 *   V_SET4(b0, b1, b2, b3)  lanes b0, b1, ... (as many as LANES)
 *   V_LOAD_PART(p, m)   the m blocks at p (0 < m < LANES), zero above;
 *                       nothing past them is read
 *   V_STORE_PART(p, v, m)  v's first m blocks to p, nothing past them
 *   V_GATHER(p, o)  lane i from the 16 bytes at p[i] + o (p an array of
 *                   LANES pointers): a block of each of several states */
#ifndef CYCLEBENCH_LANES_XMM_H
#define CYCLEBENCH_LANES_XMM_H

#include <immintrin.h>

typedef __m128i vec;

#define LANES 1
#define V_LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define V_STOREU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)
#define V_ZERO() _mm_setzero_si128()
#define V_XOR(a, b) _mm_xor_si128(a, b)
#define V_XOR3(a, b, c) _mm_xor_si128(_mm_xor_si128(a, b), c)
#define V_AND(a, b) _mm_and_si128(a, b)
#define V_ADD8(a, b) _mm_add_epi8(a, b)
#define V_CLMUL(a, b, imm) _mm_clmulepi64_si128(a, b, imm)
#define V_AESENC(s, k) _mm_aesenc_si128(s, k)
#define V_AESENCLAST(s, k) _mm_aesenclast_si128(s, k)
#define V_AESDEC(s, k) _mm_aesdec_si128(s, k)
#define V_AESDECLAST(s, k) _mm_aesdeclast_si128(s, k)
#define V_BCAST(b) (b)
#define V_ZEXT(b) (b)
#define V_LANE(v, i) ((void)(i), (v))
#define V_FOLD(v) (v)
/* Never called: with one block per vector there is no part of one. */
#define V_LOAD_PART(p, m) ((void)(m), V_LOADU(p))
#define V_STORE_PART(p, v, m) ((void)(m), V_STOREU(p, v))
#define V_SET4(b0, b1, b2, b3) ((void)(b1), (void)(b2), (void)(b3), (b0))
#define V_GATHER(p, o) V_LOADU((p)[0] + (o))

#endif
