/* NH for arm64 Advanced SIMD, two units at a time. umlal multiplies word i
 * of one two-word half by word i of another, so a pass's two products want
 * the units' words 0-1 in one vector and words 2-3 in another: the 64-bit
 * halves of the message units, paired across two units by trn, and, from the
 * key stored k0, k2, k1, k3, the even and odd words of two consecutive key
 * units, which uzp separates. Pass p of units u and u + 1 reads the key pair
 * at unit u + p; with u stepping by two, each key pair serves two passes, so
 * each two units prepare two new ones. An odd last unit runs alone. */
#include <arm_neon.h>

#include "nh.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "nh_neon.c loads NH's little-endian words natively"
#endif

#define NH_NEON_INLINE static inline __attribute__((always_inline))

/* Key units j and j + 1 split into words 0-1 (lo) and 2-3 (hi) of each. */
typedef struct nh_key_pair_neon {
    uint32x4_t lo, hi;
} nh_key_pair_neon;

NH_NEON_INLINE nh_key_pair_neon nh_key_pair_neon_of(uint32x4_t k,
                                                      uint32x4_t next)
{
    return (nh_key_pair_neon){ vuzp1q_u32(k, next), vuzp2q_u32(k, next) };
}

/* acc += both products of one pass over two units whose halves are lo, hi. */
NH_NEON_INLINE uint64x2_t nh_pass_neon(uint64x2_t acc, uint32x4_t lo,
                                       uint32x4_t hi, nh_key_pair_neon k)
{
    uint32x4_t a = vaddq_u32(lo, k.lo), b = vaddq_u32(hi, k.hi);
    acc = vmlal_u32(acc, vget_low_u32(a), vget_low_u32(b));
    return vmlal_high_u32(acc, a, b);
}

/* acc += one pass over one unit m against key unit k. */
NH_NEON_INLINE uint64x2_t nh_unit_neon(uint64x2_t acc, uint32x4_t m,
                                       uint32x4_t k)
{
    uint32x2_t a = vadd_u32(vget_low_u32(m), vget_low_u32(vuzp1q_u32(k, k)));
    uint32x2_t b = vadd_u32(vget_high_u32(m), vget_low_u32(vuzp2q_u32(k, k)));
    return vmlal_u32(acc, a, b);
}

/* Passes 0-3 of units u and u + 1 at msg (k = key + 4u), p0 and p1 the key
 * pairs at units u and u + 1, k2 key unit u + 2; on return they hold the
 * pairs and unit for u + 2. */
NH_NEON_INLINE void nh_two_units_neon(uint64x2_t s[NH_PASSES],
                                      const uint8_t *msg, const uint32_t *k,
                                      nh_key_pair_neon *p0,
                                      nh_key_pair_neon *p1, uint32x4_t *k2)
{
    uint64x2_t ma = vreinterpretq_u64_u8(vld1q_u8(msg));
    uint64x2_t mb = vreinterpretq_u64_u8(vld1q_u8(msg + 16));
    uint32x4_t lo = vreinterpretq_u32_u64(vtrn1q_u64(ma, mb));
    uint32x4_t hi = vreinterpretq_u32_u64(vtrn2q_u64(ma, mb));
    uint32x4_t k3 = vld1q_u32(k + 12), k4 = vld1q_u32(k + 16);
    nh_key_pair_neon p2 = nh_key_pair_neon_of(*k2, k3);
    nh_key_pair_neon p3 = nh_key_pair_neon_of(k3, k4);
    s[0] = nh_pass_neon(s[0], lo, hi, *p0);
    s[1] = nh_pass_neon(s[1], lo, hi, *p1);
    s[2] = nh_pass_neon(s[2], lo, hi, p2);
    s[3] = nh_pass_neon(s[3], lo, hi, p3);
    *p0 = p2;
    *p1 = p3;
    *k2 = k4;
}

void nh_sums_neon(const uint32_t *key, const uint8_t *msg, size_t len,
                  uint64_t sums[NH_PASSES])
{
    uint64x2_t s[NH_PASSES];
    size_t units = len / NH_UNIT_BYTES, u = 0;
    for (int p = 0; p < NH_PASSES; p++)
        s[p] = vdupq_n_u64(0);
    if (units >= 2) {
        uint32x4_t k2 = vld1q_u32(key + 8);
        nh_key_pair_neon p0 =
            nh_key_pair_neon_of(vld1q_u32(key), vld1q_u32(key + 4));
        nh_key_pair_neon p1 = nh_key_pair_neon_of(vld1q_u32(key + 4), k2);
        /* Four units an iteration: the key pairs then stay in their
         * registers instead of moving down one pair each step. */
        for (; u + 4 <= units; u += 4) {
            nh_two_units_neon(s, msg + 16 * u, key + 4 * u, &p0, &p1, &k2);
            nh_two_units_neon(s, msg + 16 * u + 32, key + 4 * u + 8, &p0,
                              &p1, &k2);
        }
        if (u + 2 <= units) {
            nh_two_units_neon(s, msg + 16 * u, key + 4 * u, &p0, &p1, &k2);
            u += 2;
        }
    }
    if (u < units) {
        const uint32_t *k = key + 4 * u;
        uint32x4_t m = vreinterpretq_u32_u8(vld1q_u8(msg + 16 * u));
        for (int p = 0; p < NH_PASSES; p++)
            s[p] = nh_unit_neon(s[p], m, vld1q_u32(k + 4 * p));
    }
    vst1q_u64(sums, vaddq_u64(vld1q_u64(sums), vpaddq_u64(s[0], s[1])));
    vst1q_u64(sums + 2,
              vaddq_u64(vld1q_u64(sums + 2), vpaddq_u64(s[2], s[3])));
}
