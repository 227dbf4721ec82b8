/* The Keccak implementation table and the sponge over a permutation: bytes
 * are XORed into and read from the lanes little-endian, whatever the
 * host's byte order. */
#include <string.h>

#include "keccak.h"

const keccak_impl keccak_impls[] = {
    { { "generic", 0 }, keccak_permute_generic },
    { { NULL, 0 }, NULL },
};

void keccak_init(keccak_sponge *s, const keccak_impl *impl, size_t rate,
                 unsigned rounds)
{
    memset(s->a, 0, sizeof s->a);
    s->rate = rate;
    s->pos = 0;
    s->rounds = rounds;
    s->permute = impl->permute;
}

static void xor_byte(keccak_sponge *s, size_t i, uint8_t b)
{
    s->a[i / 8] ^= (uint64_t)b << (8 * (i % 8));
}

void keccak_absorb(keccak_sponge *s, const uint8_t *in, size_t len)
{
    while (len) {
        /* Whole lanes where the position and the rest allow. */
        while (s->pos % 8 == 0 && len >= 8 && s->pos + 8 <= s->rate) {
            uint64_t w = 0;
            for (unsigned i = 0; i < 8; i++)
                w |= (uint64_t)in[i] << (8 * i);
            s->a[s->pos / 8] ^= w;
            s->pos += 8, in += 8, len -= 8;
        }
        if (len && s->pos < s->rate) {
            xor_byte(s, s->pos++, *in++);
            len--;
        }
        if (s->pos == s->rate) {
            s->permute(s->a, s->rounds);
            s->pos = 0;
        }
    }
}

void keccak_finish(keccak_sponge *s, uint8_t domain)
{
    xor_byte(s, s->pos, domain);
    xor_byte(s, s->rate - 1, 0x80);
    s->permute(s->a, s->rounds);
    s->pos = 0;
}

void keccak_squeeze(keccak_sponge *s, uint8_t *out, size_t len)
{
    while (len) {
        if (s->pos == s->rate) {
            s->permute(s->a, s->rounds);
            s->pos = 0;
        }
        *out++ = (uint8_t)(s->a[s->pos / 8] >> (8 * (s->pos % 8)));
        s->pos++, len--;
    }
}

void sha3_256(const keccak_impl *impl, uint8_t out[32], const uint8_t *in,
              size_t len)
{
    keccak_sponge s;
    keccak_init(&s, impl, KECCAK_RATE_256, KECCAK_ROUNDS);
    keccak_absorb(&s, in, len);
    keccak_finish(&s, 0x06);
    keccak_squeeze(&s, out, 32);
}

void shake256(const keccak_impl *impl, uint8_t *out, size_t out_len,
              const uint8_t *in, size_t len)
{
    keccak_sponge s;
    keccak_init(&s, impl, KECCAK_RATE_256, KECCAK_ROUNDS);
    keccak_absorb(&s, in, len);
    keccak_finish(&s, 0x1f);
    keccak_squeeze(&s, out, out_len);
}

void turboshake(const keccak_impl *impl, unsigned security, uint8_t domain,
                uint8_t *out, size_t out_len, const uint8_t *in, size_t len)
{
    keccak_sponge s;
    keccak_init(&s, impl, security == 128 ? KECCAK_RATE_128 : KECCAK_RATE_256,
                TURBOSHAKE_ROUNDS);
    keccak_absorb(&s, in, len);
    keccak_finish(&s, domain);
    keccak_squeeze(&s, out, out_len);
}
