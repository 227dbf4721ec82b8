/* Tor's relay-cell crypto (AES-128-CTR and the running SHA-1 digest) as a
 * registry kernel: the baseline LIONESS is read against. */
#ifndef CYCLEBENCH_TOR_KERNELS_H
#define CYCLEBENCH_TOR_KERNELS_H

#include "../kernel.h"

extern const kernel kernel_tor_relay_cell;

#endif
