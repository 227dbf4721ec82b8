/* AES (128/192/256-bit keys) per ISA, and the modes built on it: CTR
 * (SP 800-38A), CBC with ciphertext stealing CS2 (SP 800-38A addendum), XTS
 * (IEEE 1619), GCM (SP 800-38D) and XCTR (HCTR2's; kernels/hctr2 builds
 * HCTR2 on it).
 *
 * This is the public side: the implementation table and the modes. Every
 * ISA file provides the same operations on whole 16-byte blocks (the table
 * row's functions). What is the same for every ISA (ciphertext stealing,
 * GCM's J0, AAD, lengths block and tag) lives once in aes.c and calls them,
 * so an ISA file holds only the loops worth timing; what the ISA files
 * share (key expansion, the portable GHASH, XTS's multiply by x, byte
 * order) is aes_internal.h's. AES-192 is here for the Wycheproof vectors;
 * the registry kernels are AES-128 and AES-256.
 *
 * The generic variant is table-driven (the "software AES" of the Firebird 10 MB
 * comparison): its
 * lookups are indexed by key and data bytes, so it is NOT constant-time and
 * leaks the key through the cache to anyone sharing the machine. Its GHASH
 * is constant-time. The ssse3 variant is the constant-time software AES
 * (vector permute, as OpenSSL's vpaes), for CPUs without AES instructions;
 * it uses the generic, constant-time GHASH. The neon variant is the same
 * technique on aarch64's TBL (aes_neon.c), with the same GHASH. These and
 * the AES-NI variants are constant-time throughout, key expansion
 * included. */
#ifndef CYCLEBENCH_AES_H
#define CYCLEBENCH_AES_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu.h"
#include "../kernel.h"
#include "../polyval/polyval.h"

#define AES_BLOCK_BYTES 16
#define AES_MAX_ROUNDS 14
#define AES_GCM_TAG_BYTES 16
#define AES_GCM_IV_BYTES 12
/* Powers of H the x86 and ce GHASH keep: one per block of the widest
 * batch. */
#define GHASH_POWERS 32

/* Round keys in the form of the ISA that expanded them (aes_setup with its
 * row), which only that row's functions read. generic, ce and the x86 rows
 * keep FIPS-197's schedule in enc; ssse3 and neon keep it converted into
 * their tower basis (aes_ssse3.c, aes_neon.c). */
typedef struct aes_key {
    _Alignas(64) uint8_t enc[AES_MAX_ROUNDS + 1][16];
    /* From the equivalent inverse cipher's schedule (FIPS-197 5.3.5): enc
     * in reverse order, InvMixColumns applied to all but the outer two,
     * which is what AESDEC expects and what the generic decryption tables
     * use. */
    _Alignas(64) uint8_t dec[AES_MAX_ROUNDS + 1][16];
    unsigned rounds;
} aes_key;

/* GHASH key in the form of the ISA that set it up (ghash_init): generic
 * keeps H in htab[0]; x86 and ce keep byte-reflected powers of H times x^-1,
 * descending, htab[i] = H^(GHASH_POWERS - i), so that the powers for the
 * last n blocks of a batch are htab[GHASH_POWERS - n ...] in block order. */
typedef struct ghash_key {
    _Alignas(64) uint8_t htab[GHASH_POWERS][16];
    /* x86, ce: each power's two halves xored, in both halves (Karatsuba). */
    _Alignas(64) uint8_t hkara[GHASH_POWERS][16];
} ghash_key;

/* Round keys for a 16, 24 or 32-byte key (the caller checks the length):
 * k->enc and k->rounds, and with decrypt k->dec too; without, k->dec is
 * not written. */
typedef void aes_expand_fn(aes_key *k, const uint8_t *key, size_t key_len,
                           int decrypt);
/* ECB over nblocks whole blocks; out may equal in. */
typedef void aes_blocks_fn(const aes_key *k, uint8_t *out, const uint8_t *in,
                           size_t nblocks);
/* A chained mode over nblocks whole blocks; state is updated so that a
 * later call continues the message: CTR's counter block (a 128-bit
 * big-endian integer), CBC decryption's chaining value, XTS's current
 * (already encrypted) tweak. out may equal in; nblocks may be 0. */
typedef void aes_chain_fn(const aes_key *k, uint8_t state[16], uint8_t *out,
                          const uint8_t *in, size_t nblocks);
/* CBC encryption over nblocks whole blocks from iv, which is only read: a
 * later call continues from the last ciphertext block, in out. Were the
 * chaining value written back where the next message's IV is read, the
 * core could hold that read for the last store, which comes at the chain's
 * very end, and a message would no longer start while the one before
 * finishes (measured: docs/kernels.md, "The code's choices"). out may equal
 * in; nblocks may be 0. */
