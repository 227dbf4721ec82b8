/* Ascon-AEAD128 on two messages at once with plain Advanced SIMD, one
 * state per 64-bit element of a q register (ascon_lanes.h has the
 * sponge): a rotation is SHL then SRI, the S-box's a ^ (~b & c) a BIC and
 * an EOR. */
#include <arm_neon.h>

#include "ascon.h"

#define AL_V uint64x2_t
#define AL_N 2
#define AL_NAME(f) f##_x2_neon
/* ror(a, n): a << (64 - n), with a >> n inserted below it. */
#define AL_ROR(a, n) vsriq_n_u64(vshlq_n_u64(a, 64 - (n)), a, n)
#define AL_XOR(a, b) veorq_u64(a, b)
#define AL_XOR3(a, b, c) veorq_u64(veorq_u64(a, b), c)
#define AL_AND(a, b) vandq_u64(a, b)
/* BIC is c & ~b. */
#define AL_CHI(a, b, c) veorq_u64(a, vbicq_u64(c, b))
#define AL_LIN(a, m, n) AL_XOR3(a, AL_ROR(a, m), AL_ROR(a, n))
#define AL_SET1(w) vdupq_n_u64(w)
#define AL_LOAD(u) vld1q_u64(u)
#define AL_STORE(u, a) vst1q_u64(u, a)
#include "ascon_lanes.h"

void ascon_aead128_encrypt_x2_neon(const ascon_batch *b, size_t first)
{
    ascon_lanes_encrypt_x2_neon(b, first);
}

void ascon_aead128_decrypt_x2_neon(const ascon_batch *b, size_t first)
{
    ascon_lanes_decrypt_x2_neon(b, first);
}
