/* The results writer: what a run records about itself, and the files it
 * leaves behind.
 *
 * A run's reports are Google Benchmark's JSON and CSV; this adds to their
 * "context" what is needed to trust the numbers (which clocks, which
 * counters, the frequency settings, the build) and writes the files
 * atomically, so an interrupted run never leaves a half-written one. */
#ifndef CYCLEBENCH_RESULTS_H
#define CYCLEBENCH_RESULTS_H

#include <stddef.h>
#include <time.h>

#include "pmu.h"
#include "sysctl.h"
#include "timer.h"

typedef struct results_context {
    const char *run_id;   /* the results' file stem: "20241130T032400Z" */
    const char *sampling; /* how each benchmark was sampled */
    const char *order;    /* the order benchmarks ran in */
    const timer_info *timer;
    const char *core_clock_source; /* "pmu" or "estimated" */
    const pmu_group *pmu;
    const sysctl_report *turbo;
    int pinned_cpu;
    const char *skipped; /* "kernel@isa (why), ..." or "" */
    const char *direction; /* "encrypt" or "decrypt" (bench --decrypt) */
    /* What the @auto benchmarks ran (autoisa_describe_all; "" for none)
     * and how long choosing took. */
    const char *autoisa;
    double autoisa_seconds;
    /* "kernel=isa ...": each kernel's table's first supported row here. */
    const char *dispatch;
    /* What the pair rounds time, and when (pair_rounds_describe). */
    const char *pairing;
} results_context;

/* Add the context keys: run_id, sampling, order, cpu_model, cpu_features, tsc_hz, tsc_hz_source,
 * timer_overhead_ticks, core_tsc_ratio, core_clock_source,
 * pmu_events_opened, pmu_events_unavailable, turbo, pinned_cpu, skipped,
 * direction, auto, auto_calibration_seconds, dispatch, pairing, compiler,
 * cflags, git_commit. */
void results_add_context(const results_context *c);

/* A member key: value (JSON text) added to the end of the JSON object in
 * *report (a Google Benchmark JSON report: what it writes once the run is
 * over, beside "context" and "benchmarks"), reallocated. Returns 0, or -1
 * when out of memory or *report is no object (then left as it was). */
int results_add_member(char **report, const char *key, const char *value);

/* UTC, ISO 8601 basic format: "20241130T032400Z". */
void results_timestamp(time_t t, char *buf, size_t len);

/* Replace path with text: written to a temporary file beside it, synced,
 * then renamed over it, with SIGINT/SIGTERM/SIGHUP held meanwhile so no
 * temporary file is left behind. Returns 0, or -1 with the reason in err. */
int results_write_file(const char *path, const char *text, char *err,
                       size_t errlen);

/* Before a run: whether its files can be written, so that a run never
 * measures for nothing. results_prepare_dir creates dir (and its parents)
 * if missing and tries a file in it; results_check_file wants path not a
 * directory and tries a file beside it, in a directory that must exist.
 * Each returns 0, or -1 with the reason in err. */
int results_prepare_dir(const char *dir, char *err, size_t errlen);
int results_check_file(const char *path, char *err, size_t errlen);

/* dir/<stamp>.json and .csv, then dir/latest.json and latest.csv, creating
 * dir if needed; all four are written before any replaces a file, so a
 * write that fails leaves the previous ones whole. Returns 0, or -1 with
 * the reason in err. */
int results_write_run(const char *dir, const char *stamp, const char *json,
                      const char *csv, char *err, size_t errlen);

#endif
