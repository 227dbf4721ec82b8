/* The sampler on synthetic data: its quantiles and confidence interval,
 * the stopping rule, the cap, the minimum time, the batch sizing, and that
 * no warm-up batch enters the statistics. The source is a model kernel on
 * a model clock, so every expectation is exact or bounded, never timed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/commands.h"
#include "../../harness/pair_rounds.h"
#include "../../harness/sampler.h"
#include "check.h"

/* A kernel whose call costs `cost` ticks times a factor drawn uniformly
 * from [1 - spread, 1 + spread], and `slow_cost` for its first
 * `slow_calls` calls (cold caches, page faults); in the last `slow_share`
 * of every `phase` ticks of the model clock (a neighbour's burst), its
 * calls cost `slowdown` times more. Every batch also advances the model
 * clock by `gap` ticks of bookkeeping. With `step`, a batch's ticks come in
 * whole steps, as this VM's TSC advances 26 at a time. */
#define LOGGED 65536

typedef struct model {
    double cost, spread, slow_cost;
    uint64_t slow_calls, gap, step;
    uint64_t phase;
    double slow_share, slowdown;
    uint64_t clock, calls, seed;
    uint64_t batches;
    double *per_call; /* optional: each batch's figure, in order */
} model;

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint64_t model_batch(void *ctx, uint64_t calls)
{
    model *m = ctx;
    double ticks = 0;
    int burst = m->phase && (double)(m->clock % m->phase) >=
                                (1 - m->slow_share) * (double)m->phase;
    for (uint64_t i = 0; i < calls; i++, m->calls++) {
        double u = (double)(check_random(&m->seed) >> 11) / 9007199254740992.0;
        ticks += m->calls < m->slow_calls
                     ? m->slow_cost
                     : m->cost * (1 - m->spread + 2 * m->spread * u) *
                           (burst ? m->slowdown : 1);
    }
    uint64_t whole = (uint64_t)ticks;
    if (m->step)
        whole -= whole % m->step;
    m->clock += whole + m->gap;
    if (m->per_call && m->batches < LOGGED)
        m->per_call[m->batches] = (double)whole / (double)calls;
    m->batches++;
    return whole;
}

static uint64_t model_now(void *ctx)
{
    return ((model *)ctx)->clock;
}

static sampler_config config(void)
{
    return (sampler_config){
        .precision = 0.005,
        .batch_ticks = 10000,
        .warmup_ticks = 100000,
        .min_ticks = 0,
        .cap_ticks = 100000000,
        .block_ticks = 200000,
        .min_samples = 24,
        .min_blocks = 10,
        .max_samples = 1u << 20,
    };
}

/* Its CHECK belongs to the case open when it is called: every caller
 * opens its case first. */
static sampler_result run(const sampler_config *c, model *m)
{
    sampler_result r;
    sampler_source src = { model_batch, model_now, m };
    m->seed = m->seed ? m->seed : 42;
    CHECK(sampler_run(c, &src, &r) == 0, "sampler_run failed");
    return r;
}

