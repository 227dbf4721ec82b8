/* libsodium's ChaCha20-Poly1305 (IETF) and XChaCha20-Poly1305 as registry
 * kernels. They take what our references take; decryption verifies before
 * it writes, as ours does. */
#include <sodium.h>

#include "../external.h"

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
    const uint8_t *aad = a->aad.bytes;
    size_t aad_len = a->aad.len;
    if (!a->decrypt.set)
        return encrypt(out, NULL, in, len, aad, aad_len, NULL, a->nonce.bytes,
                       a->key.bytes) != 0;
    return decrypt(out, NULL, NULL, in, len, aad, aad_len, a->nonce.bytes,
                   a->key.bytes) != 0;
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

const kernel kernel_sodium_chacha20poly1305_ietf = EXTERNAL_KERNEL(
    "sodium:chacha20poly1305-ietf", "chacha20-poly1305",
    kernel_chacha20_poly1305, sodium_chacha20poly1305_run,
    external_sodium_unavailable, 0);
const kernel kernel_sodium_xchacha20poly1305 = EXTERNAL_KERNEL(
    "sodium:xchacha20poly1305", "chacha20-poly1305", kernel_xchacha20_poly1305,
    sodium_xchacha20poly1305_run, external_sodium_unavailable, 0);
