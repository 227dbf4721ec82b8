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

static inline __attribute__((always_inline)) uint8x16_t
aegis_round_ce(uint8x16_t s, uint8x16_t k)
{
    return veorq_u8(vaesmcq_u8(vaeseq_u8(s, vdupq_n_u8(0))), k);
}

#define V_AESENC(s, k) aegis_round_ce(s, k)

#include "aegis_qreg.h"
