/* libgcrypt's Camellia-128 and -256 in CBC, without padding, as registry
 * kernels for the disk table. We have no Camellia of our own: each is
 * checked against OpenSSL's (openssl:camellia-*-cbc, itself checked
 * against RFC 3713's known answers) and takes its arguments, lengths and
 * benchmark arguments. As there, prepare() keys a handle once and a
 * message pays setiv; without prepare the thread's handle is keyed. */
#include <string.h>

#include "gcry.h"

#ifdef CB_HAVE_GCRYPT
#include <stdlib.h>

static void camellia_prepare(const kernel *k, const isa_variant *v,
                             kernel_args *a)
{
    (void)v;
    gcry_cipher_hd_t h = gcrypt_cipher_open((enum gcrypt_algorithm)k->param);
    gcrypt_must(gcry_cipher_setkey(h, a->key.bytes, a->key.len),
                "gcry_cipher_setkey");
    a->prepared = h;
}

static void camellia_release(const kernel *k, kernel_args *a)
{
    (void)k;
    gcry_cipher_close(a->prepared);
}

/* Whole blocks, as OpenSSL's kernel: a partial last block, which the
 * check refuses, is copied unchanged. */
static int camellia_run(const kernel *k, const isa_variant *v,
                        const kernel_args *a, const uint8_t *in, size_t len,
                        uint8_t *out)
{
    (void)v;
    gcry_cipher_hd_t h = a->prepared;
    size_t whole = len - len % 16;
    if (!h) {
        h = gcrypt_cipher_handle((enum gcrypt_algorithm)k->param);
        gcrypt_must(gcry_cipher_setkey(h, a->key.bytes, a->key.len),
                    "gcry_cipher_setkey");
    }
    gcrypt_must(gcry_cipher_setiv(h, a->iv.bytes, a->iv.len),
                "gcry_cipher_setiv");
    if (a->decrypt.set)
        gcrypt_must(gcry_cipher_decrypt(h, out, whole, in, whole),
                    "gcry_cipher_decrypt");
    else
        gcrypt_must(gcry_cipher_encrypt(h, out, whole, in, whole),
                    "gcry_cipher_encrypt");
    memmove(out + whole, in + whole, len - whole);
    return 0;
}
#else
#define camellia_run gcrypt_absent_run
#define camellia_prepare NULL
#define camellia_release NULL
#endif

#define GCRYPT_CAMELLIA_KERNEL(var, kname, id, ref)                           \
    const kernel var = {                                                      \
        .name = kname,                                                        \
        .family = "camellia",                                                 \
        .table = external_row,                                                \
        .row_size = sizeof external_row[0],                                   \
        .param = id,                                                          \
        .run = camellia_run,                                                  \
        .reference = &ref,                                                    \
        .unavailable = gcrypt_kernel_unavailable,                             \
        .prepare = camellia_prepare,                                          \
        .release = camellia_release,                                          \
    }

GCRYPT_CAMELLIA_KERNEL(kernel_gcrypt_camellia_128_cbc,
                       "gcrypt:camellia-128-cbc", GCRYPT_CAMELLIA128_CBC,
                       kernel_openssl_camellia_128_cbc);
GCRYPT_CAMELLIA_KERNEL(kernel_gcrypt_camellia_256_cbc,
                       "gcrypt:camellia-256-cbc", GCRYPT_CAMELLIA256_CBC,
                       kernel_openssl_camellia_256_cbc);
