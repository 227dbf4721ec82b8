/* OpenSSL's ChaCha20 through EVP, as the registry kernel openssl:chacha20. */
#include <string.h>

#include "evp.h"

/* OpenSSL's 16-byte IV is state words 12-15, counter first, and it carries
 * the block counter from word 12 into word 13. So the DJB layout (64-bit
 * counter, 8-byte nonce) and the IETF one (32-bit counter, 12-byte nonce)
 * are both the counter in little-endian followed by the nonce. */
static void chacha20_iv(const kernel_args *a, uint8_t iv[16])
{
    uint64_t counter = a->counter.num;
    size_t counter_bytes = 16 - a->nonce.len;
    for (size_t i = 0; i < counter_bytes; i++)
        iv[i] = (uint8_t)(counter >> (8 * i));
    memcpy(iv + counter_bytes, a->nonce.bytes, a->nonce.len);
}

static int openssl_chacha20_run(const kernel *k, const isa_variant *v,
                                const kernel_args *a, const uint8_t *in,
                                size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    uint8_t iv[16];
    EVP_CIPHER_CTX *ctx = openssl_cipher_ctx(OPENSSL_CHACHA20);
    chacha20_iv(a, iv);
    openssl_must(EVP_CipherInit_ex2(ctx, NULL, a->key.bytes, iv, 1, NULL),
                 "EVP_CipherInit_ex2");
    openssl_update(ctx, out, in, len);
    return 0;
}

const kernel kernel_openssl_chacha20 = EXTERNAL_KERNEL(
    "openssl:chacha20", "chacha", kernel_chacha20, openssl_chacha20_run,
    openssl_kernel_unavailable, OPENSSL_CHACHA20);
