/* Keccak-p[1600] (FIPS 202; its 12-round form from RFC 9861) and the
 * sponges over it: SHA3-256, SHAKE256, TurboSHAKE128 and TurboSHAKE256,
 * and KangarooTwelve's tree over TurboSHAKE (KT128, KT256). The
 * permutation comes per ISA (keccak_impls, best first); the sponge and the
 * tree are portable C in keccak.c and call the chosen row's permutation,
 * and its multi-state form for KangarooTwelve's leaves where it has one.
 * The registry kernels over them are in keccak_kernels.c. */
#ifndef CYCLEBENCH_KECCAK_H
#define CYCLEBENCH_KECCAK_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu.h"

#define KECCAK_LANES 25
#define KECCAK_STATE_BYTES 200
/* SHA3-256, SHAKE256 and TurboSHAKE256 absorb 136 bytes a permutation,
 * TurboSHAKE128 168. */
#define KECCAK_RATE_256 136
#define KECCAK_RATE_128 168
#define KECCAK_ROUNDS 24
#define TURBOSHAKE_ROUNDS 12

/* The last `rounds` rounds of Keccak-f[1600] on the 25 lanes (lane x + 5y,
 * little-endian): 24 is Keccak-f itself, 12 TurboSHAKE's. */
typedef void keccak_permute_fn(uint64_t a[KECCAK_LANES], unsigned rounds);

/* `blocks` whole blocks of `rate` bytes at in, each XORed into the lanes
 * and followed by the permutation: for a row that keeps the state in
 * registers across blocks rather than loading and storing it around each
 * permutation. */
typedef void keccak_absorb_blocks_fn(uint64_t a[KECCAK_LANES],
                                     const uint8_t *in, size_t blocks,
                                     size_t rate, unsigned rounds);

/* KangarooTwelve's leaf step on `lanes` whole 8192-byte leaves side by
 * side, at in, in + 8192, ...: each one's chaining value (32 bytes for
 * security 128, 64 for 256), one after another at cv. */
#define KECCAK_MAX_LANES 8

typedef void keccak_leaves_fn(const uint8_t *in, unsigned security,
                              uint8_t *cv);

typedef struct keccak_impl {
    isa_variant v;
    keccak_permute_fn *permute;
    /* NULL where the row has none (the sponge then XORs lanes in C and
     * calls permute block by block). */
    keccak_absorb_blocks_fn *absorb_blocks;
    /* The multi-state form for KangarooTwelve's leaves, `lanes` at a time;
     * NULL where the row has none (leaves go one by one through permute). */
    keccak_leaves_fn *leaves;
    unsigned lanes;
} keccak_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const keccak_impl keccak_impls[];

keccak_permute_fn keccak_permute_generic;
#if defined(__x86_64__)
keccak_permute_fn keccak_permute_avx512;
keccak_absorb_blocks_fn keccak_absorb_blocks_avx512;
/* The avx512 row's two one-state layouts, which its functions above choose
 * between by the core (keccak_avx512.c): five zmm rows, and one lane per
 * xmm register. Each is tested on every AVX-512 CPU. */
keccak_permute_fn keccak_permute_avx512_rows, keccak_permute_avx512_lanes;
keccak_absorb_blocks_fn keccak_absorb_blocks_avx512_rows,
    keccak_absorb_blocks_avx512_lanes;
keccak_leaves_fn keccak_kt_leaves_avx512, keccak_kt_leaves_avx2;
#elif defined(__aarch64__)
keccak_permute_fn keccak_permute_sha3;
keccak_leaves_fn keccak_kt_leaves_sha3, keccak_kt_leaves_neon;
#endif

/* Iota's round constants, rounds 0-23: every row's. */
extern const uint64_t keccak_round_constants[24];

typedef struct keccak_sponge {
    uint64_t a[KECCAK_LANES];
    size_t rate; /* bytes absorbed or squeezed a permutation */
    size_t pos;  /* the next byte of the rate */
    unsigned rounds;
    keccak_permute_fn *permute;
    keccak_absorb_blocks_fn *absorb_blocks;
} keccak_sponge;

void keccak_init(keccak_sponge *s, const keccak_impl *impl, size_t rate,
                 unsigned rounds);
void keccak_absorb(keccak_sponge *s, const uint8_t *in, size_t len);
/* Ends the input: the domain byte (SHA3 0x06, SHAKE 0x1F, TurboSHAKE's D)
 * after it, 0x80 in the rate's last byte, and the permutation. */
void keccak_finish(keccak_sponge *s, uint8_t domain);
void keccak_squeeze(keccak_sponge *s, uint8_t *out, size_t len);

void sha3_256(const keccak_impl *impl, uint8_t out[32], const uint8_t *in,
              size_t len);
void shake256(const keccak_impl *impl, uint8_t *out, size_t out_len,
              const uint8_t *in, size_t len);
/* TurboSHAKE128 (security 128) or TurboSHAKE256 (256), domain byte D in
 * 0x01-0x7F (RFC 9861, Section 2.2). */
void turboshake(const keccak_impl *impl, unsigned security, uint8_t domain,
                uint8_t *out, size_t out_len, const uint8_t *in, size_t len);

/* KangarooTwelve's leaves: 8192 bytes each (RFC 9861, Section 3). */
#define KT_LEAF_BYTES 8192

/* KT128 (security 128) or KT256 (256) of the message in[0..len) with the
 * customization string custom[0..custom_len) (RFC 9861, Section 3.2). */
void kangarootwelve(const keccak_impl *impl, unsigned security, uint8_t *out,
                    size_t out_len, const uint8_t *in, size_t len,
                    const uint8_t *custom, size_t custom_len);

#endif
