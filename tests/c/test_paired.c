/* run --vs's pairing (harness/paired.c) on model kernels over one model
 * clock: the ratio per pair is exact where the model makes it so, noise
 * both sides share cancels, noise of one side shows in the quartiles, the
 * order alternates, and the run is as long and as many pairs as it says.
 * Nothing here is timed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../harness/paired.h"
#include "check.h"

/* One model clock; a side's call costs cost ticks, times slowdown while
 * the clock is in the second half of each phase (0: never). */
typedef struct model_side {
    struct model_clock *clock;
    double cost, slowdown;
    int id;
} model_side;

#define MAX_LOG 65536

typedef struct model_clock {
    uint64_t now;
    uint64_t phase;
    int log[MAX_LOG]; /* the side of each batch, in order */
    size_t n_log;
} model_clock;

static uint64_t model_batch(void *ctx, uint64_t calls)
{
    model_side *s = ctx;
    model_clock *c = s->clock;
    int slow = c->phase && s->slowdown &&
               c->now % c->phase >= c->phase / 2;
    uint64_t ticks = (uint64_t)((double)calls * s->cost *
                                (slow ? s->slowdown : 1));
    c->now += ticks;
    if (c->n_log < MAX_LOG)
        c->log[c->n_log++] = s->id;
    return ticks;
}

static uint64_t model_now(void *ctx)
{
    return ((model_side *)ctx)->clock->now;
}

static const paired_config config = {
    .batch_ticks = 1000,
    .block_ticks = 20000,
    .warmup_ticks = 5000,
    .run_ticks = 2000000,
};

static paired_result run(model_side *a, model_side *b, const double bytes[2],
                         const paired_config *c)
{
    sampler_source src[2] = { { model_batch, model_now, a },
                              { model_batch, model_now, b } };
    paired_result r;
    CHECK(paired_run(c, src, bytes, &r) == 0, "paired_run failed");
    return r;
}

static void test_exact_ratio(void)
{
    model_clock clock = { 0 };
    model_side a = { &clock, 300, 0, 0 }, b = { &clock, 100, 0, 1 };
    const double same[2] = { 64, 64 }, twice[2] = { 128, 64 };

    CASE("steady kernels: every pair's ratio is the cost ratio, exactly");
    paired_result r = run(&a, &b, same, &config);
    CHECK(r.ratio_min == 3 && r.ratio_max == 3 && r.ratio_median == 3,
          "ratios %g .. %g, median %g", r.ratio_min, r.ratio_max,
          r.ratio_median);
    CHECK(r.a_per_byte == 300.0 / 64 && r.b_per_byte == 100.0 / 64,
          "per byte %g and %g", r.a_per_byte, r.b_per_byte);

    CASE("the ratio is per byte: twice the bytes a call halves it");
    clock = (model_clock){ 0 };
    r = run(&a, &b, twice, &config);
    CHECK(r.ratio_median == 1.5 && r.ratio_min == 1.5 && r.ratio_max == 1.5,
          "ratios %g .. %g, median %g", r.ratio_min, r.ratio_max,
          r.ratio_median);
}

static void test_shared_and_one_sided_noise(void)
{
    model_clock clock = { .phase = 400000 };
    model_side a = { &clock, 300, 2, 0 }, b = { &clock, 100, 2, 1 };
    const double bytes[2] = { 64, 64 };

    /* A phase is ten pairs long, so nearly every pair sits inside one. */
    CASE("a slowdown both sides share moves their medians' blocks, not "
         "the ratio of most pairs");
    paired_result r = run(&a, &b, bytes, &config);
    CHECK(r.ratio_q1 == 3 && r.ratio_q3 == 3,
          "quartiles %g and %g", r.ratio_q1, r.ratio_q3);

    CASE("a slowdown of one side alone shows in the quartiles");
    clock = (model_clock){ .phase = 400000 };
    b.slowdown = 0;
    r = run(&a, &b, bytes, &config);
    CHECK(r.ratio_min == 3 && r.ratio_max == 6, "ratios %g .. %g",
          r.ratio_min, r.ratio_max);
    CHECK(r.ratio_q1 == 3 && r.ratio_q3 == 6 &&
              r.ratio_q1 <= r.ratio_median && r.ratio_median <= r.ratio_q3,
          "quartiles %g, %g, %g", r.ratio_q1, r.ratio_median, r.ratio_q3);
    CHECK(r.ratio_ci_low <= r.ratio_median &&
              r.ratio_median <= r.ratio_ci_high,
          "interval %g .. %g about %g", r.ratio_ci_low, r.ratio_ci_high,
          r.ratio_median);
}

static void test_order_and_length(void)
{
    model_clock clock = { 0 };
    model_side a = { &clock, 300, 0, 0 }, b = { &clock, 100, 0, 1 };
    const double bytes[2] = { 64, 64 };

    CASE("the side that goes first alternates from pair to pair");
    paired_result r = run(&a, &b, bytes, &config);
    /* The log, less the two warm-ups, as runs of one side: a b, b a, ... */
    int runs[MAX_LOG];
    size_t n_runs = 0, i = 0;
    while (i < clock.n_log && clock.log[i] == 0)
        i++;
    while (i < clock.n_log && clock.log[i] == 1)
        i++; /* the warm-ups: a's, then b's */
    for (; i < clock.n_log; i++)
        if (n_runs == 0 || runs[n_runs - 1] != clock.log[i])
            runs[n_runs++] = clock.log[i];
    /* a b | b a | a b ...: each pair after the first begins with the
     * side the one before ended with, so there are pairs + 1 runs; were a
     * always first (a b | a b ...) there would be twice the pairs. */
    CHECK(n_runs == r.pairs + 1,
          "%zu runs of one side for %zu pairs (want %zu)", n_runs, r.pairs,
          r.pairs + 1);

    CASE("it pairs until the run's length has passed, and then stops");
    /* The clock ran for the two warm-ups, then the pairs; a block, and a
     * warm-up, ends at the first batch past its length (2000 ticks at
     * most here: 16 of b's 100-tick calls). */
    uint64_t batch = 2000, most = 2 * (config.warmup_ticks + batch) +
                                  config.run_ticks +
                                  2 * (config.block_ticks + batch);
    CHECK(clock.now >= config.run_ticks && clock.now <= most,
          "the clock ran %llu ticks for a %llu-tick run (at most %llu)",
          (unsigned long long)clock.now,
          (unsigned long long)config.run_ticks, (unsigned long long)most);

    CASE("and makes PAIRED_MIN_PAIRS pairs whatever the length");
    paired_config brief = config;
    brief.run_ticks = 0;
    clock = (model_clock){ 0 };
    r = run(&a, &b, bytes, &brief);
    CHECK(r.pairs == PAIRED_MIN_PAIRS, "%zu pairs", r.pairs);
}

int main(void)
{
    test_exact_ratio();
    test_shared_and_one_sided_noise();
    test_order_and_length();
    return check_finish();
}
