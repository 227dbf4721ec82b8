/* Ascon-AEAD128 (NIST SP 800-232, August 2025): a 320-bit state of five
 * 64-bit words, the Ascon permutation with 12 rounds (initialisation and
 * finalisation) and 8 (each 16-byte block of data), 128-bit key, nonce and
 * tag. Words take bytes little-endian, as the standard does (the earlier
 * Ascon-128a v1.2 read them big-endian; its vectors do not apply).
 *
 * The rows come per ISA (ascon_impls, best first); each is a whole
 * encryption and decryption, since a vector form gains only by taking
 * several messages at once. */
#ifndef CYCLEBENCH_ASCON_H
#define CYCLEBENCH_ASCON_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu.h"

#define ASCON_KEY_BYTES 16
#define ASCON_NONCE_BYTES 16
#define ASCON_TAG_BYTES 16
#define ASCON_RATE 16

/* out = ciphertext (len bytes), tag = its 16-byte tag. ad may be NULL when
 * ad_len is 0; out may equal in. */
typedef void ascon_encrypt_fn(const uint8_t key[ASCON_KEY_BYTES],
                              const uint8_t nonce[ASCON_NONCE_BYTES],
                              const uint8_t *ad, size_t ad_len, uint8_t *out,
                              const uint8_t *in, size_t len,
                              uint8_t tag[ASCON_TAG_BYTES]);
/* out = plaintext of the ciphertext in; tag = the tag it should carry,
 * which the caller compares. */
typedef ascon_encrypt_fn ascon_decrypt_fn;

typedef struct ascon_impl {
    isa_variant v;
    ascon_encrypt_fn *encrypt;
    ascon_decrypt_fn *decrypt;
} ascon_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const ascon_impl ascon_impls[];

ascon_encrypt_fn ascon_aead128_encrypt_generic;
ascon_decrypt_fn ascon_aead128_decrypt_generic;

/* out = ciphertext || tag. */
void ascon_aead128_seal(const ascon_impl *impl, const uint8_t *key,
                        const uint8_t *nonce, const uint8_t *ad,
                        size_t ad_len, uint8_t *out, const uint8_t *in,
                        size_t len);
/* in = ciphertext (len bytes) || tag. Returns 0 and the plaintext in out,
 * or -1 with out zeroed when the tag does not match (compared in constant
 * time). out may equal in. */
int ascon_aead128_open(const ascon_impl *impl, const uint8_t *key,
                       const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
                       uint8_t *out, const uint8_t *in, size_t len);

#endif
