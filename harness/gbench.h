/* Google Benchmark from C: the shape of its C++ API (a state with an
 * iteration loop, bytes processed, named counters, skip-with-error) over
 * Debian's libbenchmark 1.7.1, implemented in gbench.cc.
 *
 *   static void bench(gb_state *s, void *arg)
 *   {
 *       uint64_t n = gb_state_max_iterations(s);  // 1
 *       while (gb_state_keep_running_batch(s, n))
 *           measure(arg, &figure);
 *       gb_state_set_timed_calls(s, calls, seconds_per_call);
 *       gb_state_set_counter(s, "figure", figure, GB_COUNTER_DEFAULT);
 *   }
 */
#ifndef CYCLEBENCH_GBENCH_H
#define CYCLEBENCH_GBENCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gb_state gb_state;
typedef void gb_function(gb_state *s, void *arg);

/* The values of benchmark::Counter::Flags. */
typedef enum gb_counter_flags {
    GB_COUNTER_DEFAULT = 0,
    GB_COUNTER_RATE = 1 << 0,                /* divided by the run's time */
    GB_COUNTER_ITERATION_INVARIANT = 1 << 2, /* multiplied by iterations */
    GB_COUNTER_AVG_ITERATIONS = 1 << 3,      /* divided by iterations */
} gb_counter_flags;

typedef enum gb_format { GB_FORMAT_CONSOLE, GB_FORMAT_JSON, GB_FORMAT_CSV } gb_format;

/* Parse format names "console", "json", "csv". Returns 0 on success. */
int gb_parse_format(const char *name, gb_format *out);

/* Hand argv's --benchmark_* flags (argv[0] is the program name) to
 * Google Benchmark. Unless the user says otherwise, the console shows
 * counters as table columns. The library's minimum time is set to nothing
 * (a --benchmark_min_time in argv is overridden): benchmark functions time
 * themselves. Returns 0, or -1 with the first flag it does not accept, or
 * a --benchmark_filter that is not a valid regex, in err. */
int gb_initialize(int argc, char **argv, char *err, size_t errlen);

/* arg must live until gb_run returns. fn is called once per repetition
 * (it samples for itself), with one iteration; with more than one
 * repetition, every benchmark also reports mean, median, stddev and cv
 * (stddev/mean) over them. */
void gb_register(const char *name, gb_function *fn, void *arg);

/* A key of the results' "context". Quotes and backslashes in value are
 * replaced: libbenchmark 1.7.1 writes context values without escaping. */
void gb_add_context(const char *key, const char *value);

/* --benchmark_filter as given ("all" by default). */
const char *gb_filter(void);

/* Whether --benchmark_filter selects the benchmark of this name, as the
 * library applies it (a POSIX extended regex searched in the name, "all"
 * for everything, a leading '-' negating): after gb_initialize, which
 * refuses a filter that is not a valid regex. */
int gb_selected(const char *name);

/* Run the registered benchmarks that --benchmark_filter selects: the table
 * on stdout, progress "[n/N] name" on stderr. reports[i] receives the whole
 * report in formats[i], malloc'd (free it). Returns how many benchmarks
 * ran (0 for --benchmark_list_tests). */
long gb_run(const gb_format *formats, char **reports, size_t n_reports);

/* seconds a benchmark function spent on other work (bench's pair rounds),
 * left out of the pace the progress line's estimate of the time left is
 * taken at. */
void gb_progress_exclude(double seconds);

/* Inside a benchmark. */
uint64_t gb_state_max_iterations(const gb_state *s);
/* True while n more iterations are to run (the first call starts
 * Google Benchmark's timer, the last stops it). */
int gb_state_keep_running_batch(gb_state *s, uint64_t n);
/* The calls the benchmark timed and the time of one, in seconds, which the
 * reports give as Google Benchmark means its fields: iterations the calls,
 * real_time and cpu_time the time per call in time_unit. Without it they
 * are the library's timing of the whole benchmark function. With
 * repetitions, the aggregates (mean, median, stddev, cv) of real_time and
 * cpu_time are those of the per-call times. */
void gb_state_set_timed_calls(gb_state *s, uint64_t calls,
                              double seconds_per_call);
void gb_state_set_counter(gb_state *s, const char *name, double value,
                          gb_counter_flags flags);
/* The run's "label" in the reports (what an @auto benchmark ran). */
void gb_state_set_label(gb_state *s, const char *label);
void gb_state_skip_with_error(gb_state *s, const char *message);

/* As benchmark::ClobberMemory: a compiler barrier that emits no
 * instruction. */
static inline void gb_clobber_memory(void)
{
    __asm__ volatile("" : : : "memory");
}

#ifdef __cplusplus
}
#endif

#endif
