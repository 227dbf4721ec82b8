/* `cyclebench bench`: every kernel, on every usable ISA, at every size,
 * through Google Benchmark, timed with the TSC and counted with the PMU.
 *
 * A variant is timed only after kernel_self_test passes; one that cannot
 * run here or fails the test is listed on stderr with the reason and in the
 * results' "skipped". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../kernels/kernel.h"
#include "args.h"
#include "commands.h"
#include "gbench.h"
#include "pmu.h"
#include "results.h"
#include "sysctl.h"
#include "timer.h"

#define MAX_SIZES 64
#define MAX_SIZE (1u << 30)
#define MAX_GB_ARGS 64

static const size_t default_sizes[] = {
    8, 64, 509, 576, 1536, 4096, 16384, 65536,
};

typedef struct bench_options {
    size_t sizes[MAX_SIZES];
    size_t n_sizes;
    const char *isa;     /* NULL: every ISA */
    const char *kernels; /* comma-separated names; NULL: every kernel */
    int cpu;
    const char *counters;
    int system_tune;
    int decrypt;             /* --decrypt: time the inverse operation */
    const char *results_dir; /* NULL: no results files */
    const char *out_path;    /* --benchmark_out, NULL when not given */
    gb_format out_format;
    char *gb_args[MAX_GB_ARGS + 1]; /* [0] is the program name */
    int n_gb_args;
} bench_options;

typedef struct bench_case {
    const kernel *k;
    const isa_variant *v;
    size_t len;
    kernel_args args;
    char name[96];
} bench_case;

/* What every benchmark reads; set up once before any runs. */
static pmu_group counters;
static int core_cycles_index;
static const timer_info *timer;

/* Options */

/* Copy the comma-separated item at *p into buf and move *p past it (to
 * NULL after the last item). Returns -1 when the item does not fit. */
static int next_item(const char **p, char *buf, size_t len)
{
    const char *comma = strchr(*p, ',');
    size_t n = comma ? (size_t)(comma - *p) : strlen(*p);
    int fits = n < len;
    snprintf(buf, len, "%.*s", (int)n, *p);
    *p = comma ? comma + 1 : NULL;
    return fits ? 0 : -1;
}

static int parse_sizes(bench_options *o, const char *list)
{
    char item[32];
    uint64_t size;
    o->n_sizes = 0;
    for (const char *p = list; p;) {
        if (next_item(&p, item, sizeof item) || o->n_sizes == MAX_SIZES ||
            parse_u64(item, &size) || size < 1 || size > MAX_SIZE) {
            usage_error("--sizes must be up to %d comma-separated byte counts "
                        "from 1 to %u (got '%s')", MAX_SIZES, MAX_SIZE, list);
            return -1;
        }
        o->sizes[o->n_sizes++] = (size_t)size;
    }
    return 0;
}

static int isa_known(const char *isa)
{
    for (size_t i = 0; kernel_registry[i]; i++)
        if (kernel_variant_find(kernel_registry[i], isa))
            return 1;
    return 0;
}

/* Whether name is one of the comma-separated names in list. */
static int listed(const char *list, const char *name)
{
    char item[64];
    for (const char *p = list; p;)
        if (next_item(&p, item, sizeof item) == 0 && !strcmp(item, name))
            return 1;
    return 0;
}

static int check_kernels(const char *list)
{
    char item[64];
    for (const char *p = list; p;)
        if (next_item(&p, item, sizeof item) || !kernel_find(item)) {
            usage_error("unknown kernel '%s' in --kernel: see 'cyclebench "
                        "list'", item);
            return -1;
        }
    return 0;
}

static int parse_cpu(bench_options *o, const char *value)
{
    uint64_t cpu;
    char allowed[256];
    if (parse_u64(value, &cpu) || cpu > 1u << 20 ||
        !sysctl_cpu_allowed((int)cpu)) {
        sysctl_describe_allowed(allowed, sizeof allowed);
        usage_error("--cpu=%s is not a CPU this process may run on (allowed: "
                    "%s)", value, allowed);
        return -1;
    }
    o->cpu = (int)cpu;
    return 0;
}

