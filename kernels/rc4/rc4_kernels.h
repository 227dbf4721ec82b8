/* RC4 as a registry kernel; broken, for comparison only (see rc4.h). */
#ifndef CYCLEBENCH_RC4_KERNELS_H
#define CYCLEBENCH_RC4_KERNELS_H

#include "../kernel.h"

extern const kernel kernel_rc4;

#endif
