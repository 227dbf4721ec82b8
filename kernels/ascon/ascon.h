/* Ascon-AEAD128 (NIST SP 800-232, August 2025): a 320-bit state of five
 * 64-bit words, the Ascon permutation with 12 rounds (initialisation and
 * finalisation) and 8 (each 16-byte block of data), 128-bit key, nonce and
 * tag. Words take bytes little-endian, as the standard does (the earlier
 * Ascon-128a v1.2 read them big-endian; its vectors do not apply).
 *
 * The rows come per ISA (ascon_impls, best first); each is a whole
 * encryption and decryption, since a vector form gains only by taking
 * several messages at once: a row's lanes form seals or opens `lanes`
 * independent messages side by side, one state per vector element. */
#ifndef CYCLEBENCH_ASCON_H
#define CYCLEBENCH_ASCON_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu.h"

#define ASCON_KEY_BYTES 16
#define ASCON_NONCE_BYTES 16
#define ASCON_TAG_BYTES 16
#define ASCON_RATE 16
/* The initial value (SP 800-232, Section 4.1.1: key bits, rate, round
 * numbers and tag bits in one word), and the last bit of the state,
 * flipped between the data and the message. */
#define ASCON_AEAD128_IV 0x00001000808c0001ull
#define ASCON_DOMAIN_SEPARATOR 0x8000000000000000ull

/* The constants of rounds 0..11 (p^8 runs the last eight): every row's. */
extern const uint8_t ascon_round_constants[12];

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

/* ASCON_X8 messages of len bytes each, each with its own key, nonce and
 * associated data (ad_len bytes each; ad[j] may be NULL when it is 0):
 * message j is in[j], its output out[j] (which may equal in[j], never
 * overlap another message), its tag tag[j]. Eight is what one zmm holds;
 * a row with fewer lanes runs them in turn. */
#define ASCON_X8 8
typedef struct ascon_batch {
    const uint8_t *key[ASCON_X8], *nonce[ASCON_X8], *ad[ASCON_X8];
    size_t ad_len, len;
    const uint8_t *in[ASCON_X8];
    uint8_t *out[ASCON_X8], *tag[ASCON_X8];
} ascon_batch;

/* Messages first .. first + lanes - 1 of b at once, as ascon_encrypt_fn
 * (or ascon_decrypt_fn) does one. */
typedef void ascon_lanes_fn(const ascon_batch *b, size_t first);

typedef struct ascon_impl {
    isa_variant v;
    ascon_encrypt_fn *encrypt;
    ascon_decrypt_fn *decrypt;
    /* The multi-message form, `lanes` messages a call; NULL where the row
     * has none (the messages of a batch then go one by one). */
    ascon_lanes_fn *encrypt_lanes;
    ascon_lanes_fn *decrypt_lanes;
    size_t lanes;
} ascon_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const ascon_impl ascon_impls[];

ascon_encrypt_fn ascon_aead128_encrypt_generic;
ascon_decrypt_fn ascon_aead128_decrypt_generic;
#if defined(__x86_64__)
ascon_lanes_fn ascon_aead128_encrypt_x8_avx512, ascon_aead128_decrypt_x8_avx512;
ascon_lanes_fn ascon_aead128_encrypt_x4_avx2, ascon_aead128_decrypt_x4_avx2;
#elif defined(__aarch64__)
ascon_lanes_fn ascon_aead128_encrypt_x2_neon, ascon_aead128_decrypt_x2_neon;
#endif

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

/* The ASCON_X8 messages of b: out[j] = ciphertext, tag[j] = its tag. */
void ascon_aead128_encrypt_x8(const ascon_impl *impl, const ascon_batch *b);
/* out[j] = plaintext of the ciphertext in[j]; tag[j] = the tag it should
 * carry, which the caller compares. */
void ascon_aead128_decrypt_x8(const ascon_impl *impl, const ascon_batch *b);
/* Opens the ASCON_X8 messages of b (its tag[] unused), whose received
 * tags are at received[j]. Returns a mask with bit j set where message
 * j's tag does not match (compared in constant time), its out[j] then
 * zeroed; 0 when all open. */
unsigned ascon_aead128_open_x8(const ascon_impl *impl, const ascon_batch *b,
                               const uint8_t *const received[ASCON_X8]);

#endif
