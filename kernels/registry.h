/* The kernel registry: every kernel, in the order `list` prints them
 * (ours by family, then other libraries': what users would pick instead).
 * A kernel is defined in its own folder as `const kernel kernel_<id>`;
 * adding one is one line here. */
#ifndef CYCLEBENCH_REGISTRY_H
#define CYCLEBENCH_REGISTRY_H

#include "kernel.h"

#define CYCLEBENCH_KERNELS(X)                                                \
    X(chacha20) X(chacha12) X(chacha8) X(chacha20_x2)                        \
    X(xchacha20) X(xchacha12) X(xchacha8)                                    \
    X(blake2b) X(blake2b_x4)                                                 \
    X(sha3_256) X(shake256) X(turboshake128) X(turboshake256)                \
    X(kt128) X(kt256)                                                        \
    X(lioness) X(lioness12) X(lioness8) X(lioness_x4)                        \
    X(aes128_ctr) X(aes256_ctr)                                              \
    X(aes128_cbc) X(aes256_cbc)                                              \
    X(aes128_xts) X(aes256_xts)                                              \
    X(aes128_gcm) X(aes256_gcm)                                              \
    X(aes128_xctr) X(aes256_xctr)                                            \
    X(aes128_hctr2) X(aes256_hctr2)                                          \
    X(aes128_gcm_siv) X(aes256_gcm_siv)                                      \
    X(adiantum) X(adiantum20) X(adiantum8) X(nh)                             \
    X(poly1305) X(chacha20_poly1305) X(xchacha20_poly1305)                   \
    X(polyval)                                                               \
    X(aegis128l) X(aegis256) X(aegis128x2) X(aegis128x4)                     \
    X(aegis256x2) X(aegis256x4)                                              \
    X(ascon_aead128) X(ascon_aead128_x8)                                     \
    X(rc4)                                                                   \
    X(tor1_relay_forward) X(tor1_relay_originate)                            \
    X(tor_cgo_relay_forward) X(tor_cgo_relay_backward)                       \
    X(tor_cgo_relay_originate) X(tor_cgo_relay_forward_x4)                   \
    X(tor_cgo_client_forward) X(tor_cgo_client_backward)                     \
    X(tor_cgo_client_originate)                                              \
    X(memcpy)                                                                \
                                                                             \
    X(openssl_chacha20) X(openssl_blake2b512)                                \
    X(openssl_sha3_256) X(openssl_shake256)                                  \
    X(openssl_aes128_ctr) X(openssl_aes256_ctr)                              \
    X(openssl_aes128_cbc)                                                    \
    X(openssl_aes128_xts) X(openssl_aes256_xts)                              \
    X(openssl_aes128_gcm) X(openssl_aes256_gcm)                              \
    X(openssl_chacha20_poly1305)                                             \
    X(openssl_rc4) X(openssl_des_ede3_cbc) X(openssl_bf_cbc)                 \
    X(openssl_camellia_128_cbc) X(openssl_camellia_256_cbc)                  \
    X(sodium_chacha20) X(sodium_blake2b) X(sodium_lioness)                   \
    X(sodium_aes256gcm) X(sodium_poly1305)                                   \
    X(sodium_chacha20poly1305_ietf) X(sodium_xchacha20poly1305)           \
    X(gcrypt_chacha20) X(gcrypt_blake2b512)                                  \
    X(gcrypt_sha3_256) X(gcrypt_shake256)                                    \
    X(gcrypt_aes128_ctr) X(gcrypt_aes256_ctr)                                \
    X(gcrypt_aes128_cbc) X(gcrypt_aes256_cbc)                                \
    X(gcrypt_aes128_xts) X(gcrypt_aes256_xts)                                \
    X(gcrypt_aes128_gcm) X(gcrypt_aes256_gcm)                                \
    X(gcrypt_aes128_gcm_siv) X(gcrypt_aes256_gcm_siv)                        \
    X(gcrypt_poly1305) X(gcrypt_chacha20_poly1305)                           \
    X(gcrypt_camellia_128_cbc) X(gcrypt_camellia_256_cbc)

#define CYCLEBENCH_DECLARE_KERNEL(id) extern const kernel kernel_##id;
CYCLEBENCH_KERNELS(CYCLEBENCH_DECLARE_KERNEL)
#undef CYCLEBENCH_DECLARE_KERNEL

/* NULL-terminated, in the order above. */
extern const kernel *const kernel_registry[];

/* Old names that kernel_find still accepts, each for one kernel above;
 * they have no row of their own. NULL-terminated. */
typedef struct kernel_alias {
    const char *alias;
    const kernel *k;
} kernel_alias;
extern const kernel_alias kernel_aliases[];
/* tor-relay-cell: the same object as kernel_tor1_relay_originate. */
extern const kernel kernel_tor_relay_cell;

#endif
