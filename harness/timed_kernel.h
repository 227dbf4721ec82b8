/* One kernel variant on buffers of its own, ready for the sampler: what
 * `bench` times, and what `--isa=auto` measures a part's rows with. */
#ifndef CYCLEBENCH_TIMED_KERNEL_H
#define CYCLEBENCH_TIMED_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "../kernels/kernel.h"
#include "paired.h"
#include "sampler.h"

typedef struct timed_kernel {
    const kernel *k;
    const isa_variant *v;
    size_t len; /* of one message */
    kernel_args a;
    uint8_t *in, *out;
} timed_kernel;

/* v of k on a batch of messages of len bytes under the checked args a:
 * buffers allocated and filled (a decryption gets the ciphertext of the
 * fill), the key set up (kernel_prepare), the vector registers' upper
 * halves cleared of whatever ran before. Returns 0, or -1 when out of
 * memory (t then holds nothing to close). */
int timed_kernel_open(timed_kernel *t, const kernel *k, const isa_variant *v,
                      const kernel_args *a, size_t len);
void timed_kernel_close(timed_kernel *t);

/* Calls back to back on t's buffers, timed with the fenced TSC less the
 * timer's overhead (timer_get_info first), and the TSC as the sampler's
 * clock. */
sampler_source timed_kernel_source(timed_kernel *t);

/* One side of a pair: v of k under the checked args a. */
typedef struct timed_row {
    const kernel *k;
    const isa_variant *v;
    const kernel_args *a;
} timed_row;

/* side[0] and side[1] on buffers of their own, messages of len bytes,
 * timed in turn under c (paired.h): what `run --vs` prints and bench's
 * pair rounds record. Returns 0, or -1 when out of memory. */
int timed_kernel_pair(const timed_row side[2], size_t len,
                      const paired_config *c, paired_result *r);

#endif
