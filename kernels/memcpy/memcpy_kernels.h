/* memcpy as a registry kernel: the memory-bandwidth line that the ciphers
 * are read against. */
#ifndef CYCLEBENCH_MEMCPY_KERNELS_H
#define CYCLEBENCH_MEMCPY_KERNELS_H

#include "../kernel.h"

extern const kernel kernel_memcpy;

#endif
