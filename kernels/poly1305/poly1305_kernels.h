/* Poly1305 as a registry kernel (see kernels/kernel.h). */
#ifndef CYCLEBENCH_POLY1305_KERNELS_H
#define CYCLEBENCH_POLY1305_KERNELS_H

#include "../kernel.h"

extern const kernel kernel_poly1305;

#endif
