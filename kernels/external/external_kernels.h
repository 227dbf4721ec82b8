/* Other libraries' implementations of our kernels, which is what users would
 * pick instead of ours: timed by the same code path and self-tested against
 * the kernel of ours named in .reference. Each has one table row, isa
 * "external", and takes the arguments its reference takes, except where the
 * library offers less (openssl:blake2b512 is unkeyed with a 64-byte
 * digest). */
#ifndef CYCLEBENCH_EXTERNAL_KERNELS_H
#define CYCLEBENCH_EXTERNAL_KERNELS_H

#include "../kernel.h"

extern const kernel kernel_openssl_chacha20, kernel_openssl_blake2b512;
extern const kernel kernel_sodium_chacha20, kernel_sodium_blake2b;
extern const kernel kernel_sodium_lioness;

#endif
