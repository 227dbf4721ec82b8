/* Timing-leak detection, dudect's method (Reparaz, Balasch and
 * Verbauwhede, DATE 2017), as a C API over any operation: `cyclebench
 * leak` adapts a kernel to it, and the tests time their deliberately leaky
 * controls through the same loop.
 *
 * Each measurement times one call on inputs of one of two classes, a fixed
 * secret or a fresh random one, the class drawn at random so that the two
 * interleave and drift in the machine hits both alike. Inputs are prepared
 * a batch at a time before any of that batch is timed, so preparing (the
 * random generator, the copies) never sits between a class and its timing.
 * Each call is timed alone with the harness's fenced RDTSC; the caller pins
 * the thread. The timings feed welch.h's battery of t-tests. */
#ifndef CYCLEBENCH_LEAK_H
#define CYCLEBENCH_LEAK_H

#include <stddef.h>
#include <stdint.h>

#include "welch.h"

typedef struct leak_target {
    /* Give slot's inputs class cls: 0 the fixed secret, 1 a fresh random
     * one (from leak_random). Never timed. */
    void (*prepare)(void *ctx, size_t slot, int cls);
    /* The operation on slot's inputs: the only thing timed. */
    void (*call)(void *ctx, size_t slot);
    void *ctx;
    size_t slots; /* inputs prepared per batch; at least 1 */
    /* Optional, for the tests: the ticks slot's call takes on a model
     * clock, given instead of call timed with fenced RDTSC. A time budget
     * is still counted on the TSC. */
    uint64_t (*model_ticks)(void *ctx, size_t slot);
} leak_target;

/* Measuring stops at whichever limit comes first; 0 is no limit, and at
 * least one must be set. */
typedef struct leak_budget {
    uint64_t measurements; /* counted in the tests */
    double seconds;        /* of TSC time, from the first call */
} leak_budget;

/* `cyclebench leak`'s budget when given neither limit. */
#define LEAK_DEFAULT_MEASUREMENTS 1000000u
#define LEAK_DEFAULT_SECONDS 30.0

/* The first measurements warm the caches and set the cropping thresholds;
 * they are not counted (dudect also throws its first batch away). */
#define LEAK_CALIBRATION 10000u

typedef struct leak_result {
    welch_max max;
    uint64_t measurements;
    double mean_ticks[2]; /* per class, raw, TSC ticks per call */
    double seconds;       /* from the first call to the last */
} leak_result;

/* Returns 0, or -1 when memory runs out (nothing measured). */
int leak_measure(const leak_target *t, const leak_budget *b, leak_result *r);

/* dudect's thresholds on |t|. */
#define LEAK_T_POSSIBLE 4.5
#define LEAK_T_LEAK 10.0

typedef enum leak_verdict {
    LEAK_NONE_FOUND, /* |t| <= 4.5 */
    LEAK_POSSIBLE,   /* 4.5 < |t| <= 10 */
    LEAK_FOUND,      /* |t| > 10 */
} leak_verdict;

leak_verdict leak_judge(double abs_t);
/* "no leak found", "possible leak, measure longer" or "leak". Never
 * "constant-time": no leak found is not a proof of none. */
const char *leak_verdict_text(leak_verdict v);

/* Fast non-cryptographic random bytes (xoshiro256**, seeded once from
 * getrandom): enough to draw classes and random secrets. */
void leak_random(uint8_t *p, size_t n);

#endif
