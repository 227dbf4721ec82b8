/* POLYVAL with PMULL on aarch64: one block per register, eight a batch,
 * one reduction a batch. The pieces are polyval_ce.h's. */
#include "polyval_ce.h"

/* All the powers, though the row's own batches use eight: CGO's tweak is
 * 32 blocks, hashed with one reduction on every row. */
void polyval_init_ce(polyval_key *k, const uint8_t h[16])
{
    pv_ce_powers(k->pow, pv_ce_load(h));
}

void polyval_update_ce(const polyval_key *k, uint8_t acc[16],
                       const uint8_t *in, size_t nblocks)
{
    pv_ce_store(acc, pv_ce_update(k, pv_ce_load(acc), in, nblocks));
}

void polyval_mul_ce(uint8_t out[16], const uint8_t x[16], const uint8_t h[16])
{
    pv_ce_store(out, gf128_ce_mul(pv_ce_load(x), pv_ce_load(h)));
}
