/* ChaCha20-Poly1305 (RFC 8439) and XChaCha20-Poly1305
 * (draft-irtf-cfrg-xchacha), built from the ChaCha and Poly1305 tables.
 *
 * A variant pairs the ChaCha and Poly1305 implementations of one ISA
 * level. Sealing MACs the ciphertext chunk by chunk as it is written, so
 * that it is still in L1 when Poly1305 reads it. Opening verifies the tag
 * before it writes any plaintext: on a bad tag, out is left untouched. */
#ifndef CYCLEBENCH_AEAD_H
#define CYCLEBENCH_AEAD_H

#include <stddef.h>
#include <stdint.h>

#include "../chacha/chacha.h"
#include "../poly1305/poly1305.h"

#define AEAD_KEY_BYTES 32
#define AEAD_NONCE_BYTES 12
#define XAEAD_NONCE_BYTES 24
#define AEAD_TAG_BYTES 16

typedef struct aead_impl {
    isa_variant v;
    const char *chacha_isa;   /* row of chacha_impls */
    const char *poly1305_isa; /* row of poly1305_impls */
} aead_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const aead_impl aead_impls[];

/* The rows an aead_impl names, looked up once per key rather than per
 * message. */
typedef struct aead_pair {
    const chacha_impl *chacha;
    const poly1305_impl *poly1305;
} aead_pair;

aead_pair aead_pair_of(const aead_impl *impl);

/* The 32-bit block counter starts at 1 and must not wrap: messages of at
 * most 2^32 - 1 blocks of 64 bytes (about 256 GiB). */
int aead_fits(size_t len);

/* out = ciphertext (len bytes) || tag (16 bytes); out may equal in. aad
 * may be NULL when aad_len is 0. */
void chacha20_poly1305_seal(const aead_pair *impl, uint8_t *out,
                            const uint8_t *in, size_t len, const uint8_t *aad,
                            size_t aad_len, const uint8_t key[AEAD_KEY_BYTES],
                            const uint8_t nonce[AEAD_NONCE_BYTES]);

/* in = ciphertext (len bytes) || tag. Returns 0 and writes the plaintext to
 * out (which may equal in), or returns -1 and writes nothing. */
int chacha20_poly1305_open(const aead_pair *impl, uint8_t *out,
                           const uint8_t *in, size_t len, const uint8_t *aad,
                           size_t aad_len, const uint8_t key[AEAD_KEY_BYTES],
                           const uint8_t nonce[AEAD_NONCE_BYTES]);

/* The same with a 24-byte nonce: the key becomes HChaCha20(key,
 * nonce[0:16]) and the nonce 0x00000000 || nonce[16:24]. */
void xchacha20_poly1305_seal(const aead_pair *impl, uint8_t *out,
                             const uint8_t *in, size_t len,
                             const uint8_t *aad, size_t aad_len,
                             const uint8_t key[AEAD_KEY_BYTES],
                             const uint8_t nonce[XAEAD_NONCE_BYTES]);
int xchacha20_poly1305_open(const aead_pair *impl, uint8_t *out,
                            const uint8_t *in, size_t len, const uint8_t *aad,
                            size_t aad_len, const uint8_t key[AEAD_KEY_BYTES],
                            const uint8_t nonce[XAEAD_NONCE_BYTES]);

#endif
