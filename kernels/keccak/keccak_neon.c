/* KangarooTwelve's leaves two at a time with plain Advanced SIMD, one
 * state per 64-bit element of a q register (keccak_lanes.h has the
 * rounds): a rotation is SHL then SRI, chi a BIC and an EOR. The row's
 * one-state permutation is generic's (keccak.c): half of every
 * instruction would be wasted on one state, with no rotate or three-input
 * XOR to pay for it, so it cannot beat the scalar code, whose rotations
 * come free with EOR's shifted operand. */
#include <arm_neon.h>

#include "keccak.h"

#define KL_V uint64x2_t
#define KL_N 2
#define KL_NAME(f) f##_x2_neon
#define KL_ROL(a, n) vsriq_n_u64(vshlq_n_u64(a, n), a, 64 - (n))
#define KL_XOR(a, b) veorq_u64(a, b)
#define KL_XOR3(a, b, c) veorq_u64(veorq_u64(a, b), c)
#define KL_THETA_D(p, q) veorq_u64(p, KL_ROL(q, 1))
/* a ^ d appears twice; the compiler computes it once. */
#define KL_XOR_ROL(a, d, n) KL_ROL(KL_XOR(a, d), n)
#define KL_CHI(a, b, c) veorq_u64(a, vbicq_u64(c, b))
#define KL_RC(a, rc) veorq_u64(a, vdupq_n_u64(rc))
#define KL_GATHER(p, stride)                                                 \
    vcombine_u64(vreinterpret_u64_u8(vld1_u8(p)),                            \
                 vreinterpret_u64_u8(vld1_u8((p) + (stride))))
#define KL_STORE(u, a) vst1q_u64(u, a)

#include "keccak_lanes.h"

void keccak_kt_leaves_neon(const uint8_t *in, unsigned security, uint8_t *cv)
{
    keccak_lanes_leaves_x2_neon(in, security, cv);
}
