/* `cyclebench leak`'s statistics (harness/welch.h) and measurement loop
 * (harness/leak.h), and the acceptance controls (tests/c/leak_controls.h):
 * an early-exit comparison and a secret-indexed table lookup must reach
 * |t| > 10 within the default budget, and a constant-time comparison must
 * show no leak at that budget. `make ctgrind` judges the same controls in
 * tests/py/ctgrind_test.sh. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../leak/leak.h"
#include "../../harness/sysctl.h"
#include "../../leak/welch.h"
#include "check.h"
#include "leak_controls.h"

static int near(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fabs(b);
}

static welch welch_of(const double *a, size_t na, const double *b, size_t nb)
{
    welch w = { 0 };
    for (size_t i = 0; i < na; i++)
        welch_push(&w, 0, a[i]);
    for (size_t i = 0; i < nb; i++)
        welch_push(&w, 1, b[i]);
    return w;
}

static void test_welch_t(void)
{
    /* scipy.stats.ttest_ind(a, b, equal_var=False).statistic */
    static const double a1[] = { 10, 12, 11, 13, 12, 14, 10, 11 };
    static const double b1[] = { 15, 14, 16, 13, 17, 15, 16 };
    static const double a2[] = { 100, 101, 99, 100, 102 };
    static const double b2[] = { 100, 99, 101, 100, 100, 98 };
    CASE("Welch's t matches scipy's ttest_ind(equal_var=False)");
    welch w = welch_of(a1, 8, b1, 7);
    CHECK(near(welch_t(&w), -4.944092218900263, 1e-12), "t = %.15f",
          welch_t(&w));
    w = welch_of(a2, 5, b2, 6);
    CHECK(near(welch_t(&w), 1.1083439880917338, 1e-12), "t = %.15f",
          welch_t(&w));

    CASE("Welch's t: 0 below two values a class, infinite without spread");
    w = welch_of(a1, 8, b1, 1);
    CHECK(welch_t(&w) == 0, "one value in class 1: t = %g", welch_t(&w));
    static const double fives[] = { 5, 5, 5 }, sixes[] = { 6, 6, 6 };
    w = welch_of(fives, 3, fives, 3);
    CHECK(welch_t(&w) == 0, "equal constants: t = %g", welch_t(&w));
    w = welch_of(fives, 3, sixes, 3);
    CHECK(isinf(welch_t(&w)) && welch_t(&w) < 0, "5 against 6: t = %g",
          welch_t(&w));
}

static void test_crops(void)
{
    CASE("cropping percentiles: dudect's 1 - 0.5^(10 (i+1)/100), ascending");
    CHECK(near(welch_crop_percentile(0), 1 - pow(0.5, 0.1), 1e-12), "%g",
          welch_crop_percentile(0));
    CHECK(near(welch_crop_percentile(WELCH_CROPS - 1), 1 - 1.0 / 1024, 1e-12),
          "%g", welch_crop_percentile(WELCH_CROPS - 1));
    int ascending = 1;
    for (int i = 1; i < WELCH_CROPS; i++)
        ascending &= welch_crop_percentile(i) > welch_crop_percentile(i - 1);
    CHECK(ascending, "not strictly ascending");

    CASE("a battery crops at the sample's percentiles, one test per level");
    static uint64_t sample[10000];
    for (size_t i = 0; i < 10000; i++)
        sample[i] = (i * 7919) % 10000; /* 0..9999, shuffled */
    static welch_battery b;
    welch_battery_init(&b, sample, 10000);
    size_t distinct = 1;
    for (int i = 1; i < WELCH_CROPS; i++)
        distinct += (size_t)(welch_crop_percentile(i) * 10000) !=
                    (size_t)(welch_crop_percentile(i - 1) * 10000);
    CHECK(b.n_levels == distinct, "%zu levels for %zu distinct thresholds",
          b.n_levels, distinct);
    uint64_t want = (uint64_t)(welch_crop_percentile(50) * 10000);
    CHECK(b.level_threshold[b.crop_level[50]] == want, "crop 50 at %llu, "
          "want %llu", (unsigned long long)b.level_threshold[b.crop_level[50]],
          (unsigned long long)want);
    welch_battery_push(&b, 0, want - 1);
    welch_battery_push(&b, 1, want);
    CHECK(welch_battery_count(&b) == 2, "raw test holds %llu",
          (unsigned long long)welch_battery_count(&b));
    CHECK(b.level[b.crop_level[50]].n[0] == 1 &&
          b.level[b.crop_level[50]].n[1] == 0,
          "crop 50 keeps values below its threshold only");
    CHECK(b.level[b.crop_level[49]].n[0] == 0, "crop 49 keeps none");

    CASE("crops that share a threshold share a test");
    for (size_t i = 0; i < 10000; i++)
        sample[i] = i % 3 ? 26 : 52; /* two TSC steps */
    welch_battery_init(&b, sample, 10000);
    CHECK(b.n_levels == 2, "%zu levels", b.n_levels);
}

