/* The scalar Poly1305 core every variant shares, force-inlined so that each
 * ISA's object carries its own copy under its own symbol (a profile of
 * poly1305_blocks_avx2 then counts its short messages too).
 *
 * Base 2^64 with 64x64->128-bit products, as in OpenSSL's poly1305.c: r's
 * clamping clears the low two bits of r[1], so h[1] r[1] 2^128 folds to
 * h[1] (r[1] / 4) 5 mod p and each block costs four full products. The
 * accumulator is kept only partly reduced: h < 2^130 + a little, h[2] <= 4.
 *
 * The vector variants work in five 26-bit limbs; the conversions are
 * here too. */
#ifndef CYCLEBENCH_POLY1305_SCALAR_H
#define CYCLEBENCH_POLY1305_SCALAR_H

#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "poly1305.h"

typedef unsigned __int128 poly1305_u128;

#define POLY1305_INLINE static inline __attribute__((always_inline))
#define POLY1305_LIMB_MASK 0x3ffffffu

POLY1305_INLINE uint64_t poly1305_load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8); /* little-endian hosts only, as Poly1305 is */
    return v;
}

/* a + b + carry into *sum, the carry out returned. x86-64's add-with-carry
 * intrinsic; elsewhere a 128-bit sum, which GCC turns into adds/adc on
 * aarch64. */
#if defined(__x86_64__)
#define poly1305_addc _addcarry_u64
#else
POLY1305_INLINE unsigned char poly1305_addc(unsigned char carry, uint64_t a,
                                            uint64_t b,
                                            unsigned long long *sum)
{
    poly1305_u128 t = (poly1305_u128)a + b + carry;
    *sum = (uint64_t)t;
    return (unsigned char)(t >> 64);
}
#endif

/* h = h r, partly reduced; h is what a block added to it. The sums go
 * through add-with-carry on 64-bit halves: GCC compiles 128-bit additions
 * through the stack. */
POLY1305_INLINE void poly1305_mul_r(uint64_t *h0, uint64_t *h1, uint64_t *h2,
                                    uint64_t r0, uint64_t r1)
{
    uint64_t s1 = r1 + (r1 >> 2);
    poly1305_u128 a = (poly1305_u128)*h0 * r0, b = (poly1305_u128)*h1 * s1;
    poly1305_u128 c = (poly1305_u128)*h0 * r1, d = (poly1305_u128)*h1 * r0;
    unsigned long long d0, d0_hi, d1, d1_hi, lo, mid;
    unsigned char k;
    /* d0 = h0 r0 + h1 s1 < 2^126 and d1 = h0 r1 + h1 r0 + h2 s1 + d0_hi
     * < 2^126: r is clamped below 2^124, h2 is at most 7. */
    k = poly1305_addc(0, (uint64_t)a, (uint64_t)b, &d0);
    poly1305_addc(k, (uint64_t)(a >> 64), (uint64_t)(b >> 64), &d0_hi);
    k = poly1305_addc(0, (uint64_t)c, (uint64_t)d, &d1);
    poly1305_addc(k, (uint64_t)(c >> 64), (uint64_t)(d >> 64), &d1_hi);
    k = poly1305_addc(0, d1, *h2 * s1, &d1);
    poly1305_addc(k, d1_hi, 0, &d1_hi);
    k = poly1305_addc(0, d1, d0_hi, &d1);
    poly1305_addc(k, d1_hi, 0, &d1_hi);
    /* h = top 2^128 + d1 2^64 + d0; fold the bits above 2^130 back in,
     * times 5. */
    uint64_t top = *h2 * r0 + d1_hi;
    k = poly1305_addc(0, d0, (top >> 2) + (top & ~(uint64_t)3), &lo);
    k = poly1305_addc(k, d1, 0, &mid);
    *h0 = lo;
    *h1 = mid;
    *h2 = (top & 3) + k;
}

POLY1305_INLINE void poly1305_scalar_blocks(poly1305_state *st,
                                            const uint8_t *in, size_t len,
                                            uint64_t padbit)
{
    uint64_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2];
    for (; len >= POLY1305_BLOCK_BYTES; len -= POLY1305_BLOCK_BYTES,
                                        in += POLY1305_BLOCK_BYTES) {
        unsigned long long lo, hi;
        unsigned char k = poly1305_addc(0, h0, poly1305_load64(in), &lo);
        k = poly1305_addc(k, h1, poly1305_load64(in + 8), &hi);
        h0 = lo;
        h1 = hi;
        h2 += k + padbit;
        poly1305_mul_r(&h0, &h1, &h2, st->r[0], st->r[1]);
    }
    st->h[0] = h0;
    st->h[1] = h1;
    st->h[2] = h2;
}

