/* libsodium's ChaCha20 and BLAKE2b (crypto_generichash), as registry
 * kernels. libsodium picks its own fastest implementation at sodium_init;
 * both functions take every argument our references accept. */
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "../blake2b/blake2b_kernels.h"
#include "../chacha/chacha_kernels.h"
#include "../lioness/lioness.h"
#include "../lioness/lioness_kernels.h"
#include "external.h"
#include "external_kernels.h"

static int sodium_chacha20_run(const kernel *k, const isa_variant *v,
                               const kernel_args *a, const uint8_t *in,
                               size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    uint64_t counter = a->has_counter ? a->counter : 0;
    if (a->nonce_len == crypto_stream_chacha20_ietf_NONCEBYTES)
        crypto_stream_chacha20_ietf_xor_ic(out, in, len, a->nonce,
                                           (uint32_t)counter, a->key);
    else
        crypto_stream_chacha20_xor_ic(out, in, len, a->nonce, counter, a->key);
    return 0;
}

static int sodium_blake2b_run(const kernel *k, const isa_variant *v,
                              const kernel_args *a, const uint8_t *in,
                              size_t len, uint8_t *out)
{
    (void)v;
    crypto_generichash(out, external_out_len(k, a, len), in, len,
                       a->has_key ? a->key : NULL, a->has_key ? a->key_len : 0);
    return 0;
}

const kernel kernel_sodium_chacha20 = EXTERNAL_KERNEL(
    "sodium:chacha20", "chacha", kernel_chacha20, sodium_chacha20_run,
    external_sodium_unavailable, KOPT_KEY | KOPT_NONCE | KOPT_COUNTER);

const kernel kernel_sodium_blake2b = EXTERNAL_KERNEL(
    "sodium:blake2b", "blake2b", kernel_blake2b, sodium_blake2b_run,
    external_sodium_unavailable, KOPT_KEY | KOPT_OUTLEN);

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
    const uint8_t *k1 = a->key, *k2 = a->key + 40, *k3 = a->key + 104,
                  *k4 = a->key + 144;
    if (out != in)
        memmove(out, in, len);
    if (a->decrypt) {
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

static int sodium_lioness_check(const kernel *k, const kernel_args *a,
                                size_t len, char *err, size_t errlen)
{
    if (a->has_rounds && a->rounds != 20) {
        snprintf(err, errlen, "%s has ChaCha20 only: drop --rounds or use "
                 "--rounds=20", k->name);
        return -1;
    }
    return external_check(k, a, len, err, errlen);
}

const kernel kernel_sodium_lioness = {
    .name = "sodium:lioness",
    .primitive = "lioness",
    .table = external_row,
    .row_size = sizeof external_row[0],
    .check = sodium_lioness_check,
    .out_len = external_out_len,
    .run = sodium_lioness_run,
    .bench_args = external_bench_args,
    .reference = &kernel_lioness,
    .unavailable = external_sodium_unavailable,
    .options = KOPT_KEY | KOPT_ROUNDS | KOPT_DECRYPT,
    .min_len = LIONESS_MIN_BLOCK,
};
