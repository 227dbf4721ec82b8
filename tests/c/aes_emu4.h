#ifndef CYCLEBENCH_AES_EMU4_H
#define CYCLEBENCH_AES_EMU4_H

#include "../../kernels/aes/aes.h"

/* The vaes-avx512 kernels' logic (kernels/aes/aes_x86.h at four blocks per
 * vector) on a vector of four xmm lanes, testable wherever AES-NI is. */
extern const aes_impl aes_emu4_impl;

#endif
