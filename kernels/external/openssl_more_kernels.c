/* OpenSSL's ChaCha20-Poly1305 and RC4, and the seeds' other disk ciphers
 * (3DES, Blowfish, Camellia in CBC), through EVP as registry kernels.
 *
 * As in openssl_kernels.c, each algorithm is fetched once and each thread
 * keeps one context per algorithm, re-keyed per call. RC4 and Blowfish live
 * in OpenSSL's legacy provider. It is loaded with OSSL_PROVIDER_try_load
 * and fallbacks retained: OSSL_PROVIDER_load would switch off the automatic
 * loading of the default provider, and every other OpenSSL kernel with it.
 * If the legacy provider does not load, those two are unsupported, with
 * the reason. */
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "external.h"

enum cipher_id {
    CHACHA20_POLY1305,
    RC4,
    DES_EDE3_CBC,
    BF_CBC,
    CAMELLIA_128_CBC,
    CAMELLIA_256_CBC,
    CIPHERS
};

/* A CBC cipher's sizes, and one block of a published known answer. */
typedef struct cbc_cipher {
    const char *source;
    uint8_t key[32], plaintext[16], ciphertext[16];
} cbc_cipher;

static const struct {
    const char *evp_name;
    int legacy;
    const cbc_cipher *cbc; /* NULL for the stream ciphers */
} ciphers[CIPHERS] = {
    [CHACHA20_POLY1305] = { "ChaCha20-Poly1305", 0, NULL },
    [RC4] = { "RC4", 1, NULL },
    [DES_EDE3_CBC] = {
        "DES-EDE3-CBC", 0,
        &(const cbc_cipher){
            "NIST SP 800-67 Rev. 1, appendix B.1, block 1",
            { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
              0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01,
              0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23 },
            { 0x54, 0x68, 0x65, 0x20, 0x71, 0x75, 0x66, 0x63 },
            { 0xa8, 0x26, 0xfd, 0x8c, 0xe5, 0x3b, 0x85, 0x5f } } },
    [BF_CBC] = {
        "BF-CBC", 1,
        &(const cbc_cipher){
            "Schneier's Blowfish set_key vectors, 16-byte key",
            { 0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
              0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0x0f },
            { 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 },
            { 0x93, 0x14, 0x28, 0x87, 0xee, 0x3b, 0xe1, 0x5c } } },
    [CAMELLIA_128_CBC] = {
        "CAMELLIA-128-CBC", 0,
        &(const cbc_cipher){
            "RFC 3713 appendix A, 128-bit key",
            { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
              0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 },
            { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
              0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 },
            { 0x67, 0x67, 0x31, 0x38, 0x54, 0x96, 0x69, 0x73,
              0x08, 0x57, 0x06, 0x56, 0x48, 0xea, 0xbe, 0x43 } } },
    [CAMELLIA_256_CBC] = {
        "CAMELLIA-256-CBC", 0,
        &(const cbc_cipher){
            "RFC 3713 appendix A, 256-bit key",
            { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
              0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
              0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
              0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff },
            { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
              0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 },
            { 0x9a, 0xcc, 0x23, 0x7d, 0xff, 0x16, 0xd7, 0x6c,
              0x20, 0xef, 0x7c, 0x91, 0x9e, 0x3a, 0x75, 0x09 } } },
};

static EVP_CIPHER *fetched_cipher[CIPHERS];
static int legacy_missing;
static pthread_once_t fetched = PTHREAD_ONCE_INIT;

static void fetch_ciphers(void)
{
    legacy_missing = !OSSL_PROVIDER_try_load(NULL, "legacy", 1);
    for (int i = 0; i < CIPHERS; i++)
        if (!(ciphers[i].legacy && legacy_missing))
            fetched_cipher[i] = EVP_CIPHER_fetch(NULL, ciphers[i].evp_name,
                                                 NULL);
    ERR_clear_error();
}

static const char *cipher_unavailable(enum cipher_id id)
{
    static _Thread_local char reason[160];
    pthread_once(&fetched, fetch_ciphers);
    if (fetched_cipher[id])
        return NULL;
    if (ciphers[id].legacy && legacy_missing)
        return "OpenSSL's legacy provider did not load: install its "
               "legacy.so (ossl-modules) or point OPENSSL_MODULES at it";
    snprintf(reason, sizeof reason, "OpenSSL offers no %s (is the default "
             "provider loaded?)", ciphers[id].evp_name);
    return reason;
}

/* This thread's context for the cipher, set to it with no key yet. */
static EVP_CIPHER_CTX *cipher_ctx(enum cipher_id id)
{
    static _Thread_local EVP_CIPHER_CTX *ctx[CIPHERS];
    if (!ctx[id]) {
        pthread_once(&fetched, fetch_ciphers);
        ctx[id] = EVP_CIPHER_CTX_new();
        external_openssl_must(ctx[id] && EVP_CipherInit_ex2(ctx[id], fetched_cipher[id], NULL,
                                           NULL, 1, NULL),
             "EVP_CipherInit_ex2");
        if (ciphers[id].cbc)
            external_openssl_must(EVP_CIPHER_CTX_set_padding(ctx[id], 0),
                 "EVP_CIPHER_CTX_set_padding");
    }
    return ctx[id];
}

