/* NH, the ε-almost-universal hash of UMAC (Black et al.), in the form
 * Adiantum uses (Crowley and Biggers, ToSC 2018, section 6.3): 32-bit
 * words, stride 2, four passes, over messages of at most 1024 bytes.
 *
 * A message is a whole number of 16-byte units m = (m0, m1, m2, m3),
 * little-endian words; unit u meets key words k[4u ...]. Pass p (0..3)
 * reads the key from word 4p on, so the four passes share one key of
 * 1024 + 3 * 16 bytes, each 16 bytes further along:
 *
 *   sum_p = sum over units u of (m0 + k[4(u+p)])     (m2 + k[4(u+p) + 2])
 *                             + (m1 + k[4(u+p) + 1]) (m3 + k[4(u+p) + 3])
 *
 * with each addition mod 2^32, each product 32x32 -> 64 bits, the sums mod
 * 2^64; the hash is the four sums, little-endian: 32 bytes. */
#ifndef CYCLEBENCH_NH_H
#define CYCLEBENCH_NH_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu.h"

#define NH_UNIT_BYTES 16
#define NH_MESSAGE_BYTES 1024
#define NH_PASSES 4
#define NH_HASH_BYTES (8 * NH_PASSES)
#define NH_KEY_BYTES (NH_MESSAGE_BYTES + (NH_PASSES - 1) * NH_UNIT_BYTES)
#define NH_KEY_WORDS (NH_KEY_BYTES / 4)

/* The key words in pairing order: each unit's four as k0, k2, k1, k3, so
 * that a unit's words (loaded and shuffled once to m0, m2, m1, m3) plus
 * its key words are the two products' factors side by side in each 64-bit
 * lane, whichever pass reads them. */
typedef struct nh_key {
    _Alignas(64) uint32_t w[NH_KEY_WORDS];
} nh_key;

/* sums[p] += pass p over len bytes at msg (a multiple of 16, at most
 * NH_MESSAGE_BYTES), whose first unit meets the key at key (words of an
 * nh_key, 4 per unit). A variant reads no key word past the last one its
 * passes use. */
typedef void nh_sums_fn(const uint32_t *key, const uint8_t *msg, size_t len,
                        uint64_t sums[NH_PASSES]);

typedef struct nh_impl {
    isa_variant v;
    nh_sums_fn *sums;
} nh_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const nh_impl nh_impls[];

nh_sums_fn nh_sums_generic;
#if defined(__x86_64__)
nh_sums_fn nh_sums_sse2, nh_sums_avx2, nh_sums_avx512;
#elif defined(__aarch64__)
#endif

/* The key from NH_KEY_BYTES bytes (its words little-endian). */
void nh_setup(nh_key *k, const uint8_t bytes[NH_KEY_BYTES]);

/* The NH hash of a message of 1 to NH_MESSAGE_BYTES bytes, zero-padded to
 * whole units (as Adiantum pads it). */
void nh_hash(const nh_impl *impl, const nh_key *k, const uint8_t *msg,
             size_t len, uint8_t hash[NH_HASH_BYTES]);

#endif
