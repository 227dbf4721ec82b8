/* Another library's registry kernel against its reference, through the
 * registry as kat and the benchmarks call them. The kernel_self_test gate
 * uses fixed arguments; this draws them at random from the reference's
 * spec (keys, IVs and nonces of every accepted length, counters that
 * carry, sectors, AAD, lengths around blocks), with misaligned and in-place
 * buffers, and decrypts the peer's own output back. */
#ifndef CYCLEBENCH_TEST_PEERS_H
#define CYCLEBENCH_TEST_PEERS_H

#include <stdint.h>

/* One case per named kernel: it is registered and usable here (a library
 * the install script provides is never skipped: unusable is a failure),
 * passes kernel_self_test, and agrees with its reference over trials
 * random messages drawn from seed. */
void check_peer(const char *name, int trials, uint64_t seed);

/* The same for libgcrypt's kernels; in a build without libgcrypt
 * (CB_HAVE_GCRYPT unset, the arm64 cross build) each must instead be
 * listed as unavailable, saying so. */
void check_gcrypt_peer(const char *name, int trials, uint64_t seed);

#endif
