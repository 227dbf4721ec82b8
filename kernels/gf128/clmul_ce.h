/* GF(2^128) products with PMULL (the ARMv8 Cryptography Extensions), for
 * files compiled with -march=armv8-a+crypto: the aarch64 counterpart of
 * clmul_x86.h, with the same Montgomery reduction, which GHASH
 * (kernels/aes/aes_ce.c, on byte-reversed blocks with its key powers times
 * x^-1) and POLYVAL (kernels/polyval, on plain little-endian blocks) share.
 * Force-inlined, so a profile names the caller.
 *
 * Products are Karatsuba's three (lo, hi, and the halves' xors
 * multiplied): PMULL issues to one pipe on the cores llvm-mca models
 * (Cortex-A53's single crypto pipe, Neoverse N1's V0), and the EXT and EOR
 * that Karatsuba adds go to the others. A sum of products is reduced once:
 * for a 255-bit z, z * x^-128 modulo x^128 + x^127 + x^126 + x^121 + 1, 64
 * bits at a time, the lowest quadword q cancelled by q * 0xc2 << 56 one
 * quadword up and q itself two quadwords up (clmul_x86.h says why). */
#ifndef CYCLEBENCH_CLMUL_CE_H
#define CYCLEBENCH_CLMUL_CE_H

#include <arm_neon.h>

#define GF128_CE_INLINE static inline __attribute__((always_inline))

/* The reduction constant's quadword: x^63 + x^62 + x^57. */
#define GF128_CE_POLY_QWORD 0xc200000000000000ull

/* A sum of products, unreduced: the outer products and the middle one
 * (Karatsuba's, before the outer two are taken out of it). */
typedef struct gf128_ce_sum {
    uint64x2_t lo, mid, hi;
} gf128_ce_sum;

GF128_CE_INLINE uint64x2_t gf128_ce_pmull_lo(uint64x2_t a, uint64x2_t b)
{
    return vreinterpretq_u64_p128(
        vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u64(a), 0),
                  vgetq_lane_p64(vreinterpretq_p64_u64(b), 0)));
}

GF128_CE_INLINE uint64x2_t gf128_ce_pmull_hi(uint64x2_t a, uint64x2_t b)
{
    return vreinterpretq_u64_p128(vmull_high_p64(vreinterpretq_p64_u64(a),
                                                 vreinterpretq_p64_u64(b)));
}

/* a's two halves xored, in its low lane: Karatsuba's middle factor. */
GF128_CE_INLINE uint64x2_t gf128_ce_kara(uint64x2_t a)
{
    return veorq_u64(a, vextq_u64(a, a, 1));
}

GF128_CE_INLINE gf128_ce_sum gf128_ce_sum_zero(void)
{
    uint64x2_t z = vdupq_n_u64(0);
    return (gf128_ce_sum){ z, z, z };
}

/* s += a * b, where b_kara = gf128_ce_kara(b) (a key's, computed once). */
GF128_CE_INLINE void gf128_ce_mul_add(gf128_ce_sum *s, uint64x2_t a,
                                      uint64x2_t b, uint64x2_t b_kara)
{
    s->lo = veorq_u64(s->lo, gf128_ce_pmull_lo(a, b));
    s->hi = veorq_u64(s->hi, gf128_ce_pmull_hi(a, b));
    s->mid = veorq_u64(s->mid, gf128_ce_pmull_lo(gf128_ce_kara(a), b_kara));
}

/* The sum times x^-128, reduced. */
GF128_CE_INLINE uint64x2_t gf128_ce_reduce(gf128_ce_sum s)
{
    const uint64x2_t poly = vdupq_n_u64(GF128_CE_POLY_QWORD),
                     zero = vdupq_n_u64(0);
    uint64x2_t mid = veorq_u64(s.mid, veorq_u64(s.lo, s.hi));
    uint64x2_t lo = veorq_u64(s.lo, vextq_u64(zero, mid, 1)),
               hi = veorq_u64(s.hi, vextq_u64(mid, zero, 1));
    lo = veorq_u64(vextq_u64(lo, lo, 1), gf128_ce_pmull_lo(lo, poly));
    lo = veorq_u64(vextq_u64(lo, lo, 1), gf128_ce_pmull_lo(lo, poly));
    return veorq_u64(hi, lo);
}

/* a * b * x^-128: POLYVAL's dot(a, b). */
GF128_CE_INLINE uint64x2_t gf128_ce_mul(uint64x2_t a, uint64x2_t b)
{
    gf128_ce_sum s = gf128_ce_sum_zero();
    gf128_ce_mul_add(&s, a, b, gf128_ce_kara(b));
    return gf128_ce_reduce(s);
}

#endif
