/* The sampler: how one benchmark turns many short timed batches of kernel
 * calls into a median and its quartiles, and when it has enough of them.
 *
 * One long timed loop (Google Benchmark's way) folds every interrupt,
 * frequency step and neighbour's burst into its one figure. Many batches of
 * a few microseconds each, as SUPERCOP and libcpucycles time, leave those in
 * a few outlying samples, and the median of the rest is steady in
 * milliseconds. A batch is long enough that the TSC's 26-tick steps on
 * these VMs vanish in it, short enough that a scheduler tick rarely lands
 * in it.
 *
 * Sampling stops when the 95% confidence interval of the median, taken over
 * the medians of 10 ms blocks of samples, lies within +-precision of it
 * (and the minimum time has passed), or at the cap. The warm-up, which also
 * finds the batch size, is never part of the statistics. */
#ifndef CYCLEBENCH_SAMPLER_H
#define CYCLEBENCH_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

/* The defaults, documented in docs/method.md. */
#define SAMPLER_PRECISION 0.005     /* +-0.5% */
#define SAMPLER_BATCH_SECONDS 10e-6 /* one timed batch: about 10 us */
/* ...and at least this many timer ticks, so that the counter's step stays
 * a thousandth of a batch where it ticks slowly: aarch64's generic timer,
 * often 24 MHz to 1 GHz, counts only 240 ticks in 10 us at 24 MHz. */
#define SAMPLER_BATCH_MIN_TICKS 1000
#define SAMPLER_WARMUP_SECONDS 2e-3 /* per benchmark, discarded */
/* The confidence interval of the median comes from the medians of blocks
 * of samples this long (batch medians), not from the samples themselves.
 * On a shared VM a kernel's speed wanders over milliseconds to a second
 * (neighbours, not the clock: the core/TSC ratio holds still meanwhile):
 * samples taken microseconds apart all share one such phase, and an
 * interval from them calls a median pinned that the next run will not
 * repeat. Blocks see the phases, so sampling goes on until they agree. */
#define SAMPLER_BLOCK_SECONDS 0.01
#define SAMPLER_MIN_BLOCKS 10 /* so at least 0.1 s of samples */
/* The cap per benchmark, precise or not, when the user names none: a run's
 * budget shared among its benchmarks, but at least SAMPLER_CAP_SECONDS and
 * at most SAMPLER_CAP_MAX_SECONDS. A run of a few benchmarks can afford to
 * wait out the host's slow phases, and runs of one then agree better (the
 * triples measured: docs/method.md, "The sampler's cap and least time"). A
 * run so large that its benchmarks would sample for longer than
 * SAMPLER_SWEEP_BUDGET_SECONDS at that floor (the full sweep) shares that
 * budget instead, less what the run times besides its benchmarks (bench's
 * pair rounds), down to the SAMPLER_MIN_BLOCKS blocks that a precise
 * median needs: so the full sweep stays under five minutes, and
 * test_sampler fails when the registry outgrows even that. */
#define SAMPLER_CAP_SECONDS 0.25
#define SAMPLER_CAP_MAX_SECONDS 2.0
#define SAMPLER_RUN_BUDGET_SECONDS 20.0
#define SAMPLER_SWEEP_BUDGET_SECONDS 240.0
/* And a quarter of it is the least each samples, so that a run of a few
 * spans several of the host's spells rather than pinning the first quiet
 * 0.1 s (a slow spell can be pinned that fast). In the sweep the quarter
 * is below the 0.1 s of blocks anyway. */
#define SAMPLER_MIN_SHARE_OF_CAP 0.25
#define SAMPLER_MIN_SAMPLES 24
/* Two speeds in one benchmark: the blocks' medians fall in two groups, the
 * slower group's fastest block at least SAMPLER_LEVEL_GAP times the faster
 * group's slowest, each group at least SAMPLER_LEVEL_SHARE of the blocks
 * and SAMPLER_LEVEL_MIN_BLOCKS of them. On these hosts a throughput-bound
 * kernel can run at half speed while the core's other hyperthread (another
 * guest's) is busy: aes128-xts@ssse3 at 4.7-5.5 or 8-11 TSC ticks per
 * byte, a spell of seconds (docs/method.md). A median of such a benchmark
 * mixes the two, so it is reported with both. Within a level the blocks
 * wander by a few percent; a step of a quarter is no such wander. */
