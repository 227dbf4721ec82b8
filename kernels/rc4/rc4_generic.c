/* Portable RC4 (broken, for comparison only: see rc4.h). */
#include <string.h>

#include "rc4.h"

static inline __attribute__((always_inline)) void
rc4_swap(uint8_t *s, unsigned a, unsigned b)
{
    uint8_t t = s[a];
    s[a] = s[b];
    s[b] = t;
}

static inline __attribute__((always_inline)) uint8_t
rc4_next(uint8_t *s, unsigned *i, unsigned *j)
{
    *i = (*i + 1) & 0xff;
    uint8_t si = s[*i];
    *j = (*j + si) & 0xff;
    uint8_t sj = s[*j];
    s[*i] = sj;
    s[*j] = si;
    return s[(si + sj) & 0xff];
}

void rc4_xor_generic(uint8_t *out, const uint8_t *in, size_t len,
                     const uint8_t *key, size_t key_len)
{
    uint8_t s[256];
    unsigned i = 0, j = 0;
    size_t n = 0;
    for (unsigned x = 0; x < 256; x++)
        s[x] = (uint8_t)x;
    for (unsigned x = 0, k = 0; x < 256; x++) {
        j = (j + s[x] + key[k]) & 0xff;
        rc4_swap(s, x, j);
        k = k + 1 == key_len ? 0 : k + 1;
    }
    j = 0;
    /* Eight keystream bytes into a word, then one load, xor and store:
     * faster than byte by byte (docs/kernels.md, "The code's choices", RC4). */
    for (; n + 8 <= len; n += 8) {
        uint64_t ks = 0, m;
        for (int b = 0; b < 8; b++)
            ks |= (uint64_t)rc4_next(s, &i, &j) << (8 * b);
        memcpy(&m, in + n, 8);
        m ^= ks;
        memcpy(out + n, &m, 8);
    }
    for (; n < len; n++)
        out[n] = in[n] ^ rc4_next(s, &i, &j);
}
