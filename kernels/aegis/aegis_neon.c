/* AEGIS-128L and AEGIS-256 on aarch64 without the AES instructions: one
 * state word per register, the AES round the constant-time vector-permute
 * one of aes_round_neon.h (TBL on registers: no memory indexed by the
 * state, nothing branching on it), as aegis_ssse3.c does on x86. The state
 * machine is aegis_lanes.h's, on aegis_qreg.h's primitives. */
#include "../aes/aes_round_neon.h"

#define AEGIS_ISA neon
#define V_AESENC(s, k) aes_round_neon(s, k)

#include "aegis_qreg.h"
