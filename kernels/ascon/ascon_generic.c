/* Ascon-AEAD128 in portable C: the permutation on five 64-bit words, the
 * S-box as the standard's bitsliced and/not/xor form (no table, no
 * branch on data: nothing for a cache or a branch predictor to leak), and
 * the sponge around it. Only message and data lengths pick code paths. */
#include <string.h>

#include "../unroll.h"
#include "ascon.h"

static inline uint64_t ror64(uint64_t x, unsigned n)
{
    return (x >> n) | (x << (64 - n));
}

/* The standard's words are little-endian, as x86-64 and aarch64 are. */
static inline uint64_t load64(const uint8_t *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

static inline void store64(uint8_t *p, uint64_t x)
{
    memcpy(p, &x, 8);
}

static void permute(uint64_t x[5], unsigned rounds)
{
    uint64_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4];
    CB_UNROLL(12)
    for (unsigned r = 12 - rounds; r < 12; r++) {
        /* constant */
        x2 ^= ascon_round_constants[r];
        /* substitution: the 5-bit S-box on every bit column */
        x0 ^= x4; x4 ^= x3; x2 ^= x1;
        uint64_t t0 = x0 ^ (~x1 & x2);
        uint64_t t1 = x1 ^ (~x2 & x3);
        uint64_t t2 = x2 ^ (~x3 & x4);
        uint64_t t3 = x3 ^ (~x4 & x0);
        uint64_t t4 = x4 ^ (~x0 & x1);
        t1 ^= t0; t0 ^= t4; t3 ^= t2; t2 = ~t2;
        /* linear diffusion, word by word */
        x0 = t0 ^ ror64(t0, 19) ^ ror64(t0, 28);
        x1 = t1 ^ ror64(t1, 61) ^ ror64(t1, 39);
        x2 = t2 ^ ror64(t2, 1) ^ ror64(t2, 6);
        x3 = t3 ^ ror64(t3, 10) ^ ror64(t3, 17);
        x4 = t4 ^ ror64(t4, 7) ^ ror64(t4, 41);
    }
    x[0] = x0; x[1] = x1; x[2] = x2; x[3] = x3; x[4] = x4;
}

/* Byte i (0..15) of the rate, the first two words little-endian. */
static inline uint8_t rate_byte(const uint64_t x[5], size_t i)
{
    return (uint8_t)(x[i / 8] >> (8 * (i % 8)));
}

static inline void xor_rate_byte(uint64_t x[5], size_t i, uint8_t b)
{
    x[i / 8] ^= (uint64_t)b << (8 * (i % 8));
}

/* The associated data, padded with 0x01 and zeros to whole blocks (none
 * at all when it is empty), then the domain separator. */
static void absorb_ad(uint64_t x[5], const uint8_t *ad, size_t len)
{
    if (len) {
        for (; len >= ASCON_RATE; ad += ASCON_RATE, len -= ASCON_RATE) {
            x[0] ^= load64(ad);
            x[1] ^= load64(ad + 8);
            permute(x, 8);
        }
        for (size_t i = 0; i < len; i++)
            xor_rate_byte(x, i, ad[i]);
        xor_rate_byte(x, len, 0x01);
        permute(x, 8);
    }
    x[4] ^= ASCON_DOMAIN_SEPARATOR;
}

/* The state after the key, the nonce and the associated data: what
 * encryption and decryption share before the message. k gets the key's
 * words, which finalisation uses again. */
static void start(uint64_t x[5], uint64_t k[2], const uint8_t *key,
                  const uint8_t *nonce, const uint8_t *ad, size_t ad_len)
{
    k[0] = load64(key);
    k[1] = load64(key + 8);
    x[0] = ASCON_AEAD128_IV;
    x[1] = k[0];
    x[2] = k[1];
    x[3] = load64(nonce);
    x[4] = load64(nonce + 8);
    permute(x, 12);
    x[3] ^= k[0];
    x[4] ^= k[1];
    absorb_ad(x, ad, ad_len);
}

static void finalize(uint64_t x[5], const uint64_t k[2],
                     uint8_t tag[ASCON_TAG_BYTES])
{
    x[2] ^= k[0];
    x[3] ^= k[1];
    permute(x, 12);
    store64(tag, x[3] ^ k[0]);
    store64(tag + 8, x[4] ^ k[1]);
}

void ascon_aead128_encrypt_generic(const uint8_t key[ASCON_KEY_BYTES],
                                   const uint8_t nonce[ASCON_NONCE_BYTES],
                                   const uint8_t *ad, size_t ad_len,
                                   uint8_t *out, const uint8_t *in,
                                   size_t len, uint8_t tag[ASCON_TAG_BYTES])
{
    uint64_t x[5], k[2];
    start(x, k, key, nonce, ad, ad_len);
    for (; len >= ASCON_RATE; in += ASCON_RATE, out += ASCON_RATE,
                              len -= ASCON_RATE) {
        x[0] ^= load64(in);
        x[1] ^= load64(in + 8);
        store64(out, x[0]);
        store64(out + 8, x[1]);
        permute(x, 8);
    }
    for (size_t i = 0; i < len; i++) {
        xor_rate_byte(x, i, in[i]);
        out[i] = rate_byte(x, i);
    }
    xor_rate_byte(x, len, 0x01);
    finalize(x, k, tag);
}

void ascon_aead128_decrypt_generic(const uint8_t key[ASCON_KEY_BYTES],
                                   const uint8_t nonce[ASCON_NONCE_BYTES],
                                   const uint8_t *ad, size_t ad_len,
                                   uint8_t *out, const uint8_t *in,
                                   size_t len, uint8_t tag[ASCON_TAG_BYTES])
{
    uint64_t x[5], k[2];
    start(x, k, key, nonce, ad, ad_len);
    for (; len >= ASCON_RATE; in += ASCON_RATE, out += ASCON_RATE,
                              len -= ASCON_RATE) {
        uint64_t c0 = load64(in), c1 = load64(in + 8);
        store64(out, x[0] ^ c0);
        store64(out + 8, x[1] ^ c1);
        x[0] = c0;
        x[1] = c1;
        permute(x, 8);
    }
    for (size_t i = 0; i < len; i++) {
        uint8_t c = in[i];
        out[i] = rate_byte(x, i) ^ c;
        /* The state's byte becomes the ciphertext's. */
        xor_rate_byte(x, i, out[i]);
    }
    xor_rate_byte(x, len, 0x01);
    finalize(x, k, tag);
}
