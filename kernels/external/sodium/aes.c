/* libsodium's AES-256-GCM (crypto_aead_aes256gcm) as a registry kernel.
 * libsodium 1.0.18 implements it only with AES-NI and PCLMULQDQ (1.0.19
 * adds ARMv8's AES and PMULL), and says so through
 * crypto_aead_aes256gcm_is_available(); elsewhere the kernel is listed as
 * unsupported. prepare() runs the _beforenm key expansion once,
 * keeping it out of the timed loop as for every other AES kernel. */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "../../aes/aes.h"
#include "../external.h"

static const char *sodium_aes256gcm_unavailable(const kernel *k)
{
    (void)k;
    const char *missing = external_sodium_unavailable(k);
    if (missing)
        return missing;
    if (!crypto_aead_aes256gcm_is_available())
#if defined(__x86_64__)
        return "libsodium's AES-256-GCM needs AES-NI and PCLMULQDQ, which "
               "this CPU lacks";
#else
        return "this libsodium has AES-256-GCM for x86-64 only (its ARMv8 "
               "code came with 1.0.19)";
#endif
    return NULL;
}

static void sodium_aes256gcm_prepare(const kernel *k, const isa_variant *v,
                                     kernel_args *a)
{
    (void)k;
    (void)v;
    crypto_aead_aes256gcm_state *st =
        aligned_alloc(16, sizeof(crypto_aead_aes256gcm_state));
    if (st) {
        crypto_aead_aes256gcm_beforenm(st, a->key.bytes);
        /* Round keys and H, nothing public. */
        kernel_add_secret(a, st, sizeof *st);
    }
    a->prepared = st;
}

static void sodium_aes256gcm_release(const kernel *k, kernel_args *a)
{
    (void)k;
    free(a->prepared);
}

static int sodium_aes256gcm_run(const kernel *k, const isa_variant *v,
                                const kernel_args *a, const uint8_t *in,
                                size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    crypto_aead_aes256gcm_state local;
    const crypto_aead_aes256gcm_state *st = a->prepared;
    const uint8_t *aad = a->aad.bytes;
    unsigned long long aad_len = a->aad.len, n;
    if (!st) {
        crypto_aead_aes256gcm_beforenm(&local, a->key.bytes);
        st = &local;
    }
    if (!a->decrypt.set) {
        crypto_aead_aes256gcm_encrypt_afternm(out, &n, in, len, aad, aad_len,
                                              NULL, a->iv.bytes, st);
        return 0;
    }
    if (crypto_aead_aes256gcm_decrypt_afternm(out, &n, NULL, in, len, aad,
                                              aad_len, a->iv.bytes, st) != 0) {
        memset(out, 0, len - crypto_aead_aes256gcm_ABYTES);
        return 1;
    }
    return 0;
}

const kernel kernel_sodium_aes256gcm = {
    .name = "sodium:aes256gcm",
    .family = "aes",
    .table = external_row,
    .row_size = sizeof external_row[0],
    .run = sodium_aes256gcm_run,
    .reference = &kernel_aes256_gcm,
    .unavailable = sodium_aes256gcm_unavailable,
    .prepare = sodium_aes256gcm_prepare,
    .release = sodium_aes256gcm_release,
};
