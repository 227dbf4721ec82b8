/* What every OpenSSL kernel shares, in one place: its algorithms, fetched
 * once per process; the legacy provider RC4 and Blowfish live in, loaded
 * so that the default provider stays loaded too; each thread's context per
 * cipher, reset per call; and updates in the int-sized pieces EVP takes.
 * Fetching once and keeping contexts is what a careful application does,
 * and keeps a provider lookup and an allocation out of every timed call. */
#ifndef CYCLEBENCH_OPENSSL_EVP_H
#define CYCLEBENCH_OPENSSL_EVP_H

#include <openssl/evp.h>
#include <stddef.h>
#include <stdint.h>

#include "../external.h"

/* Every algorithm the OpenSSL kernels use. A kernel's param is one. */
enum openssl_algorithm {
    OPENSSL_CHACHA20,
    OPENSSL_BLAKE2B512,
    OPENSSL_SHA3_256,
    OPENSSL_SHAKE256,
    OPENSSL_AES128_CTR,
    OPENSSL_AES256_CTR,
    OPENSSL_AES128_CBC,
    OPENSSL_AES128_CBC_CTS,
    OPENSSL_AES128_XTS,
    OPENSSL_AES256_XTS,
    OPENSSL_AES128_GCM,
    OPENSSL_AES256_GCM,
    OPENSSL_CHACHA20_POLY1305,
    OPENSSL_RC4,
    OPENSSL_DES_EDE3_CBC,
    OPENSSL_BF_CBC,
    OPENSSL_CAMELLIA_128_CBC,
    OPENSSL_CAMELLIA_256_CBC,
    OPENSSL_ALGORITHMS
};

/* NULL when OpenSSL offers the algorithm, else why not. */
const char *openssl_unavailable(enum openssl_algorithm id);
/* The same for the algorithm that is k's param: an unavailable hook. */
const char *openssl_kernel_unavailable(const kernel *k);

/* OpenSSL calls on fetched algorithms and checked arguments do not fail;
 * if one does, OpenSSL itself is broken and no output can be trusted, so
 * this aborts naming the call. */
void openssl_must(int ok, const char *what);

/* The fetched digest; id must be available. */
const EVP_MD *openssl_digest(enum openssl_algorithm id);
/* This thread's digest context, for any digest. */
EVP_MD_CTX *openssl_digest_ctx(void);

/* This thread's context for cipher id, set to it with no key yet (and no
 * padding, for a block cipher in CBC): a call keys it with
 * EVP_CipherInit_ex2(ctx, NULL, key, iv, encrypt, NULL). */
EVP_CIPHER_CTX *openssl_cipher_ctx(enum openssl_algorithm id);
/* A context of its own for cipher id keyed for one direction (iv and
 * params may be NULL; no padding as above), for a kernel's prepare: the
 * caller frees it. NULL when OpenSSL fails. */
EVP_CIPHER_CTX *openssl_keyed_ctx(enum openssl_algorithm id,
                                  const uint8_t *key, const uint8_t *iv,
                                  int encrypt, const OSSL_PARAM params[]);

/* len bytes through EVP_CipherUpdate in pieces of at most 2^30 (EVP takes
 * an int); out NULL feeds AAD. */
void openssl_update(EVP_CIPHER_CTX *ctx, uint8_t *out, const uint8_t *in,
                    size_t len);
/* In one update, for modes that must see the whole message (XTS, CBC with
 * ciphertext stealing): their kernels' checks keep len within an int. */
void openssl_update_whole(EVP_CIPHER_CTX *ctx, uint8_t *out,
                          const uint8_t *in, size_t len);

#endif