static void test_quantiles(void)
{
    double v[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
    CASE("quantiles interpolate between ranks");
    CHECK(sampler_quantile(v, 10, 0.5) == 5.5, "median %g",
          sampler_quantile(v, 10, 0.5));
    CHECK(sampler_quantile(v, 10, 0.25) == 3.25, "q1 %g",
          sampler_quantile(v, 10, 0.25));
    CHECK(sampler_quantile(v, 10, 0.75) == 7.75, "q3 %g",
          sampler_quantile(v, 10, 0.75));
    CHECK(sampler_quantile(v, 9, 0.5) == 5, "odd median %g",
          sampler_quantile(v, 9, 0.5));
    CHECK(sampler_quantile(v, 1, 0.25) == 1, "one value");
}

static void test_median_ci(void)
{
    double v[100], low, high;
    for (int i = 0; i < 100; i++)
        v[i] = i + 1;
    /* n = 100: ranks 50 - 9.8 and 51 + 9.8, rounded: 40 and 61. */
    CASE("the median's 95%% CI is the order statistics at n/2 -+ 0.98 sqrt(n)");
    sampler_median_ci(v, 100, &low, &high);
    CHECK(low == 40 && high == 61, "CI [%g, %g], want [40, 61]", low, high);
    /* Small n clamps to the extremes rather than reading outside. */
    sampler_median_ci(v, 3, &low, &high);
    CHECK(low == 1 && high == 3, "n=3 CI [%g, %g]", low, high);

    CASE("precision: the whole CI within +-p of the median");
    CHECK(sampler_precise(100, 99.6, 100.4, 0.005), "inside the bound");
    CHECK(!sampler_precise(100, 99.4, 100.2, 0.005), "low side outside");
    CHECK(!sampler_precise(100, 99.8, 100.6, 0.005), "high side outside");
}

static void test_stops_when_precise(void)
{
    sampler_config c = config();
    model m = { .cost = 1000, .spread = 0.001, .gap = 50 };
    CASE("steady data stops at the first check, precise");
    sampler_result r = run(&c, &m);
    CHECK(r.precision_reached == 1, "precision not reached");
    CHECK(r.blocks == c.min_blocks, "%zu blocks, want %zu", r.blocks,
          c.min_blocks);
    /* Ten blocks of 200k ticks: 2M ticks of calls of 1000. */
    CHECK(fabs((double)(r.samples * r.calls_per_batch) - 2000) < 200,
          "%zu samples of %llu calls", r.samples,
          (unsigned long long)r.calls_per_batch);
    CHECK(fabs(r.median - 1000) < 2, "median %g", r.median);
    CHECK(r.q1 <= r.median && r.median <= r.q3, "quartiles %g %g %g", r.q1,
          r.median, r.q3);
    CHECK(r.ci_low >= r.median * 0.995 && r.ci_high <= r.median * 1.005,
          "CI [%g, %g]", r.ci_low, r.ci_high);

    CASE("noisier data samples longer, until the CI is within +-0.5%%");
    /* One call per batch, so a sample is one call's cost. */
    model noisy = { .cost = 20000, .spread = 0.05, .gap = 50 };
    r = run(&c, &noisy);
    CHECK(r.precision_reached == 1, "precision not reached");
    CHECK(r.samples > c.min_samples, "%zu samples", r.samples);
    CHECK(sampler_precise(r.median, r.ci_low, r.ci_high, 0.005),
          "CI [%g, %g] around %g", r.ci_low, r.ci_high, r.median);
    /* Uniform on [19000, 21000]: the quartiles are 19500 and 20500. */
    CHECK(r.calls_per_batch == 1, "%llu calls per batch",
          (unsigned long long)r.calls_per_batch);
    CHECK(fabs(r.q1 - 19500) < 120 && fabs(r.q3 - 20500) < 120,
          "q1 %g q3 %g", r.q1, r.q3);
}

static void test_slow_phases_widen_the_interval(void)
{
    sampler_config c = config();
    /* Every 2M ticks (ten blocks), the last 40% run 8% slow: each block
     * lies within one phase. The samples of any one moment agree closely,
     * so an interval over samples would be narrow at once; over blocks it
     * holds slow ones until the fast blocks outnumber them enough: the
     * upper rank 1 + k/2 + 0.98 sqrt(k) must fall below the fast blocks'
     * share of k, about 0.6 k, so some 100 blocks against a steady 10. */
    model m = { .cost = 1000, .spread = 0.001, .gap = 50, .phase = 2000000,
                .slow_share = 0.4, .slowdown = 1.08 };
    CASE("slow phases of the host keep it sampling until blocks agree");
    sampler_result r = run(&c, &m);
    CHECK(r.precision_reached == 1, "precision not reached");
    CHECK(r.blocks >= 60, "stopped after %zu blocks", r.blocks);
    CHECK(fabs(r.median - 1000) < 2, "median %g is not the usual speed",
          r.median);
    CHECK(r.q3 > 1070, "q3 %g: the slow phases are missing", r.q3);
}

/* Two levels among sorted block medians: a step of a quarter with a tenth
 * of the blocks (and two) either side, and nothing less. */
static void test_two_levels(void)
{
    sampler_levels l;
    double two[12], spread[21], outlier[20], steady[10], edge[12];
    for (int i = 0; i < 12; i++)
        two[i] = i < 5 ? 1000 + i : 2000 + 10 * i; /* 5 fast, 7 slow */
    for (int i = 0; i < 21; i++)
        spread[i] = 1000 * (1 + 0.05 * i); /* 1000 to 2000, no step */
    for (int i = 0; i < 20; i++)
        outlier[i] = i < 19 ? 1000 + i : 3000; /* one slow block */
    for (int i = 0; i < 10; i++)
        steady[i] = 1000 + 3 * i;
    for (int i = 0; i < 12; i++)
        edge[i] = i < 6 ? 1000 : 1249; /* a step just under a quarter */

    CASE("two speeds among the blocks are found, with each level's median");
    sampler_two_levels(two, 12, &l);
    CHECK(l.two == 1, "not found");
    CHECK(l.low == 1002, "low %g, not the fast blocks' median", l.low);
    CHECK(l.high == 2080, "high %g, not the slow blocks' median", l.high);
    CHECK(fabs(l.low_share - 5.0 / 12) < 1e-12, "share %g", l.low_share);
    CASE("a spread with no wide step, one outlying block, a steady run and "
         "a step under a quarter are one level");
    sampler_two_levels(spread, 21, &l);
    CHECK(l.two == 0, "a spread called two levels");
    sampler_two_levels(outlier, 20, &l);
    CHECK(l.two == 0, "one block called a level");
    sampler_two_levels(steady, 10, &l);
    CHECK(l.two == 0, "a steady run called two levels");
    sampler_two_levels(edge, 12, &l);
    CHECK(l.two == 0, "a step of 1.249 called two levels");
    edge[6] = edge[7] = 1250;
    for (int i = 8; i < 12; i++)
        edge[i] = 1250;
    sampler_two_levels(edge, 12, &l);
    CHECK(l.two == 1 && l.low == 1000 && l.high == 1250,
          "a step of 1.25 not found");
}

/* The sampler reports them: a host whose slow spells halve the kernel's
 * speed for 40% of the time, against the 8% spells of the test above. */
static void test_two_levels_reported(void)
{
    sampler_config c = config();
    model half = { .cost = 1000, .spread = 0.001, .gap = 50,
                   .phase = 2000000, .slow_share = 0.4, .slowdown = 2.0 };
    model slight = { .cost = 1000, .spread = 0.001, .gap = 50,
                     .phase = 2000000, .slow_share = 0.4, .slowdown = 1.08 };
    /* Five whole phases at least, so that the blocks' shares are the
     * spells' (it would stop sooner, the median pinned). */
    c.min_ticks = 5 * half.phase;
    CASE("a kernel at two speeds is reported with both levels");
    sampler_result r = run(&c, &half);
    CHECK(r.levels.two == 1, "two speeds not reported");
    CHECK(fabs(r.levels.low - 1000) < 5 && fabs(r.levels.high - 2000) < 10,
          "levels %g and %g, not 1000 and 2000", r.levels.low,
          r.levels.high);
    CHECK(fabs(r.levels.low_share - 0.6) < 0.05,
          "fast share %g of %zu blocks, not about 0.6", r.levels.low_share,
          r.blocks);
    r = run(&c, &slight);
    CHECK(r.levels.two == 0, "8%% slow spells reported as two speeds");
}

/* The median of all the samples need not lie between the two blocks'
 * medians that bound the interval (blocks hold different counts, and the
 * last one is still open, and the median of an even count is the mean of
 * two steps of the TSC): on the Xeon VM a memcpy run reported its median
 * 3e-6 above its interval. */
static void test_interval_contains_median(void)
{
    size_t outside = 0, runs = 0;
    sampler_config c = config();
    c.cap_ticks = 7777777;
    CASE("the interval always contains the median it qualifies");
    for (uint64_t seed = 1; seed <= 200; seed++) {
        /* Bursts shorter than a batch: every other batch or so is 5% slow,
         * so the samples form two clusters and the median can fall
         * between them, or in the other one from most blocks' medians. */
        model m = { .cost = 1000, .spread = 0.001, .gap = 50, .step = 26,
                    .phase = 131 * seed, .slow_share = 0.5,
                    .slowdown = 1.05, .seed = seed };
        sampler_result r = run(&c, &m);
        runs++;
        if (!(r.ci_low <= r.median && r.median <= r.ci_high)) {
            outside++;
            CHECK(0, "seed %llu: median %.9g outside [%.9g, %.9g]",
                  (unsigned long long)seed, r.median, r.ci_low, r.ci_high);
        }
    }
    CHECK(runs == 200 && outside == 0, "%zu of %zu outside", outside, runs);
}

static void test_cap(void)
{
    sampler_config c = config();
    c.cap_ticks = 2000000;
    /* +-50% per call in batches of 10 calls: the CI needs far more samples
     * than the cap allows. */
    model m = { .cost = 1000, .spread = 0.5, .gap = 50 };
    CASE("the cap stops sampling that never gets precise, and says so");
    sampler_result r = run(&c, &m);
    uint64_t batch = r.calls_per_batch * 1500 + m.gap;
    CHECK(r.precision_reached == 0, "precision reported reached");
    CHECK(!sampler_precise(r.median, r.ci_low, r.ci_high, 0.005),
          "the CI [%g, %g] is precise after all", r.ci_low, r.ci_high);
    CHECK(r.elapsed_ticks >= c.cap_ticks, "stopped at %llu ticks",
          (unsigned long long)r.elapsed_ticks);
    /* Sampling ends within one batch after the cap (plus the warm-up). */
    CHECK(r.elapsed_ticks <= c.cap_ticks + c.warmup_ticks + 2 * batch,
          "ran %llu ticks past the cap",
          (unsigned long long)(r.elapsed_ticks - c.cap_ticks));
    CHECK(fabs(r.median - 1000) < 30, "median %g", r.median);

    CASE("the sample limit stops sampling too");
    c.cap_ticks = UINT64_MAX;
    c.max_samples = 1000;
    model again = { .cost = 1000, .spread = 0.5, .gap = 50 };
    r = run(&c, &again);
    CHECK(r.samples == 1000 && r.precision_reached == 0, "%zu samples",
          r.samples);
}

static void test_min_time(void)
{
    sampler_config c = config();
    c.min_ticks = 5000000;
    model m = { .cost = 1000, .spread = 0.001, .gap = 50 };
    CASE("a precise median still samples for the minimum time");
    sampler_result r = run(&c, &m);
    CHECK(r.precision_reached == 1, "precision not reached");
    CHECK(r.elapsed_ticks >= c.min_ticks, "stopped after %llu ticks",
          (unsigned long long)r.elapsed_ticks);
    CHECK(r.samples * r.calls_per_batch * 1000 >= c.min_ticks,
          "%zu samples of %llu calls", r.samples,
          (unsigned long long)r.calls_per_batch);

    CASE("the default configuration: a cap below the minimum is raised");
    sampler_config d = sampler_default_config(1e9, 2, 0.5);
    CHECK(d.min_ticks == 2000000000u && d.cap_ticks == 2000000000u,
          "min %llu cap %llu", (unsigned long long)d.min_ticks,
          (unsigned long long)d.cap_ticks);
    d = sampler_default_config(1e9, -1, 0.5);
    CHECK(d.min_ticks == 0 && d.cap_ticks == 500000000u &&
              d.batch_ticks == 10000 && d.block_ticks == 10000000 &&
              d.min_blocks == SAMPLER_MIN_BLOCKS,
          "min %llu cap %llu batch %llu block %llu",
          (unsigned long long)d.min_ticks, (unsigned long long)d.cap_ticks,
          (unsigned long long)d.batch_ticks, (unsigned long long)d.block_ticks);

    CASE("on a slow counter (24 MHz, aarch64's generic timer) a batch is "
         "%d ticks, not 10 us", SAMPLER_BATCH_MIN_TICKS);
    d = sampler_default_config(24e6, 1, 2);
    CHECK(d.batch_ticks == SAMPLER_BATCH_MIN_TICKS &&
              d.block_ticks == 240000,
          "batch %llu block %llu", (unsigned long long)d.batch_ticks,
          (unsigned long long)d.block_ticks);
}

static void test_cap_for_run(void)
{
    static const struct {
        size_t n;
        double cap;
    } want[] = {
        { 0, SAMPLER_CAP_MAX_SECONDS }, { 1, SAMPLER_CAP_MAX_SECONDS },
        { 10, 2.0 }, { 20, 1.0 }, { 40, 0.5 }, { 48, 20.0 / 48 },
        { 80, 0.25 },
        { 960, SAMPLER_CAP_SECONDS },
        { 1002, SAMPLER_SWEEP_BUDGET_SECONDS / 1002 },
        { 2000, 0.12 },
        { 2400, SAMPLER_MIN_BLOCKS * SAMPLER_BLOCK_SECONDS },
        { 5000, SAMPLER_MIN_BLOCKS * SAMPLER_BLOCK_SECONDS },
    };
    CASE("the cap shares the run's budget: a few benchmarks wait longer, a "
         "sweep gets the floor or shares the sweep's budget, never below "
         "the least blocks; a quarter of the cap is the least time");
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        double got = sampler_cap_for_run(want[i].n, 0);
        CHECK(fabs(got - want[i].cap) < 1e-9, "%zu benchmarks: cap %g s, "
              "want %g s", want[i].n, got, want[i].cap);
    }
    CHECK(fabs(sampler_min_time(sampler_cap_for_run(1, 0)) - 0.5) < 1e-9 &&
              fabs(sampler_min_time(sampler_cap_for_run(960, 0)) - 0.0625) <
                  1e-9,
          "least time %g s for one, %g s for 960",
          sampler_min_time(sampler_cap_for_run(1, 0)),
          sampler_min_time(sampler_cap_for_run(960, 0)));

    CASE("what a sweep times besides its benchmarks (bench's pair rounds) "
         "comes out of the sweep's budget, never below the least blocks");
    double cap = sampler_cap_for_run(1002, 40);
    CHECK(fabs(cap - (SAMPLER_SWEEP_BUDGET_SECONDS - 40) / 1002) < 1e-9,
          "1002 benchmarks beside 40 s of rounds: cap %g s", cap);
    cap = sampler_cap_for_run(2400, 40);
    CHECK(fabs(cap - SAMPLER_MIN_BLOCKS * SAMPLER_BLOCK_SECONDS) < 1e-9,
          "2400 benchmarks beside 40 s of rounds: cap %g s", cap);
    CHECK(fabs(sampler_cap_for_run(10, 40) - 2.0) < 1e-9,
          "10 benchmarks beside 40 s of rounds: cap %g s, want their run's "
          "share", sampler_cap_for_run(10, 40));

    /* The full sweep as the registry makes it now, every benchmark
     * sampling to its cap and warming up, and its default pair rounds:
     * under five minutes. */
    size_t sweep = cmd_bench_full_sweep(), pairs = cmd_bench_full_sweep_pairs();
    double rounds = pair_rounds_seconds(PAIR_ROUNDS_DEFAULT, pairs);
    cap = sampler_cap_for_run(sweep, rounds);
    double total = sweep * (cap + SAMPLER_WARMUP_SECONDS) + rounds;
    CHECK(total < 300, "the full sweep, %zu benchmarks capped at %g s each "
          "and %u rounds of %zu pairs (%.0f s), could take %.0f s", sweep,
          cap, PAIR_ROUNDS_DEFAULT, pairs, rounds, total);
}

