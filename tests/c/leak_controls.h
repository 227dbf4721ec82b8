/* The tests' controls for the two leak detectors (`cyclebench leak`'s
 * t-test and `make ctgrind`): two functions that leak their secret on
 * purpose and one that does not. They live here, not in the registry. */
#ifndef CYCLEBENCH_LEAK_CONTROLS_H
#define CYCLEBENCH_LEAK_CONTROLS_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of secret each control takes. */
#define CONTROL_SECRET_BYTES 64

/* Compares secret with guess and returns at the first byte that differs:
 * its time says how long a prefix of the guess is right. */
int control_early_exit_equal(const uint8_t *secret, const uint8_t *guess);

/* Sums entries of a table at offsets read from the secret, as T-table AES
 * does. The table is 4 MiB, more than this machine's L2, so the caches
 * cannot hide which lines were read: a random secret misses where a fixed
 * one hits. (AES's own tables fit in L1, which is why a t-test can miss
 * them where tainting does not.) */
uint32_t control_table_lookup(const uint8_t *secret);

/* The same comparison as the first, in constant time: every byte is read
 * and the answer comes from arithmetic, not a branch. */
int control_constant_time_equal(const uint8_t *secret, const uint8_t *guess);

#endif
