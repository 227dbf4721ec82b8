/* BLAKE2b as a registry kernel (see kernels/kernel.h). */
#ifndef CYCLEBENCH_BLAKE2B_KERNELS_H
#define CYCLEBENCH_BLAKE2B_KERNELS_H

#include "../kernel.h"

extern const kernel kernel_blake2b;

#endif
