#include <string.h>

#include "chacha.h"

static inline __attribute__((always_inline)) uint32_t
load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline __attribute__((always_inline)) void
store32_le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

#define ROTL32(v, n) ((uint32_t)((v) << (n)) | ((v) >> (32 - (n))))

#define QUARTERROUND(a, b, c, d)                                              \
    do {                                                                      \
        a += b; d = ROTL32(d ^ a, 16);                                        \
        c += d; b = ROTL32(b ^ c, 12);                                        \
        a += b; d = ROTL32(d ^ a, 8);                                         \
        c += d; b = ROTL32(b ^ c, 7);                                         \
    } while (0)

static void chacha_init_generic(uint32_t x[16], const uint8_t key[32],
                                const uint8_t row3[16])
{
    x[0] = 0x61707865;
    x[1] = 0x3320646e;
    x[2] = 0x79622d32;
    x[3] = 0x6b206574;
    for (int i = 0; i < 8; i++)
        x[4 + i] = load32_le(key + 4 * i);
    for (int i = 0; i < 4; i++)
        x[12 + i] = load32_le(row3 + 4 * i);
}

static void chacha_permute_generic(uint32_t x[16], unsigned rounds)
{
    for (unsigned i = 0; i < rounds; i += 2) {
        QUARTERROUND(x[0], x[4], x[8], x[12]);
        QUARTERROUND(x[1], x[5], x[9], x[13]);
        QUARTERROUND(x[2], x[6], x[10], x[14]);
        QUARTERROUND(x[3], x[7], x[11], x[15]);
        QUARTERROUND(x[0], x[5], x[10], x[15]);
        QUARTERROUND(x[1], x[6], x[11], x[12]);
        QUARTERROUND(x[2], x[7], x[8], x[13]);
        QUARTERROUND(x[3], x[4], x[9], x[14]);
    }
}

/* The vertical layouts' batches after a message's first start columns 1-3
 * from this (chacha_vertical.h, VERTICAL_PRE). */
void chacha_first_columns(uint32_t w[16])
{
    QUARTERROUND(w[1], w[5], w[9], w[13]);
    QUARTERROUND(w[2], w[6], w[10], w[14]);
    QUARTERROUND(w[3], w[7], w[11], w[15]);
}

static void chacha_block_generic(uint8_t ks[64], const uint32_t state[16],
                                 unsigned rounds)
{
    uint32_t x[16];
    memcpy(x, state, sizeof x);
    chacha_permute_generic(x, rounds);
    for (int i = 0; i < 16; i++)
        store32_le(ks + 4 * i, x[i] + state[i]);
}

void chacha_stream_xor_generic(uint8_t *out, const uint8_t *in, size_t len,
                               const uint8_t key[CHACHA_KEY_BYTES],
                               const uint8_t row3[16], unsigned rounds)
{
    uint32_t state[16];
    uint8_t ks[64];
    chacha_init_generic(state, key, row3);
    while (len > 0) {
        size_t n = len < 64 ? len : 64;
        chacha_block_generic(ks, state, rounds);
        for (size_t i = 0; i < n; i++)
            out[i] = in[i] ^ ks[i];
        if (++state[12] == 0)
            state[13]++;
        out += n;
        in += n;
        len -= n;
    }
}

void hchacha_generic(uint8_t out[CHACHA_KEY_BYTES],
                     const uint8_t key[CHACHA_KEY_BYTES], const uint8_t in[16],
                     unsigned rounds)
{
    uint32_t x[16];
    chacha_init_generic(x, key, in);
    chacha_permute_generic(x, rounds);
    for (int i = 0; i < 4; i++) {
        store32_le(out + 4 * i, x[i]);
        store32_le(out + 16 + 4 * i, x[12 + i]);
    }
}
