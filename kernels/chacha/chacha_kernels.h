/* ChaCha and XChaCha as registry kernels (see kernels/kernel.h). */
#ifndef CYCLEBENCH_CHACHA_KERNELS_H
#define CYCLEBENCH_CHACHA_KERNELS_H

#include "../kernel.h"

extern const kernel kernel_chacha20, kernel_chacha12, kernel_chacha8;
extern const kernel kernel_xchacha20, kernel_xchacha12, kernel_xchacha8;

#endif