static void test_battery_max(void)
{
    static uint64_t sample[1000];
    static welch_battery b;
    for (size_t i = 0; i < 1000; i++)
        sample[i] = 100 + i % 100;
    welch_battery_init(&b, sample, 1000);
    CASE("the largest |t| counts a cropped test only with enough values");
    /* Below WELCH_ENOUGH per class a cropped test is ignored, however
     * large its t; the raw test always counts. */
    for (int i = 0; i < 50; i++) {
        welch_battery_push(&b, 0, 100 + i % 2);
        welch_battery_push(&b, 1, 150 + i % 2);
    }
    welch_max m = welch_battery_max(&b);
    CHECK(m.crop == -1 && near(m.abs_t, fabs(welch_t(&b.raw)), 1e-12),
          "crop %d, |t| %g", m.crop, m.abs_t);
    for (int i = 0; i < WELCH_ENOUGH; i++) {
        welch_battery_push(&b, 0, 100 + i % 2);
        welch_battery_push(&b, 1, 101 + i % 2);
    }
    m = welch_battery_max(&b);
    CHECK(m.abs_t >= fabs(welch_t(&b.raw)), "max %g below raw %g", m.abs_t,
          fabs(welch_t(&b.raw)));
    CHECK(m.crop >= 0 && m.threshold > 101, "crop %d at %llu", m.crop,
          (unsigned long long)m.threshold);
}

static void test_verdicts(void)
{
    CASE("dudect's thresholds: above 10 a leak, above 4.5 possible");
    CHECK(leak_judge(4.5) == LEAK_NONE_FOUND, "4.5");
    CHECK(leak_judge(4.51) == LEAK_POSSIBLE, "4.51");
    CHECK(leak_judge(10) == LEAK_POSSIBLE, "10");
    CHECK(leak_judge(10.01) == LEAK_FOUND, "10.01");
    CHECK(leak_judge(INFINITY) == LEAK_FOUND, "inf");
    CHECK(!strcmp(leak_verdict_text(LEAK_NONE_FOUND), "no leak found") &&
          !strcmp(leak_verdict_text(LEAK_POSSIBLE),
                  "possible leak, measure longer") &&
          !strcmp(leak_verdict_text(LEAK_FOUND), "leak"), "texts");
}

/* The controls as leak targets: slot i's 64-byte secret, a guess of zeros
 * (the fixed class's secret, so that the fixed class compares in full). */

#define SLOTS 256

typedef struct control {
    int (*fn)(const uint8_t *secret);
    uint8_t secret[SLOTS][CONTROL_SECRET_BYTES];
    uint64_t calls[2];
    volatile int sink;
} control;

static const uint8_t zero_guess[CONTROL_SECRET_BYTES];

static int constant_time(const uint8_t *s)
{
    return control_constant_time_equal(s, zero_guess);
}

static void prepare_control(void *ctx, size_t slot, int cls)
{
    control *c = ctx;
    c->calls[cls]++;
    if (cls)
        leak_random(c->secret[slot], CONTROL_SECRET_BYTES);
    else
        memset(c->secret[slot], 0, CONTROL_SECRET_BYTES);
}

static void call_control(void *ctx, size_t slot)
{
    control *c = ctx;
    c->sink = c->fn(c->secret[slot]);
}

/* The controls on a model clock: a call costs what its work would (a tick
 * for each byte the early exit compares; for each line the lookup reads,
 * a tick when a small direct-mapped cache holds it and 10 when not;
 * nothing that depends on the secret for the constant-time comparison),
 * plus a host's noise: up to 40 ticks of jitter and, one call in 500, an
 * interrupt of 20,000 ticks. The verdicts below are then the detector's
 * own, whatever the machine running the test is doing. */
#define MODEL_CACHE_LINES 512

typedef struct model_state {
    uint64_t seed;
    uint32_t cache[MODEL_CACHE_LINES]; /* line + 1 held in each set */
} model_state;

static model_state model;

static uint64_t model_noise(void)
{
    uint64_t r = check_random(&model.seed);
    return 200 + r % 41 + ((r >> 32) % 500 == 0 ? 20000 : 0);
}

static uint64_t model_early_exit(void *ctx, size_t slot)
{
    const control *c = ctx;
    size_t n = 0;
    while (n < CONTROL_SECRET_BYTES && c->secret[slot][n] == zero_guess[n])
        n++;
    return model_noise() + n + (n < CONTROL_SECRET_BYTES);
}

