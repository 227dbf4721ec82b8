/* LIONESS (Anderson and Biham), as measured in the 2015 tor-dev post and
 * compatible with the 2016 key layout of the widely used C implementation:
 *
 *   key   = K1(40) | K2(64) | K3(40) | K4(64)          208 bytes
 *   block = L(40) | R(>= 1)
 *   encrypt: R ^= S(L^K1); L ^= H(K2,R); R ^= S(L^K3); L ^= H(K4,R)
 *
 * S(T) is the ChaCha keystream, DJB layout, block counter 0, nonce T[0:8],
 * key T[8:40]; H(K,R) is BLAKE2b keyed with the 64-byte K, 40-byte digest
 * (set in the parameter block). A LIONESS variant is a pair of ChaCha and
 * BLAKE2b implementations at one ISA level. */
#ifndef CYCLEBENCH_LIONESS_H
#define CYCLEBENCH_LIONESS_H

#include <stddef.h>
#include <stdint.h>

#include "../blake2b/blake2b.h"
#include "../chacha/chacha.h"

#define LIONESS_KEY_BYTES 208
#define LIONESS_L_BYTES 40
#define LIONESS_MIN_BLOCK (LIONESS_L_BYTES + 1)
#define LIONESS_HASH_KEY_BYTES 64

typedef struct lioness_impl {
    isa_variant v;
    const char *chacha_isa;  /* row of chacha_impls */
    const char *blake2b_isa; /* row of blake2b_impls */
} lioness_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const lioness_impl lioness_impls[];

/* The primitive rows a LIONESS row names. */
const chacha_impl *lioness_chacha(const lioness_impl *impl);
const blake2b_impl *lioness_blake2b(const lioness_impl *impl);

/* LIONESS runs two passes of S then H: pass 0 with K1, K2, pass 1 with
 * K3, K4 (decryption runs them backwards). */
#define LIONESS_PASSES 2

/* Expanded key. The keyed BLAKE2b states have already compressed their key
 * block: it depends only on K2 and K4, so each H costs only R's blocks. */
typedef struct lioness_key {
    const chacha_impl *chacha;
    const blake2b_impl *hash;
    unsigned rounds;
    uint8_t stream_key[LIONESS_PASSES][LIONESS_L_BYTES]; /* K1, K3 */
    blake2b_state hash_state[LIONESS_PASSES];           /* from K2, K4 */
} lioness_key;

/* Where the cycles of one block go, in timer ticks, for the profile's stage
 * breakdown (perf's split can be checked against it). */
enum lioness_stage {
    LIONESS_STAGE_S1,   /* R ^= S(L ^ K1), including forming L ^ K1 */
    LIONESS_STAGE_H1,   /* L ^= H(K2, R) */
    LIONESS_STAGE_S2,   /* R ^= S(L ^ K3) */
    LIONESS_STAGE_H2,   /* L ^= H(K4, R) */
    LIONESS_STAGE_COPY, /* copying the block to the output */
    LIONESS_STAGES
};
extern const char *const lioness_stage_names[LIONESS_STAGES];

/* rounds: 8, 12 or 20 (ChaCha). */
void lioness_setup(lioness_key *k, const lioness_impl *impl,
                   const uint8_t key[LIONESS_KEY_BYTES], unsigned rounds);

/* len >= LIONESS_MIN_BLOCK; out may equal in. */
void lioness_encrypt(const lioness_key *k, uint8_t *out, const uint8_t *in,
                     size_t len);
void lioness_decrypt(const lioness_key *k, uint8_t *out, const uint8_t *in,
                     size_t len);

/* lioness_encrypt that adds each stage's timer ticks into ticks[]. */
void lioness_encrypt_staged(const lioness_key *k, uint8_t *out,
                            const uint8_t *in, size_t len,
                            uint64_t ticks[LIONESS_STAGES]);

/* Four cells of len >= LIONESS_MIN_BLOCK bytes, in place, cell j under key
 * k[j] (all four set up from one row with one round count). The four H
 * passes of each step run together in the lanes of blake2b_x4, which is
 * where a relay with several cells to hand gains: one cell's BLAKE2b blocks
 * are a chain of dependent steps, four cells' are independent. The S
 * passes run two cells at a time through chacha_djb_xor2 (on avx512 both
 * cells' keystream blocks in one zmm pass). ticks, when
 * not NULL, gets each stage's timer ticks added, as in the staged call above
 * (no copy stage: the cells are already in place). */
#define LIONESS_X4 4
void lioness_encrypt_x4(const lioness_key *const k[LIONESS_X4],
                        uint8_t *const cell[LIONESS_X4], size_t len,
                        uint64_t *ticks);
void lioness_decrypt_x4(const lioness_key *const k[LIONESS_X4],
                        uint8_t *const cell[LIONESS_X4], size_t len);

#endif