static void test_batch_size(void)
{
    sampler_config c = config();
    model m = { .cost = 100, .spread = 0.001 };
    CASE("a batch is sized to at least batch_ticks, at most a few times it");
    sampler_result r = run(&c, &m);
    CHECK(r.calls_per_batch * 100 >= c.batch_ticks, "%llu calls of 100",
          (unsigned long long)r.calls_per_batch);
    CHECK(r.calls_per_batch * 100 <= 4 * c.batch_ticks, "%llu calls of 100",
          (unsigned long long)r.calls_per_batch);
    CHECK(fabs(r.median - 100) < 0.5, "median %g per call", r.median);

    CASE("a call longer than a batch is a batch of one");
    model slow = { .cost = 50000, .spread = 0.001 };
    r = run(&c, &slow);
    CHECK(r.calls_per_batch == 1, "%llu calls",
          (unsigned long long)r.calls_per_batch);
}

static void test_warmup_excluded(void)
{
    static double logged[LOGGED], sampled[LOGGED];
    model m = { .cost = 1000, .spread = 0.01, .slow_cost = 20000,
                .slow_calls = 4, .per_call = logged };
    sampler_config c = config();
    /* The first four calls cost 20x (cold caches, first-touch faults): the
     * first batches are sized on them, and the warm-up must regrow the
     * batch once the calls get fast. */
    CASE("no warm-up batch enters the statistics");
    sampler_result r = run(&c, &m);
    size_t first = r.warmup_batches;
    CHECK(first > 2 && first + r.samples == m.batches,
          "%zu warm-up + %zu samples != %llu batches", first, r.samples,
          (unsigned long long)m.batches);
    CHECK(m.per_call[0] >= 20000, "the first batch was not the slow call");
    memcpy(sampled, m.per_call + first, r.samples * sizeof *sampled);
    qsort(sampled, r.samples, sizeof *sampled, compare_double);
    CHECK(sampler_quantile(sampled, r.samples, 0.5) == r.median,
          "the median %g is not that of the batches after the warm-up (%g)",
          r.median, sampler_quantile(sampled, r.samples, 0.5));
    CHECK(sampled[r.samples - 1] < 1100, "a slow call got in: %g",
          sampled[r.samples - 1]);
    CHECK(r.calls_per_batch * 990 >= c.batch_ticks,
          "batch of %llu calls sized on the slow ones",
          (unsigned long long)r.calls_per_batch);

    CASE("the warm-up lasts at least warmup_ticks");
    model quick = { .cost = 1000, .spread = 0.001 };
    r = run(&c, &quick);
    CHECK(r.warmup_batches * r.calls_per_batch * 1000 >= c.warmup_ticks,
          "%zu warm-up batches of %llu calls", r.warmup_batches,
          (unsigned long long)r.calls_per_batch);
}

int main(void)
{
    test_quantiles();
    test_median_ci();
    test_stops_when_precise();
    test_slow_phases_widen_the_interval();
    test_interval_contains_median();
    test_cap();
    test_min_time();
    test_cap_for_run();
    test_batch_size();
    test_warmup_excluded();
    test_two_levels();
    test_two_levels_reported();
    return check_finish();
}
