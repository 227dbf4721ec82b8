#include "paired.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"

/* A block's batches: a 10 ms block of 10 us batches holds about a
 * thousand; a block stops early at this many. */
#define PAIRED_MAX_BATCHES 4096

/* The median of n values, sorting them. */
static double sorted_median(double *values, size_t n)
{
    sampler_sort(values, n);
    return sampler_quantile(values, n, 0.5);
}

typedef struct side {
    sampler_source src;
    uint64_t calls; /* per batch */
    double bytes;   /* per call */
} side;

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
    return sorted_median(samples, n);
}

paired_config paired_default_config(double tsc_hz, double seconds)
{
    return (paired_config){
        .batch_ticks = (uint64_t)(SAMPLER_BATCH_SECONDS * tsc_hz),
        .block_ticks = (uint64_t)(SAMPLER_BLOCK_SECONDS * tsc_hz),
        .warmup_ticks = (uint64_t)(SAMPLER_WARMUP_SECONDS * tsc_hz),
        .run_ticks = (uint64_t)(seconds * tsc_hz),
    };
}

int paired_run(const paired_config *c, const sampler_source src[2],
               const double bytes[2], paired_result *r)
{
    side sides[2] = { { src[0], 0, bytes[0] }, { src[1], 0, bytes[1] } };
    /* Fewer pairs than PAIRED_MIN_PAIRS give no interval worth the name
     * (its ranks clamp to the extremes below about ten); a pair lasts at
     * least two blocks. */
    size_t capacity = PAIRED_MIN_PAIRS + 1 +
                      (size_t)(c->run_ticks / (2 * (c->block_ticks + 1)));
    double *samples = malloc(PAIRED_MAX_BATCHES * sizeof *samples);
    double *ra = malloc(capacity * sizeof *ra),
           *rb = malloc(capacity * sizeof *rb),
           *ratio = malloc(capacity * sizeof *ratio);
    int status = -1;
    memset(r, 0, sizeof *r);
    if (!samples || !ra || !rb || !ratio)
        goto out;
    size_t warmup_batches = 0;
    for (int i = 0; i < 2; i++)
        sides[i].calls = sampler_warm_up(&sides[i].src, c->batch_ticks,
                                         c->warmup_ticks, &warmup_batches);
    uint64_t start = src[0].now(src[0].ctx);
    size_t n = 0;
    while (n < capacity &&
           (n < PAIRED_MIN_PAIRS ||
            src[0].now(src[0].ctx) - start < c->run_ticks)) {
        /* a first in even pairs, b first in odd ones */
        int first = (int)(n & 1);
        double m[2];
        m[first] = block_median(&sides[first], c->block_ticks, samples);
        m[!first] = block_median(&sides[!first], c->block_ticks, samples);
        ra[n] = m[0];
        rb[n] = m[1];
        ratio[n] = m[0] / m[1];
        n++;
    }
    r->pairs = n;
    r->a_per_byte = sorted_median(ra, n);
    r->b_per_byte = sorted_median(rb, n);
    sampler_sort(ratio, n);
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

static void print_member(FILE *f, const char *sep, const char *key,
                         const char *value)
{
    fprintf(f, "%s\"%s\": ", sep, key);
    json_print_string(f, value);
}

void paired_print_json(FILE *f, const paired_names *names, size_t size,
                       double seconds, const paired_result *r,
                       const char *sep)
{
    print_member(f, "", "kernel", names->kernel);
    print_member(f, sep, "isa", names->isa);
    print_member(f, sep, "vs", names->vs);
    print_member(f, sep, "vs_isa", names->vs_isa);
    /* Six significant digits, not four decimals: a copy's 0.0304 ticks a
     * byte kept three, too few to divide by. */
    fprintf(f, "%s\"size\": %zu%s\"seconds\": %.3f%s\"pairs\": %zu"
            "%s\"tsc_cycles_per_byte\": %.6g"
            "%s\"vs_tsc_cycles_per_byte\": %.6g"
            "%s\"ratio\": {\"median\": %.6g, \"q1\": %.6g, \"q3\": %.6g, "
            "\"ci95_low\": %.6g, \"ci95_high\": %.6g, \"min\": %.6g, "
            "\"max\": %.6g}",
            sep, size, sep, seconds, sep, r->pairs, sep, r->a_per_byte, sep,
            r->b_per_byte, sep, r->ratio_median, r->ratio_q1, r->ratio_q3,
            r->ratio_ci_low, r->ratio_ci_high, r->ratio_min, r->ratio_max);
}
