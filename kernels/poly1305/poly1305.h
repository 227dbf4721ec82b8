/* Poly1305 (RFC 8439), one implementation per ISA.
 *
 * Every variant shares one state and its scalar form of the accumulator
 * (base 2^64, poly1305_scalar.h), so a message can be fed in pieces and the
 * ChaCha20-Poly1305 AEAD can MAC its ciphertext chunk by chunk. The vector
 * variants convert to 26-bit limbs on entry to their wide loop and back on
 * exit; a call with only a few blocks stays scalar, inside the same ISA's
 * object (and avx512 hands mid-length calls to the avx2 loop). */
#ifndef CYCLEBENCH_POLY1305_H
#define CYCLEBENCH_POLY1305_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "../cpu.h"

#define POLY1305_KEY_BYTES 32
#define POLY1305_TAG_BYTES 16
#define POLY1305_BLOCK_BYTES 16
/* Widest vector path: eight blocks, one per 64-bit lane of a zmm. */
#define POLY1305_MAX_LANES 8
/* Calls shorter than this stay scalar in every vector variant: the vector
 * set-up (the powers of r, once per key, and converting to and from vector
 * limbs) costs about as much as six scalar blocks: the measured crossover
 * (docs/results/, "the code's choices"). */
#define POLY1305_SCALAR_BELOW 384

typedef struct poly1305_state {
    uint64_t h[3]; /* accumulator: h[0] + h[1] 2^64 + h[2] 2^128, h[2] <= 4 */
    uint64_t r[2]; /* clamped r */
    uint64_t s[2]; /* the key's second half, added at the end */
    /* The vector paths' powers of r, in the layout of the path that last
     * needed them: powers_layout is its lane count times its limb width
     * in bits (4 * 26, 8 * 26, 8 * 44), 0 before any; a variant that hands
     * some calls to another's loop can meet two layouts in one state. Row
     * i is one vector of per-lane values; poly1305_vector.h and
     * poly1305_avx512ifma.c say which rows hold what. */
    int powers_layout;
    alignas(64) uint64_t powers[18][POLY1305_MAX_LANES];
} poly1305_state;

/* h = (h + m) r for each 16-byte block m of in, with 2^128 added to m when
 * padbit is 1 (every full block; 0 only for the padded last block of a bare
 * Poly1305 message). len is a multiple of 16. */
typedef void poly1305_blocks_fn(poly1305_state *st, const uint8_t *in,
                                size_t len, uint64_t padbit);

typedef struct poly1305_impl {
    isa_variant v;
    poly1305_blocks_fn *blocks;
} poly1305_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const poly1305_impl poly1305_impls[];

poly1305_blocks_fn poly1305_blocks_generic;
#if defined(__x86_64__)
poly1305_blocks_fn poly1305_blocks_avx2, poly1305_blocks_avx512,
    poly1305_blocks_avx512ifma;
#elif defined(__aarch64__)
#endif

/* Setup and finish are the same for every ISA: they touch the scalar
 * accumulator only. */
void poly1305_init(poly1305_state *st, const uint8_t key[POLY1305_KEY_BYTES]);
void poly1305_finish(poly1305_state *st, uint8_t tag[POLY1305_TAG_BYTES]);

/* The rest of a message, after whatever blocks st has absorbed: its full
 * blocks, then a last partial block padded with 0x01 and zeros. Only
 * poly1305_finish may follow. */
void poly1305_update_last(const poly1305_impl *impl, poly1305_state *st,
                          const uint8_t *in, size_t len);

/* The whole of a message, as poly1305_update_last absorbs it. */
void poly1305_auth(const poly1305_impl *impl, uint8_t tag[POLY1305_TAG_BYTES],
                   const uint8_t *in, size_t len,
                   const uint8_t key[POLY1305_KEY_BYTES]);

#endif
