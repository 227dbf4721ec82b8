/* OpenSSL's AES-CTR, -CBC, -XTS and -GCM through EVP, as registry kernels.
 *
 * prepare() keys an EVP context once, as an application encrypting many
 * messages under one key would, so that OpenSSL's key expansion stays out
 * of the timed loop just as ours does; run() then sets only the IV. Without
 * prepare (kat, self-tests) run() keys a context of its own.
 *
 * CBC: a length that is a multiple of 16 goes to plain AES-128-CBC without
 * padding; any other to AES-128-CBC-CTS, told to use CS2 (its default is
 * CS1), which is our aes128-cbc's ordering. */
#include <limits.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../aes/aes.h"
#include "evp.h"

/* A kernel's param is its cipher; CBC also needs its CTS twin. */
static const char *openssl_aes_unavailable(const kernel *k)
{
    const char *why = openssl_kernel_unavailable(k);
    if (!why && k->param == OPENSSL_AES128_CBC)
        why = openssl_unavailable(OPENSSL_AES128_CBC_CTS);
    return why;
}

/* Contexts keyed for one direction: plain, and CBC's CTS twin. */
typedef struct ossl_keyed {
    EVP_CIPHER_CTX *ctx, *cts;
    int decrypt;
} ossl_keyed;

static EVP_CIPHER_CTX *keyed_ctx(enum openssl_algorithm cipher,
                                 const kernel_args *a)
{
    char cs2[] = "CS2";
    OSSL_PARAM cts_params[] = {
        OSSL_PARAM_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, cs2, 0),
        OSSL_PARAM_END,
    };
    EVP_CIPHER_CTX *ctx = openssl_keyed_ctx(
        cipher, a->key.bytes, NULL, !a->decrypt.set,
        cipher == OPENSSL_AES128_CBC_CTS ? cts_params : NULL);
    openssl_must(ctx != NULL, "EVP_CipherInit_ex2");
    return ctx;
}

static void key_contexts(const kernel *k, const kernel_args *a, ossl_keyed *kd)
{
    kd->decrypt = a->decrypt.set;
    kd->ctx = keyed_ctx((enum openssl_algorithm)k->param, a);
    kd->cts = k->param == OPENSSL_AES128_CBC
                  ? keyed_ctx(OPENSSL_AES128_CBC_CTS, a) : NULL;
}

static void free_contexts(ossl_keyed *kd)
{
    EVP_CIPHER_CTX_free(kd->ctx);
    EVP_CIPHER_CTX_free(kd->cts);
}

static void openssl_aes_prepare(const kernel *k, const isa_variant *v,
                                kernel_args *a)
{
    (void)v;
    ossl_keyed *kd = malloc(sizeof *kd);
    if (kd)
        key_contexts(k, a, kd);
    a->prepared = kd;
}

static void openssl_aes_release(const kernel *k, kernel_args *a)
{
    (void)k;
    free_contexts(a->prepared);
    free(a->prepared);
}

static int gcm_crypt(EVP_CIPHER_CTX *ctx, const kernel_args *a,
                     const uint8_t *in, size_t len, uint8_t *out)
{
    int n;
    uint8_t tag[16];
    if (a->decrypt.set) {
        len -= AES_GCM_TAG_BYTES;
        memcpy(tag, in + len, sizeof tag);
        openssl_must(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag),
                     "EVP_CTRL_AEAD_SET_TAG");
    }
    openssl_update(ctx, NULL, a->aad.bytes, a->aad.len);
    openssl_update(ctx, out, in, len);
    if (EVP_CipherFinal_ex(ctx, out + len, &n) <= 0) {
        memset(out, 0, len);
        return 1;
    }
    if (!a->decrypt.set)
        openssl_must(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16,
                                         out + len),
                     "EVP_CTRL_AEAD_GET_TAG");
    return 0;
}