typedef void aes_cbc_encrypt_fn(const aes_key *k, const uint8_t iv[16],
                                uint8_t *out, const uint8_t *in,
                                size_t nblocks);
typedef void ghash_init_fn(ghash_key *g, const uint8_t h[16]);
/* y = (y ^ block) * H for each of nblocks blocks. */
typedef void ghash_update_fn(const ghash_key *g, uint8_t y[16],
                             const uint8_t *in, size_t nblocks);
/* GCM's CTR (32-bit big-endian increment of ctr's last word) and GHASH of
 * the ciphertext over nblocks whole blocks. out may equal in. */
typedef void aes_gcm_fn(const aes_key *k, const ghash_key *g, uint8_t ctr[16],
                        uint8_t y[16], uint8_t *out, const uint8_t *in,
                        size_t nblocks);

/* XCTR (HCTR2's counter mode) over nblocks whole blocks: block i of the
 * keystream (i = first, first + 1, ...) is E(nonce ^ i), i a 128-bit
 * little-endian integer. out may equal in; nblocks may be 0. */
typedef void aes_xctr_fn(const aes_key *k, const uint8_t nonce[16],
                         uint64_t first, uint8_t *out, const uint8_t *in,
                         size_t nblocks);

/* XCTR as above, with acc continued by POLYVAL (key pk, from an x86 or ce
 * POLYVAL row, which sets up every power) over the nblocks blocks it
 * writes, in one pass: HCTR2's second half. */
typedef void aes_xctr_polyval_fn(const aes_key *k, const polyval_key *pk,
                                 const uint8_t nonce[16], uint64_t first,
                                 uint8_t acc[16], uint8_t *out,
                                 const uint8_t *in, size_t nblocks);

typedef struct aes_impl {
    isa_variant v;
    aes_expand_fn *expand;
    aes_blocks_fn *encrypt, *decrypt;
    aes_chain_fn *ctr, *cbc_decrypt, *xts_encrypt, *xts_decrypt;
    aes_cbc_encrypt_fn *cbc_encrypt;
    ghash_init_fn *ghash_init;
    ghash_update_fn *ghash;
    aes_gcm_fn *gcm_encrypt, *gcm_decrypt;
    aes_xctr_fn *xctr;
    /* NULL where the row has no carry-less multiply (ssse3, generic). */
    aes_xctr_polyval_fn *xctr_polyval;
} aes_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const aes_impl aes_impls[];

/* Modes over any length. Arguments are checked by callers (the registry
 * kernels, the tests); these return -1 only for a key of the wrong size. */
int aes_setup(const aes_impl *impl, aes_key *k, const uint8_t *key,
              size_t key_len);
/* The same for a key that only encrypts (ECB's encrypt, CTR, XCTR, GCM):
 * the inverse cipher's schedule is neither made nor written. For keys
 * made per message (AES-GCM-SIV's), where that is time every message
 * pays; aes_wipe_encrypt wipes what it wrote. */
int aes_setup_encrypt(const aes_impl *impl, aes_key *k, const uint8_t *key,
                      size_t key_len);
void aes_wipe_encrypt(aes_key *k);

void aes_ctr_xor(const aes_impl *impl, const aes_key *k, uint8_t *out,
                 const uint8_t *in, size_t len, const uint8_t iv[16]);

/* XCTR from counter 1 (Crowley, Huckleberry and Biggers, "Length-preserving
 * encryption with HCTR2", 2021), any length. */
void aes_xctr_xor(const aes_impl *impl, const aes_key *k, uint8_t *out,
                  const uint8_t *in, size_t len, const uint8_t nonce[16]);
/* The same through impl->xctr_polyval (which must be there), acc
 * continued over the output's whole blocks; a partial last block is
 * written but left out of acc, for the caller to pad its way. */
void aes_xctr_polyval_xor(const aes_impl *impl, const aes_key *k,
                          const polyval_key *pk, uint8_t acc[16],
                          uint8_t *out, const uint8_t *in, size_t len,
                          const uint8_t nonce[16]);

/* The constructions built on AES and POLYVAL (HCTR2, AES-GCM-SIV) pair an
 * AES row with the POLYVAL row of one level, each row needing what both
 * need: their tables' rows, in the order and form of
 * { isa_variant, AES row, POLYVAL row }. */
