#include "blake2b.h"
#include "blake2b_consts.h"

#define BLAKE2B_INLINE static inline __attribute__((always_inline))

BLAKE2B_INLINE uint64_t blake2b_load64_generic(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
           (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
}

BLAKE2B_INLINE uint64_t blake2b_ror_generic(uint64_t x, unsigned n)
{
    return (x >> n) | (x << (64 - n));
}

/* a + m + b with a + m kept as a value, as the vector rows do: left
 * free, GCC adds b first and m after it, two adds after b on the chain of
 * dependent steps instead of one. */
BLAKE2B_INLINE uint64_t blake2b_add3_generic(uint64_t a, uint64_t m,
                                             uint64_t b)
{
    uint64_t am = a + m;
    __asm__("" : "+r"(am));
    return am + b;
}

BLAKE2B_INLINE void blake2b_g_generic(uint64_t v[16], unsigned a, unsigned b,
                                      unsigned c, unsigned d, uint64_t x,
                                      uint64_t y)
{
    v[a] = blake2b_add3_generic(v[a], x, v[b]);
    v[d] = blake2b_ror_generic(v[d] ^ v[a], 32);
    v[c] = v[c] + v[d];
    v[b] = blake2b_ror_generic(v[b] ^ v[c], 24);
    v[a] = blake2b_add3_generic(v[a], y, v[b]);
    v[d] = blake2b_ror_generic(v[d] ^ v[a], 16);
    v[c] = v[c] + v[d];
    v[b] = blake2b_ror_generic(v[b] ^ v[c], 63);
}

BLAKE2B_INLINE void blake2b_round_generic(uint64_t v[16], const uint64_t m[16],
                                          unsigned r)
{
    const uint8_t *s = blake2b_sigma[r];
    blake2b_g_generic(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    blake2b_g_generic(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    blake2b_g_generic(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    blake2b_g_generic(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    blake2b_g_generic(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    blake2b_g_generic(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    blake2b_g_generic(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    blake2b_g_generic(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
}

void blake2b_compress_generic(uint64_t h[8], uint64_t t[2],
                              const uint8_t *blocks, size_t nblocks,
                              uint64_t inc, uint64_t f0)
{
    for (; nblocks; nblocks--, blocks += BLAKE2B_BLOCK_BYTES) {
        uint64_t m[16], v[16];
        t[0] += inc;
        t[1] += t[0] < inc;
        for (unsigned i = 0; i < 16; i++)
            m[i] = blake2b_load64_generic(blocks + 8 * i);
        for (unsigned i = 0; i < 8; i++) {
            v[i] = h[i];
            v[i + 8] = blake2b_iv[i];
        }
        v[12] ^= t[0];
        v[13] ^= t[1];
        v[14] ^= f0;
        /* Spelled out so every sigma lookup is a constant. */
        blake2b_round_generic(v, m, 0);
        blake2b_round_generic(v, m, 1);
        blake2b_round_generic(v, m, 2);
        blake2b_round_generic(v, m, 3);
        blake2b_round_generic(v, m, 4);
        blake2b_round_generic(v, m, 5);
        blake2b_round_generic(v, m, 6);
        blake2b_round_generic(v, m, 7);
        blake2b_round_generic(v, m, 8);
        blake2b_round_generic(v, m, 9);
        blake2b_round_generic(v, m, 10);
        blake2b_round_generic(v, m, 11);
        for (unsigned i = 0; i < 8; i++)
            h[i] ^= v[i] ^ v[i + 8];
    }
}
