#include "timer.h"

#include <stdlib.h>
#include <time.h>

#define OVERHEAD_SAMPLES 10001
#define RATIO_SAMPLES 15
/* 10^4 loops of 100 adds: 10^6 core cycles, under a millisecond, short
 * enough that an interrupt rarely lands in a sample. */
#define RATIO_LOOPS 10000
#define ADDS_PER_LOOP 100
#define CALIBRATION_NS 100000000L
#define STR_(x) #x
#define STR(x) STR_(x)

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median, not the minimum: the minimum is a best case the timed code
 * never sees, and subtracting it would leave the usual cost in every
 * result. */
uint64_t timer_measure_overhead(void)
{
    static uint64_t samples[OVERHEAD_SAMPLES];
    for (int i = 0; i < OVERHEAD_SAMPLES; i++) {
        uint64_t t0 = timer_start();
        uint64_t t1 = timer_stop();
        samples[i] = t1 - t0;
    }
    qsort(samples, OVERHEAD_SAMPLES, sizeof *samples, compare_u64);
    return samples[OVERHEAD_SAMPLES / 2];
}

#if defined(__x86_64__)
#include <cpuid.h>

/* Leaf 0x15 gives the TSC as crystal * EBX / EAX; when the crystal (ECX) is
 * not enumerated, Intel documents the TSC as running at the base frequency
 * of leaf 0x16. AMD fills in neither. */
static double counter_hz(const char **source)
{
    unsigned max = __get_cpuid_max(0, NULL), eax, ebx, ecx, edx;
    if (max < 0x15)
        return 0;
    __cpuid_count(0x15, 0, eax, ebx, ecx, edx);
    if (eax == 0 || ebx == 0)
        return 0;
    if (ecx) {
        *source = "cpuid-0x15";
        return (double)ecx * ebx / eax;
    }
    if (max < 0x16)
        return 0;
    __cpuid_count(0x16, 0, eax, ebx, ecx, edx);
    if ((eax & 0xffff) == 0)
        return 0;
    *source = "cpuid-0x16";
    return (eax & 0xffff) * 1e6;
}

#elif defined(__aarch64__)
/* Firmware writes the generic timer's frequency into CNTFRQ_EL0; Linux
 * trusts it, and so do we. */
static double counter_hz(const char **source)
{
    uint64_t hz;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
    *source = "cntfrq_el0";
    return (double)hz;
}
#endif

static int64_t raw_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A clock reading and the counter at the same moment: the tightest of a few
 * bracketing pairs, taking the counter at its middle. */
static void read_clock_and_tsc(int64_t *ns, uint64_t *tsc)
{
    uint64_t best = UINT64_MAX;
    *ns = 0;
    *tsc = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t t0 = timer_start();
        int64_t now = raw_ns();
        uint64_t t1 = timer_stop();
        if (t1 - t0 < best) {
            best = t1 - t0;
            *ns = now;
            *tsc = t0 + (t1 - t0) / 2;
        }
    }
}

/* CLOCK_MONOTONIC_RAW is not slewed by NTP, so it is the kernel's own view
 * of elapsed time against which the counter's rate is a plain ratio. */
double timer_calibrate_tsc_hz(void)
{
    int64_t ns0, ns1;
    uint64_t tsc0, tsc1;
    struct timespec pause = { 0, CALIBRATION_NS };
    read_clock_and_tsc(&ns0, &tsc0);
    while (nanosleep(&pause, &pause) != 0)
        ;
    read_clock_and_tsc(&ns1, &tsc1);
    return (double)(tsc1 - tsc0) * 1e9 / (double)(ns1 - ns0);
}

double timer_tsc_hz(const char **source)
{
    double hz = counter_hz(source);
    if (hz > 0)
        return hz;
    *source = "clock_monotonic_raw";
    return timer_calibrate_tsc_hz();
}

/* Each add depends on the one before, so the chain retires one add per
 * core cycle whatever the clock; the loop counter is a separate chain that
 * runs alongside. The addend is a register, not an immediate: Intel's
 * Golden Cove and later cores fold chains of immediate adds at rename and
 * run several per cycle (seen here on an Emerald Rapids guest: 4.7 "adds"
 * per TSC tick, which would put the core at 10 GHz). */
static uint64_t time_dependent_adds(void)
{
    uint64_t x = 0, one = 1, loops = RATIO_LOOPS;
    uint64_t t0 = timer_start();
#if defined(__x86_64__)
    __asm__ volatile("1:\n\t"
                     ".rept " STR(ADDS_PER_LOOP) "\n\t"
                     "add %2, %0\n\t"
                     ".endr\n\t"
                     "dec %1\n\t"
                     "jnz 1b"
                     : "+r"(x), "+r"(loops)
                     : "r"(one)
                     : "cc");
#elif defined(__aarch64__)
    __asm__ volatile("1:\n\t"
                     ".rept " STR(ADDS_PER_LOOP) "\n\t"
                     "add %0, %0, %2\n\t"
                     ".endr\n\t"
                     "subs %1, %1, #1\n\t"
                     "b.ne 1b"
                     : "+r"(x), "+r"(loops)
                     : "r"(one)
                     : "cc");
#endif
    return timer_stop() - t0;
}

double timer_calibrate_core_ratio(void)
{
    double ratio[RATIO_SAMPLES];
    /* Untimed rounds first, so a core waking from idle has reached its
     * running clock. */
    for (int i = 0; i < 5; i++)
        time_dependent_adds();
    for (int i = 0; i < RATIO_SAMPLES; i++)
        ratio[i] = (double)RATIO_LOOPS * ADDS_PER_LOOP /
                   (double)time_dependent_adds();
    /* The largest ratio is the sample taking the fewest ticks: an interrupt
     * or another task on this CPU only ever adds ticks to a sample, so the
     * fastest one is the least disturbed. A median is dragged down as soon
     * as half the samples share the CPU. */
    qsort(ratio, RATIO_SAMPLES, sizeof *ratio, compare_double);
    return ratio[RATIO_SAMPLES - 1];
}

const timer_info *timer_get_info(void)
{
    static timer_info info;
    if (info.tsc_hz == 0) {
        info.overhead_ticks = timer_measure_overhead();
        info.core_tsc_ratio = timer_calibrate_core_ratio();
        info.tsc_hz = timer_tsc_hz(&info.tsc_hz_source);
    }
    return &info;
}

void timer_busy_wait(double seconds)
{
    uint64_t until = timer_start() + (uint64_t)(seconds * timer_get_info()->tsc_hz);
    while (timer_start() < until)
        ;
}
