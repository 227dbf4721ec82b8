/* POLYVAL with PMULL on aarch64, the force-inlined pieces: polyval_ce.c
 * builds the `ce` row from them, and kernels built on POLYVAL (AES's XCTR
 * with POLYVAL, CGO) hash in their own loops with keys that row set up.
 * For files compiled with -march=armv8-a+crypto.
 *
 * Blocks are little-endian field elements, which is how PMULL reads a
 * register: no byte swap, unlike GHASH. A batch of up to PV_CE_BATCH
 * blocks is multiplied by the descending powers of H (polyval_key.pow),
 * the running hash added to its first block, the products summed and
 * reduced once (kernels/gf128/clmul_ce.h). The key's Karatsuba halves are
 * xored as they are loaded: polyval_key holds the powers only, as on x86,
 * and the EXT and EOR go to pipes that PMULL leaves idle. */
#ifndef CYCLEBENCH_POLYVAL_CE_H
#define CYCLEBENCH_POLYVAL_CE_H

#include <arm_neon.h>
#include <stddef.h>

#include "polyval.h"
#include "../gf128/clmul_ce.h"
#include "../unroll.h"

#define PV_CE_INLINE static inline __attribute__((always_inline))
/* Blocks per reduction in the row's own loop. */
#define PV_CE_BATCH 8

PV_CE_INLINE uint64x2_t pv_ce_load(const uint8_t *p)
{
    return vreinterpretq_u64_u8(vld1q_u8(p));
}

PV_CE_INLINE void pv_ce_store(uint8_t *p, uint64x2_t v)
{
    vst1q_u8(p, vreinterpretq_u8_u64(v));
}

/* The power of H for block i of a batch of n blocks (the last gets H). */
PV_CE_INLINE uint64x2_t pv_ce_power(const polyval_key *k, int n, int i)
{
    return pv_ce_load(k->pow[POLYVAL_POWERS - n + i]);
}

/* s += x * (the power of H for block i of a batch of n). */
PV_CE_INLINE void pv_ce_add(gf128_ce_sum *s, const polyval_key *k,
                            uint64x2_t x, int n, int i)
{
    uint64x2_t h = pv_ce_power(k, n, i);
    gf128_ce_mul_add(s, x, h, gf128_ce_kara(h));
}

/* acc continued over the n blocks at p (n at most POLYVAL_POWERS),
 * reduced once; n is a constant in whole batches, so the loop unrolls. */
PV_CE_INLINE uint64x2_t pv_ce_blocks(const polyval_key *k, uint64x2_t acc,
                                     const uint8_t *p, int n)
{
    gf128_ce_sum s = gf128_ce_sum_zero();
    if (n == 0)
        return acc;
    CB_UNROLL(8)
    for (int i = 0; i < n; i++) {
        uint64x2_t x = pv_ce_load(p + 16 * i);
        pv_ce_add(&s, k, i == 0 ? veorq_u64(x, acc) : x, n, i);
    }
    return gf128_ce_reduce(s);
}

/* acc continued over nblocks at p: whole batches, then the rest as one
 * batch. */
PV_CE_INLINE uint64x2_t pv_ce_update(const polyval_key *k, uint64x2_t acc,
                                     const uint8_t *p, size_t nblocks)
{
    for (; nblocks >= PV_CE_BATCH; nblocks -= PV_CE_BATCH, p += 16 * PV_CE_BATCH)
        acc = pv_ce_blocks(k, acc, p, PV_CE_BATCH);
    return pv_ce_blocks(k, acc, p, (int)nblocks);
}

/* H^1 .. H^POLYVAL_POWERS into pow, descending (pow[POLYVAL_POWERS - 1]
 * is h): H^2 .. H^4 one after another, then while `have` powers are
 * known, the next `have` as each known one times H^have, products that do
 * not wait for each other. GHASH's powers of its twisted key
 * (kernels/aes/aes_ce.c) are laid out the same and made here too. */
PV_CE_INLINE void pv_ce_powers(uint8_t pow[POLYVAL_POWERS][16], uint64x2_t h)
{
    uint64x2_t p[POLYVAL_POWERS + 1];
    p[1] = h;
    for (int i = 2; i <= 4; i++)
        p[i] = gf128_ce_mul(p[i - 1], p[1]);
    for (int have = 4; have < POLYVAL_POWERS; have *= 2) {
        uint64x2_t f = p[have], f_kara = gf128_ce_kara(f);
        for (int i = 1; i <= have; i++) {
            gf128_ce_sum s = gf128_ce_sum_zero();
            gf128_ce_mul_add(&s, p[i], f, f_kara);
            p[have + i] = gf128_ce_reduce(s);
        }
    }
    for (int i = 1; i <= POLYVAL_POWERS; i++)
        pv_ce_store(pow[POLYVAL_POWERS - i], p[i]);
}

#endif