static int parse_gb_flag(bench_options *o, char *arg)
{
    const char *value;
    if (arg_value(arg, "--benchmark_out", &value)) {
        if (!*value) {
            usage_error("--benchmark_out needs a file name");
            return -1;
        }
        o->out_path = value;
    } else if (arg_value(arg, "--benchmark_out_format", &value)) {
        if (gb_parse_format(value, &o->out_format)) {
            usage_error("--benchmark_out_format must be json, csv or console "
                        "(got '%s')", value);
            return -1;
        }
    } else if (o->n_gb_args == MAX_GB_ARGS) {
        usage_error("too many --benchmark_* flags (at most %d)", MAX_GB_ARGS);
        return -1;
    } else {
        o->gb_args[o->n_gb_args++] = arg;
    }
    return 0;
}

static int parse_options(bench_options *o, int argc, char **argv)
{
    const char *value;
    memcpy(o->sizes, default_sizes, sizeof default_sizes);
    o->n_sizes = sizeof default_sizes / sizeof default_sizes[0];
    o->cpu = sysctl_default_cpu();
    o->counters = "cycles,instructions,branch-misses,cache-misses";
    o->system_tune = 1;
    o->out_format = GB_FORMAT_JSON;
    o->gb_args[o->n_gb_args++] = "cyclebench bench";
    for (int i = 0; i < argc; i++) {
        char *arg = argv[i];
        int rc = 0;
        if (arg_value(arg, "--sizes", &value))
            rc = parse_sizes(o, value);
        else if (arg_value(arg, "--isa", &value)) {
            o->isa = value;
            if (!isa_known(value)) {
                usage_error("unknown ISA '%s': see 'cyclebench list'", value);
                rc = -1;
            }
        } else if (arg_value(arg, "--kernel", &value)) {
            o->kernels = value;
            rc = check_kernels(value);
        } else if (arg_value(arg, "--cpu", &value))
            rc = parse_cpu(o, value);
        else if (arg_value(arg, "--counters", &value))
            o->counters = value;
        else if (!strcmp(arg, "--no-system-tune"))
            o->system_tune = 0;
        else if (!strcmp(arg, "--decrypt"))
            o->decrypt = 1;
        else if (arg_value(arg, "--results-dir", &value)) {
            o->results_dir = value;
            if (!*value) {
                usage_error("--results-dir needs a directory");
                rc = -1;
            }
        }
        else if (!strncmp(arg, "--benchmark_", 12))
            rc = parse_gb_flag(o, arg);
        else {
            usage_error("bench: unknown option '%s' (options: --sizes= --isa= "
                        "--kernel= --cpu= --counters= --no-system-tune "
                        "--decrypt --results-dir= --benchmark_*)", arg);
            rc = -1;
        }
        if (rc)
            return -1;
    }
    o->gb_args[o->n_gb_args] = NULL;
    return 0;
}

/* The benchmark */

static void publish(gb_state *s, const bench_case *c, uint64_t iterations,
                    uint64_t ticks, const double pmu_values[])
{
    size_t per_call = c->len * kernel_batch(c->k);
    double bytes = (double)iterations * (double)per_call;
    double tsc_per_byte = (double)ticks / bytes;
    char name[96];
    gb_state_set_bytes_processed(s, (int64_t)(iterations * per_call));
    gb_state_set_counter(s, "tsc_cycles_per_byte", tsc_per_byte,
                         GB_COUNTER_DEFAULT);
    gb_state_set_counter(s, "core_cycles_per_byte", core_cycles_index >= 0 ?
                         pmu_values[core_cycles_index] / bytes :
                         tsc_per_byte * timer->core_tsc_ratio,
                         GB_COUNTER_DEFAULT);
    gb_state_set_counter(s, "ns_per_byte", tsc_per_byte * 1e9 / timer->tsc_hz,
                         GB_COUNTER_DEFAULT);
    for (size_t i = 0; i < counters.n; i++) {
        if (counters.events[i].fd < 0)
            continue;
        gb_state_set_counter(s, counters.events[i].name, pmu_values[i],
                             GB_COUNTER_AVG_ITERATIONS);
        snprintf(name, sizeof name, "%s_per_byte", counters.events[i].name);
        gb_state_set_counter(s, name, pmu_values[i] / bytes,
                             GB_COUNTER_DEFAULT);
    }
}

/* Turns the plaintext in buf into its ciphertext (out is scratch of the
 * same length), so that a decryption is timed on what it would really get. */
static void encrypt_in_place(const kernel *k, const isa_variant *v,
                             kernel_args a, uint8_t *buf, size_t len,
                             uint8_t *out)
{
    a.decrypt = 0;
    k->run(k, v, &a, buf, len, out);
    memcpy(buf, out, len * kernel_batch(k));
}

/* The buffers are allocated, filled and run through once before timing, and
 * per-key setup done, so neither allocation, key expansion nor first-touch
 * page faults land in the timed loop. The TSC brackets the whole batch of
 * calls; Google Benchmark's own timer starts and stops outside it. */
