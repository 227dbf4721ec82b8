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
        min_seconds = SAMPLER_MIN_SECONDS;
    double cap = cap_seconds > min_seconds ? cap_seconds : min_seconds;
    return (sampler_config){
        .precision = SAMPLER_PRECISION,
        .batch_ticks = (uint64_t)(SAMPLER_BATCH_SECONDS * tsc_hz),
        .warmup_ticks = (uint64_t)(SAMPLER_WARMUP_SECONDS * tsc_hz),
        .min_ticks = (uint64_t)(min_seconds * tsc_hz),
        .cap_ticks = (uint64_t)(cap * tsc_hz),
        .min_samples = SAMPLER_MIN_SAMPLES,
        .max_samples = SAMPLER_MAX_SAMPLES,
    };
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

int sampler_precise(double median, double low, double high, double precision)
{
    return low >= median * (1 - precision) && high <= median * (1 + precision);
}

/* Fill r's statistics from the n samples, sorted into scratch. */
static void summarize(const double *samples, size_t n, double *scratch,
                      const sampler_config *c, sampler_result *r)
{
    memcpy(scratch, samples, n * sizeof *samples);
    qsort(scratch, n, sizeof *scratch, compare_double);
    r->samples = n;
    r->median = sampler_quantile(scratch, n, 0.5);
    r->q1 = sampler_quantile(scratch, n, 0.25);
    r->q3 = sampler_quantile(scratch, n, 0.75);
    sampler_median_ci(scratch, n, &r->ci_low, &r->ci_high);
    /* Below min_samples the ranks clamp to the extremes and the interval
     * no longer covers 95%: precision is not judged on so few. */
    r->precision_reached = n >= c->min_samples &&
                           sampler_precise(r->median, r->ci_low, r->ci_high,
                                           c->precision);
}

/* Run batches until warmup_ticks have passed and the last two batches, at
 * the size kept, each took at least batch_ticks, growing the batch while it
 * falls short. Caches, branch predictors, page mappings and the core's
 * clock settle meanwhile. Returns the calls per batch. */
static uint64_t warm_up(const sampler_config *c, const sampler_source *src,
                        uint64_t start, sampler_result *r)
{
    uint64_t calls = 1;
    int long_in_a_row = 0;
    for (;;) {
        uint64_t ticks = src->time_batch(src->ctx, calls);
        r->warmup_batches++;
        if (ticks >= c->batch_ticks) {
            if (++long_in_a_row >= 2 &&
                src->now(src->ctx) - start >= c->warmup_ticks)
                return calls;
            continue;
        }
        double growth = ticks ? (double)c->batch_ticks / (double)ticks
                              : MAX_GROWTH;
        growth = growth < 2 ? 2 : growth > MAX_GROWTH ? MAX_GROWTH : growth;
        calls = (uint64_t)ceil((double)calls * growth);
        long_in_a_row = 0;
    }
}

int sampler_run(const sampler_config *c, const sampler_source *src,
                sampler_result *r)
{
    size_t capacity = c->min_samples > 1024 ? c->min_samples : 1024;
    size_t limit = c->max_samples ? c->max_samples : SAMPLER_MAX_SAMPLES;
    double *samples = malloc(capacity * sizeof *samples);
    double *scratch = malloc(capacity * sizeof *scratch);
    uint64_t start = src->now(src->ctx), sampling;
    size_t n = 0, next_check = c->min_samples > 2 ? c->min_samples : 2;
    int status = -1;

    memset(r, 0, sizeof *r);
    if (!samples || !scratch)
        goto out;
    r->calls_per_batch = warm_up(c, src, start, r);
    sampling = src->now(src->ctx);
    for (;;) {
        if (n == capacity) {
            capacity = capacity * 2 < limit ? capacity * 2 : limit;
            double *more = realloc(samples, capacity * sizeof *samples);
            if (!more)
                goto out;
            samples = more;
            free(scratch);
            if (!(scratch = malloc(capacity * sizeof *scratch)))
                goto out;
        }
        uint64_t ticks = src->time_batch(src->ctx, r->calls_per_batch);
        samples[n++] = (double)ticks / (double)r->calls_per_batch;
        uint64_t spent = src->now(src->ctx) - sampling;
        int capped = spent >= c->cap_ticks || n >= limit;
        if (n < next_check && !capped)
            continue;
        summarize(samples, n, scratch, c, r);
        if ((r->precision_reached && spent >= c->min_ticks) || capped)
            break;
        /* Judge again after a quarter more: the sorts stay O(n log n) in
         * all, and the stop comes at most 25% late. */
        next_check = n + (n / 4 > 8 ? n / 4 : 8);
    }
    r->elapsed_ticks = src->now(src->ctx) - start;
    status = 0;
out:
    free(samples);
    free(scratch);
    return status;
}