/* h mod p, for h < 2p: subtract p when h + 5 reaches 2^130. Constant
 * time: a mask, no branch. */
POLY1305_INLINE void poly1305_freeze(uint64_t h[3])
{
    poly1305_u128 t = (poly1305_u128)h[0] + 5;
    uint64_t g0 = (uint64_t)t;
    t = (poly1305_u128)h[1] + (uint64_t)(t >> 64);
    uint64_t g1 = (uint64_t)t;
    uint64_t g2 = h[2] + (uint64_t)(t >> 64);
    uint64_t use_g = 0 - (g2 >> 2);
    h[0] = (h[0] & ~use_g) | (g0 & use_g);
    h[1] = (h[1] & ~use_g) | (g1 & use_g);
    h[2] = (h[2] & ~use_g) | (g2 & 3 & use_g);
}

/* Five 26-bit limbs of h (the top one takes h[2]'s bits as well). */
POLY1305_INLINE void poly1305_to_limbs(const uint64_t h[3], uint64_t l[5])
{
    l[0] = h[0] & POLY1305_LIMB_MASK;
    l[1] = (h[0] >> 26) & POLY1305_LIMB_MASK;
    l[2] = ((h[0] >> 52) | (h[1] << 12)) & POLY1305_LIMB_MASK;
    l[3] = (h[1] >> 14) & POLY1305_LIMB_MASK;
    l[4] = (h[1] >> 40) | (h[2] << 24);
}

/* h from five limbs of up to 62 bits each (the sums of a vector path's
 * lanes), carried and folded back below 2^130 + 2^27. */
POLY1305_INLINE void poly1305_from_limbs(uint64_t d[5], uint64_t h[3])
{
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < 4; i++) {
            d[i + 1] += d[i] >> 26;
            d[i] &= POLY1305_LIMB_MASK;
        }
        d[0] += (d[4] >> 26) * 5;
        d[4] &= POLY1305_LIMB_MASK;
    }
    /* Now d[0] < 2^26 + 2^8 and the others are below 2^26. */
    poly1305_u128 low = (poly1305_u128)d[0] + ((poly1305_u128)d[1] << 26) +
                        ((poly1305_u128)d[2] << 52) +
                        ((poly1305_u128)d[3] << 78);
    poly1305_u128 top = (poly1305_u128)(d[4] & 0xffffff) << 104;
    poly1305_u128 sum = low + top;
    h[0] = (uint64_t)sum;
    h[1] = (uint64_t)(sum >> 64);
    h[2] = (d[4] >> 24) + (sum < top);
}

/* The vector paths load a group of 2k blocks as two vectors of k blocks
 * and interleave their 64-bit halves: lane 2i holds block i of the group,
 * lane 2i + 1 block i + k. */
POLY1305_INLINE int poly1305_block_of_lane(int lane, int lanes)
{
    return lane / 2 + (lane % 2) * (lanes / 2);
}

POLY1305_INLINE int poly1305_lane_of_block(int block, int lanes)
{
    int half = lanes / 2;
    return block < half ? 2 * block : 2 * (block - half) + 1;
}

/* The powers of r a vector path multiplies by, as rows of st->powers
 * (one value per lane), each fully reduced and split into nlimbs limbs by
 * to_limbs: from loop_row, r^lanes in every lane; from last_row, in lane j
 * the power r^(lanes - b) that block b = poly1305_block_of_lane(j) of the
 * last group still owes. */
POLY1305_INLINE void poly1305_power_rows(poly1305_state *st, int lanes,
                                         int nlimbs,
                                         void (*to_limbs)(const uint64_t[3],
                                                          uint64_t *),
                                         int loop_row, int last_row)
{
    uint64_t p[3] = { st->r[0], st->r[1], 0 };
    for (int k = 1; k <= lanes; k++) {
        uint64_t frozen[3] = { p[0], p[1], p[2] }, limbs[5];
        int lane = poly1305_lane_of_block(lanes - k, lanes);
        poly1305_freeze(frozen);
        to_limbs(frozen, limbs);
        for (int i = 0; i < nlimbs; i++)
            st->powers[last_row + i][lane] = limbs[i];
        if (k < lanes)
            poly1305_mul_r(&p[0], &p[1], &p[2], st->r[0], st->r[1]);
        else
            for (int i = 0; i < nlimbs; i++)
                for (int j = 0; j < lanes; j++)
                    st->powers[loop_row + i][j] = limbs[i];
    }
}

#endif
