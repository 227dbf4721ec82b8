/* POLYVAL in portable C, constant-time: the carry-less product from
 * kernels/gf128/clmul_generic.h (integer multiplies with holes between the
 * data bits), then a Montgomery reduction by shifts and xors. One block at
 * a time, Horner's rule; the reference every other row is tested against. */
#include <string.h>

#include "polyval.h"
#include "../gf128/clmul_generic.h"

static inline uint64_t load64_le(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static inline void store64_le(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        p[i] = (uint8_t)v;
}

/* (*hi:*lo) = z * x^-128 mod P, P = x^128 + x^127 + x^126 + x^121 + 1, for
 * the 255-bit product z: 64 bits at a time, the lowest quadword q is
 * cancelled by adding q * P, which puts q * (x^63 + x^62 + x^57) one
 * quadword up and q itself two quadwords up. After two steps the low half
 * is zero and the high half is the result, already below degree 128. */
static inline void reduce_generic(uint64_t z[4], uint64_t *hi, uint64_t *lo)
{
    for (int i = 0; i < 2; i++) {
        uint64_t q = z[i];
        z[i + 1] ^= (q << 63) ^ (q << 62) ^ (q << 57);
        z[i + 2] ^= q ^ (q >> 1) ^ (q >> 2) ^ (q >> 7);
    }
    *lo = z[2];
    *hi = z[3];
}

void polyval_init_generic(polyval_key *k, const uint8_t h[16])
{
    memcpy(k->pow[POLYVAL_POWERS - 1], h, 16);
}

void polyval_update_generic(const polyval_key *k, uint8_t acc[16],
                            const uint8_t *in, size_t nblocks)
{
    const uint8_t *h = k->pow[POLYVAL_POWERS - 1];
    clmul_factor f = clmul_factor_of(load64_le(h + 8), load64_le(h));
    uint64_t lo = load64_le(acc), hi = load64_le(acc + 8), z[4];
    for (size_t i = 0; i < nblocks; i++, in += 16) {
        clmul_128(&f, hi ^ load64_le(in + 8), lo ^ load64_le(in), z);
        reduce_generic(z, &hi, &lo);
    }
    store64_le(acc, lo);
    store64_le(acc + 8, hi);
}

void polyval_mul_generic(uint8_t out[16], const uint8_t x[16],
                         const uint8_t h[16])
{
    clmul_factor f = clmul_factor_of(load64_le(h + 8), load64_le(h));
    uint64_t hi, lo, z[4];
    clmul_128(&f, load64_le(x + 8), load64_le(x), z);
    reduce_generic(z, &hi, &lo);
    store64_le(out, lo);
    store64_le(out + 8, hi);
}
