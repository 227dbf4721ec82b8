/* AEGIS-128L and AEGIS-256 on aarch64 with the Cryptography Extensions:
 * one state word per register, the state machine aegis_lanes.h's.
 *
 * AEGIS's round is AESENC's: SubBytes, ShiftRows, MixColumns, then the
 * round key added. AESE adds its key first, so the round is AESE with a
 * zero key, AESMC, and an EOR of the key after; the AESE/AESMC pair is
 * the one cores fuse, and the EOR is off the state word's chain when the
 * key is ready first. */
#include <arm_neon.h>

#define AEGIS_ISA ce
#define AEGIS128 aegis128l
#define AEGIS256 aegis256
#define LANES 1

typedef uint8x16_t vec;

static inline __attribute__((always_inline)) vec aegis_round_ce(vec s, vec k)
{
    return veorq_u8(vaesmcq_u8(vaeseq_u8(s, vdupq_n_u8(0))), k);
}

#define V_AESENC(s, k) aegis_round_ce(s, k)
#define V_LOADU(p) vld1q_u8((const uint8_t *)(p))
#define V_STOREU(p, v) vst1q_u8((uint8_t *)(p), v)
#define V_XOR(a, b) veorq_u8(a, b)
#define V_XOR3(a, b, c) veorq_u8(veorq_u8(a, b), c)
#define V_XOR_AND(a, b, c) veorq_u8(a, vandq_u8(b, c))
#define V_BCAST(p) V_LOADU(p)
#define V_LANE_QWORDS(k) vreinterpretq_u8_u64((uint64x2_t){ (uint64_t)(k), 0 })
#define V_FOLD(v) (v)

#include "aegis_lanes.h"