static void bench_kernel(gb_state *s, void *arg)
{
    const bench_case *c = arg;
    const kernel *k = c->k;
    kernel_args a = c->args;
    size_t batch = kernel_batch(k);
    uint8_t *in = kernel_buffer(c->len * batch);
    uint8_t *out = kernel_buffer(k->out_len(k, &c->args, c->len) * batch);
    double pmu_values[PMU_MAX_EVENTS];
    uint64_t n = gb_state_max_iterations(s), ticks = 0;
    int pmu_rc = 0;
    if (!in || !out)
        gb_state_skip_with_error(s, "out of memory for the buffers");
    else {
        for (size_t i = 0; i < c->len * batch; i++)
            in[i] = (uint8_t)(i * 131 + 7);
        if (a.decrypt)
            encrypt_in_place(k, c->v, a, in, c->len, out);
        kernel_prepare(k, c->v, &a);
        k->run(k, c->v, &a, in, c->len, out);
    }
    while (gb_state_keep_running_batch(s, n)) {
        pmu_start(&counters);
        uint64_t t0 = timer_start();
        for (uint64_t i = 0; i < n; i++) {
            k->run(k, c->v, &a, in, c->len, out);
            gb_clobber_memory();
        }
        uint64_t t1 = timer_stop();
        pmu_rc = pmu_stop(&counters, pmu_values);
        ticks = t1 - t0 > timer->overhead_ticks ? t1 - t0 - timer->overhead_ticks
                                                : 0;
    }
    if (pmu_rc != 0)
        gb_state_skip_with_error(s, "the PMU counters never ran (the PMU is "
                                 "busy elsewhere?): drop --counters");
    else if (in && out)
        publish(s, c, n, ticks, pmu_values);
    kernel_release(k, &a);
    free(in);
    free(out);
}

/* Registration */

static void note_skipped(char *skipped, size_t len, const char *what,
                         const char *why)
{
    size_t used = strlen(skipped);
    fprintf(stderr, "skip %s: %s\n", what, why);
    if (used < len)
        snprintf(skipped + used, len - used, "%s%s (%s)", used ? ", " : "",
                 what, why);
}

/* Why v of k may not be timed (written into why), or 0 when it may. */
static int refused(const kernel *k, const isa_variant *v, char *why,
                   size_t whylen)
{
    char err[256];
    const char *missing = k->unavailable ? k->unavailable(k) : NULL;
    if (missing)
        snprintf(why, whylen, "%s", missing);
    else if (!kernel_variant_usable(k, v))
        snprintf(why, whylen, "unsupported on this CPU");
    else if (kernel_self_test(k, v, err, sizeof err) != 0)
        snprintf(why, whylen, "self-test failed, not timed: %s", err);
    else
        return 0;
    return 1;
}

static int selected(const bench_options *o, const kernel *k,
                    const isa_variant *v)
{
    return (!o->kernels || listed(o->kernels, k->name)) &&
           (!o->isa || !strcmp(o->isa, v->isa));
}

static size_t count_candidates(const bench_options *o)
{
    size_t n = 0;
    const isa_variant *v;
    for (size_t i = 0; kernel_registry[i]; i++)
        for (size_t j = 0; (v = kernel_variant_at(kernel_registry[i], j)); j++)
            n += selected(o, kernel_registry[i], v) ? o->n_sizes : 0;
    return n;
}

/* --decrypt times the inverse of what bench_args encrypts, on a real
 * ciphertext of the same length: kernels whose decryption takes a tag or
 * has none of its own (stream ciphers, hashes) are left out. */
static int decryption_timeable(const kernel *k, const kernel_args *a,
                               size_t len, char *why, size_t whylen)
{
    if (!(k->options & KOPT_DECRYPT))
        snprintf(why, whylen, "no separate decryption: the same operation "
                 "as timed without --decrypt");
    else if (k->out_len(k, a, len) != len)
        snprintf(why, whylen, "decryption takes a ciphertext and tag, not "
                 "timed by --decrypt");
    else
        return 1;
    return 0;
}

