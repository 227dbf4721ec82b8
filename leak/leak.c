#include "leak.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "../harness/splitmix.h"
#include "../harness/timer.h"

/* Random numbers: xoshiro256** (Blackman and Vigna), seeded from the
 * kernel's generator, or from the clock if that fails. */

static uint64_t rng_state[4];
static int rng_seeded;

static uint64_t rotl(uint64_t x, int k)
{
    return x << k | x >> (64 - k);
}

static void rng_seed(void)
{
    uint64_t seed;
    if (getrandom(&seed, sizeof seed, 0) != sizeof seed)
        seed = (uint64_t)time(NULL) ^ timer_start();
    for (int i = 0; i < 4; i++)
        rng_state[i] = splitmix64(&seed);
    rng_seeded = 1;
}

static uint64_t rng_next(void)
{
    if (!rng_seeded)
        rng_seed();
    uint64_t *s = rng_state;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void leak_random(uint8_t *p, size_t n)
{
    while (n) {
        uint64_t r = rng_next();
        size_t take = n < sizeof r ? n : sizeof r;
        memcpy(p, &r, take);
        p += take;
        n -= take;
    }
}

/* Verdicts */

leak_verdict leak_judge(double abs_t)
{
    if (abs_t > LEAK_T_LEAK)
        return LEAK_FOUND;
    return abs_t > LEAK_T_POSSIBLE ? LEAK_POSSIBLE : LEAK_NONE_FOUND;
}

const char *leak_verdict_text(leak_verdict v)
{
    switch (v) {
    case LEAK_FOUND:
        return "leak";
    case LEAK_POSSIBLE:
        return "possible leak, measure longer";
    default:
        return "no leak found";
    }
}

/* Measuring */

typedef struct batch {
    uint8_t *cls;
    uint64_t *ticks;
} batch;

/* Every slot's class and inputs first, then every call timed in turn. */
static void run_batch(const leak_target *t, batch *b)
{
    for (size_t i = 0; i < t->slots; i++) {
        b->cls[i] = (uint8_t)(rng_next() >> 63);
        t->prepare(t->ctx, i, b->cls[i]);
    }
    for (size_t i = 0; i < t->slots; i++) {
        if (t->model_ticks) {
            b->ticks[i] = t->model_ticks(t->ctx, i);
            continue;
        }
        uint64_t start = timer_start();
        t->call(t->ctx, i);
        b->ticks[i] = timer_stop() - start;
    }
}

typedef struct measuring {
    uint64_t *calibration;
    size_t calibrated;
    welch_battery tests;
} measuring;

static int calibrated(const measuring *m)
{
    return m->calibrated == LEAK_CALIBRATION;
}

/* One timing into the calibration sample while it fills, else the tests. */
static void record(measuring *m, int cls, uint64_t ticks)
{
    if (calibrated(m)) {
        welch_battery_push(&m->tests, cls, ticks);
        return;
    }
    m->calibration[m->calibrated++] = ticks;
    if (m->calibrated == LEAK_CALIBRATION)
        welch_battery_init(&m->tests, m->calibration, LEAK_CALIBRATION);
}

static int enough_measured(const leak_budget *b, const measuring *m)
{
    return calibrated(m) && b->measurements &&
           welch_battery_count(&m->tests) >= b->measurements;
}

static int out_of_time(const leak_budget *b, const measuring *m,
                       uint64_t elapsed_ticks)
{
    return calibrated(m) && b->seconds > 0 &&
           (double)elapsed_ticks >= b->seconds * timer_get_info()->tsc_hz;
}

static void summarise(const measuring *m, uint64_t elapsed, leak_result *r)
{
    r->max = welch_battery_max(&m->tests);
    r->measurements = welch_battery_count(&m->tests);
    r->mean_ticks[0] = m->tests.raw.mean[0];
    r->mean_ticks[1] = m->tests.raw.mean[1];
    r->seconds = (double)elapsed / timer_get_info()->tsc_hz;
}

int leak_measure(const leak_target *t, const leak_budget *b, leak_result *r)
{
    batch bt = { malloc(t->slots), malloc(t->slots * sizeof *bt.ticks) };
    measuring *m = calloc(1, sizeof *m);
    int rc = -1;
    if (!bt.cls || !bt.ticks || !m ||
        !(m->calibration = malloc(LEAK_CALIBRATION * sizeof *m->calibration)))
        goto done;
    timer_get_info(); /* calibrated before the clock starts */
    uint64_t start = timer_start(), elapsed;
    do {
        run_batch(t, &bt);
        for (size_t i = 0; i < t->slots && !enough_measured(b, m); i++)
            record(m, bt.cls[i], bt.ticks[i]);
        elapsed = timer_start() - start;
    } while (!enough_measured(b, m) && !out_of_time(b, m, elapsed));
    summarise(m, elapsed, r);
    rc = 0;
done:
    if (m)
        free(m->calibration);
    free(m);
    free(bt.cls);
    free(bt.ticks);
    return rc;
}
