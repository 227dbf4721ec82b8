/* Poly1305 for arm64 Advanced SIMD: the wide loop of poly1305_vector.h at
 * four lanes, a vector being a pair of 128-bit registers that behaves as
 * the avx2 file's ymm does (its unpacks work within each 128-bit half), with
 * the scalar core for short calls and tails. Four lanes rather than two:
 * the chain from one group's products through the carries to the next is
 * then paid once per 64 bytes. The loop's multiply narrows h to 32-bit
 * words once a group and uses umull/umlal, which take the low or high two
 * words of each operand, instead of narrowing for each of the 25
 * products. */
#include <arm_neon.h>

#include "poly1305.h"
#include "poly1305_scalar.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "poly1305_neon.c reads 32-bit halves of 64-bit lanes as little-endian"
#endif

typedef struct poly1305_vec_neon {
    uint64x2_t v[2];
} poly1305_vec_neon;

#define LANES 4
#define VEC poly1305_vec_neon

POLY1305_INLINE VEC v_add_neon(VEC a, VEC b)
{
    return (VEC){ { vaddq_u64(a.v[0], b.v[0]), vaddq_u64(a.v[1], b.v[1]) } };
}

POLY1305_INLINE VEC v_and_neon(VEC a, VEC b)
{
    return (VEC){ { vandq_u64(a.v[0], b.v[0]), vandq_u64(a.v[1], b.v[1]) } };
}

POLY1305_INLINE VEC v_or_neon(VEC a, VEC b)
{
    return (VEC){ { vorrq_u64(a.v[0], b.v[0]), vorrq_u64(a.v[1], b.v[1]) } };
}

/* The low 32 bits of each lane times those of b's. */
POLY1305_INLINE uint64x2_t mul_lo32_neon(uint64x2_t a, uint64x2_t b)
{
    return vmull_u32(vmovn_u64(a), vmovn_u64(b));
}

POLY1305_INLINE VEC v_mul_neon(VEC a, VEC b)
{
    return (VEC){ { mul_lo32_neon(a.v[0], b.v[0]),
                    mul_lo32_neon(a.v[1], b.v[1]) } };
}

POLY1305_INLINE VEC v_set1_neon(uint64_t x)
{
    return (VEC){ { vdupq_n_u64(x), vdupq_n_u64(x) } };
}

POLY1305_INLINE VEC v_load_neon(const void *p)
{
    const uint64_t *q = p;
    return (VEC){ { vld1q_u64(q), vld1q_u64(q + 2) } };
}

POLY1305_INLINE VEC v_unpacklo_neon(VEC a, VEC b)
{
    return (VEC){ { vzip1q_u64(a.v[0], b.v[0]), vzip1q_u64(a.v[1], b.v[1]) } };
}

POLY1305_INLINE VEC v_unpackhi_neon(VEC a, VEC b)
{
    return (VEC){ { vzip2q_u64(a.v[0], b.v[0]), vzip2q_u64(a.v[1], b.v[1]) } };
}

POLY1305_INLINE VEC v_lane0_neon(uint64_t x)
{
    return (VEC){ { vsetq_lane_u64(x, vdupq_n_u64(0), 0), vdupq_n_u64(0) } };
}

POLY1305_INLINE uint64_t v_hsum_neon(VEC a)
{
    return vaddvq_u64(vaddq_u64(a.v[0], a.v[1]));
}

#define V_ADD v_add_neon
#define V_MUL v_mul_neon
#define V_AND v_and_neon
#define V_OR v_or_neon
/* Macros: the shift counts must reach the intrinsics as constants. */
#define V_SRL(a, n)                                                           \
    ((VEC){ { vshrq_n_u64((a).v[0], n), vshrq_n_u64((a).v[1], n) } })
#define V_SLL(a, n)                                                           \
    ((VEC){ { vshlq_n_u64((a).v[0], n), vshlq_n_u64((a).v[1], n) } })
#define V_SET1 v_set1_neon
#define V_LOAD v_load_neon
#define V_LOADU v_load_neon
#define V_UNPACKLO v_unpacklo_neon
#define V_UNPACKHI v_unpackhi_neon
#define V_LANE0 v_lane0_neon
#define V_HSUM v_hsum_neon
#define V_ZEROUPPER() ((void)0)

/* The low 32 bits of the four lanes of a, as one vector of words. */
POLY1305_INLINE uint32x4_t narrow_neon(VEC a)
{
    return vuzp1q_u32(vreinterpretq_u32_u64(a.v[0]),
                      vreinterpretq_u32_u64(a.v[1]));
}

/* vector_mul for the loop: the same products and sums, with h narrowed
 * once. The loop's rows hold r^4 in every lane, so each is one 32-bit
 * word loaded into all four (ld1r) rather than four lanes narrowed. */
POLY1305_INLINE void mul_loop_neon(VEC h[5],
                                   const uint64_t (*rows)[POLY1305_MAX_LANES])
{
    uint32x4_t r[9], hn[5];
    VEC d[5];
    for (int k = 0; k < 9; k++)
        r[k] = vld1q_dup_u32((const uint32_t *)rows[k]);
    for (int i = 0; i < 5; i++)
        hn[i] = narrow_neon(h[i]);
    for (int j = 0; j < 5; j++) {
        d[j].v[0] = vmull_u32(vget_low_u32(hn[0]), vget_low_u32(r[j]));
        d[j].v[1] = vmull_high_u32(hn[0], r[j]);
    }
    for (int i = 1; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            int k = (j - i + 5) % 5;
            uint32x4_t rk = r[i + k >= 5 ? 4 + k : k];
            d[j].v[0] = vmlal_u32(d[j].v[0], vget_low_u32(hn[i]),
                                  vget_low_u32(rk));
            d[j].v[1] = vmlal_high_u32(d[j].v[1], hn[i], rk);
        }
    for (int j = 0; j < 5; j++)
        h[j] = d[j];
}
#define VECTOR_MUL_LOOP mul_loop_neon

#define POLY1305_ISA neon
#include "poly1305_vector.h"
