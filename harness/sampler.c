#include "sampler.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Samples never grow memory past this (8 MiB of doubles), whatever minimum
 * time a user asks for. */
#define SAMPLER_MAX_SAMPLES (1u << 20)
/* A batch grows at most this much per step while it is being sized, so one
 * slow cold call does not make the next batch huge. */
#define MAX_GROWTH 16.0

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

sampler_config sampler_default_config(double tsc_hz, double min_seconds,
                                      double cap_seconds)
{
    if (min_seconds < 0)
        min_seconds = 0;
    double cap = cap_seconds > min_seconds ? cap_seconds : min_seconds;
    return (sampler_config){
        .precision = SAMPLER_PRECISION,
        .batch_ticks = SAMPLER_BATCH_SECONDS * tsc_hz > SAMPLER_BATCH_MIN_TICKS
                           ? (uint64_t)(SAMPLER_BATCH_SECONDS * tsc_hz)
                           : SAMPLER_BATCH_MIN_TICKS,
        .warmup_ticks = (uint64_t)(SAMPLER_WARMUP_SECONDS * tsc_hz),
        .min_ticks = (uint64_t)(min_seconds * tsc_hz),
        .cap_ticks = (uint64_t)(cap * tsc_hz),
        .block_ticks = (uint64_t)(SAMPLER_BLOCK_SECONDS * tsc_hz),
        .min_samples = SAMPLER_MIN_SAMPLES,
        .min_blocks = SAMPLER_MIN_BLOCKS,
        .max_samples = SAMPLER_MAX_SAMPLES,
    };
}

double sampler_cap_for_run(size_t n_benchmarks, double reserved_seconds)
{
    double n = (double)(n_benchmarks ? n_benchmarks : 1);
    double share = SAMPLER_RUN_BUDGET_SECONDS / n;
    double floor = (SAMPLER_SWEEP_BUDGET_SECONDS - reserved_seconds) / n;
    double blocks = SAMPLER_MIN_BLOCKS * SAMPLER_BLOCK_SECONDS;
    if (floor > SAMPLER_CAP_SECONDS)
        floor = SAMPLER_CAP_SECONDS;
    if (floor < blocks)
        floor = blocks;
    if (share < floor)
        return floor;
    return share > SAMPLER_CAP_MAX_SECONDS ? SAMPLER_CAP_MAX_SECONDS : share;
}

double sampler_min_time(double cap_seconds)
{
    return SAMPLER_MIN_SHARE_OF_CAP * cap_seconds;
}

/* Linear interpolation between the closest ranks (R's type 7, numpy's
 * default), so the median of an even count is the mean of the middle two. */
