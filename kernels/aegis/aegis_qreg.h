/* aegis_lanes.h's vector primitives on aarch64's 128-bit registers, one
 * lane: AEGIS-128L and AEGIS-256 with one state word per register, as
 * aegis_xmm.h does on x86. The including file defines AEGIS_ISA and
 * V_AESENC(state, round_key), its AES round, first. */
#include <arm_neon.h>

typedef uint8x16_t vec;

#define AEGIS128 aegis128l
#define AEGIS256 aegis256
#define LANES 1
#define V_LOADU(p) vld1q_u8((const uint8_t *)(p))
#define V_STOREU(p, v) vst1q_u8((uint8_t *)(p), v)
#define V_XOR(a, b) veorq_u8(a, b)
#define V_XOR3(a, b, c) veorq_u8(veorq_u8(a, b), c)
#define V_XOR_AND(a, b, c) veorq_u8(a, vandq_u8(b, c))
#define V_BCAST(p) V_LOADU(p)
#define V_LANE_QWORDS(k) vreinterpretq_u8_u64((uint64x2_t){ (uint64_t)(k), 0 })
#define V_FOLD(v) (v)

#include "aegis_lanes.h"
