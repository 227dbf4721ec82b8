#include "evp.h"

#include <limits.h>
#include <openssl/err.h>
#include <openssl/provider.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* The legacy provider is loaded with OSSL_PROVIDER_try_load and fallbacks
 * retained: OSSL_PROVIDER_load would switch off the automatic loading of
 * the default provider, and every other OpenSSL kernel with it. If it does
 * not load, its algorithms are unavailable, with the reason. */
static const struct {
    const char *name;
    int digest;   /* an EVP_MD, not an EVP_CIPHER */
    int legacy;   /* in the legacy provider */
    int unpadded; /* a block cipher in CBC, used without padding */
} algorithms[OPENSSL_ALGORITHMS] = {
    [OPENSSL_CHACHA20] = { "ChaCha20", 0, 0, 0 },
    [OPENSSL_BLAKE2B512] = { "BLAKE2B-512", 1, 0, 0 },
    [OPENSSL_SHA3_256] = { "SHA3-256", 1, 0, 0 },
    [OPENSSL_SHAKE256] = { "SHAKE256", 1, 0, 0 },
    [OPENSSL_AES128_CTR] = { "AES-128-CTR", 0, 0, 0 },
    [OPENSSL_AES256_CTR] = { "AES-256-CTR", 0, 0, 0 },
    [OPENSSL_AES128_CBC] = { "AES-128-CBC", 0, 0, 1 },
    [OPENSSL_AES128_CBC_CTS] = { "AES-128-CBC-CTS", 0, 0, 0 },
    [OPENSSL_AES128_XTS] = { "AES-128-XTS", 0, 0, 0 },
    [OPENSSL_AES256_XTS] = { "AES-256-XTS", 0, 0, 0 },
    [OPENSSL_AES128_GCM] = { "AES-128-GCM", 0, 0, 0 },
    [OPENSSL_AES256_GCM] = { "AES-256-GCM", 0, 0, 0 },
    [OPENSSL_CHACHA20_POLY1305] = { "ChaCha20-Poly1305", 0, 0, 0 },
    [OPENSSL_RC4] = { "RC4", 0, 1, 0 },
    [OPENSSL_DES_EDE3_CBC] = { "DES-EDE3-CBC", 0, 0, 1 },
    [OPENSSL_BF_CBC] = { "BF-CBC", 0, 1, 1 },
    [OPENSSL_CAMELLIA_128_CBC] = { "CAMELLIA-128-CBC", 0, 0, 1 },
    [OPENSSL_CAMELLIA_256_CBC] = { "CAMELLIA-256-CBC", 0, 0, 1 },
};

static EVP_CIPHER *ciphers[OPENSSL_ALGORITHMS];
static EVP_MD *digests[OPENSSL_ALGORITHMS];
static int legacy_missing;
static pthread_once_t fetched = PTHREAD_ONCE_INIT;

static void fetch_algorithms(void)
{
    legacy_missing = !OSSL_PROVIDER_try_load(NULL, "legacy", 1);
    for (int i = 0; i < OPENSSL_ALGORITHMS; i++) {
        if (algorithms[i].legacy && legacy_missing)
            continue;
        if (algorithms[i].digest)
            digests[i] = EVP_MD_fetch(NULL, algorithms[i].name, NULL);
        else
            ciphers[i] = EVP_CIPHER_fetch(NULL, algorithms[i].name, NULL);
    }
    ERR_clear_error();
}

const char *openssl_unavailable(enum openssl_algorithm id)
{
    static _Thread_local char reason[96];
    pthread_once(&fetched, fetch_algorithms);
    if (ciphers[id] || digests[id])
        return NULL;
    if (algorithms[id].legacy && legacy_missing)
        return "OpenSSL's legacy provider did not load: install its "
               "legacy.so (ossl-modules) or point OPENSSL_MODULES at it";
    snprintf(reason, sizeof reason, "OpenSSL offers no %s (is the default "
             "provider loaded?)", algorithms[id].name);
    return reason;
}

const char *openssl_kernel_unavailable(const kernel *k)
{
    return openssl_unavailable((enum openssl_algorithm)k->param);
}

void openssl_must(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "cyclebench: OpenSSL failed in %s\n", what);
        abort();
    }
}

const EVP_MD *openssl_digest(enum openssl_algorithm id)
{
    pthread_once(&fetched, fetch_algorithms);
    return digests[id];
}

EVP_MD_CTX *openssl_digest_ctx(void)
{
    static _Thread_local EVP_MD_CTX *ctx;
    if (!ctx) {
        ctx = EVP_MD_CTX_new();
        openssl_must(ctx != NULL, "EVP_MD_CTX_new");
    }
    return ctx;
}

/* Set to the cipher, and keyed when key is not NULL. */
static int cipher_init(EVP_CIPHER_CTX *ctx, enum openssl_algorithm id,
                       const uint8_t *key, const uint8_t *iv, int encrypt,
                       const OSSL_PARAM params[])
{
    pthread_once(&fetched, fetch_algorithms);
    return ctx && EVP_CipherInit_ex2(ctx, ciphers[id], key, iv, encrypt,
                                     params) &&
           (!algorithms[id].unpadded || EVP_CIPHER_CTX_set_padding(ctx, 0));
}

EVP_CIPHER_CTX *openssl_cipher_ctx(enum openssl_algorithm id)
{
    static _Thread_local EVP_CIPHER_CTX *ctx[OPENSSL_ALGORITHMS];
    if (!ctx[id]) {
        ctx[id] = EVP_CIPHER_CTX_new();
        openssl_must(cipher_init(ctx[id], id, NULL, NULL, 1, NULL),
                     "EVP_CipherInit_ex2");
    }
    return ctx[id];
}

EVP_CIPHER_CTX *openssl_keyed_ctx(enum openssl_algorithm id,
                                  const uint8_t *key, const uint8_t *iv,
                                  int encrypt, const OSSL_PARAM params[])
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (cipher_init(ctx, id, key, iv, encrypt, params))
        return ctx;
    EVP_CIPHER_CTX_free(ctx);
    return NULL;
}

void openssl_update_whole(EVP_CIPHER_CTX *ctx, uint8_t *out,
                          const uint8_t *in, size_t len)
{
    int n;
    openssl_must(len <= INT_MAX &&
                     EVP_CipherUpdate(ctx, out, &n, in, (int)len) &&
                     (size_t)n == len,
                 "EVP_CipherUpdate");
}

void openssl_update(EVP_CIPHER_CTX *ctx, uint8_t *out, const uint8_t *in,
                    size_t len)
{
    for (size_t done = 0, piece; done < len; done += piece) {
        piece = len - done < (1u << 30) ? len - done : (1u << 30);
        openssl_update_whole(ctx, out ? out + done : NULL, in + done, piece);
    }
}
