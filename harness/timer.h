/* The cycle timer: fenced RDTSC, its own overhead, the TSC's frequency and
 * how many core cycles one TSC tick is worth.
 *
 * TSC ticks are not core cycles: the TSC runs at a fixed rate while the core
 * clock follows turbo and power states. Every number we publish says which
 * of the two it counts. */
#ifndef CYCLEBENCH_TIMER_H
#define CYCLEBENCH_TIMER_H

#include <stdint.h>

/* lfence keeps earlier instructions from still running when the TSC is read
 * (and the timed code from starting before it). */
static inline uint64_t timer_start(void)
{
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return (uint64_t)hi << 32 | lo;
}

/* rdtscp waits for the timed code to finish; the lfence after it keeps
 * later code from starting before the read. */
static inline uint64_t timer_stop(void)
{
    uint32_t lo, hi, aux;
    __asm__ volatile("rdtscp\n\tlfence"
                     : "=a"(lo), "=d"(hi), "=c"(aux)
                     :
                     : "memory");
    return (uint64_t)hi << 32 | lo;
}

typedef struct timer_info {
    double tsc_hz;
    /* "cpuid-0x15", "cpuid-0x16" or "clock_monotonic_raw" (calibrated). */
    const char *tsc_hz_source;
    /* Ticks an empty timer_start/timer_stop pair reads; subtract it from
     * every measurement. */
    uint64_t overhead_ticks;
    /* Core cycles per TSC tick, from a dependent-add chain. */
    double core_tsc_ratio;
} timer_info;

/* Measured on first call (about 0.1 s), cached afterwards. Call it after
 * pinning and frequency settings, so it describes the conditions of the
 * run. */
const timer_info *timer_get_info(void);

/* Spin on the TSC for about this long (timer_get_info first). */
void timer_busy_wait(double seconds);

/* The pieces of timer_get_info, each measured afresh (for tests). */
uint64_t timer_measure_overhead(void);
/* Returns the frequency and sets *source. */
double timer_tsc_hz(const char **source);
double timer_calibrate_tsc_hz(void);
double timer_calibrate_core_ratio(void);
/* The ratio from a source of timings: time_adds returns the TSC ticks that
 * TIMER_RATIO_ADDS dependent adds took (the real chain above, or a model
 * clock in the tests). */
#define TIMER_RATIO_ADDS 1000000
double timer_core_ratio_of(uint64_t (*time_adds)(void *ctx), void *ctx);

#endif
