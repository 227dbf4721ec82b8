/* AES-GCM-SIV (RFC 8452): the nonce-misuse-resistant AEAD, with AES-128
 * or AES-256 and a 12-byte nonce. Repeating a nonce reveals only whether
 * two messages (with their AAD) were equal, where GCM would give away the
 * hash key.
 *
 * Per message: the nonce and the key give a POLYVAL key and an AES
 * encryption key (four or six AES blocks); POLYVAL over the AAD, the
 * message and a block of their lengths, xored with the nonce, through AES
 * is the tag; the tag is then the counter block of a counter mode. Sealing
 * therefore reads the message twice (hash, then CTR); opening runs CTR
 * first and hashes the plaintext it writes.
 *
 * Built from the AES table (kernels/aes) and the POLYVAL table
 * (kernels/polyval), with no code of its own per ISA: a row pairs an AES
 * row with a POLYVAL row of the same level, as HCTR2's do (at --isa=auto,
 * the XCTR and POLYVAL rows measured fastest). The counter mode is the AES
 * row's XCTR (gcmsiv.c says why that is RFC 8452's counter); opening runs
 * it and POLYVAL in one pass where the AES row has that pass for its own
 * level's POLYVAL (the x86 and ce rows). */
#ifndef CYCLEBENCH_GCMSIV_H
#define CYCLEBENCH_GCMSIV_H

#include <stddef.h>
#include <stdint.h>

#include "../aes/aes.h"
#include "../polyval/polyval.h"

#define GCMSIV_NONCE_BYTES 12
#define GCMSIV_TAG_BYTES 16
/* RFC 8452 section 6: plaintext and AAD of at most 2^36 bytes each. */
#define GCMSIV_MAX_BYTES (((uint64_t)1) << 36)

typedef struct gcmsiv_impl {
    isa_variant v;
    const char *aes_isa;     /* row of aes_impls */
    const char *polyval_isa; /* row of polyval_impls */
} gcmsiv_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const gcmsiv_impl gcmsiv_impls[];

/* Whether impl's opening runs CTR and POLYVAL in one pass (the AES row's
 * xctr_polyval): only where a row of gcmsiv_impls pairs the same AES and
 * POLYVAL rows, one level's, and that AES row has the pass. */
int gcmsiv_fused(const gcmsiv_impl *impl);

/* The master key for one row: the AES rows and their fused pass looked
 * up once, and the key-generating key's schedule. */
typedef struct gcmsiv_key {
    aes_key aes;
    const aes_impl *aes_impl;
    const polyval_impl *polyval_impl;
    int fused; /* opening runs aes_impl->xctr_polyval */
} gcmsiv_key;

/* key_len is 16 or 32; returns -1 otherwise. */
int gcmsiv_setup(const gcmsiv_impl *impl, gcmsiv_key *key, const uint8_t *k,
                 size_t key_len);

/* What one nonce gives: POLYVAL's key and the message's AES key, in the
 * forms of key's rows; the AES key only encrypts (aes_setup_encrypt). */
typedef struct gcmsiv_message_keys {
    polyval_key h;
    aes_key enc;
} gcmsiv_message_keys;

/* The keys for nonce, POLYVAL's for updates of at most hash_blocks
 * blocks each (gcmsiv_hash_blocks; POLYVAL_POWERS or more for any). */
void gcmsiv_derive(const gcmsiv_key *key, gcmsiv_message_keys *mk,
                   const uint8_t nonce[GCMSIV_NONCE_BYTES],
                   size_t hash_blocks);

/* Zeroes what gcmsiv_derive(key, mk, ., hash_blocks) wrote. */
void gcmsiv_wipe(const gcmsiv_key *key, gcmsiv_message_keys *mk,
                 size_t hash_blocks);

/* The most blocks one POLYVAL update hashes for a message of len bytes
 * with aad_len of AAD: the AAD's, the message's, or the lengths' one. */
size_t gcmsiv_hash_blocks(size_t aad_len, size_t len);

/* The counter mode from tag over len bytes (out may equal in); when acc
 * is not NULL, acc continued by POLYVAL over the output zero-padded to
 * whole blocks, in one pass where key->fused. Opening's second half, and
 * what test_gcm_siv checks at counters that wrap. */
void gcmsiv_ctr_hash(const gcmsiv_key *key, const gcmsiv_message_keys *mk,
                     const uint8_t tag[GCMSIV_TAG_BYTES], uint8_t *out,
                     const uint8_t *in, size_t len, uint8_t acc[16]);

/* out = ciphertext (len bytes) || tag (16 bytes); out may equal in. aad
 * may be NULL when aad_len is 0. len and aad_len are at most
 * GCMSIV_MAX_BYTES. */
void gcmsiv_seal(const gcmsiv_key *key, uint8_t *out, const uint8_t *in,
                 size_t len, const uint8_t *aad, size_t aad_len,
                 const uint8_t nonce[GCMSIV_NONCE_BYTES]);

/* in = ciphertext (len bytes) || tag. Returns 0 and leaves the plaintext
 * in out (which may equal in), or -1 with out zeroed: the plaintext is
 * needed to check the tag, so it is written first and wiped on failure,
 * as GCM's decryption does. */
int gcmsiv_open(const gcmsiv_key *key, uint8_t *out, const uint8_t *in,
                size_t len, const uint8_t *aad, size_t aad_len,
                const uint8_t nonce[GCMSIV_NONCE_BYTES]);

#endif
