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
#include <stdint.h>
#include <stdio.h>

#include "sampler.h"

/* How long batches, blocks and the run are, in the sources' ticks. */
typedef struct paired_config {
    uint64_t batch_ticks;  /* a batch lasts at least this */
    uint64_t block_ticks;  /* each side's turn */
    uint64_t warmup_ticks; /* each side's, before its first block */
    uint64_t run_ticks;    /* pairs until this has passed */
} paired_config;

/* The harness's: SAMPLER_BATCH_SECONDS, SAMPLER_BLOCK_SECONDS and
 * SAMPLER_WARMUP_SECONDS at tsc_hz, for about `seconds`. */
paired_config paired_default_config(double tsc_hz, double seconds);

typedef struct paired_result {
    size_t pairs;
    /* the sources' ticks (the harness's: TSC ticks, not core cycles) per
     * byte: the median over blocks of each block's median */
    double a_per_byte, b_per_byte;
    /* a's block over b's block, per pair */
    double ratio_median, ratio_q1, ratio_q3, ratio_ci_low, ratio_ci_high;
    /* the least and greatest pair's ratio */
    double ratio_min, ratio_max;
} paired_result;

/* Times src[0] and src[1] (the harness's: timed_kernel_source, tests' a
 * model), whose calls process bytes[0] and bytes[1], in turn for
 * c->run_ticks of src[0]'s clock and at least PAIRED_MIN_PAIRS pairs.
 * Returns 0, or -1 when out of memory. */
#define PAIRED_MIN_PAIRS 10
int paired_run(const paired_config *c, const sampler_source src[2],
               const double bytes[2], paired_result *r);

/* What the two sides are, by name. */
typedef struct paired_names {
    const char *kernel, *isa, *vs, *vs_isa;
} paired_names;

/* r as the members of a JSON object, without its braces, each after the
 * first preceded by sep (", " for one line): kernel, isa, vs, vs_isa,
 * size, seconds, pairs, tsc_cycles_per_byte, vs_tsc_cycles_per_byte and
 * ratio {median, q1, q3, ci95_low, ci95_high, min, max}. `run --vs`'s
 * object and each of bench's pair rounds are these, so tools read both
 * alike. */
void paired_print_json(FILE *f, const paired_names *names, size_t size,
                       double seconds, const paired_result *r,
                       const char *sep);

#endif
