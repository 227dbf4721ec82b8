/* Keccak-p[1600] with the Armv8.2 SHA3 instructions (keccak_lanes.h has
 * the rounds): theta's parities EOR3, its C[x-1] ^ rol(C[x+1], 1) one
 * RAX1, theta's addition and rho's rotation together one XAR per lane,
 * chi's a ^ (~b & c) one BCAX. One state keeps each lane in the low half
 * of its own vector register (there are 32, enough for the state and the
 * parities); KangarooTwelve's leaves run two at a time, one state per
 * half. */
#include <arm_neon.h>

#include "keccak.h"

#define KL_V uint64x2_t
#define KL_XOR3(a, b, c) veor3q_u64(a, b, c)
#define KL_THETA_D(p, q) vrax1q_u64(p, q)
/* XAR rotates right: rho's left rotation by n is a right one by 64 - n. */
#define KL_XOR_ROL(a, d, n) vxarq_u64(a, d, 64 - (n))
#define KL_XOR(a, b) veorq_u64(a, b)
/* BCAX is a ^ (b & ~c). */
#define KL_CHI(a, b, c) vbcaxq_u64(a, c, b)
#define KL_RC(a, rc) veorq_u64(a, vdupq_n_u64(rc))

#define KL_N 1
#define KL_NAME(f) f##_x1_sha3
#include "keccak_lanes.h"
#undef KL_N
#undef KL_NAME

void keccak_permute_sha3(uint64_t state[KECCAK_LANES], unsigned rounds)
{
    uint64x2_t a[KECCAK_LANES];
    for (unsigned i = 0; i < KECCAK_LANES; i++)
        a[i] = vdupq_n_u64(state[i]);
    keccak_lanes_rounds_x1_sha3(a, rounds);
    for (unsigned i = 0; i < KECCAK_LANES; i++)
        state[i] = vgetq_lane_u64(a[i], 0);
}

#define KL_N 2
#define KL_NAME(f) f##_x2_sha3
#define KL_GATHER(p, stride)                                                 \
    vcombine_u64(vreinterpret_u64_u8(vld1_u8(p)),                            \
                 vreinterpret_u64_u8(vld1_u8((p) + (stride))))
#define KL_STORE(u, a) vst1q_u64(u, a)
#include "keccak_lanes.h"

void keccak_kt_leaves_sha3(const uint8_t *in, unsigned security, uint8_t *cv)
{
    keccak_lanes_leaves_x2_sha3(in, security, cv);
}
