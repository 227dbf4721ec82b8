/* BLAKE2b (RFC 7693): keyed or unkeyed, digest length 1-64 set in the
 * parameter block. The compression function comes per ISA; everything else
 * (parameter block, buffering, finalisation) is portable C in blake2b.c and
 * calls the compression function of the chosen implementation. */
#ifndef CYCLEBENCH_BLAKE2B_H
#define CYCLEBENCH_BLAKE2B_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu.h"

#define BLAKE2B_BLOCK_BYTES 128
#define BLAKE2B_OUT_BYTES 64
#define BLAKE2B_KEY_BYTES 64

/* Compress nblocks consecutive 128-byte blocks into h. Before each block the
 * 128-bit byte counter t is advanced by inc (128 for full blocks, the byte
 * count for the final one); f0 is the last-block flag (0 or ~0) applied to
 * every block of the call, so the final block is always compressed alone. */
typedef void blake2b_compress_fn(uint64_t h[8], uint64_t t[2],
                                 const uint8_t *blocks, size_t nblocks,
                                 uint64_t inc, uint64_t f0);

/* Four independent chains compressed in step (multi-buffer): h[i][j] is
 * state word i of chain j, chain j's blocks start at blocks[j]. The chains
 * share the counter and flag, so they hash messages of one length. */
typedef void blake2b_compress_x4_fn(uint64_t h[8][4], uint64_t t[2],
                                    const uint8_t *const blocks[4],
                                    size_t nblocks, uint64_t inc, uint64_t f0);

typedef struct blake2b_impl {
    isa_variant v;
    blake2b_compress_fn *compress;
    /* NULL where the ISA has no multi-buffer form: blake2b_x4 then hashes
     * the four messages one after another with compress. */
    blake2b_compress_x4_fn *compress_x4;
} blake2b_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const blake2b_impl blake2b_impls[];

blake2b_compress_fn blake2b_compress_generic;
#if defined(__x86_64__)
blake2b_compress_fn blake2b_compress_sse41, blake2b_compress_avx2,
    blake2b_compress_avx512;
blake2b_compress_x4_fn blake2b_compress_x4_avx2, blake2b_compress_x4_avx512;
#elif defined(__aarch64__)
#endif

typedef struct blake2b_state {
    uint64_t h[8];
    uint64_t t[2];
    uint8_t buf[BLAKE2B_BLOCK_BYTES];
    size_t buflen;
    size_t outlen;
    blake2b_compress_fn *compress;
} blake2b_state;

/* outlen 1..64, keylen 0..64 (key may be NULL when keylen is 0); checked by
 * callers. */
void blake2b_init(blake2b_state *s, const blake2b_impl *impl, size_t outlen,
                  const uint8_t *key, size_t keylen);
/* Compress the key block of a state just initialised with keylen > 0,
 * instead of waiting for the first message bytes. The result depends only
 * on the key, so a caller hashing many messages under one key can copy the
 * state afterwards and pay for the message blocks alone. Every message
 * hashed from such a state must be at least one byte long: an empty
 * message's last block is the key block itself. */
void blake2b_absorb_key_block(blake2b_state *s);
void blake2b_update(blake2b_state *s, const uint8_t *in, size_t len);
void blake2b_final(blake2b_state *s, uint8_t *out);
/* Four messages of one length len >= 1, message j hashed on from state
 * start[j] into out[j] (start[j]->outlen bytes). The states must have
 * nothing buffered and equal counters and digest lengths: fresh unkeyed
 * states, or keyed states after blake2b_absorb_key_block, as LIONESS keeps
 * them. The states are not changed. */
void blake2b_x4(const blake2b_impl *impl, const blake2b_state *const start[4],
                const uint8_t *const in[4], size_t len, uint8_t *const out[4]);
void blake2b(const blake2b_impl *impl, uint8_t *out, size_t outlen,
             const uint8_t *in, size_t inlen, const uint8_t *key,
             size_t keylen);

#endif