static int crypt_with(const kernel *k, const ossl_keyed *kd,
                      const kernel_args *a, const uint8_t *in, size_t len,
                      uint8_t *out)
{
    uint8_t tweak[16];
    EVP_CIPHER_CTX *ctx = kd->cts && len % 16 ? kd->cts : kd->ctx;
    const uint8_t *iv = a->iv.bytes;
    if (k->param == OPENSSL_AES128_XTS || k->param == OPENSSL_AES256_XTS) {
        if (a->sector.set)
            aes_xts_sector_tweak(tweak, a->sector.num);
        else
            memcpy(tweak, a->tweak.bytes, 16);
        iv = tweak;
    }
    openssl_must(EVP_CipherInit_ex2(ctx, NULL, NULL, iv, !a->decrypt.set, NULL),
                 "EVP_CipherInit_ex2");
    switch (k->param) {
    case OPENSSL_AES128_GCM:
    case OPENSSL_AES256_GCM:
        return gcm_crypt(ctx, a, in, len, out);
    case OPENSSL_AES128_XTS:
    case OPENSSL_AES256_XTS:
        openssl_update_whole(ctx, out, in, len);
        return 0;
    default:
        if (ctx == kd->cts)
            openssl_update_whole(ctx, out, in, len);
        else
            openssl_update(ctx, out, in, len);
        return 0;
    }
}

static int openssl_aes_run(const kernel *k, const isa_variant *v,
                           const kernel_args *a, const uint8_t *in, size_t len,
                           uint8_t *out)
{
    (void)v;
    ossl_keyed local;
    const ossl_keyed *kd = a->prepared;
    if (kd && kd->decrypt == a->decrypt.set)
        return crypt_with(k, kd, a, in, len, out);
    key_contexts(k, a, &local);
    int rc = crypt_with(k, &local, a, in, len, out);
    free_contexts(&local);
    return rc;
}

/* What EVP refuses: XTS keys whose halves are equal, messages it cannot
 * take in one update. */
static int openssl_aes_check(const kernel *k, const kernel_args *a, size_t len,
                             char *err, size_t errlen)
{
    int xts = k->param == OPENSSL_AES128_XTS || k->param == OPENSSL_AES256_XTS;
    size_t half = a->key.len / 2;
    if (xts && memcmp(a->key.bytes, a->key.bytes + half, half) == 0) {
        snprintf(err, errlen, "%s: OpenSSL refuses XTS keys whose two halves "
                 "are equal; use another key or %s", k->name,
                 k->reference->name);
        return -1;
    }
    if (xts && len > (16u << 20)) {
        snprintf(err, errlen, "%s takes at most 2^20 blocks (16 MiB) per data "
                 "unit (got %zu bytes): use %s for longer ones", k->name, len,
                 k->reference->name);
        return -1;
    }
    if (k->param == OPENSSL_AES128_CBC && len % 16 && len > INT_MAX) {
        snprintf(err, errlen, "%s with ciphertext stealing takes at most %d "
                 "bytes (got %zu): use %s", k->name, INT_MAX, len,
                 k->reference->name);
        return -1;
    }
    return 0;
}

#define OPENSSL_AES_KERNEL(var, kname, cipher, ref)                           \
    const kernel var = {                                                      \
        .name = kname,                                                        \
        .family = "aes",                                                      \
        .table = external_row,                                                \
        .row_size = sizeof external_row[0],                                   \
        .param = cipher,                                                      \
        .check = openssl_aes_check,                                           \
        .run = openssl_aes_run,                                               \
        .reference = &ref,                                                    \
        .unavailable = openssl_aes_unavailable,                               \
        .prepare = openssl_aes_prepare,                                       \
        .release = openssl_aes_release,                                       \
    }

OPENSSL_AES_KERNEL(kernel_openssl_aes128_ctr, "openssl:aes-128-ctr",
                   OPENSSL_AES128_CTR, kernel_aes128_ctr);
OPENSSL_AES_KERNEL(kernel_openssl_aes256_ctr, "openssl:aes-256-ctr",
                   OPENSSL_AES256_CTR, kernel_aes256_ctr);
OPENSSL_AES_KERNEL(kernel_openssl_aes128_cbc, "openssl:aes-128-cbc",
                   OPENSSL_AES128_CBC, kernel_aes128_cbc);
OPENSSL_AES_KERNEL(kernel_openssl_aes128_xts, "openssl:aes-128-xts",
                   OPENSSL_AES128_XTS, kernel_aes128_xts);
OPENSSL_AES_KERNEL(kernel_openssl_aes256_xts, "openssl:aes-256-xts",
                   OPENSSL_AES256_XTS, kernel_aes256_xts);
OPENSSL_AES_KERNEL(kernel_openssl_aes128_gcm, "openssl:aes-128-gcm",
                   OPENSSL_AES128_GCM, kernel_aes128_gcm);
OPENSSL_AES_KERNEL(kernel_openssl_aes256_gcm, "openssl:aes-256-gcm",
                   OPENSSL_AES256_GCM, kernel_aes256_gcm);
