/* LIONESS as the registry kernel sodium:lioness, composed the way an
 * application would with libsodium alone: its ChaCha20 (DJB layout,
 * counter 0) and keyed crypto_generichash, rekeying BLAKE2b on every H.
 * The anchor our lioness is measured against. */
#include <sodium.h>
#include <string.h>

#include "../../lioness/lioness.h"
#include "../external.h"

static void sodium_lioness_stream(uint8_t *block, size_t len,
                                  const uint8_t *subkey)
{
    uint8_t t[LIONESS_L_BYTES];
    for (size_t i = 0; i < LIONESS_L_BYTES; i++)
        t[i] = block[i] ^ subkey[i];
    crypto_stream_chacha20_xor(block + LIONESS_L_BYTES, block + LIONESS_L_BYTES,
                               len - LIONESS_L_BYTES, t, t + 8);
}

static void sodium_lioness_hash(uint8_t *block, size_t len,
                                const uint8_t *hash_key)
{
    uint8_t h[LIONESS_L_BYTES];
    crypto_generichash(h, sizeof h, block + LIONESS_L_BYTES,
                       len - LIONESS_L_BYTES, hash_key, LIONESS_HASH_KEY_BYTES);
    for (size_t i = 0; i < LIONESS_L_BYTES; i++)
        block[i] ^= h[i];
}

static int sodium_lioness_run(const kernel *k, const isa_variant *v,
                              const kernel_args *a, const uint8_t *in,
                              size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    const uint8_t *k1 = a->key.bytes, *k2 = k1 + 40, *k3 = k1 + 104,
                  *k4 = k1 + 144;
    if (out != in)
        memmove(out, in, len);
    if (a->decrypt.set) {
        sodium_lioness_hash(out, len, k4);
        sodium_lioness_stream(out, len, k3);
        sodium_lioness_hash(out, len, k2);
        sodium_lioness_stream(out, len, k1);
    } else {
        sodium_lioness_stream(out, len, k1);
        sodium_lioness_hash(out, len, k2);
        sodium_lioness_stream(out, len, k3);
        sodium_lioness_hash(out, len, k4);
    }
    return 0;
}

/* LIONESS's arguments, with ChaCha20 only. */
const kernel kernel_sodium_lioness = {
    .name = "sodium:lioness",
    .family = "lioness",
    .table = external_row,
    .row_size = sizeof external_row[0],
    .args = { { KARG_NEEDS(KEY, LIONESS_KEY_BYTES), .note = "K1|K2|K3|K4" },
              { KARG_TAKES(ROUNDS, 20),
                .note = "libsodium has ChaCha20 only" },
              { KARG_TAKES_ANY(DECRYPT) } },
    .run = sodium_lioness_run,
    .reference = &kernel_lioness,
    .unavailable = external_sodium_unavailable,
};