/* EVP takes int lengths; out NULL feeds AAD. */
static void update_all(EVP_CIPHER_CTX *ctx, uint8_t *out, const uint8_t *in,
                       size_t len)
{
    for (size_t done = 0, chunk; done < len; done += chunk) {
        int n;
        chunk = len - done < (1u << 30) ? len - done : (1u << 30);
        external_openssl_must(EVP_CipherUpdate(ctx, out ? out + done : NULL, &n, in + done,
                              (int)chunk) &&
                 (size_t)n == chunk,
             "EVP_CipherUpdate");
    }
}

/* ChaCha20-Poly1305. OpenSSL writes the plaintext before it checks the
 * tag, so a failed decryption wipes it: no plaintext is released. */

static const char *openssl_chacha20_poly1305_unavailable(const kernel *k)
{
    (void)k;
    return cipher_unavailable(CHACHA20_POLY1305);
}

static int openssl_chacha20_poly1305_run(const kernel *k,
                                         const isa_variant *v,
                                         const kernel_args *a,
                                         const uint8_t *in, size_t len,
                                         uint8_t *out)
{
    (void)k;
    (void)v;
    EVP_CIPHER_CTX *ctx = cipher_ctx(CHACHA20_POLY1305);
    int encrypt = !a->decrypt.set, n;
    size_t msg_len = encrypt ? len : len - 16;
    external_openssl_must(EVP_CipherInit_ex2(ctx, NULL, a->key.bytes, a->nonce.bytes, encrypt, NULL),
         "EVP_CipherInit_ex2");
    if (a->aad.set)
        update_all(ctx, NULL, a->aad.bytes, a->aad.len);
    if (!encrypt)
        external_openssl_must(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16,
                                 (void *)(in + msg_len)),
             "EVP_CTRL_AEAD_SET_TAG");
    update_all(ctx, out, in, msg_len);
    if (encrypt) {
        external_openssl_must(EVP_CipherFinal_ex(ctx, out + msg_len, &n) &&
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

/* RC4, whose key length is variable: the context learns it before the
 * key, when it changes. */

static const char *openssl_rc4_unavailable(const kernel *k)
{
    (void)k;
    return cipher_unavailable(RC4);
}

static int openssl_rc4_run(const kernel *k, const isa_variant *v,
                           const kernel_args *a, const uint8_t *in,
                           size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    static _Thread_local size_t key_len;
    EVP_CIPHER_CTX *ctx = cipher_ctx(RC4);
    if (key_len != a->key.len) {
        external_openssl_must(EVP_CIPHER_CTX_set_key_length(ctx, (int)a->key.len),
             "EVP_CIPHER_CTX_set_key_length");
        key_len = a->key.len;
    }
    external_openssl_must(EVP_CipherInit_ex2(ctx, NULL, a->key.bytes, NULL, 1, NULL),
         "EVP_CipherInit_ex2");
    update_all(ctx, out, in, len);
    return 0;
}

/* The CBC ciphers: param is the cipher_id; the descriptor states the key
 * and block (IV) sizes. */

static const cbc_cipher *cbc_of(const kernel *k)
{
    return ciphers[k->param].cbc;
}

static size_t key_bytes(const kernel *k)
{
    return (size_t)kernel_spec_find(k, KOPT_KEY)->values[0];
}

static size_t block_bytes(const kernel *k)
{
    return (size_t)kernel_spec_find(k, KOPT_IV)->values[0];
}

/* Lengths are in the descriptor; CBC without padding takes whole blocks. */
static int cbc_check(const kernel *k, const kernel_args *a, size_t len,
                     char *err, size_t errlen)
{
    size_t block = block_bytes(k);
    (void)a;
    if (len % block == 0)
        return 0;
    snprintf(err, errlen, "%s is CBC without padding: the message must be a "
             "multiple of %zu bytes (got %zu): pad it", k->name, block, len);
    return -1;
}

static const char *cbc_unavailable(const kernel *k)
{
    return cipher_unavailable((enum cipher_id)k->param);
}

/* Per-key setup outside the timed loop, as for LIONESS: Blowfish's key
 * schedule alone costs some 80,000 cycles. A prepared context keeps its key
 * and direction and only takes the IV per message. */
static void cbc_prepare(const kernel *k, const isa_variant *v, kernel_args *a)
{
    (void)v;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    pthread_once(&fetched, fetch_ciphers);
    if (ctx && EVP_CipherInit_ex2(ctx, fetched_cipher[k->param], a->key.bytes,
                                  a->iv.bytes, !a->decrypt.set, NULL) &&
        EVP_CIPHER_CTX_set_padding(ctx, 0)) {
        a->prepared = ctx;
        return;
    }
    EVP_CIPHER_CTX_free(ctx);
    a->prepared = NULL;
}

static void cbc_release(const kernel *k, kernel_args *a)
{
    (void)k;
    EVP_CIPHER_CTX_free(a->prepared);
}

/* Whole blocks only. A partial last block, which check() refuses, is
 * copied unchanged: kernel_self_test runs every kernel at awkward lengths
 * without checking them first. */
static int cbc_run(const kernel *k, const isa_variant *v, const kernel_args *a,
                   const uint8_t *in, size_t len, uint8_t *out)
{
    (void)v;
    EVP_CIPHER_CTX *ctx = a->prepared;
    size_t whole = len - len % block_bytes(k);
    if (ctx)
        external_openssl_must(EVP_CipherInit_ex2(ctx, NULL, NULL, a->iv.bytes, -1, NULL),
             "EVP_CipherInit_ex2");
    else {
        ctx = cipher_ctx((enum cipher_id)k->param);
        external_openssl_must(EVP_CipherInit_ex2(ctx, NULL, a->key.bytes, a->iv.bytes, !a->decrypt.set, NULL),
             "EVP_CipherInit_ex2");
    }
    update_all(ctx, out, in, whole);
    memmove(out + whole, in + whole, len - whole);
    return 0;
}

static const uint8_t bench_key[32] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a,
    0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
    0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};
static const uint8_t bench_iv[16] = {
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
    0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
};

static void cbc_bench_args(const kernel *k, kernel_args *a)
{
    *a = (kernel_args){
        .key = KERNEL_BYTES(bench_key, key_bytes(k)),
        .iv = KERNEL_BYTES(bench_iv, block_bytes(k)),
    };
}

/* One block under a zero IV is the published single-block (ECB) vector;
 * then back again. */
static int cbc_known_answer(const kernel *k, const isa_variant *v, char *err,
                            size_t errlen)
{
    static const uint8_t zero_iv[16];
    const cbc_cipher *c = cbc_of(k);
    size_t block = block_bytes(k);
    uint8_t got[16];
    kernel_args a = {
        .key = KERNEL_BYTES(c->key, key_bytes(k)),
        .iv = KERNEL_BYTES(zero_iv, block),
    };
    cbc_run(k, v, &a, c->plaintext, block, got);
    if (memcmp(got, c->ciphertext, block) != 0) {
        snprintf(err, errlen, "%s disagrees with %s", k->name, c->source);
        return -1;
    }
    a.decrypt = KERNEL_FLAG;
    cbc_run(k, v, &a, c->ciphertext, block, got);
    if (memcmp(got, c->plaintext, block) != 0) {
        snprintf(err, errlen, "%s does not decrypt %s", k->name, c->source);
        return -1;
    }
    return 0;
}

const kernel kernel_openssl_chacha20_poly1305 = EXTERNAL_KERNEL(
    "openssl:chacha20-poly1305", "chacha20-poly1305", kernel_chacha20_poly1305,
    openssl_chacha20_poly1305_run, openssl_chacha20_poly1305_unavailable);

/* Broken, for comparison only (see kernels/rc4/rc4.h). */
const kernel kernel_openssl_rc4 = EXTERNAL_KERNEL(
    "openssl:rc4", "rc4", kernel_rc4, openssl_rc4_run,
    openssl_rc4_unavailable);

/* min_len is the block: shorter lengths are refused. */
#define CBC_KERNEL(var, kname, fam, id, key_bytes, block)                     \
    const kernel var = {                                                      \
        .name = kname,                                                        \
        .family = fam,                                                        \
        .table = external_row,                                                \
        .row_size = sizeof external_row[0],                                   \
        .param = id,                                                          \
        .args = { { KARG_NEEDS(KEY, key_bytes) }, { KARG_NEEDS(IV, block) },  \
                  { KARG_TAKES_ANY(DECRYPT) } },                              \
        .min_len = block,                                                     \
        .min_len_why = "one whole block",                                     \
        .check = cbc_check,                                                   \
        .run = cbc_run,                                                       \
        .bench_args = cbc_bench_args,                                         \
        .unavailable = cbc_unavailable,                                       \
        .known_answer = cbc_known_answer,                                     \
        .prepare = cbc_prepare,                                               \
        .release = cbc_release,                                               \
    }

CBC_KERNEL(kernel_openssl_des_ede3_cbc, "openssl:des-ede3-cbc", "3des",
           DES_EDE3_CBC, 24, 8);
CBC_KERNEL(kernel_openssl_bf_cbc, "openssl:bf-cbc", "blowfish", BF_CBC, 16,
           8);
CBC_KERNEL(kernel_openssl_camellia_128_cbc, "openssl:camellia-128-cbc",
           "camellia", CAMELLIA_128_CBC, 16, 16);
CBC_KERNEL(kernel_openssl_camellia_256_cbc, "openssl:camellia-256-cbc",
           "camellia", CAMELLIA_256_CBC, 32, 16);
