/* OpenSSL's ChaCha20 and BLAKE2b-512 through EVP, as registry kernels.
 *
 * The algorithms are fetched once and each thread keeps one context, reset
 * per call: what a careful application does, and what keeps a provider
 * lookup and an allocation out of every timed call. */
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "external.h"

static EVP_CIPHER *chacha20_cipher;
static EVP_MD *blake2b512_md;
static pthread_once_t fetched = PTHREAD_ONCE_INIT;

static void fetch_algorithms(void)
{
    chacha20_cipher = EVP_CIPHER_fetch(NULL, "ChaCha20", NULL);
    blake2b512_md = EVP_MD_fetch(NULL, "BLAKE2B-512", NULL);
}

static const char *openssl_chacha20_unavailable(const kernel *k)
{
    (void)k;
    pthread_once(&fetched, fetch_algorithms);
    return chacha20_cipher ? NULL : "OpenSSL offers no ChaCha20 (is the "
                                    "default provider loaded?)";
}

static const char *openssl_blake2b512_unavailable(const kernel *k)
{
    (void)k;
    pthread_once(&fetched, fetch_algorithms);
    return blake2b512_md ? NULL : "OpenSSL offers no BLAKE2B-512 (is the "
                                  "default provider loaded?)";
}

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

static EVP_CIPHER_CTX *chacha20_ctx(void)
{
    static _Thread_local EVP_CIPHER_CTX *ctx;
    if (!ctx) {
        ctx = EVP_CIPHER_CTX_new();
        external_openssl_must(ctx && EVP_EncryptInit_ex2(ctx, chacha20_cipher, NULL, NULL, NULL),
             "EVP_EncryptInit_ex2");
    }
    return ctx;
}

static int openssl_chacha20_run(const kernel *k, const isa_variant *v,
                                const kernel_args *a, const uint8_t *in,
                                size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    uint8_t iv[16];
    int n;
    EVP_CIPHER_CTX *ctx = chacha20_ctx();
    chacha20_iv(a, iv);
    external_openssl_must(EVP_EncryptInit_ex2(ctx, NULL, a->key.bytes, iv, NULL),
         "EVP_EncryptInit_ex2");
    /* EVP takes an int length. */
    for (size_t done = 0, chunk; done < len; done += chunk) {
        chunk = len - done < (1u << 30) ? len - done : (1u << 30);
        external_openssl_must(EVP_EncryptUpdate(ctx, out + done, &n, in + done, (int)chunk),
             "EVP_EncryptUpdate");
    }
    return 0;
}

static EVP_MD_CTX *blake2b512_ctx(void)
{
    static _Thread_local EVP_MD_CTX *ctx;
    if (!ctx) {
        ctx = EVP_MD_CTX_new();
        external_openssl_must(ctx != NULL, "EVP_MD_CTX_new");
    }
    return ctx;
}

static int openssl_blake2b512_run(const kernel *k, const isa_variant *v,
                                  const kernel_args *a, const uint8_t *in,
                                  size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    (void)a;
    unsigned n;
    EVP_MD_CTX *ctx = blake2b512_ctx();
    external_openssl_must(EVP_DigestInit_ex2(ctx, blake2b512_md, NULL) &&
         EVP_DigestUpdate(ctx, in, len) && EVP_DigestFinal_ex(ctx, out, &n),
         "EVP_Digest*");
    return 0;
}

const kernel kernel_openssl_chacha20 = EXTERNAL_KERNEL(
    "openssl:chacha20", "chacha", kernel_chacha20, openssl_chacha20_run,
    openssl_chacha20_unavailable);

const kernel kernel_openssl_blake2b512 = {
    .name = "openssl:blake2b512",
    .family = "blake2b",
    .table = external_row,
    .row_size = sizeof external_row[0],
    /* EVP's BLAKE2B-512 has no key and a fixed 64-byte digest. */
    .args = { { KARG_TAKES(OUTLEN, 64),
                .note = "OpenSSL's is unkeyed, 64 bytes; blake2b or "
                        "sodium:blake2b take others" } },
    .run = openssl_blake2b512_run,
    .reference = &kernel_blake2b,
    .unavailable = openssl_blake2b512_unavailable,
};
