/* OpenSSL's ChaCha20 through EVP, as the registry kernel openssl:chacha20. */
#include "evp.h"

static int openssl_chacha20_run(const kernel *k, const isa_variant *v,
                                const kernel_args *a, const uint8_t *in,
                                size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    uint8_t iv[16];
    EVP_CIPHER_CTX *ctx = openssl_cipher_ctx(OPENSSL_CHACHA20);
    external_chacha20_iv(a, iv);
    openssl_must(EVP_CipherInit_ex2(ctx, NULL, a->key.bytes, iv, 1, NULL),
                 "EVP_CipherInit_ex2");
    openssl_update(ctx, out, in, len);
    return 0;
}

const kernel kernel_openssl_chacha20 = EXTERNAL_KERNEL(
    "openssl:chacha20", "chacha", kernel_chacha20, openssl_chacha20_run,
    openssl_kernel_unavailable, OPENSSL_CHACHA20);
