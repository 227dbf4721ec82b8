/* AEGIS-128L and AEGIS-256 on xmm with AES-NI: one state word per
 * register, the AES round one aesenc. The state machine is aegis_lanes.h's,
 * on aegis_xmm.h's primitives. */
#include <immintrin.h>

#define AEGIS_ISA aesni
#define V_AESENC(s, k) _mm_aesenc_si128(s, k)

#include "aegis_xmm.h"
