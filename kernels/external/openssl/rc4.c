/* OpenSSL's RC4 (legacy provider) through EVP, as the registry kernel
 * openssl:rc4. Broken, for comparison only (see kernels/rc4/rc4.h). */
#include "evp.h"

/* RC4's key length is variable: the context learns it before the key,
 * when it changes. */
static int openssl_rc4_run(const kernel *k, const isa_variant *v,
                           const kernel_args *a, const uint8_t *in,
                           size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    static _Thread_local size_t key_len;
    EVP_CIPHER_CTX *ctx = openssl_cipher_ctx(OPENSSL_RC4);
    if (key_len != a->key.len) {
        openssl_must(EVP_CIPHER_CTX_set_key_length(ctx, (int)a->key.len),
                     "EVP_CIPHER_CTX_set_key_length");
        key_len = a->key.len;
    }
    openssl_must(EVP_CipherInit_ex2(ctx, NULL, a->key.bytes, NULL, 1, NULL),
                 "EVP_CipherInit_ex2");
    openssl_update(ctx, out, in, len);
    return 0;
}

const kernel kernel_openssl_rc4 = EXTERNAL_KERNEL(
    "openssl:rc4", "rc4", kernel_rc4, openssl_rc4_run,
    openssl_kernel_unavailable, OPENSSL_RC4);
