/* bench's same-moment pair rounds: each kernel of ours against each peer
 * in the run (an external kernel computing the same thing), timed in turn
 * as `run --vs` times them (timed_kernel_pair), in rounds spread over the
 * sweep.
 *
 * A sweep's benchmarks are timed one after another, so a ratio of two of
 * them compares two stretches of a shared host, and kernels do not slow
 * alike (docs/method.md, "Ratios of the same moments"). A pair timed in
 * alternating blocks gives the ratio of the same moments; timed again at
 * the start, the middle and the end of the sweep, the pair also shows how
 * far the host's state moves that ratio, and whether it moves it across
 * 1.0, where which kernel wins depends on the moment. */
#ifndef CYCLEBENCH_PAIR_ROUNDS_H
#define CYCLEBENCH_PAIR_ROUNDS_H

#include <stddef.h>
#include <stdint.h>

#include "../kernels/kernel.h"
#include "paired.h"
#include "timed_kernel.h"

/* Before the first benchmark, in the middle and after the last: the
 * fewest that show a spread over the sweep's length. --pair-rounds
 * takes 0 (none) to PAIR_ROUNDS_MAX. */
#define PAIR_ROUNDS_DEFAULT 3
#define PAIR_ROUNDS_MAX 10
/* Each pair in a round: PAIRED_MIN_PAIRS pairs of blocks, the fewest that
 * give its median an interval (paired.h), 0.2 s. The full sweep's 36
 * pairs at two sizes then take about 15 s a round. */
#define PAIR_ROUND_SECONDS (PAIRED_MIN_PAIRS * 2 * SAMPLER_BLOCK_SECONDS)
/* The sizes a pair runs at: of the run's sizes, the nearest to each (on
 * a log scale): the summary's 576 bytes, and a bulk message. */
#define PAIR_ROUND_SIZES { 576, 16384 }
#define PAIR_ROUND_N_SIZES 2

typedef struct pair_entry {
    timed_row side[2]; /* ours, the peer */
    size_t len;
    /* per round: measured (1), or out of memory (0) */
    int measured[PAIR_ROUNDS_MAX];
    paired_result result[PAIR_ROUNDS_MAX];
    double seconds[PAIR_ROUNDS_MAX];
} pair_entry;

typedef struct pair_rounds {
    pair_entry *pairs;
    size_t n, capacity;
    unsigned rounds, done;
    size_t after[PAIR_ROUNDS_MAX]; /* benchmarks run before each round */
    uint64_t start; /* the TSC when the run began (pair_rounds_schedule) */
    double at[PAIR_ROUNDS_MAX]; /* each round's start, seconds after it */
} pair_rounds;

void pair_rounds_init(pair_rounds *p, unsigned rounds);
void pair_rounds_free(pair_rounds *p);

/* The kernel of ours an external kernel k is paired with: the end of its
 * reference chain (gcrypt's Camellia is checked against OpenSSL's, and we
 * have none), or NULL when that is no kernel of ours, or k is ours. */
const kernel *pair_rounds_ours(const kernel *k);

/* Of the n sizes, the nearest to each of PAIR_ROUND_SIZES, without
 * repeats, into out. Returns how many. */
size_t pair_rounds_sizes(const size_t *sizes, size_t n,
                         size_t out[PAIR_ROUND_N_SIZES]);

/* One pair, timed in every round. Returns 0, or -1 when out of memory. */
int pair_rounds_add(pair_rounds *p, const timed_row *ours,
                    const timed_row *peer, size_t len);

/* Seconds the rounds of pairs pairs take, warm-ups included: what the
 * sweep's budget sets aside for them (sampler_cap_for_run). */
double pair_rounds_seconds(unsigned rounds, size_t pairs);

/* Spread the rounds over a run of n benchmarks starting now: with two or
 * more, the first before the first benchmark and the last after the last,
 * the others evenly between; one alone in the middle. */
void pair_rounds_schedule(pair_rounds *p, size_t n_benchmarks);

/* Run each round due once `started` benchmarks have begun (all of them
 * once the run's n have), saying so on stderr. Returns the seconds they
 * took. */
double pair_rounds_run_due(pair_rounds *p, size_t started);

/* "3 rounds of 72 pairs ...": for the results' context. */
void pair_rounds_describe(const pair_rounds *p, char *buf, size_t len);

/* The rounds' results as a JSON array, one object per pair and round
 * (paired_print_json's members, with "round", "after_benchmarks" and
 * "at_seconds"), malloc'd; NULL when out of memory. */
char *pair_rounds_json(const pair_rounds *p);

#endif
