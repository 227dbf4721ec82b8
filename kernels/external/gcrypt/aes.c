/* libgcrypt's AES-CTR, -CBC, -XTS and -GCM as registry kernels.
 *
 * prepare() opens a handle and keys it once, as an application encrypting
 * many messages under one key would, so that key expansion stays out of
 * the timed loop just as ours does; run() then sets only the IV (setctr
 * for CTR, setiv for the others), which also starts GCM's new message.
 * Without prepare (kat, self-tests) run() keys the thread's handle. A
 * libgcrypt handle serves both directions.
 *
 * CBC: a length that is a multiple of 16 goes to a plain CBC handle; any
 * other to one with GCRY_CIPHER_CBC_CTS, whose stealing swaps the last two
 * blocks, as our aes128-cbc's CS2 ordering does for a partial block (for
 * whole blocks libgcrypt's CTS would swap them too, CS2 would not). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../aes/aes.h"
#include "gcry.h"

/* What libgcrypt refuses and ours takes: an XTS data unit over 2^20
 * blocks, IEEE 1619's limit. */
static int gcrypt_aes_check(const kernel *k, const kernel_args *a, size_t len,
                            char *err, size_t errlen)
{
    (void)a;
    if ((k->param != GCRYPT_AES128_XTS && k->param != GCRYPT_AES256_XTS) ||
        len <= (16u << 20))
        return 0;
    snprintf(err, errlen, "%s takes at most 2^20 blocks (16 MiB) per data "
             "unit (got %zu bytes): use %s for longer ones", k->name, len,
             k->reference->name);
    return -1;
}

#ifdef CB_HAVE_GCRYPT
static int is_cbc(unsigned id)
{
    return id == GCRYPT_AES128_CBC || id == GCRYPT_AES256_CBC;
}

/* The handle's algorithm for a message of len bytes. */
static enum gcrypt_algorithm algorithm_for(const kernel *k, size_t len)
{
    if (is_cbc(k->param) && len % 16)
        return k->param == GCRYPT_AES128_CBC ? GCRYPT_AES128_CBC_CTS
                                             : GCRYPT_AES256_CBC_CTS;
    return (enum gcrypt_algorithm)k->param;
}

static void set_key(gcry_cipher_hd_t h, const kernel_args *a)
{
    gcrypt_must(gcry_cipher_setkey(h, a->key.bytes, a->key.len),
                "gcry_cipher_setkey");
}

/* Handles keyed once: plain, and CBC's CTS twin. */
typedef struct gcrypt_keyed {
    gcry_cipher_hd_t plain, cts;
} gcrypt_keyed;

static gcry_cipher_hd_t keyed_handle(enum gcrypt_algorithm id,
                                     const kernel_args *a)
{
    gcry_cipher_hd_t h = gcrypt_cipher_open(id);
    set_key(h, a);
    return h;
}

static void gcrypt_aes_prepare(const kernel *k, const isa_variant *v,
                               kernel_args *a)
{
    (void)v;
    gcrypt_keyed *kd = malloc(sizeof *kd);
    if (kd) {
        kd->plain = keyed_handle(algorithm_for(k, 16), a);
        kd->cts = is_cbc(k->param) ? keyed_handle(algorithm_for(k, 15), a)
                                   : NULL;
    }
    a->prepared = kd;
}

static void gcrypt_aes_release(const kernel *k, kernel_args *a)
{
    (void)k;
    gcrypt_keyed *kd = a->prepared;
    gcry_cipher_close(kd->plain);
    gcry_cipher_close(kd->cts);
    free(kd);
}

static void gcrypt_aes_crypt(gcry_cipher_hd_t h, const kernel_args *a, uint8_t *out,
                  const uint8_t *in, size_t len)
{
    if (a->decrypt.set)
        gcrypt_must(gcry_cipher_decrypt(h, out, len, in, len),
                    "gcry_cipher_decrypt");
    else
        gcrypt_must(gcry_cipher_encrypt(h, out, len, in, len),
                    "gcry_cipher_encrypt");
}

static int gcm_crypt(gcry_cipher_hd_t h, const kernel_args *a,
                     const uint8_t *in, size_t len, uint8_t *out)
{
    gcrypt_must(gcry_cipher_authenticate(h, a->aad.bytes, a->aad.len),
                "gcry_cipher_authenticate");
    if (!a->decrypt.set) {
        gcrypt_aes_crypt(h, a, out, in, len);
        gcrypt_must(gcry_cipher_gettag(h, out + len, AES_GCM_TAG_BYTES),
                    "gcry_cipher_gettag");
        return 0;
    }
    len -= AES_GCM_TAG_BYTES;
    gcrypt_aes_crypt(h, a, out, in, len);
    if (!gcry_cipher_checktag(h, in + len, AES_GCM_TAG_BYTES))
        return 0;
    memset(out, 0, len);
    return 1;
}