#define SAMPLER_LEVEL_GAP 1.25
#define SAMPLER_LEVEL_SHARE 0.10
#define SAMPLER_LEVEL_MIN_BLOCKS 2

typedef struct sampler_config {
    double precision;      /* relative half-width of the median's 95% CI */
    uint64_t batch_ticks;  /* a batch runs at least this long */
    uint64_t warmup_ticks; /* discarded before the first sample */
    uint64_t min_ticks;    /* sample at least this long (0: no minimum) */
    uint64_t cap_ticks;    /* stop sampling after this long */
    uint64_t block_ticks;  /* a block of samples spans at least this */
    size_t min_samples;    /* never judge precision on fewer samples */
    size_t min_blocks;     /* or fewer blocks */
    size_t max_samples;    /* memory bound: stop (capped) at this many */
} sampler_config;

/* Where the samples come from: the kernel in the harness, synthetic data in
 * the tests. */
typedef struct sampler_source {
    /* Run calls calls back to back; return the ticks they took. */
    uint64_t (*time_batch)(void *ctx, uint64_t calls);
    /* The clock that warm-up, minimum and cap are measured on. */
    uint64_t (*now)(void *ctx);
    void *ctx;
} sampler_source;

/* Per call, in the source's ticks. */
/* Two speeds among a benchmark's blocks (SAMPLER_LEVEL_GAP above): each
 * group's median block, per call in the source's ticks, and the share of
 * the blocks in the faster group. */
typedef struct sampler_levels {
    int two;
    double low, high, low_share;
} sampler_levels;

typedef struct sampler_result {
    double median, q1, q3;
    double ci_low, ci_high; /* 95% CI of the median, over the blocks */
    size_t samples;         /* that entered the statistics */
    size_t blocks;          /* they were grouped in */
    size_t warmup_batches;  /* that did not */
    uint64_t calls_per_batch;
    int precision_reached;  /* 1: the CI met the precision; 0: capped */
    uint64_t elapsed_ticks; /* warm-up included */
    sampler_levels levels;  /* .two: the blocks ran at two speeds */
} sampler_result;

/* The configuration for a TSC of tsc_hz: the defaults, with min_seconds
 * (--benchmark_min_time; below 0 for none beyond the minimum blocks) and
 * cap_seconds; a cap below the minimum is raised to it. */
sampler_config sampler_default_config(double tsc_hz, double min_seconds,
                                      double cap_seconds);

/* The cap for each of a run's n benchmarks, of which reserved_seconds of
 * the sweep's budget go to timing outside them (bench's pair rounds), and
 * the least time under a cap, the run's or the user's (above). */
double sampler_cap_for_run(size_t n_benchmarks, double reserved_seconds);
double sampler_min_time(double cap_seconds);

/* Warm up, size the batch, sample until precise or capped. Returns 0, or
 * -1 when out of memory. */
int sampler_run(const sampler_config *c, const sampler_source *src,
                sampler_result *r);

/* Run src's batches until warmup_ticks have passed and the last two
 * batches, at the size kept, each took at least batch_ticks, growing the
 * batch while it falls short: caches, branch predictors, page mappings and
 * the core's clock settle meanwhile. Returns the calls per batch; adds the
 * batches run to *batches. sampler_run's warm-up, and paired.h's. */
uint64_t sampler_warm_up(const sampler_source *src, uint64_t batch_ticks,
                         uint64_t warmup_ticks, size_t *batches);

/* Sorts n values ascending, for the statistics below. */
void sampler_sort(double *values, size_t n);

/* The statistics, on n >= 1 values sorted ascending. */
double sampler_quantile(const double *sorted, size_t n, double p);
/* The distribution-free 95% CI of the median: order statistics whose ranks
 * are n/2 -+ 1.96 sqrt(n)/2, the normal approximation to the binomial. */
void sampler_median_ci(const double *sorted, size_t n, double *low,
                       double *high);
/* Whether n block medians, sorted ascending, fall in two levels; fills l
 * (l->two 0 when they do not). */
void sampler_two_levels(const double *sorted, size_t n, sampler_levels *l);
/* Whether [low, high] lies within +-precision of median. */
int sampler_precise(double median, double low, double high,
                    double precision);

#endif
