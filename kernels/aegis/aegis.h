/* AEGIS-128L, AEGIS-256 and their parallel forms AEGIS-128X2/X4 and
 * AEGIS-256X2/X4 (draft-irtf-cfrg-aegis-aead): AEADs whose state is 8
 * (128 family) or 6 (256 family) AES blocks, updated by one AES round per
 * block and per input block. An X form of degree D runs D such states side
 * by side, each in one 128-bit lane, with a context byte pair in each lane
 * so that the lanes differ; D = 1 is the plain cipher.
 *
 * Every ISA file provides, per kernel it carries, one function that seals
 * and one that opens; both write the tag they compute. The tag comparison,
 * and zeroing the plaintext when it fails, live once in aegis.c.
 *
 * The generic variant is built on a table-driven AES round: its lookups are
 * indexed by state bytes, which derive from the key, so it is NOT
 * constant-time (see aes.h). The x86 variants and aarch64's ce are
 * constant-time, ssse3's software round included. */
#ifndef CYCLEBENCH_AEGIS_H
#define CYCLEBENCH_AEGIS_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu.h"

#define AEGIS_BLOCK_BYTES 16
#define AEGIS_MAX_LANES 4
#define AEGIS_TAG_BYTES 16     /* the default tag */
#define AEGIS_MAX_TAG_BYTES 32 /* the other one */

/* The draft's constants C0 and C1 (Fibonacci numbers mod 256). */
extern const uint8_t aegis_c0[AEGIS_BLOCK_BYTES], aegis_c1[AEGIS_BLOCK_BYTES];

/* What Init needs of the key alone, set once per key (aegis_setup): for the
 * 128 family k[0] and k[1] both hold the key, for the 256 family its two
 * halves; kc[0] = k[0] ^ C0 and kc[1] = k[1] ^ C1. */
typedef struct aegis_key {
    _Alignas(16) uint8_t k[2][AEGIS_BLOCK_BYTES];
    _Alignas(16) uint8_t kc[2][AEGIS_BLOCK_BYTES];
} aegis_key;

/* One message: ad_len bytes of associated data, then len bytes from in to
 * out (out may equal in), sealing or opening, and the tag_len-byte tag (16
 * or 32) that the state gives at the end into tag. The nonce is as long as
 * the key. */
typedef void aegis_fn(const aegis_key *key, const uint8_t *nonce,
                      const uint8_t *ad, size_t ad_len, uint8_t *out,
                      const uint8_t *in, size_t len, uint8_t *tag,
                      size_t tag_len);

typedef struct aegis_impl {
    isa_variant v;
    aegis_fn *encrypt, *decrypt;
} aegis_impl;

/* One table per kernel, best first, generic last, ended by a row with
 * v.isa == NULL. Each lists only the ISAs that suit that kernel. */
extern const aegis_impl aegis128l_impls[], aegis256_impls[],
    aegis128x2_impls[], aegis128x4_impls[], aegis256x2_impls[],
    aegis256x4_impls[];

#define AEGIS_DECLARE(kernel, isa)                                            \
    aegis_fn kernel##_encrypt_##isa, kernel##_decrypt_##isa

AEGIS_DECLARE(aegis128l, generic);
AEGIS_DECLARE(aegis256, generic);
AEGIS_DECLARE(aegis128x2, generic);
AEGIS_DECLARE(aegis128x4, generic);
AEGIS_DECLARE(aegis256x2, generic);
AEGIS_DECLARE(aegis256x4, generic);
#if defined(__x86_64__)
AEGIS_DECLARE(aegis128l, aesni);
AEGIS_DECLARE(aegis256, aesni);
AEGIS_DECLARE(aegis128l, ssse3);
AEGIS_DECLARE(aegis256, ssse3);
AEGIS_DECLARE(aegis128x2, vaes_avx2);
AEGIS_DECLARE(aegis256x2, vaes_avx2);
AEGIS_DECLARE(aegis128x4, vaes_avx512);
AEGIS_DECLARE(aegis256x4, vaes_avx512);
#elif defined(__aarch64__)
AEGIS_DECLARE(aegis128l, ce);
AEGIS_DECLARE(aegis256, ce);
AEGIS_DECLARE(aegis128l, neon);
AEGIS_DECLARE(aegis256, neon);
#endif

/* key_len is 16 (the 128 family) or 32 (the 256 family). */
void aegis_setup(aegis_key *k, const uint8_t *key, size_t key_len);

/* out = ciphertext (len bytes) || tag (tag_len bytes); out may equal in. */
void aegis_encrypt(const aegis_impl *impl, const aegis_key *k,
                   const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
                   uint8_t *out, const uint8_t *in, size_t len,
                   size_t tag_len);
/* in = ciphertext (len bytes) || tag (tag_len bytes). Returns 0 with the
 * plaintext in out (which may equal in), or -1 with out zeroed, so that no
 * unauthenticated plaintext is released. */
int aegis_decrypt(const aegis_impl *impl, const aegis_key *k,
                  const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
                  uint8_t *out, const uint8_t *in, size_t len,
                  size_t tag_len);

#endif
