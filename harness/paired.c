#include "paired.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sampler.h"
#include "timer.h"

/* Fewer pairs than this give no interval worth the name (the ranks of the
 * median's interval clamp to the extremes below about ten). */
#define PAIRED_MIN_PAIRS 10
/* A block's batches: a 10 ms block of 10 us batches holds about a
 * thousand; a block stops early at this many. */
#define PAIRED_MAX_BATCHES 4096

static int compare_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

typedef struct side {
    sampler_source src;
    uint64_t calls; /* per batch */
    double bytes;   /* per call */
} side;

/* Calls per batch: doubled until one batch lasts batch_ticks, for at least
 * warmup_ticks in all, which also warms caches and pages. */
static uint64_t size_batch(const sampler_source *s, uint64_t batch_ticks,
                           uint64_t warmup_ticks)
{
    uint64_t calls = 1, start = s->now(s->ctx);
    for (;;) {
        uint64_t ticks = s->time_batch(s->ctx, calls);
        if (ticks < batch_ticks && calls < (UINT64_C(1) << 40))
            calls *= 2;
        else if (s->now(s->ctx) - start >= warmup_ticks)
            return calls;
    }
}

/* One block: batches for block_ticks; the median ticks per byte. */
static double block_median(const side *s, uint64_t block_ticks,
                           double *samples)
{
    uint64_t start = s->src.now(s->src.ctx);
    size_t n = 0;
    do {
        uint64_t ticks = s->src.time_batch(s->src.ctx, s->calls);
        samples[n++] = (double)ticks / (double)s->calls / s->bytes;
    } while (n < PAIRED_MAX_BATCHES &&
             s->src.now(s->src.ctx) - start < block_ticks);
    qsort(samples, n, sizeof *samples, compare_double);
    return sampler_quantile(samples, n, 0.5);
}

static double sorted_median(double *values, size_t n)
{
    qsort(values, n, sizeof *values, compare_double);
    return sampler_quantile(values, n, 0.5);
}

int paired_run(timed_kernel *a, double a_bytes, timed_kernel *b,
               double b_bytes, double seconds, paired_result *r)
{
    double hz = timer_get_info()->tsc_hz;
    uint64_t batch_ticks = (uint64_t)(SAMPLER_BATCH_SECONDS * hz),
             block_ticks = (uint64_t)(SAMPLER_BLOCK_SECONDS * hz),
             warmup_ticks = (uint64_t)(SAMPLER_WARMUP_SECONDS * hz);
    side sides[2] = { { timed_kernel_source(a), 0, a_bytes },
                      { timed_kernel_source(b), 0, b_bytes } };
    size_t capacity = 256 + (size_t)(seconds / (2 * SAMPLER_BLOCK_SECONDS));
    double *samples = malloc(PAIRED_MAX_BATCHES * sizeof *samples);
    double *ra = malloc(capacity * sizeof *ra),
           *rb = malloc(capacity * sizeof *rb),
           *ratio = malloc(capacity * sizeof *ratio);
    int status = -1;
    memset(r, 0, sizeof *r);
    if (!samples || !ra || !rb || !ratio)
        goto out;
    for (int i = 0; i < 2; i++)
        sides[i].calls = size_batch(&sides[i].src, batch_ticks, warmup_ticks);
    uint64_t start = sides[0].src.now(sides[0].src.ctx),
             target = (uint64_t)(seconds * hz);
    size_t n = 0;
    while (n < capacity &&
           (n < PAIRED_MIN_PAIRS ||
            sides[0].src.now(sides[0].src.ctx) - start < target)) {
        /* a first in even pairs, b first in odd ones */
        int first = (int)(n & 1);
        double m[2];
        m[first] = block_median(&sides[first], block_ticks, samples);
        m[!first] = block_median(&sides[!first], block_ticks, samples);
        ra[n] = m[0];
        rb[n] = m[1];
        ratio[n] = m[0] / m[1];
        n++;
    }
    r->pairs = n;
    r->a_per_byte = sorted_median(ra, n);
    r->b_per_byte = sorted_median(rb, n);
    qsort(ratio, n, sizeof *ratio, compare_double);
    r->ratio_median = sampler_quantile(ratio, n, 0.5);
    r->ratio_q1 = sampler_quantile(ratio, n, 0.25);
    r->ratio_q3 = sampler_quantile(ratio, n, 0.75);
    sampler_median_ci(ratio, n, &r->ratio_ci_low, &r->ratio_ci_high);
    r->ratio_min = ratio[0];
    r->ratio_max = ratio[n - 1];
    status = 0;
out:
    free(samples);
    free(ra);
    free(rb);
    free(ratio);
    return status;
}