static size_t add_sizes(const bench_options *o, const kernel *k,
                        const isa_variant *v, bench_case *cases,
                        char *skipped, size_t skipped_len)
{
    size_t n = 0;
    char err[256], what[96];
    for (size_t i = 0; i < o->n_sizes; i++) {
        bench_case *c = &cases[n];
        c->k = k;
        c->v = v;
        c->len = o->sizes[i];
        k->bench_args(k, &c->args);
        snprintf(c->name, sizeof c->name, "%s@%s/%zu", k->name, v->isa,
                 c->len);
        if (o->decrypt && !decryption_timeable(k, &c->args, c->len, err,
                                               sizeof err)) {
            note_skipped(skipped, skipped_len, c->name, err);
            continue;
        }
        c->args.decrypt = o->decrypt;
        if (k->check(k, &c->args, c->len, err, sizeof err)) {
            snprintf(what, sizeof what, "%s", c->name);
            note_skipped(skipped, skipped_len, what, err);
            continue;
        }
        gb_register(c->name, bench_kernel, c);
        n++;
    }
    return n;
}

static size_t register_all(const bench_options *o, bench_case *cases,
                           char *skipped, size_t skipped_len)
{
    size_t n = 0;
    char why[512], what[96];
    const isa_variant *v;
    for (size_t i = 0; kernel_registry[i]; i++) {
        const kernel *k = kernel_registry[i];
        for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
            if (!selected(o, k, v))
                continue;
            if (refused(k, v, why, sizeof why)) {
                snprintf(what, sizeof what, "%s@%s", k->name, v->isa);
                note_skipped(skipped, skipped_len, what, why);
                continue;
            }
            n += add_sizes(o, k, v, cases + n, skipped, skipped_len);
        }
    }
    return n;
}

/* The run */

static int write_results(const bench_options *o, time_t started,
                         char **reports)
{
    char err[512], stamp[32];
    results_timestamp(started, stamp, sizeof stamp);
    if (o->out_path && results_write_file(o->out_path, reports[2], err,
                                          sizeof err) != 0) {
        usage_error("%s", err);
        return 1;
    }
    if (o->results_dir && results_write_run(o->results_dir, stamp, reports[0],
                                            reports[1], err, sizeof err) != 0) {
        usage_error("%s", err);
        return 1;
    }
    if (o->results_dir)
        fprintf(stderr, "cyclebench: results in %s/%s.json and .csv (also "
                "latest.json, latest.csv)\n", o->results_dir, stamp);
    return 0;
}

static int run(const bench_options *o, const char *skipped, time_t started)
{
    char err[512];
    sysctl_report turbo;
    gb_format formats[3] = { GB_FORMAT_JSON, GB_FORMAT_CSV, o->out_format };
    char *reports[3] = { NULL, NULL, NULL };
    size_t n_reports = o->out_path ? 3 : 2;
    int status;

    sysctl_tune("/sys/devices/system/cpu", o->system_tune, &turbo);
    timer = timer_get_info();
    core_cycles_index = pmu_core_cycles_index(&counters);
    results_add_context(&(results_context){
        .timer = timer,
        .core_clock_source = core_cycles_index >= 0 ? "pmu" : "estimated",
        .pmu = &counters,
        .turbo = &turbo,
        .pinned_cpu = o->cpu,
        .skipped = skipped,
        .direction = o->decrypt ? "decrypt" : "encrypt",
    });
    long ran = gb_run(formats, reports, n_reports, err, sizeof err);
    if (ran < 0) {
        usage_error("%s", err);
        status = EXIT_USAGE;
    } else if (ran == 0) {
        status = 0; /* --benchmark_list_tests: nothing to record */
    } else {
        status = write_results(o, started, reports);
    }
    for (int i = 0; i < 3; i++)
        free(reports[i]);
    return status;
}

int cmd_bench(int argc, char **argv)
{
    static bench_options o;
    static char skipped[8192];
    char err[512];
    time_t started = time(NULL);
    int status = 1;

    if (parse_options(&o, argc, argv))
        return EXIT_USAGE;
    if (gb_initialize(o.n_gb_args, o.gb_args, err, sizeof err) ||
        pmu_open(&counters, o.counters, err, sizeof err)) {
        usage_error("%s", err);
        return EXIT_USAGE;
    }
    bench_case *cases = calloc(count_candidates(&o) + 1, sizeof *cases);
    if (!cases)
        usage_error("out of memory");
    else if (sysctl_pin(o.cpu, err, sizeof err))
        usage_error("%s", err);
    else if (register_all(&o, cases, skipped, sizeof skipped) == 0) {
        usage_error("nothing to run: every selected kernel variant and size "
                    "was skipped (see above)");
        status = EXIT_USAGE;
    } else
        status = run(&o, skipped, started);
    pmu_close(&counters);
    free(cases);
    return status;
}
