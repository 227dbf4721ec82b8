/* ChaCha stream cipher (8, 12 or 20 rounds), one implementation per ISA.
 *
 * Every variant works on the same 16-word state as the reference: constants,
 * 256-bit key, and a 16-byte "row 3" that the caller lays out. Row 3 starts
 * with a 64-bit little-endian block counter that the kernel increments per
 * 64-byte block, carrying from word 12 into word 13. That one rule serves
 * all layouts:
 *   DJB:     row3 = counter64 | nonce64
 *   IETF:    row3 = counter32 | nonce96    (caller guarantees no carry out
 *                                           of word 12, see chacha_ietf_xor)
 *   XChaCha: key = HChaCha(key, nonce[0:16]); then DJB-style with
 *            row3 = counter64 | nonce[16:24]
 */
#ifndef CYCLEBENCH_CHACHA_H
#define CYCLEBENCH_CHACHA_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu.h"

#define CHACHA_BLOCK_BYTES 64
#define CHACHA_KEY_BYTES 32
#define CHACHA_DJB_NONCE_BYTES 8
#define CHACHA_IETF_NONCE_BYTES 12
#define XCHACHA_NONCE_BYTES 24

/* out = in ^ keystream, for len bytes starting at the block counter in row3.
 * out may equal in; neither needs any alignment. rounds is 8, 12 or 20. */
typedef void chacha_stream_xor_fn(uint8_t *out, const uint8_t *in, size_t len,
                                  const uint8_t key[CHACHA_KEY_BYTES],
                                  const uint8_t row3[16], unsigned rounds);

/* HChaCha: the subkey derivation of XChaCha (words 0-3 and 12-15 of the
 * permuted state, no feed-forward). */
typedef void hchacha_fn(uint8_t out[CHACHA_KEY_BYTES],
                        const uint8_t key[CHACHA_KEY_BYTES],
                        const uint8_t in[16], unsigned rounds);

/* Two streams of one length at once, each under its own key and row 3:
 * out[j] = in[j] ^ keystream(key[j], row3[j]) (LIONESS's cells, two at a
 * time). out[j] may equal in[j]. */
typedef void chacha_stream_xor2_fn(uint8_t *const out[2],
                                   const uint8_t *const in[2], size_t len,
                                   const uint8_t *const key[2],
                                   const uint8_t *const row3[2],
                                   unsigned rounds);

typedef struct chacha_impl {
    isa_variant v;
    chacha_stream_xor_fn *stream_xor;
    hchacha_fn *hchacha;
    /* NULL where the ISA has no two-stream form: chacha_stream_xor2 then
     * runs the streams one after the other with stream_xor. */
    chacha_stream_xor2_fn *stream_xor2;
} chacha_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const chacha_impl chacha_impls[];

chacha_stream_xor_fn chacha_stream_xor_generic;
hchacha_fn hchacha_generic;
/* w, sixteen state words, after the first round's quarter-rounds on
 * columns 1-3 (words 1-3, 5-7, 9-11 and 13-15); column 0 as it was. For
 * the vector rows' batches (chacha_vertical.h), in portable C. */
void chacha_first_columns(uint32_t w[16]);
#if defined(__x86_64__)
chacha_stream_xor_fn chacha_stream_xor_sse2, chacha_stream_xor_ssse3,
    chacha_stream_xor_avx2, chacha_stream_xor_avx512;
chacha_stream_xor2_fn chacha_stream_xor2_avx512;
#elif defined(__aarch64__)
chacha_stream_xor_fn chacha_stream_xor_neon;
#endif

/* Layouts on top of an implementation. Arguments are checked by callers
 * (the CLI, the tests); these only lay out row 3 and call the kernel. */
void chacha_djb_xor(const chacha_impl *impl, uint8_t *out, const uint8_t *in,
                    size_t len, const uint8_t key[32], const uint8_t nonce[8],
                    uint64_t counter, unsigned rounds);

/* Two streams through impl's stream_xor2, or one by one without it. */
void chacha_stream_xor2(const chacha_impl *impl, uint8_t *const out[2],
                        const uint8_t *const in[2], size_t len,
                        const uint8_t *const key[2],
                        const uint8_t *const row3[2], unsigned rounds);
/* Two DJB streams from one counter, each with its key and nonce. */
void chacha_djb_xor2(const chacha_impl *impl, uint8_t *const out[2],
                     const uint8_t *const in[2], size_t len,
                     const uint8_t *const key[2],
                     const uint8_t *const nonce[2], uint64_t counter,
                     unsigned rounds);

/* The 32-bit counter must not wrap within the message:
 * counter + ceil(len / 64) <= 2^32 (chacha_ietf_fits checks it). */
void chacha_ietf_xor(const chacha_impl *impl, uint8_t *out, const uint8_t *in,
                     size_t len, const uint8_t key[32], const uint8_t nonce[12],
                     uint32_t counter, unsigned rounds);
int chacha_ietf_fits(uint64_t counter, size_t len);

void xchacha_xor(const chacha_impl *impl, uint8_t *out, const uint8_t *in,
                 size_t len, const uint8_t key[32], const uint8_t nonce[24],
                 uint64_t counter, unsigned rounds);

#endif
