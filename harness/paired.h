/* Two kernels timed in alternating blocks, for a ratio of the same moments.
 *
 * On these shared hosts a kernel's speed wanders with the neighbours over
 * milliseconds to seconds, and not every kernel alike: one bound by the
 * core's throughput (many blocks in flight) loses more to a busy sibling
 * hyperthread than one bound by latency (one dependent chain). Two
 * benchmarks timed one after the other each meet a different stretch of
 * the host, so their ratio moves from run to run by more than either
 * kernel does. Here the two take turns in blocks of SAMPLER_BLOCK_SECONDS
 * (which goes first alternates, so that a drift within a pair favours
 * neither), and the ratio is taken per pair of neighbouring blocks: its
 * median, quartiles and the median's 95% interval say both what the ratio
 * is and how much of it belongs to the host's moments. */
#ifndef CYCLEBENCH_PAIRED_H
#define CYCLEBENCH_PAIRED_H

#include <stddef.h>

#include "timed_kernel.h"

typedef struct paired_result {
    size_t pairs;
    /* TSC ticks per byte: the median over blocks of each block's median */
    double a_per_byte, b_per_byte;
    /* a's block over b's block, per pair */
    double ratio_median, ratio_q1, ratio_q3, ratio_ci_low, ratio_ci_high;
    /* the least and greatest pair's ratio */
    double ratio_min, ratio_max;
} paired_result;

/* Times a and b (opened, each with its bytes per call) in turn for about
 * `seconds`, at least a few pairs whatever it says. Returns 0, or -1 when
 * out of memory. */
int paired_run(timed_kernel *a, double a_bytes, timed_kernel *b,
               double b_bytes, double seconds, paired_result *r);

#endif
