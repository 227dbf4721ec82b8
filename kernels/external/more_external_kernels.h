/* More of other libraries' kernels: the AEADs, Poly1305 and RC4 measured
 * against ours (each names its reference, as in external_kernels.h), and the
 * seeds' other disk ciphers through OpenSSL, which have no kernel of ours.
 *
 * Those four (openssl:des-ede3-cbc, bf-cbc, camellia-128-cbc,
 * camellia-256-cbc) have no reference: their self-test is a published known
 * answer per cipher, and the comparison kernel_self_test then makes is of
 * the kernel with itself, which only shows that it is deterministic. They
 * take --key, --iv and --decrypt, CBC without padding over whole blocks. */
#ifndef CYCLEBENCH_MORE_EXTERNAL_KERNELS_H
#define CYCLEBENCH_MORE_EXTERNAL_KERNELS_H

#include "../kernel.h"

extern const kernel kernel_openssl_chacha20_poly1305, kernel_openssl_rc4;
extern const kernel kernel_openssl_des_ede3_cbc, kernel_openssl_bf_cbc;
extern const kernel kernel_openssl_camellia_128_cbc,
    kernel_openssl_camellia_256_cbc;
extern const kernel kernel_sodium_chacha20poly1305_ietf,
    kernel_sodium_xchacha20poly1305, kernel_sodium_poly1305;

#endif
