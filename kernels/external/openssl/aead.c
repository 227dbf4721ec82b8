/* OpenSSL's ChaCha20-Poly1305 through EVP, as the registry kernel
 * openssl:chacha20-poly1305. OpenSSL writes the plaintext before it checks
 * the tag, so a failed decryption wipes it: no plaintext is released. */
#include <openssl/crypto.h>
#include <openssl/err.h>

#include "evp.h"

static int openssl_chacha20_poly1305_run(const kernel *k,
                                         const isa_variant *v,
                                         const kernel_args *a,
                                         const uint8_t *in, size_t len,
                                         uint8_t *out)
{
    (void)k;
    (void)v;
    EVP_CIPHER_CTX *ctx = openssl_cipher_ctx(OPENSSL_CHACHA20_POLY1305);
    int encrypt = !a->decrypt.set, n;
    size_t msg_len = encrypt ? len : len - 16;
    openssl_must(EVP_CipherInit_ex2(ctx, NULL, a->key.bytes, a->nonce.bytes,
                                    encrypt, NULL),
                 "EVP_CipherInit_ex2");
    if (a->aad.set)
        openssl_update(ctx, NULL, a->aad.bytes, a->aad.len);
    if (!encrypt)
        openssl_must(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16,
                                         (void *)(in + msg_len)),
                     "EVP_CTRL_AEAD_SET_TAG");
    openssl_update(ctx, out, in, msg_len);
    if (encrypt) {
        openssl_must(EVP_CipherFinal_ex(ctx, out + msg_len, &n) &&
                         EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16,
                                             out + msg_len),
                     "EVP_CipherFinal_ex");
        return 0;
    }
    if (EVP_CipherFinal_ex(ctx, out + msg_len, &n) > 0)
        return 0;
    OPENSSL_cleanse(out, msg_len);
    ERR_clear_error();
    return 1;
}

const kernel kernel_openssl_chacha20_poly1305 = EXTERNAL_KERNEL(
    "openssl:chacha20-poly1305", "chacha20-poly1305", kernel_chacha20_poly1305,
    openssl_chacha20_poly1305_run, openssl_kernel_unavailable,
    OPENSSL_CHACHA20_POLY1305);
