/* LIONESS with ChaCha20, 12 and 8 as registry kernels, and ChaCha20
 * LIONESS four cells at a time. */
#ifndef CYCLEBENCH_LIONESS_KERNELS_H
#define CYCLEBENCH_LIONESS_KERNELS_H

#include "../kernel.h"

extern const kernel kernel_lioness, kernel_lioness12, kernel_lioness8,
    kernel_lioness_x4;

#endif
