/* HCTR2 (Crowley, Huckleberry and Biggers, "Length-preserving encryption
 * with HCTR2", 2021): a tweakable wide-block cipher over any message of at
 * least 16 bytes, Linux's fscrypt mode for filenames. Changing one bit of
 * the message or the tweak changes the whole output, where XTS reveals
 * which 16-byte block changed.
 *
 * Built from the AES table (one block of AES and XCTR, kernels/aes) and
 * the POLYVAL table (kernels/polyval), with no code of its own per ISA: a
 * row pairs an AES row with a POLYVAL row of the same level (at
 * --isa=auto, the XCTR and POLYVAL rows measured fastest). The ssse3
 * row is the constant-time software one (AES by vector permute, POLYVAL
 * generic); generic pairs the T-table AES, which leaks, with POLYVAL
 * generic. */
#ifndef CYCLEBENCH_HCTR2_H
#define CYCLEBENCH_HCTR2_H

#include <stddef.h>
#include <stdint.h>

#include "../aes/aes.h"
#include "../polyval/polyval.h"

#define HCTR2_BLOCK_BYTES 16

typedef struct hctr2_impl {
    isa_variant v;
    const char *aes_isa;     /* row of aes_impls */
    const char *polyval_isa; /* row of polyval_impls */
} hctr2_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const hctr2_impl hctr2_impls[];

/* Whether impl runs XCTR and POLYVAL in one pass (the AES row's
 * xctr_polyval): only where a row of hctr2_impls pairs the same AES and
 * POLYVAL rows, one level's, and that AES row has the pass. */
int hctr2_fused(const hctr2_impl *impl);

/* A key for one row: the AES key, POLYVAL's key h = E(0) and L = E(1)
 * (0 and 1 as 128-bit little-endian integers). */
typedef struct hctr2_key {
    aes_key aes;
    polyval_key h;
    _Alignas(16) uint8_t l[HCTR2_BLOCK_BYTES];
    const aes_impl *aes_impl;
    const polyval_impl *polyval_impl;
    int fused; /* hctr2_fused(the row) */
} hctr2_key;

/* key_len is 16 or 32 (AES-128 or AES-256); returns -1 otherwise. */
int hctr2_setup(const hctr2_impl *impl, hctr2_key *key, const uint8_t *k,
                size_t key_len);

/* len >= 16, out receives len bytes and may equal in; the tweak has any
 * length (tweak may be NULL when tweak_len is 0). */
void hctr2_encrypt(const hctr2_key *key, uint8_t *out, const uint8_t *in,
                   size_t len, const uint8_t *tweak, size_t tweak_len);
void hctr2_decrypt(const hctr2_key *key, uint8_t *out, const uint8_t *in,
                   size_t len, const uint8_t *tweak, size_t tweak_len);

#endif
