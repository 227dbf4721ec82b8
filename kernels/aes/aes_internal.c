/* What every AES variant shares and no ISA file owns: FIPS-197 key
 * expansion and the portable GHASH. Compiled without ISA flags; it calls
 * nothing of the variants. */
#include <string.h>

#include "aes_internal.h"
#include "../gf128/clmul_generic.h"

void aes_expand_enc(aes_key *k, const uint8_t *key, size_t key_len,
                    aes_sub_word_fn *sub_word)
{
    static const uint8_t rcon[10] = { 0x01, 0x02, 0x04, 0x08, 0x10,
                                      0x20, 0x40, 0x80, 0x1b, 0x36 };
    size_t nk = key_len / 4;
    unsigned rounds = (unsigned)nk + 6;
    uint32_t w[4 * (AES_MAX_ROUNDS + 1)];
    for (size_t i = 0; i < nk; i++)
        w[i] = aes_load32_le(key + 4 * i);
    for (size_t i = nk; i < 4 * (rounds + 1); i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) /* RotWord is a rotation right of the LE word */
            t = sub_word(t >> 8 | t << 24) ^ rcon[i / nk - 1];
        else if (nk > 6 && i % nk == 4)
            t = sub_word(t);
        w[i] = w[i - nk] ^ t;
    }
    for (size_t i = 0; i < 4 * (rounds + 1); i++)
        aes_store32_le(k->enc[i / 4] + 4 * (i % 4), w[i]);
    k->rounds = rounds;
}

/* GHASH, constant-time: the carry-less multiply of
 * kernels/gf128/clmul_generic.h (BearSSL's ghash_ctmul64 technique), so no
 * branch or index depends on H or the data. */

void ghash_init_generic(ghash_key *g, const uint8_t h[16])
{
    memset(g, 0, sizeof *g);
    memcpy(g->htab[0], h, 16);
}

/* Blocks loaded big-endian are GCM's polynomials bit-reversed (bit 127 is
 * the coefficient of x^0). The product of two reversed 128-bit values is
 * the reversed 255-bit product, hence the shift left by one; the reduction
 * folds the low 128 bits (the high-degree terms) back twice, 64 at a time,
 * with x^128 = x^7 + x^2 + x + 1 in reversed form. */
void ghash_update_generic(const ghash_key *g, uint8_t y[16], const uint8_t *in,
                          size_t nblocks)
{
    clmul_factor h = clmul_factor_of(aes_load64_be(g->htab[0]),
                                     aes_load64_be(g->htab[0] + 8));
    uint64_t y1 = aes_load64_be(y), y0 = aes_load64_be(y + 8), v[4];
    for (size_t i = 0; i < nblocks; i++, in += 16) {
        y1 ^= aes_load64_be(in);
        y0 ^= aes_load64_be(in + 8);
        clmul_128(&h, y1, y0, v);
        uint64_t v0 = v[0], v1 = v[1], v2 = v[2], v3 = v[3];
        v3 = v3 << 1 | v2 >> 63;
        v2 = v2 << 1 | v1 >> 63;
        v1 = v1 << 1 | v0 >> 63;
        v0 = v0 << 1;
        v2 ^= v0 ^ (v0 >> 1) ^ (v0 >> 2) ^ (v0 >> 7);
        v1 ^= (v0 << 63) ^ (v0 << 62) ^ (v0 << 57);
        v3 ^= v1 ^ (v1 >> 1) ^ (v1 >> 2) ^ (v1 >> 7);
        v2 ^= (v1 << 63) ^ (v1 << 62) ^ (v1 << 57);
        y0 = v2;
        y1 = v3;
    }
    aes_store64_be(y, y1);
    aes_store64_be(y + 8, y0);
}