double sampler_quantile(const double *sorted, size_t n, double p)
{
    double pos = p * (double)(n - 1);
    size_t i = (size_t)pos;
    double frac = pos - (double)i;
    if (i + 1 >= n)
        return sorted[n - 1];
    return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

static size_t clamp_rank(double rank, size_t n)
{
    if (rank < 1)
        return 1;
    if (rank > (double)n)
        return n;
    return (size_t)rank;
}

void sampler_median_ci(const double *sorted, size_t n, double *low,
                       double *high)
{
    double half = 1.96 * sqrt((double)n) / 2;
    size_t lo = clamp_rank(round((double)n / 2 - half), n);
    size_t hi = clamp_rank(round(1 + (double)n / 2 + half), n);
    *low = sorted[lo - 1];
    *high = sorted[hi - 1];
}

void sampler_two_levels(const double *sorted, size_t n, sampler_levels *l)
{
    size_t least = (size_t)ceil(SAMPLER_LEVEL_SHARE * (double)n), split = 0;
    double widest = SAMPLER_LEVEL_GAP;
    if (least < SAMPLER_LEVEL_MIN_BLOCKS)
        least = SAMPLER_LEVEL_MIN_BLOCKS;
    *l = (sampler_levels){ 0 };
    /* The widest step between neighbours with enough blocks either side:
     * a spread of blocks with no step that wide is one wandering level. */
    for (size_t i = least; i + least <= n; i++)
        if (sorted[i - 1] > 0 && sorted[i] / sorted[i - 1] >= widest) {
            widest = sorted[i] / sorted[i - 1];
            split = i;
        }
    if (!split)
        return;
    l->two = 1;
    l->low = sampler_quantile(sorted, split, 0.5);
    l->high = sampler_quantile(sorted + split, n - split, 0.5);
    l->low_share = (double)split / (double)n;
}

int sampler_precise(double median, double low, double high, double precision)
{
    return low >= median * (1 - precision) && high <= median * (1 + precision);
}

uint64_t sampler_warm_up(const sampler_source *src, uint64_t batch_ticks,
                         uint64_t warmup_ticks, size_t *batches)
{
    uint64_t calls = 1, start = src->now(src->ctx);
    int long_in_a_row = 0;
    for (;;) {
        uint64_t ticks = src->time_batch(src->ctx, calls);
        ++*batches;
        if (ticks >= batch_ticks) {
            if (++long_in_a_row >= 2 &&
                src->now(src->ctx) - start >= warmup_ticks)
                return calls;
            continue;
        }
        double growth = ticks ? (double)batch_ticks / (double)ticks
                              : MAX_GROWTH;
        growth = growth < 2 ? 2 : growth > MAX_GROWTH ? MAX_GROWTH : growth;
        calls = (uint64_t)ceil((double)calls * growth);
        long_in_a_row = 0;
    }
}

void sampler_sort(double *values, size_t n)
{
    qsort(values, n, sizeof *values, compare_double);
}

/* The samples in the order they were taken, and the medians of the blocks
 * of them that have closed. */
typedef struct series {
    double *samples, *scratch;
    size_t n, capacity;
    double *blocks;
    size_t n_blocks, block_capacity;
    size_t block_first;   /* the open block's first sample */
    uint64_t block_began; /* and when it began */
} series;

static int grow(double **array, size_t *capacity, size_t need)
{
    if (need <= *capacity)
        return 0;
    size_t more = *capacity ? *capacity * 2 : 1024;
    double *bigger = realloc(*array, (more > need ? more : need) *
                                         sizeof **array);
    if (!bigger)
        return -1;
    *array = bigger;
    *capacity = more > need ? more : need;
    return 0;
}

static int add_sample(series *s, double value)
{
    size_t scratch_capacity = s->capacity;
    if (grow(&s->samples, &s->capacity, s->n + 1) ||
        grow(&s->scratch, &scratch_capacity, s->capacity))
        return -1;
    s->samples[s->n++] = value;
    return 0;
}

/* The median of values[0..n), sorted into scratch. */
static double sorted_median(const double *values, size_t n, double *scratch)
{
    memcpy(scratch, values, n * sizeof *values);
    qsort(scratch, n, sizeof *scratch, compare_double);
    return sampler_quantile(scratch, n, 0.5);
}

static int close_block(series *s, uint64_t now)
{
    if (grow(&s->blocks, &s->block_capacity, s->n_blocks + 1))
        return -1;
    s->blocks[s->n_blocks++] = sorted_median(s->samples + s->block_first,
                                             s->n - s->block_first,
                                             s->scratch);
    s->block_first = s->n;
    s->block_began = now;
    return 0;
}

/* r's statistics: median and quartiles of all the samples; the 95% CI of
 * the median from the blocks' medians, so that the host's slow phases
 * (neighbours' bursts that last milliseconds) widen it as they should,
 * where samples taken microseconds apart would call it narrow. */
static void summarize(series *s, const sampler_config *c, sampler_result *r)
{
    memcpy(s->scratch, s->samples, s->n * sizeof *s->samples);
    qsort(s->scratch, s->n, sizeof *s->scratch, compare_double);
    r->samples = s->n;
    r->blocks = s->n_blocks;
    r->median = sampler_quantile(s->scratch, s->n, 0.5);
    r->q1 = sampler_quantile(s->scratch, s->n, 0.25);
    r->q3 = sampler_quantile(s->scratch, s->n, 0.75);
    memcpy(s->scratch, s->blocks, s->n_blocks * sizeof *s->blocks);
    qsort(s->scratch, s->n_blocks, sizeof *s->scratch, compare_double);
    sampler_median_ci(s->scratch, s->n_blocks, &r->ci_low, &r->ci_high);
    sampler_two_levels(s->scratch, s->n_blocks, &r->levels);
    /* The median of all the samples need not lie between two blocks'
     * medians: when a kernel flips between two speeds from batch to batch,
     * most blocks' medians can sit in one cluster and the pooled median in
     * the gap or the other cluster. The interval is widened to reach it,
     * so that such a median is never called pinned. */
    if (r->median < r->ci_low)
        r->ci_low = r->median;
    if (r->median > r->ci_high)
        r->ci_high = r->median;
    /* On fewer blocks the ranks clamp to the extremes and the interval no
     * longer covers 95%: precision is not judged on so few. */
    r->precision_reached = s->n >= c->min_samples &&
                           s->n_blocks >= c->min_blocks &&
                           sampler_precise(r->median, r->ci_low, r->ci_high,
                                           c->precision);
}

static void free_series(series *s)
{
    free(s->samples);
    free(s->scratch);
    free(s->blocks);
}

int sampler_run(const sampler_config *c, const sampler_source *src,
                sampler_result *r)
{
    size_t limit = c->max_samples ? c->max_samples : SAMPLER_MAX_SAMPLES;
    size_t next_check = c->min_blocks > 1 ? c->min_blocks : 1;
    uint64_t start = src->now(src->ctx), sampling;
    series s = { 0 };
    int status = -1;

    memset(r, 0, sizeof *r);
    r->calls_per_batch = sampler_warm_up(src, c->batch_ticks, c->warmup_ticks,
                                         &r->warmup_batches);
    sampling = s.block_began = src->now(src->ctx);
    for (;;) {
        uint64_t ticks = src->time_batch(src->ctx, r->calls_per_batch);
        if (add_sample(&s, (double)ticks / (double)r->calls_per_batch))
            goto out;
        uint64_t now = src->now(src->ctx);
        int capped = now - sampling >= c->cap_ticks || s.n >= limit;
        if (now - s.block_began >= c->block_ticks || capped)
            if (close_block(&s, now))
                goto out;
        if ((s.n_blocks < next_check || s.n < c->min_samples) && !capped)
            continue;
        summarize(&s, c, r);
        if ((r->precision_reached && now - sampling >= c->min_ticks) ||
            capped)
            break;
        /* Judge again after a quarter more blocks: the sorts stay few, and
         * the stop comes at most 25% late. */
        next_check = s.n_blocks + (s.n_blocks / 4 > 1 ? s.n_blocks / 4 : 1);
    }
    r->elapsed_ticks = src->now(src->ctx) - start;
    status = 0;
out:
    free_series(&s);
    return status;
}
