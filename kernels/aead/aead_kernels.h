/* ChaCha20-Poly1305 and XChaCha20-Poly1305 as registry kernels. */
#ifndef CYCLEBENCH_AEAD_KERNELS_H
#define CYCLEBENCH_AEAD_KERNELS_H

#include "../kernel.h"

extern const kernel kernel_chacha20_poly1305, kernel_xchacha20_poly1305;

#endif