static int crypt_with(const kernel *k, gcry_cipher_hd_t h,
                      const kernel_args *a, const uint8_t *in, size_t len,
                      uint8_t *out)
{
    uint8_t tweak[16];
    switch (k->param) {
    case GCRYPT_AES128_CTR:
    case GCRYPT_AES256_CTR:
        gcrypt_must(gcry_cipher_setctr(h, a->iv.bytes, a->iv.len),
                    "gcry_cipher_setctr");
        gcrypt_aes_crypt(h, a, out, in, len);
        return 0;
    case GCRYPT_AES128_GCM:
    case GCRYPT_AES256_GCM:
        gcrypt_must(gcry_cipher_setiv(h, a->iv.bytes, a->iv.len),
                    "gcry_cipher_setiv");
        return gcm_crypt(h, a, in, len, out);
    case GCRYPT_AES128_XTS:
    case GCRYPT_AES256_XTS:
        if (a->sector.set)
            aes_xts_sector_tweak(tweak, a->sector.num);
        else
            memcpy(tweak, a->tweak.bytes, sizeof tweak);
        gcrypt_must(gcry_cipher_setiv(h, tweak, sizeof tweak),
                    "gcry_cipher_setiv");
        gcrypt_aes_crypt(h, a, out, in, len);
        return 0;
    default:
        gcrypt_must(gcry_cipher_setiv(h, a->iv.bytes, a->iv.len),
                    "gcry_cipher_setiv");
        gcrypt_aes_crypt(h, a, out, in, len);
        return 0;
    }
}

static int gcrypt_aes_run(const kernel *k, const isa_variant *v,
                          const kernel_args *a, const uint8_t *in, size_t len,
                          uint8_t *out)
{
    (void)v;
    const gcrypt_keyed *kd = a->prepared;
    gcry_cipher_hd_t h;
    if (kd)
        h = algorithm_for(k, len) == k->param ? kd->plain : kd->cts;
    else {
        h = gcrypt_cipher_handle(algorithm_for(k, len));
        set_key(h, a);
    }
    return crypt_with(k, h, a, in, len, out);
}
#else
#define gcrypt_aes_run gcrypt_absent_run
#define gcrypt_aes_prepare NULL
#define gcrypt_aes_release NULL
#endif

#define GCRYPT_AES_KERNEL(var, kname, id, ref)                                \
    const kernel var = {                                                      \
        .name = kname,                                                        \
        .family = "aes",                                                      \
        .table = external_row,                                                \
        .row_size = sizeof external_row[0],                                   \
        .param = id,                                                          \
        .check = gcrypt_aes_check,                                            \
        .run = gcrypt_aes_run,                                                \
        .reference = &ref,                                                    \
        .unavailable = gcrypt_kernel_unavailable,                             \
        .prepare = gcrypt_aes_prepare,                                        \
        .release = gcrypt_aes_release,                                        \
    }

GCRYPT_AES_KERNEL(kernel_gcrypt_aes128_ctr, "gcrypt:aes-128-ctr",
                  GCRYPT_AES128_CTR, kernel_aes128_ctr);
GCRYPT_AES_KERNEL(kernel_gcrypt_aes256_ctr, "gcrypt:aes-256-ctr",
                  GCRYPT_AES256_CTR, kernel_aes256_ctr);
GCRYPT_AES_KERNEL(kernel_gcrypt_aes128_cbc, "gcrypt:aes-128-cbc",
                  GCRYPT_AES128_CBC, kernel_aes128_cbc);
GCRYPT_AES_KERNEL(kernel_gcrypt_aes256_cbc, "gcrypt:aes-256-cbc",
                  GCRYPT_AES256_CBC, kernel_aes256_cbc);
GCRYPT_AES_KERNEL(kernel_gcrypt_aes128_xts, "gcrypt:aes-128-xts",
                  GCRYPT_AES128_XTS, kernel_aes128_xts);
GCRYPT_AES_KERNEL(kernel_gcrypt_aes256_xts, "gcrypt:aes-256-xts",
                  GCRYPT_AES256_XTS, kernel_aes256_xts);
GCRYPT_AES_KERNEL(kernel_gcrypt_aes128_gcm, "gcrypt:aes-128-gcm",
                  GCRYPT_AES128_GCM, kernel_aes128_gcm);
GCRYPT_AES_KERNEL(kernel_gcrypt_aes256_gcm, "gcrypt:aes-256-gcm",
                  GCRYPT_AES256_GCM, kernel_aes256_gcm);
