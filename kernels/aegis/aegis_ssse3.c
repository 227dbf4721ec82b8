/* AEGIS-128L and AEGIS-256 on xmm without AES instructions: one state word
 * per register, the AES round the constant-time vector-permute one of
 * aes_round_ssse3.h (no memory indexed by the state, nothing branching on
 * it). The state machine is aegis_lanes.h's, on aegis_xmm.h's primitives. */
#include "../aes/aes_round_ssse3.h"

#define AEGIS_ISA ssse3
#define V_AESENC(s, k) aes_round_ssse3(s, k)

#include "aegis_xmm.h"
