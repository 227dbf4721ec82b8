/* What every AES variant shares and no ISA file owns: FIPS-197 key
 * expansion and the portable GHASH. Compiled without ISA flags; it calls
 * nothing of the variants. */
#include <string.h>

#include "aes_internal.h"

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

/* GHASH, constant-time: a 64x64-bit carry-less multiply built from integer
 * multiplies with holes between the data bits (BearSSL's ghash_ctmul64), so
 * no branch or index depends on H or the data. */

/* Low 64 bits of the carry-less product. Each operand is split into four
 * classes of every fourth bit; in the integer product of two classes, the
 * sum of everything below a data bit stays under that bit (at most 15 terms
 * per column there), so carries stay inside the three-bit holes and the
 * masked bits are the carry-less ones. Only the low 64 bits are exact,
 * hence the bit-reversed second product for the high half. */
static inline uint64_t bmul64(uint64_t x, uint64_t y)
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

static inline uint64_t rev64(uint64_t x)
{
    x = ((x & 0x5555555555555555) << 1) | ((x >> 1) & 0x5555555555555555);
    x = ((x & 0x3333333333333333) << 2) | ((x >> 2) & 0x3333333333333333);
    x = ((x & 0x0f0f0f0f0f0f0f0f) << 4) | ((x >> 4) & 0x0f0f0f0f0f0f0f0f);
    x = ((x & 0x00ff00ff00ff00ff) << 8) | ((x >> 8) & 0x00ff00ff00ff00ff);
    x = ((x & 0x0000ffff0000ffff) << 16) | ((x >> 16) & 0x0000ffff0000ffff);
    return x << 32 | x >> 32;
}

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
    uint64_t h1 = aes_load64_be(g->htab[0]), h0 = aes_load64_be(g->htab[0] + 8);
    uint64_t h0r = rev64(h0), h1r = rev64(h1), h2 = h0 ^ h1, h2r = h0r ^ h1r;
    uint64_t y1 = aes_load64_be(y), y0 = aes_load64_be(y + 8);
    for (size_t i = 0; i < nblocks; i++, in += 16) {
        y1 ^= aes_load64_be(in);
        y0 ^= aes_load64_be(in + 8);
        uint64_t y0r = rev64(y0), y1r = rev64(y1), y2 = y0 ^ y1,
                 y2r = y0r ^ y1r;
        uint64_t z0 = bmul64(y0, h0), z1 = bmul64(y1, h1), z2 = bmul64(y2, h2);
        uint64_t z0h = bmul64(y0r, h0r), z1h = bmul64(y1r, h1r),
                 z2h = bmul64(y2r, h2r);
        z2 ^= z0 ^ z1;
        z2h ^= z0h ^ z1h;
        z0h = rev64(z0h) >> 1;
        z1h = rev64(z1h) >> 1;
        z2h = rev64(z2h) >> 1;
        uint64_t v0 = z0, v1 = z0h ^ z2, v2 = z1 ^ z2h, v3 = z1h;
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