static uint64_t model_table_lookup(void *ctx, size_t slot)
{
    const control *c = ctx;
    uint64_t ticks = model_noise();
    for (size_t i = 0; i < CONTROL_SECRET_BYTES; i += 2) {
        uint32_t line = c->secret[slot][i] | (uint32_t)c->secret[slot][i + 1]
                                                 << 8;
        uint32_t *set = &model.cache[line % MODEL_CACHE_LINES];
        ticks += *set == line + 1 ? 1 : 10;
        *set = line + 1;
    }
    return ticks;
}

static uint64_t model_constant_time(void *ctx, size_t slot)
{
    (void)ctx;
    (void)slot;
    return model_noise() + CONTROL_SECRET_BYTES;
}

static leak_result measure_control(control *c, int (*fn)(const uint8_t *),
                                   leak_budget budget)
{
    leak_target t = { prepare_control, call_control, c, SLOTS, NULL };
    leak_result r;
    memset(c, 0, sizeof *c);
    c->fn = fn;
    if (leak_measure(&t, &budget, &r)) {
        CHECK(0, "out of memory");
        memset(&r, 0, sizeof r);
    }
    return r;
}

static leak_result measure_model(control *c,
                                 uint64_t (*ticks)(void *, size_t),
                                 leak_budget budget)
{
    leak_target t = { prepare_control, call_control, c, SLOTS, ticks };
    leak_result r;
    memset(c, 0, sizeof *c);
    memset(&model, 0, sizeof model);
    model.seed = 29;
    if (leak_measure(&t, &budget, &r)) {
        CHECK(0, "out of memory");
        memset(&r, 0, sizeof r);
    }
    return r;
}

static void test_measuring(control *c)
{
    CASE("a measurement budget stops at that count, after the calibration");
    leak_result r = measure_control(c, constant_time, (leak_budget){ 20000, 0 });
    CHECK(r.measurements == 20000, "%llu measurements",
          (unsigned long long)r.measurements);
    uint64_t prepared = c->calls[0] + c->calls[1];
    CHECK(prepared >= 20000 + LEAK_CALIBRATION &&
          prepared < 20000 + LEAK_CALIBRATION + SLOTS,
          "%llu inputs prepared", (unsigned long long)prepared);
    CHECK(c->calls[0] > prepared * 2 / 5 && c->calls[1] > prepared * 2 / 5,
          "classes drawn %llu and %llu times",
          (unsigned long long)c->calls[0], (unsigned long long)c->calls[1]);

    CASE("a time budget stops after that long");
    r = measure_control(c, constant_time, (leak_budget){ 0, 0.2 });
    CHECK(r.seconds >= 0.2 && r.seconds < 5, "%.3f s", r.seconds);
    CHECK(r.measurements > 0, "nothing measured");

    CASE("random bytes are not constant");
    uint8_t x[32] = { 0 }, y[32] = { 0 };
    leak_random(x, sizeof x);
    leak_random(y, sizeof y);
    CHECK(memcmp(x, y, sizeof x) != 0, "two draws equal");
}

static void test_controls(control *c)
{
    const leak_budget budget = { LEAK_DEFAULT_MEASUREMENTS,
                                 LEAK_DEFAULT_SECONDS };
    static const struct {
        const char *name;
        uint64_t (*ticks)(void *, size_t);
        int leaks;
    } controls[] = {
        { "early-exit comparison", model_early_exit, 1 },
        { "secret-indexed table lookup", model_table_lookup, 1 },
        { "constant-time comparison", model_constant_time, 0 },
    };
    for (size_t i = 0; i < sizeof controls / sizeof *controls; i++) {
        CASE("%s on a model clock: %s within the default budget",
             controls[i].name,
             controls[i].leaks ? "|t| > 10" : "no leak found");
        leak_result r = measure_model(c, controls[i].ticks, budget);
        leak_verdict want = controls[i].leaks ? LEAK_FOUND : LEAK_NONE_FOUND;
        CHECK(leak_judge(r.max.abs_t) == want, "max |t| = %.1f over %llu "
              "measurements (crop %d)", r.max.abs_t,
              (unsigned long long)r.measurements, r.max.crop);
        printf("# %s: max |t| = %.1f over %llu measurements, means %.1f and "
               "%.1f ticks\n", controls[i].name, r.max.abs_t,
               (unsigned long long)r.measurements, r.mean_ticks[0],
               r.mean_ticks[1]);
    }
}

int main(void)
{
    static control c;
    char err[256];
    test_welch_t();
    test_crops();
    test_battery_max();
    test_verdicts();
    CASE("pinned to the default CPU, as cyclebench leak is");
    CHECK(sysctl_pin(sysctl_default_cpu(), err, sizeof err) == 0, "%s", err);
    test_measuring(&c);
    test_controls(&c);
    return check_finish();
}
