/* libsodium's ChaCha20 and BLAKE2b (crypto_generichash), as registry
 * kernels. libsodium picks its own fastest implementation at sodium_init;
 * both functions take every argument our references accept. */
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "../lioness/lioness.h"
#include "external.h"

static int sodium_chacha20_run(const kernel *k, const isa_variant *v,
                               const kernel_args *a, const uint8_t *in,
                               size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    uint64_t counter = a->counter.num;
    if (a->nonce.len == crypto_stream_chacha20_ietf_NONCEBYTES)
        crypto_stream_chacha20_ietf_xor_ic(out, in, len, a->nonce.bytes,
                                           (uint32_t)counter, a->key.bytes);
    else
        crypto_stream_chacha20_xor_ic(out, in, len, a->nonce.bytes, counter,
                                      a->key.bytes);
    return 0;
}

static int sodium_blake2b_run(const kernel *k, const isa_variant *v,
                              const kernel_args *a, const uint8_t *in,
                              size_t len, uint8_t *out)
{
    (void)v;
    crypto_generichash(out, kernel_out_len(k, a, len), in, len, a->key.bytes,
                       a->key.len);
    return 0;
}

const kernel kernel_sodium_chacha20 = EXTERNAL_KERNEL(
    "sodium:chacha20", "chacha", kernel_chacha20, sodium_chacha20_run,
    external_sodium_unavailable);

const kernel kernel_sodium_blake2b = EXTERNAL_KERNEL(
    "sodium:blake2b", "blake2b", kernel_blake2b, sodium_blake2b_run,
    external_sodium_unavailable);

/* LIONESS composed the way an application would with libsodium alone: its
 * ChaCha20 (DJB layout, counter 0) and keyed crypto_generichash, rekeying
 * BLAKE2b on every H. The anchor our lioness is measured against. */
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
