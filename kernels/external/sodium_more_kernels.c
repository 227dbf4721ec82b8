/* libsodium's ChaCha20-Poly1305 (IETF), XChaCha20-Poly1305 and Poly1305
 * (crypto_onetimeauth_poly1305) as registry kernels. They take what our
 * references take; decryption verifies before it writes, as ours does. */
#include <sodium.h>

#include "../aead/aead_kernels.h"
#include "../poly1305/poly1305_kernels.h"
#include "external.h"
#include "more_external_kernels.h"

static int sodium_poly1305_run(const kernel *k, const isa_variant *v,
                               const kernel_args *a, const uint8_t *in,
                               size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    crypto_onetimeauth_poly1305(out, in, len, a->key);
    return 0;
}

typedef int aead_encrypt_fn(unsigned char *c, unsigned long long *clen,
                            const unsigned char *m, unsigned long long mlen,
                            const unsigned char *ad,
                            unsigned long long adlen,
                            const unsigned char *nsec,
                            const unsigned char *npub,
                            const unsigned char *k);
typedef int aead_decrypt_fn(unsigned char *m, unsigned long long *mlen,
                            unsigned char *nsec, const unsigned char *c,
                            unsigned long long clen, const unsigned char *ad,
                            unsigned long long adlen,
                            const unsigned char *npub,
                            const unsigned char *k);

static int aead_run(aead_encrypt_fn *encrypt, aead_decrypt_fn *decrypt,
                    const kernel_args *a, const uint8_t *in, size_t len,
                    uint8_t *out)
{
    const uint8_t *aad = a->has_aad ? a->aad : NULL;
    size_t aad_len = a->has_aad ? a->aad_len : 0;
    if (!a->decrypt)
        return encrypt(out, NULL, in, len, aad, aad_len, NULL, a->nonce,
                       a->key) != 0;
    return decrypt(out, NULL, NULL, in, len, aad, aad_len, a->nonce,
                   a->key) != 0;
}

static int sodium_chacha20poly1305_run(const kernel *k, const isa_variant *v,
                                       const kernel_args *a,
                                       const uint8_t *in, size_t len,
                                       uint8_t *out)
{
    (void)k;
    (void)v;
    return aead_run(crypto_aead_chacha20poly1305_ietf_encrypt,
                    crypto_aead_chacha20poly1305_ietf_decrypt, a, in, len,
                    out);
}

static int sodium_xchacha20poly1305_run(const kernel *k, const isa_variant *v,
                                        const kernel_args *a,
                                        const uint8_t *in, size_t len,
                                        uint8_t *out)
{
    (void)k;
    (void)v;
    return aead_run(crypto_aead_xchacha20poly1305_ietf_encrypt,
                    crypto_aead_xchacha20poly1305_ietf_decrypt, a, in, len,
                    out);
}

#define SODIUM_KERNEL(var, kname, prim, runner, ref, opts)                    \
    const kernel var = {                                                      \
        .name = kname,                                                        \
        .primitive = prim,                                                    \
        .table = external_row,                                                \
        .row_size = sizeof external_row[0],                                   \
        .check = external_check,                                              \
        .out_len = external_out_len,                                          \
        .run = runner,                                                        \
        .bench_args = external_bench_args,                                    \
        .reference = &ref,                                                    \
        .unavailable = external_sodium_unavailable,                                    \
        .options = opts,                                                      \
    }

SODIUM_KERNEL(kernel_sodium_poly1305, "sodium:poly1305", "poly1305",
              sodium_poly1305_run, kernel_poly1305, KOPT_KEY);
SODIUM_KERNEL(kernel_sodium_chacha20poly1305_ietf,
              "sodium:chacha20poly1305-ietf", "chacha20-poly1305",
              sodium_chacha20poly1305_run, kernel_chacha20_poly1305,
              KOPT_KEY | KOPT_NONCE | KOPT_AAD | KOPT_DECRYPT);
SODIUM_KERNEL(kernel_sodium_xchacha20poly1305, "sodium:xchacha20poly1305",
              "chacha20-poly1305", sodium_xchacha20poly1305_run,
              kernel_xchacha20_poly1305,
              KOPT_KEY | KOPT_NONCE | KOPT_AAD | KOPT_DECRYPT);
