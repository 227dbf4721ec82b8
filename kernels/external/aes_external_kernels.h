/* OpenSSL's and libsodium's AES modes as registry kernels, each checked
 * against the kernel of ours it names as reference (see
 * external_kernels.h). */
#ifndef CYCLEBENCH_AES_EXTERNAL_KERNELS_H
#define CYCLEBENCH_AES_EXTERNAL_KERNELS_H

#include "../kernel.h"

extern const kernel kernel_openssl_aes128_ctr, kernel_openssl_aes256_ctr;
extern const kernel kernel_openssl_aes128_cbc;
extern const kernel kernel_openssl_aes128_xts, kernel_openssl_aes256_xts;
extern const kernel kernel_openssl_aes128_gcm, kernel_openssl_aes256_gcm;
extern const kernel kernel_sodium_aes256gcm;

#endif
