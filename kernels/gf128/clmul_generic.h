/* Carry-less multiplication in portable C, constant-time: no table and no
 * branch depends on the operands, only integer multiplies, shifts and
 * xors (BearSSL's ghash_ctmul64 technique). GHASH (kernels/aes) and POLYVAL
 * (kernels/polyval) share it; each brings its own reduction, since GHASH
 * works on bit-reflected blocks and POLYVAL on plain little-endian ones.
 *
 * Everything here is force-inlined into its caller, so a profile names the
 * caller's generic function. */
#ifndef CYCLEBENCH_CLMUL_GENERIC_H
#define CYCLEBENCH_CLMUL_GENERIC_H

#include <stdint.h>

#define CLMUL_INLINE static inline __attribute__((always_inline))

/* Low 64 bits of the carry-less product. Each operand is split into four
 * classes of every fourth bit; in the integer product of two classes, the
 * sum of everything below a data bit stays under that bit (at most 15 terms
 * per column there), so carries stay inside the three-bit holes and the
 * masked bits are the carry-less ones. Only the low 64 bits are exact,
 * hence the bit-reversed second product for the high half. */
CLMUL_INLINE uint64_t bmul64(uint64_t x, uint64_t y)
{
    const uint64_t m0 = 0x1111111111111111, m1 = m0 << 1, m2 = m0 << 2,
                   m3 = m0 << 3;
    uint64_t x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
    uint64_t y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
    uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

CLMUL_INLINE uint64_t rev64(uint64_t x)
{
    x = ((x & 0x5555555555555555) << 1) | ((x >> 1) & 0x5555555555555555);
    x = ((x & 0x3333333333333333) << 2) | ((x >> 2) & 0x3333333333333333);
    x = ((x & 0x0f0f0f0f0f0f0f0f) << 4) | ((x >> 4) & 0x0f0f0f0f0f0f0f0f);
    x = ((x & 0x00ff00ff00ff00ff) << 8) | ((x >> 8) & 0x00ff00ff00ff00ff);
    x = ((x & 0x0000ffff0000ffff) << 16) | ((x >> 16) & 0x0000ffff0000ffff);
    return x << 32 | x >> 32;
}

/* A fixed 128-bit factor (a hash key) with what its products reuse: its
 * halves, their xor (Karatsuba's middle factor) and the three bit-reversed,
 * computed once per key rather than once per block. */
typedef struct clmul_factor {
    uint64_t lo, hi, mid, lo_rev, hi_rev, mid_rev;
} clmul_factor;

CLMUL_INLINE clmul_factor clmul_factor_of(uint64_t hi, uint64_t lo)
{
    clmul_factor f = { lo, hi, lo ^ hi, rev64(lo), rev64(hi), 0 };
    f.mid_rev = f.lo_rev ^ f.hi_rev;
    return f;
}

/* z[0..3] (z[0] lowest) = the 255-bit carry-less product of (a_hi:a_lo)
 * and f, by Karatsuba: three 64x64 products, each as its low half from
 * bmul64 and its high half from bmul64 of the reversed operands (the
 * reversed product, shifted right by one). */
CLMUL_INLINE void clmul_128(const clmul_factor *f, uint64_t a_hi,
                            uint64_t a_lo, uint64_t z[4])
{
    uint64_t a_mid = a_lo ^ a_hi, lo_rev = rev64(a_lo), hi_rev = rev64(a_hi);
    uint64_t z0 = bmul64(a_lo, f->lo), z1 = bmul64(a_hi, f->hi),
             z2 = bmul64(a_mid, f->mid);
    uint64_t z0h = bmul64(lo_rev, f->lo_rev), z1h = bmul64(hi_rev, f->hi_rev),
             z2h = bmul64(lo_rev ^ hi_rev, f->mid_rev);
    z2 ^= z0 ^ z1;
    z2h ^= z0h ^ z1h;
    z0h = rev64(z0h) >> 1;
    z1h = rev64(z1h) >> 1;
    z2h = rev64(z2h) >> 1;
    z[0] = z0;
    z[1] = z0h ^ z2;
    z[2] = z1 ^ z2h;
    z[3] = z1h;
}

#endif
