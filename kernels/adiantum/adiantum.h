/* Adiantum (Crowley and Biggers, "Adiantum: length-preserving encryption
 * for entry-level processors", ToSC 2018, no. 4): a tweakable,
 * length-preserving cipher for messages of at least 16 bytes, Linux's disk
 * and file mode (dm-crypt, fscrypt) for CPUs without AES instructions.
 *
 * The message is P = P_L | P_R, P_R its last 16 bytes. With K_S the
 * 32-byte key, everything else comes from XChaCha(K_S, nonce 1 | 0...):
 * K_E (32 bytes, AES-256), then the hash keys K_T and K_M (16 bytes each,
 * Poly1305's r) and K_N (NH's 1072 bytes). With
 *
 *   H(T, L) = Poly1305_KT(bin128(8 |L|) | T) + Poly1305_KM(NH(L))
 *
 * (both Poly1305 sums without their s, NH over each 1024-byte piece of L
 * zero-padded to whole 16-byte units, its 32-byte outputs concatenated),
 * and + and - on 128-bit little-endian integers:
 *
 *   P_M = P_R + H(T, P_L)          C_M = AES-256_KE(P_M)
 *   C_L = P_L ^ XChaCha(K_S, nonce C_M | 1 | 0...)
 *   C_R = C_M - H(T, C_L)          C = C_L | C_R
 *
 * and decryption the same steps backwards. XChaCha has 12 rounds in the
 * standard Adiantum, 20 or 8 in its variants. */
#ifndef CYCLEBENCH_ADIANTUM_H
#define CYCLEBENCH_ADIANTUM_H

#include <stddef.h>
#include <stdint.h>

#include "../aes/aes.h"
#include "../chacha/chacha.h"
#include "../nh/nh.h"
#include "../poly1305/poly1305.h"

#define ADIANTUM_KEY_BYTES 32
#define ADIANTUM_BLOCK_BYTES 16 /* P_R, the AES block */
#define ADIANTUM_MIN_BYTES ADIANTUM_BLOCK_BYTES

/* A variant: the ChaCha, NH and Poly1305 rows of one ISA level, and where
 * its AES-256 block comes from (adiantum.c's table says which is which);
 * at --isa=auto, the rows measured fastest (adiantum_compose). */
typedef struct adiantum_impl {
    isa_variant v;
    const char *chacha_isa;   /* row of chacha_impls */
    const char *nh_isa;       /* row of nh_impls */
    const char *poly1305_isa; /* row of poly1305_impls */
    /* The first row of aes_impls this CPU supports, from this one down
     * (NULL: from the top, the best AES this CPU has). */
    const char *aes_from;
} adiantum_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const adiantum_impl adiantum_impls[];

/* The primitive rows a variant runs on this CPU. */
typedef struct adiantum_parts {
    const chacha_impl *chacha;
    const nh_impl *nh;
    const poly1305_impl *poly1305;
    const aes_impl *aes;
} adiantum_parts;

adiantum_parts adiantum_parts_of(const adiantum_impl *impl);

/* Expanded key: the rows, then what derives from the key. */
typedef struct adiantum_key {
    const adiantum_impl *impl;
    adiantum_parts parts;
    unsigned rounds;
    uint8_t stream_key[CHACHA_KEY_BYTES];          /* K_S */
    aes_key block_key;                             /* K_E */
    /* K_T and K_M as Poly1305 keys: r, then an s of zero. */
    uint8_t tweak_hash_key[POLY1305_KEY_BYTES];
    uint8_t message_hash_key[POLY1305_KEY_BYTES];
    nh_key nh_key;                                 /* K_N */
} adiantum_key;

/* rounds: 8, 12 or 20 (XChaCha). */
void adiantum_setup(adiantum_key *k, const adiantum_impl *impl,
                    const uint8_t key[ADIANTUM_KEY_BYTES], unsigned rounds);

/* len >= ADIANTUM_MIN_BYTES; out may equal in; the tweak has any length
 * (tweak may be NULL when tweak_len is 0). */
void adiantum_encrypt(const adiantum_key *k, uint8_t *out, const uint8_t *in,
                      size_t len, const uint8_t *tweak, size_t tweak_len);
void adiantum_decrypt(const adiantum_key *k, uint8_t *out, const uint8_t *in,
                      size_t len, const uint8_t *tweak, size_t tweak_len);

#endif
