/* The cycle timer: a fixed-rate counter read with fences, its own overhead,
 * its frequency and how many core cycles one of its ticks is worth. On
 * x86-64 the counter is the TSC (RDTSC); on aarch64 the generic timer's
 * virtual count (CNTVCT_EL0, at CNTFRQ_EL0), which ticks far slower than
 * the core: often 24 MHz to 1 GHz.
 *
 * Timer ticks are not core cycles: the counter runs at a fixed rate while
 * the core clock follows turbo and power states. Every number we publish
 * says which of the two it counts, and which counter. */
#ifndef CYCLEBENCH_TIMER_H
#define CYCLEBENCH_TIMER_H

#include <stdint.h>

#if defined(__x86_64__)
/* The counter's name in results and messages. */
#define TIMER_CLOCK "tsc"

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

#elif defined(__aarch64__)
#define TIMER_CLOCK "cntvct"

/* isb waits for earlier instructions to finish before the counter is read
 * (the read is not otherwise ordered with them). */
static inline uint64_t timer_start(void)
{
    uint64_t t;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(t) : : "memory");
    return t;
}

/* The isb after the read keeps later code from starting before it. */
static inline uint64_t timer_stop(void)
{
    uint64_t t;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0\n\tisb"
                     : "=r"(t)
                     :
                     : "memory");
    return t;
}
#endif

typedef struct timer_info {
    /* The counter's ticks per second, though on aarch64 it is not the TSC. */
    double tsc_hz;
    /* "cpuid-0x15", "cpuid-0x16", "cntfrq_el0" or "clock_monotonic_raw"
     * (calibrated). */
    const char *tsc_hz_source;
    /* Ticks an empty timer_start/timer_stop pair reads; subtract it from
     * every measurement. */
    uint64_t overhead_ticks;
    /* Core cycles per counter tick, from a dependent-add chain. */
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

#endif
