/* AES modes as registry kernels (see kernels/kernel.h). */
#ifndef CYCLEBENCH_AES_KERNELS_H
#define CYCLEBENCH_AES_KERNELS_H

#include "../kernel.h"
#include "aes.h"

extern const kernel kernel_aes128_ctr, kernel_aes256_ctr;
extern const kernel kernel_aes128_cbc, kernel_aes256_cbc;
extern const kernel kernel_aes128_xts, kernel_aes256_xts;
extern const kernel kernel_aes128_gcm, kernel_aes256_gcm;

/* For prepare hooks holding an aes_key: note its round keys as secret. */
void aes_add_secret_key(kernel_args *a, const aes_key *key);

#endif
