/* OpenSSL's CBC ciphers that have no kernel of ours (3DES, Blowfish from
 * the legacy provider, Camellia), through EVP as registry kernels: the
 * FreeBSD GELI sector table's other ciphers, for comparison. Without padding: messages are
 * whole blocks. */
#include <stdio.h>
#include <string.h>

#include "evp.h"

/* One block of a published known answer (the block's and key's sizes
 * are the kernel's). */
typedef struct cbc_vector {
    const char *source;
    uint8_t key[32], plaintext[16], ciphertext[16];
} cbc_vector;

/* By the kernel's param, its algorithm. */
static const cbc_vector *const vectors[OPENSSL_ALGORITHMS] = {
    [OPENSSL_DES_EDE3_CBC] = &(const cbc_vector){
        "NIST SP 800-67 Rev. 1, appendix B.1, block 1",
        { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
          0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01,
          0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23 },
        { 0x54, 0x68, 0x65, 0x20, 0x71, 0x75, 0x66, 0x63 },
        { 0xa8, 0x26, 0xfd, 0x8c, 0xe5, 0x3b, 0x85, 0x5f } },
    [OPENSSL_BF_CBC] = &(const cbc_vector){
        "Schneier's Blowfish set_key vectors, 16-byte key",
        { 0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
          0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0x0f },
        { 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 },
        { 0x93, 0x14, 0x28, 0x87, 0xee, 0x3b, 0xe1, 0x5c } },
    [OPENSSL_CAMELLIA_128_CBC] = &(const cbc_vector){
        "RFC 3713 appendix A, 128-bit key",
        { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
          0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 },
        { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
          0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 },
        { 0x67, 0x67, 0x31, 0x38, 0x54, 0x96, 0x69, 0x73,
          0x08, 0x57, 0x06, 0x56, 0x48, 0xea, 0xbe, 0x43 } },
    [OPENSSL_CAMELLIA_256_CBC] = &(const cbc_vector){
        "RFC 3713 appendix A, 256-bit key",
        { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
          0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
          0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
          0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff },
        { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
          0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 },
        { 0x9a, 0xcc, 0x23, 0x7d, 0xff, 0x16, 0xd7, 0x6c,
          0x20, 0xef, 0x7c, 0x91, 0x9e, 0x3a, 0x75, 0x09 } },
};

/* The descriptor states the key and block (IV) sizes. */

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

/* Per-key setup outside the timed loop, as for LIONESS: Blowfish's key
 * schedule alone costs more than encrypting a whole sector. A prepared context keeps its key
 * and direction and only takes the IV per message. */
static void cbc_prepare(const kernel *k, const isa_variant *v, kernel_args *a)
{
    (void)v;
    a->prepared = openssl_keyed_ctx((enum openssl_algorithm)k->param,
                                    a->key.bytes, a->iv.bytes,
                                    !a->decrypt.set, NULL);
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
        openssl_must(EVP_CipherInit_ex2(ctx, NULL, NULL, a->iv.bytes, -1, NULL),
                     "EVP_CipherInit_ex2");
    else {
        ctx = openssl_cipher_ctx((enum openssl_algorithm)k->param);
        openssl_must(EVP_CipherInit_ex2(ctx, NULL, a->key.bytes, a->iv.bytes,
                                        !a->decrypt.set, NULL),
                     "EVP_CipherInit_ex2");
    }
    openssl_update(ctx, out, in, whole);
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
    const cbc_vector *c = vectors[k->param];
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
        .unavailable = openssl_kernel_unavailable,                            \
        .known_answer = cbc_known_answer,                                     \
        .prepare = cbc_prepare,                                               \
        .release = cbc_release,                                               \
    }

CBC_KERNEL(kernel_openssl_des_ede3_cbc, "openssl:des-ede3-cbc", "3des",
           OPENSSL_DES_EDE3_CBC, 24, 8);
CBC_KERNEL(kernel_openssl_bf_cbc, "openssl:bf-cbc", "blowfish",
           OPENSSL_BF_CBC, 16, 8);
CBC_KERNEL(kernel_openssl_camellia_128_cbc, "openssl:camellia-128-cbc",
           "camellia", OPENSSL_CAMELLIA_128_CBC, 16, 16);
CBC_KERNEL(kernel_openssl_camellia_256_cbc, "openssl:camellia-256-cbc",
           "camellia", OPENSSL_CAMELLIA_256_CBC, 32, 16);