#if defined(__x86_64__)
#define AES_POLYVAL_ARCH_PAIRS                                                \
    { { "vaes-avx512", CPU_VAES | CPU_VPCLMULQDQ | CPU_AVX512 | CPU_AESNI |   \
                           CPU_PCLMUL | CPU_SSE41 },                          \
      "vaes-avx512", "vpclmul-avx512" },                                      \
    { { "vaes-avx2", CPU_VAES | CPU_VPCLMULQDQ | CPU_AVX2 | CPU_AESNI |       \
                         CPU_PCLMUL | CPU_SSE41 },                            \
      "vaes-avx2", "vpclmul-avx2" },                                          \
    { { "aesni", CPU_AESNI | CPU_PCLMUL | CPU_SSE41 }, "aesni", "pclmul" },    \
    { { "ssse3", CPU_SSSE3 }, "ssse3", "generic" },
#elif defined(__aarch64__)
#define AES_POLYVAL_ARCH_PAIRS                                                \
    { { "ce", CPU_ARM_AES | CPU_ARM_PMULL }, "ce", "ce" },                     \
    { { "neon", CPU_NEON }, "neon", "generic" },
#endif
#define AES_POLYVAL_PAIRS                                                     \
    AES_POLYVAL_ARCH_PAIRS                                                    \
    { { "generic", 0 }, "generic", "generic" },                               \
    { { NULL, 0 }, NULL, NULL },

/* Whether the AES row's XCTR-with-POLYVAL pass (xctr_polyval) stands in
 * for POLYVAL row polyval_isa: it multiplies with its own level's POLYVAL
 * code, so only where AES_POLYVAL_PAIRS pairs the two (an auto row may pair
 * aesni's AES with vpclmul-avx512's POLYVAL: that one runs the passes
 * apart, so as to run the POLYVAL row that was chosen). */
int aes_polyval_fused(const char *aes_isa, const char *polyval_isa);

/* len >= 16: a multiple of 16 is plain CBC, anything else CBC-CS2. */
void aes_cbc_cs2_encrypt(const aes_impl *impl, const aes_key *k, uint8_t *out,
                         const uint8_t *in, size_t len, const uint8_t iv[16]);
void aes_cbc_cs2_decrypt(const aes_impl *impl, const aes_key *k, uint8_t *out,
                         const uint8_t *in, size_t len, const uint8_t iv[16]);

typedef struct aes_xts_key {
    aes_key data, tweak;
} aes_xts_key;

/* key is the data key then the tweak key: 32, 48 or 64 bytes. */
int aes_xts_setup(const aes_impl *impl, aes_xts_key *xk, const uint8_t *key,
                  size_t key_len);
/* len >= 16; a partial last block is handled by ciphertext stealing. */
void aes_xts_encrypt(const aes_impl *impl, const aes_xts_key *xk,
                     uint8_t *out, const uint8_t *in, size_t len,
                     const uint8_t tweak[16]);
void aes_xts_decrypt(const aes_impl *impl, const aes_xts_key *xk,
                     uint8_t *out, const uint8_t *in, size_t len,
                     const uint8_t tweak[16]);
/* The tweak of data unit (sector) n: n little-endian in 16 bytes. */
void aes_xts_sector_tweak(uint8_t tweak[16], uint64_t sector);

typedef struct aes_gcm_key {
    aes_key aes;
    ghash_key ghash;
} aes_gcm_key;

int aes_gcm_setup(const aes_impl *impl, aes_gcm_key *gk, const uint8_t *key,
                  size_t key_len);
/* Any IV length of at least one byte (12 is the fast and usual one);
 * len <= AES_GCM_MAX_BYTES. out receives len bytes, tag 16. */
#define AES_GCM_MAX_BYTES ((((uint64_t)1) << 36) - 32)
void aes_gcm_encrypt(const aes_impl *impl, const aes_gcm_key *gk,
                     uint8_t *out, uint8_t tag[16], const uint8_t *in,
                     size_t len, const uint8_t *iv, size_t iv_len,
                     const uint8_t *aad, size_t aad_len);
/* Returns 0, or -1 when the tag does not verify; then out is zeroed, so no
 * unauthenticated plaintext is released. */
int aes_gcm_decrypt(const aes_impl *impl, const aes_gcm_key *gk, uint8_t *out,
                    const uint8_t *in, size_t len, const uint8_t tag[16],
                    const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                    size_t aad_len);

/* One AES encryption round as AESENC computes it (SubBytes, ShiftRows,
 * MixColumns, then rk added), for primitives built on the round (AEGIS):
 * the generic row's, from its T-tables, so NOT constant-time. out may
 * equal in. The constant-time ones are aes_round_ssse3 (aes_round_ssse3.h,
 * for files compiled with SSSE3) and aes_round_neon (aes_round_neon.h, on
 * aarch64). */
void aes_round_generic(uint8_t out[16], const uint8_t in[16],
                       const uint8_t rk[16]);

/* For prepare hooks of kernels built on AES: note k's round keys (both
 * directions) as derived from the key, for `make ctgrind`. */
void aes_add_secret_key(kernel_args *a, const aes_key *key);

#endif
