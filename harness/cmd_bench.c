/* `cyclebench bench`: every kernel, on every usable ISA, at every size,
 * through Google Benchmark, timed with the TSC in many short batches (see
 * sampler.h) and counted with the PMU.
 *
 * A variant is timed only after kernel_self_test passes; one that cannot
 * run here or fails the test is listed on stderr with the reason and in the
 * results' "skipped".
 *
 * Benchmarks run grouped: one kernel of ours at every ISA and the external
 * kernels that compute the same thing, at one size, back to back in a
 * random order, so that what a table compares shares the machine's
 * conditions of the moment and none of them is always first.
 *
 * Each kernel of ours with a peer in the run is also timed against each
 * peer in turn, as `run --vs` times them, in --pair-rounds rounds spread
 * over the sweep (pair_rounds.h), recorded in the results' "pair_rounds".
 *
 * Each composite kernel also runs at auto beside its table's rows (the row
 * of its parts' fastest rows here, autoisa.h); --isa=auto runs each kernel
 * of ours at auto alone. Auto's measurements are made together before the
 * first benchmark, within AUTO_BUDGET_SECONDS, and recorded in the
 * results' context (with the time choosing took, self-tests included) and
 * each @auto benchmark's label. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../kernels/registry.h"
#include "args.h"
#include "autoisa.h"
#include "commands.h"
#include "gbench.h"
#include "pair_rounds.h"
#include "pmu.h"
#include "results.h"
#include "sampler.h"
#include "splitmix.h"
#include "sysctl.h"
#include "timed_kernel.h"
#include "timer.h"

/* PMU counters are read over a pass of this many batches of their own after
 * the sampling, so the sampler's bookkeeping is not in them. */
#define PMU_PASS_BATCHES 32
#define RUN_WARMUP_SECONDS 0.2
/* Auto's measurements of every part's rows at every length together; the
 * self-tests and the setup around them bring the whole to under a second
 * (docs/auto.md has what it took). */
#define AUTO_BUDGET_SECONDS 0.65
/* Auto measures at the run's sizes, or at this many of them when there
 * are more, each benchmark taking the nearest (calibration_len). */
#define AUTO_SIZES 8
#define DEFAULT_COUNTERS "cycles,instructions,branch-misses,cache-misses"

static const size_t default_sizes[] = {
    8, 64, 509, 576, 1536, 4096, 16384, 65536,
};

typedef struct bench_options {
    const size_t *sizes;
    size_t n_sizes;
    const char *isa;     /* NULL: every ISA */
    const char *kernels; /* comma-separated names; NULL: every kernel */
    int cpu;
    const char *counters;
    int system_tune;
    int decrypt;             /* --decrypt: time the inverse operation */
    /* --emulated: time under an emulator anyway, to test the tools on an
     * aarch64 results file (the results say so; no tool shows them as
     * speeds) */
    int emulated;
    const char *results_dir; /* NULL: no results files */
    const char *out_path;    /* --benchmark_out, NULL when not given */
    double min_time; /* --benchmark_min_time: least sampling; -1: default */
    double max_time; /* --max-time: cap per benchmark; 0: the run's share */
    unsigned pair_rounds; /* --pair-rounds */
    gb_format out_format;
    /* For Google Benchmark: [0] is the program name, then its flags. */
    char *gb_args[CLI_MAX_OPTIONS + 2];
    int n_gb_args;
} bench_options;

typedef struct bench_case {
    const kernel *k;
    const isa_variant *v; /* NULL at auto until measured */
    int at_auto;
    size_t len;
    kernel_args args;
    char name[96];
    char chosen[512]; /* at auto: what it runs, or why it is not timed */
    size_t group, size_rank; /* the run order: see the top of this file */
    uint64_t shuffle;
    int started; /* bench_kernel has been called for it */
} bench_case;

/* What every benchmark reads; set up once before any runs. */
static pmu_group counters;
static int core_cycles_index;
static const timer_info *timer;
static sampler_config sampling;
/* The pair rounds, and how many benchmarks have begun, which they are
 * spread over. */
static pair_rounds rounds;
static size_t benchmarks_started;

/* Options */

static int parse_cpu(bench_options *o, const char *value)
{
    uint64_t cpu;
    char allowed[256], q[96];
    if (parse_u64(value, &cpu) || cpu > 1u << 20 ||
        !sysctl_cpu_allowed((int)cpu)) {
        sysctl_describe_allowed(allowed, sizeof allowed);
        usage_error("--cpu=%s is not a CPU this process may run on (allowed: "
                    "%s)", cli_quote(value, q, sizeof q), allowed);
        return -1;
    }
    o->cpu = (int)cpu;
    return 0;
}

/* The options from the command line, parsed and checked as every
 * command's are (args.h) into r, which o points into. */
static int parse_options(bench_options *o, cli_request *r, int argc,
                         char **argv)
{
    if (cli_parse(CLI_BENCH, argc, argv, r))
        return -1;
    *o = (bench_options){
        .sizes = r->n_sizes ? r->size_list : default_sizes,
        .n_sizes = r->n_sizes ? r->n_sizes
                              : sizeof default_sizes / sizeof *default_sizes,
        .isa = r->isa.set ? r->isa.text : NULL,
        .kernels = r->kernels.set ? r->kernels.text : NULL,
        .cpu = sysctl_default_cpu(),
        .counters = r->counters.set ? r->counters.text : DEFAULT_COUNTERS,
        .system_tune = !r->no_system_tune.set,
        .decrypt = r->decrypt.set,
        .emulated = r->emulated.set,
        .results_dir = r->results_dir.set ? r->results_dir.text : NULL,
        .out_path = r->out.set ? r->out.text : NULL,
        /* Each benchmark samples at least this long; the library's own
         * minimum time stays at nothing (gb_initialize). */
        .min_time = r->min_time.set ? r->min_time.seconds : -1,
        .max_time = r->max_time.set ? r->max_time.seconds : 0,
        .pair_rounds = r->pair_rounds.set ? (unsigned)r->pair_rounds.num
                                          : PAIR_ROUNDS_DEFAULT,
        .out_format = GB_FORMAT_JSON,
    };
    if (r->out_format.set)
        gb_parse_format(r->out_format.text, &o->out_format);
    if (r->cpu.set && parse_cpu(o, r->cpu.text))
        return -1;
    o->gb_args[o->n_gb_args++] = "cyclebench bench";
    for (int i = 0; i < r->n_library_flags; i++)
        o->gb_args[o->n_gb_args++] = r->library_flags[i];
    o->gb_args[o->n_gb_args] = NULL;
    return 0;
}

/* Every file the run will write can be written, before anything is
 * measured; the results directory is created if missing. */
static int check_outputs(const bench_options *o)
{
    char err[512];
    if (o->results_dir && results_prepare_dir(o->results_dir, err,
                                              sizeof err)) {
        usage_error("--results-dir: %s", err);
        return -1;
    }
    if (o->out_path && results_check_file(o->out_path, err, sizeof err)) {
        usage_error("--benchmark_out: %s", err);
        return -1;
    }
    return 0;
}

/* The benchmark */

/* The PMU counters over calls of their own, per call. Returns 0, or -1
 * when the group never got onto the PMU. */
static int count_events(const sampler_source *source, uint64_t calls,
                        double values[])
{
    memset(values, 0, PMU_MAX_EVENTS * sizeof *values);
    if (counters.leader_fd < 0)
        return 0;
    pmu_start(&counters);
    source->time_batch(source->ctx, calls);
    if (pmu_stop(&counters, values))
        return -1;
    for (size_t i = 0; i < counters.n; i++)
        values[i] /= (double)calls;
    return 0;
}

static void set_per_byte(gb_state *s, const char *name, double value)
{
    gb_state_set_counter(s, name, value, GB_COUNTER_DEFAULT);
}

/* How long a benchmark sampled: TSC ticks, and the thread's CPU time over
 * the same span (less than the ticks say when the CPU was shared). */
typedef struct sampling_span {
    uint64_t ticks;
    double cpu_seconds;
} sampling_span;

static double thread_cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* pmu_per_call: each event's count per call. Google Benchmark's fields get
 * what they mean there: the calls timed, the median time per call (TSC
 * ticks at the run's tsc_hz) and bytes per second at that median. */
static void publish(gb_state *s, const bench_case *c, const sampler_result *r,
                    const sampling_span *span, const double pmu_per_call[])
{
    double bytes = (double)(c->len * kernel_batch(c->k));
    double median = r->median / bytes;
    double seconds_per_call = r->median / timer->tsc_hz;
    char name[96];
    gb_state_set_timed_calls(s, (uint64_t)r->samples * r->calls_per_batch,
                             seconds_per_call);
    set_per_byte(s, "bytes_per_second", bytes / seconds_per_call);
    set_per_byte(s, "sampling_seconds", (double)span->ticks / timer->tsc_hz);
    set_per_byte(s, "sampling_cpu_seconds", span->cpu_seconds);
    set_per_byte(s, "tsc_cycles_per_byte", median);
    set_per_byte(s, "tsc_cycles_per_byte_q1", r->q1 / bytes);
    set_per_byte(s, "tsc_cycles_per_byte_q3", r->q3 / bytes);
    set_per_byte(s, "tsc_cycles_per_byte_ci95_low", r->ci_low / bytes);
    set_per_byte(s, "tsc_cycles_per_byte_ci95_high", r->ci_high / bytes);
    set_per_byte(s, "samples", (double)r->samples);
    set_per_byte(s, "sample_blocks", (double)r->blocks);
    set_per_byte(s, "precision_reached", r->precision_reached);
    /* Two speeds in its blocks: both, since the median mixes them; 0
     * without. Every benchmark has every counter: Google Benchmark's CSV
     * reporter aborts the run at a counter its first benchmark lacked. */
    set_per_byte(s, "two_levels", r->levels.two);
    set_per_byte(s, "level_low_tsc_cycles_per_byte",
                 r->levels.two ? r->levels.low / bytes : 0);
    set_per_byte(s, "level_high_tsc_cycles_per_byte",
                 r->levels.two ? r->levels.high / bytes : 0);
    set_per_byte(s, "level_low_share", r->levels.two ? r->levels.low_share : 0);
    set_per_byte(s, "calls_per_sample", (double)r->calls_per_batch);
    set_per_byte(s, "core_cycles_per_byte", core_cycles_index >= 0 ?
                 pmu_per_call[core_cycles_index] / bytes :
                 median * timer->core_tsc_ratio);
    set_per_byte(s, "ns_per_byte", median * 1e9 / timer->tsc_hz);
    for (size_t i = 0; i < counters.n; i++) {
        if (counters.events[i].fd < 0)
            continue;
        set_per_byte(s, counters.events[i].name, pmu_per_call[i]);
        snprintf(name, sizeof name, "%s_per_byte", counters.events[i].name);
        set_per_byte(s, name, pmu_per_call[i] / bytes);
    }
}

/* Buffers are allocated and filled and per-key setup done before the
 * sampler starts, so neither allocation nor key expansion is timed; the
 * sampler's warm-up takes the first-touch page faults. Google Benchmark
 * runs this once per repetition and times all of it; its reports give the
 * sampler's figures instead (publish), that whole time being
 * sampling_seconds. */
static void bench_kernel(gb_state *s, void *arg)
{
    bench_case *c = arg;
    timed_kernel t;
    /* the rounds due before this benchmark, outside its timing */
    if (!c->started) {
        c->started = 1;
        gb_progress_exclude(pair_rounds_run_due(&rounds,
                                                benchmarks_started++));
    }
    int opened = c->v && timed_kernel_open(&t, c->k, c->v, &c->args,
                                           c->len) == 0;
    sampler_source source = timed_kernel_source(&t);
    sampler_result r;
    double pmu_per_call[PMU_MAX_EVENTS];
    int sampled = -1, pmu_rc = 0;
    /* One pass whatever the iteration count: the sampler decides how long. */
    uint64_t t0 = timer_start();
    double cpu0 = thread_cpu_seconds();
    while (gb_state_keep_running_batch(s, gb_state_max_iterations(s)))
        if (opened && (sampled = sampler_run(&sampling, &source, &r)) == 0)
            pmu_rc = count_events(&source, r.calls_per_batch *
                                  PMU_PASS_BATCHES, pmu_per_call);
    sampling_span span = { timer_stop() - t0, thread_cpu_seconds() - cpu0 };
    if (!c->v)
        gb_state_skip_with_error(s, c->chosen);
    else if (sampled != 0)
        gb_state_skip_with_error(s, "out of memory for the buffers or the "
                                 "samples");
    else if (pmu_rc != 0)
        gb_state_skip_with_error(s, "the PMU counters never ran (the PMU is "
                                 "busy elsewhere?): drop --counters");
    else
        publish(s, c, &r, &span, pmu_per_call);
    if (c->at_auto)
        gb_state_set_label(s, c->chosen);
    if (opened)
        timed_kernel_close(&t);
}

/* Registration */

/* Whole entries only: one cut short would be read back (the summary's
 * skipped_reasons) as a reason of its own. Past the buffer's end the
 * rest are on stderr only. */
static void note_skipped(char *skipped, size_t len, const char *what,
                         const char *why)
{
    size_t used = strlen(skipped);
    fprintf(stderr, "skip %s: %s\n", what, why);
    int n = snprintf(NULL, 0, "%s%s (%s)", used ? ", " : "", what, why);
    if (n > 0 && used + (size_t)n < len)
        snprintf(skipped + used, len - used, "%s%s (%s)", used ? ", " : "",
                 what, why);
}

/* Why v of k may not be timed (written into why), or 0 when it may. */
static int refused(const kernel *k, const isa_variant *v, char *why,
                   size_t whylen)
{
    char err[256];
    if (k->unavailable && k->unavailable(k))
        snprintf(why, whylen, "%s", k->unavailable(k));
    else if (kernel_variant_refusal(k, v, err, sizeof err))
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
    return (!o->kernels || cli_listed(o->kernels, k->name)) &&
           (!o->isa || !strcmp(o->isa, v->isa));
}

/* Whether k runs at auto: a composite beside its rows, or any kernel of
 * ours under --isa=auto. */
static int auto_selected(const bench_options *o, const kernel *k)
{
    int asked = o->isa ? !strcmp(o->isa, KERNEL_AUTO_ISA) && !k->reference
                       : kernel_n_parts(k) > 0;
    return asked && (!o->kernels || cli_listed(o->kernels, k->name));
}

static size_t count_candidates(const bench_options *o)
{
    size_t n = 0;
    const isa_variant *v;
    for (size_t i = 0; kernel_registry[i]; i++) {
        for (size_t j = 0; (v = kernel_variant_at(kernel_registry[i], j)); j++)
            n += selected(o, kernel_registry[i], v) ? o->n_sizes : 0;
        n += auto_selected(o, kernel_registry[i]) ? o->n_sizes : 0;
    }
    return n;
}

/* Whether bench times k at len: k takes that length with the args it is
 * timed with (a full sweep leaves the others out, as size_timeable does). */
static int takes_size(const kernel *k, size_t len)
{
    kernel_args a;
    char err[256];
    kernel_bench_args(k, &a);
    return kernel_check(k, &a, len, err, sizeof err) == 0;
}

#define N_DEFAULT_SIZES (sizeof default_sizes / sizeof *default_sizes)

size_t cmd_bench_full_sweep(void)
{
    const bench_options every = { 0 };
    size_t n = 0;
    for (size_t i = 0; kernel_registry[i]; i++) {
        const kernel *k = kernel_registry[i];
        size_t rows = auto_selected(&every, k) ? 1 : 0; /* auto's */
        for (size_t j = 0; kernel_variant_at(k, j); j++)
            rows++;
        for (size_t s = 0; s < N_DEFAULT_SIZES; s++)
            n += takes_size(k, default_sizes[s]) ? rows : 0;
    }
    return n;
}

size_t cmd_bench_full_sweep_pairs(void)
{
    size_t sizes[PAIR_ROUND_N_SIZES], n = 0;
    size_t n_sizes = pair_rounds_sizes(default_sizes, N_DEFAULT_SIZES, sizes);
    for (size_t i = 0; kernel_registry[i]; i++) {
        const kernel *peer = kernel_registry[i];
        const kernel *ours = pair_rounds_ours(peer);
        for (size_t s = 0; ours && s < n_sizes; s++)
            n += takes_size(peer, sizes[s]) && takes_size(ours, sizes[s]);
    }
    return n;
}

/* --decrypt times the inverse of what bench_args encrypts, on a real
 * ciphertext of the same length: kernels whose decryption takes a tag or
 * has none of its own (stream ciphers, hashes) are left out. */
static int decryption_timeable(const kernel *k, const kernel_args *a,
                               size_t len, char *why, size_t whylen)
{
    if (!kernel_spec_find(k, KOPT_DECRYPT))
        snprintf(why, whylen, "no separate decryption: the same operation "
                 "as timed without --decrypt");
    else if (kernel_out_len(k, a, len) != len)
        snprintf(why, whylen, "decryption takes a ciphertext and tag, not "
                 "timed by --decrypt");
    else
        return 1;
    return 0;
}

static size_t registry_index(const kernel *k)
{
    size_t i = 0;
    while (kernel_registry[i] && kernel_registry[i] != k)
        i++;
    return i;
}

/* The cases of k at v (NULL: at auto) that --sizes and --benchmark_filter
 * select. Returns how many. */
static size_t add_sizes(const bench_options *o, const kernel *k,
                        const isa_variant *v, bench_case *cases)
{
    size_t n = 0;
    for (size_t s = 0; s < o->n_sizes; s++) {
        bench_case *c = &cases[n];
        *c = (bench_case){
            .k = k, .v = v, .at_auto = v == NULL, .len = o->sizes[s],
            .size_rank = s,
            .group = registry_index(k->reference ? k->reference : k),
        };
        snprintf(c->name, sizeof c->name, "%s@%s/%zu", k->name,
                 v ? v->isa : KERNEL_AUTO_ISA, c->len);
        n += gb_selected(c->name);
    }
    return n;
}

/* The benchmarks --kernel, --isa, --sizes and --benchmark_filter select,
 * named but not yet checked. Returns how many. */
static size_t select_cases(const bench_options *o, bench_case *cases)
{
    size_t n = 0;
    const isa_variant *v;
    for (size_t i = 0; kernel_registry[i]; i++) {
        const kernel *k = kernel_registry[i];
        for (size_t j = 0; (v = kernel_variant_at(k, j)); j++)
            if (selected(o, k, v))
                n += add_sizes(o, k, v, cases + n);
        if (auto_selected(o, k))
            n += add_sizes(o, k, NULL, cases + n);
    }
    return n;
}

/* c's args, and whether its kernel takes its size (noted when not). */
static int size_timeable(const bench_options *o, bench_case *c,
                         char *skipped, size_t skipped_len)
{
    char err[256];
    kernel_bench_args(c->k, &c->args);
    if (o->decrypt && !decryption_timeable(c->k, &c->args, c->len, err,
                                           sizeof err)) {
        note_skipped(skipped, skipped_len, c->name, err);
        return 0;
    }
    c->args.decrypt.set = o->decrypt;
    if (kernel_check(c->k, &c->args, c->len, err, sizeof err)) {
        note_skipped(skipped, skipped_len, c->name, err);
        return 0;
    }
    return 1;
}

/* Keep the cases that may be timed: of variants that run here and pass
 * their self-test (tried once per variant; at auto, once auto has chosen
 * the rows), at sizes their kernel takes. The others are noted with the
 * reason. Returns how many remain. */
static size_t screen_cases(const bench_options *o, bench_case *cases,
                           size_t n, char *skipped, size_t skipped_len)
{
    size_t kept = 0;
    const kernel *tried_k = NULL; /* kernels may share a table's rows */
    const isa_variant *tried = NULL;
    int refuse = 0;
    char why[512], what[96];
    for (size_t i = 0; i < n; i++) {
        bench_case c = cases[i];
        if (c.at_auto) {
            refuse = 0;
        } else if (c.k != tried_k || c.v != tried) {
            tried_k = c.k;
            tried = c.v;
            refuse = refused(c.k, c.v, why, sizeof why);
            snprintf(what, sizeof what, "%s@%s", c.k->name, c.v->isa);
            if (refuse)
                note_skipped(skipped, skipped_len, what, why);
        }
        if (!refuse && size_timeable(o, &c, skipped, skipped_len))
            cases[kept++] = c;
    }
    return kept;
}

static int compare_run_order(const void *a, const void *b)
{
    const bench_case *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->size_rank != y->size_rank)
        return x->size_rank < y->size_rank ? -1 : 1;
    return (x->shuffle > y->shuffle) - (x->shuffle < y->shuffle);
}

/* The row of ours a peer is paired with at len: of the run's cases of
 * ours at len, not at auto, the first in its table (the row dispatch
 * gives it here, or --isa's). NULL when none runs. */
static const bench_case *paired_row(const bench_case *cases, size_t n,
                                    const kernel *ours, size_t len)
{
    const bench_case *best = NULL;
    size_t best_rank = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const bench_case *c = &cases[i];
        if (c->k != ours || c->len != len || c->at_auto)
            continue;
        size_t rank = 0;
        while (kernel_variant_at(ours, rank) != c->v)
            rank++;
        if (rank < best_rank) {
            best = c;
            best_rank = rank;
        }
    }
    return best;
}

/* The pair rounds' pairs: every peer in the run at the run's sizes
 * nearest 576 and 16384 bytes (pair_rounds_sizes), against ours at
 * paired_row, in the run order. Returns 0, or -1 when out of memory. */
static int plan_pairs(const bench_case *cases, size_t n, pair_rounds *p)
{
    size_t lens[CLI_MAX_SIZES], n_lens = 0, sizes[PAIR_ROUND_N_SIZES];
    if (!p->rounds)
        return 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < n_lens && lens[j] != cases[i].len)
            j++;
        if (j == n_lens && n_lens < CLI_MAX_SIZES)
            lens[n_lens++] = cases[i].len;
    }
    size_t n_sizes = pair_rounds_sizes(lens, n_lens, sizes);
    for (size_t i = 0; i < n; i++) {
        const bench_case *peer = &cases[i], *ours = NULL;
        const kernel *ours_k = pair_rounds_ours(peer->k);
        for (size_t j = 0; ours_k && j < n_sizes; j++)
            if (sizes[j] == peer->len)
                ours = paired_row(cases, n, ours_k, peer->len);
        if (ours && pair_rounds_add(
                        p, &(timed_row){ ours->k, ours->v, &ours->args },
                        &(timed_row){ peer->k, peer->v, &peer->args },
                        peer->len))
            return -1;
    }
    return 0;
}

/* Register the n cases in the run order (see the top of this file). */
static void register_all(bench_case *cases, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++)
        cases[i].shuffle = splitmix64(&seed);
    qsort(cases, n, sizeof *cases, compare_run_order);
    for (size_t i = 0; i < n; i++)
        gb_register(cases[i].name, bench_kernel, &cases[i]);
}

/* Auto */

static int compare_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Where auto measures for a benchmark of len bytes: at len, or when the
 * run has more than AUTO_SIZES sizes, at the nearest (on a log scale) of
 * AUTO_SIZES of them spread evenly through their sorted list. */
static size_t calibration_len(const bench_options *o, size_t len)
{
    size_t sorted[CLI_MAX_SIZES], n = o->n_sizes, nearest = len;
    double distance = INFINITY;
    if (n <= AUTO_SIZES)
        return len;
    memcpy(sorted, o->sizes, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, compare_size);
    for (size_t i = 0; i < AUTO_SIZES; i++) {
        size_t size = sorted[i * (n - 1) / (AUTO_SIZES - 1)];
        double d = fabs(log((double)size / (double)len));
        if (d < distance) {
            distance = d;
            nearest = size;
        }
    }
    return nearest;
}

/* The rows of the @auto benchmarks, measured together before any of them;
 * a row that fails its self-test is not timed. Returns the seconds it
 * took (by the TSC), 0 when no @auto benchmark runs. */
static double choose_auto_rows(const bench_options *o, bench_case *cases,
                               size_t n, autoisa *chooser, char *skipped,
                               size_t skipped_len)
{
    char err[256];
    uint64_t start = timer_start();
    size_t wanted = 0;
    for (size_t i = 0; i < n; i++)
        if (cases[i].at_auto) {
            autoisa_want(chooser, cases[i].k,
                         calibration_len(o, cases[i].len));
            wanted++;
        }
    if (!wanted)
        return 0;
    autoisa_calibrate(chooser, AUTO_BUDGET_SECONDS);
    for (size_t i = 0; i < n; i++) {
        bench_case *c = &cases[i];
        size_t len = calibration_len(o, c->len);
        const isa_variant *v;
        if (!c->at_auto)
            continue;
        if (!(v = autoisa_row_for(chooser, c->k, len)))
            snprintf(c->chosen, sizeof c->chosen, "out of memory choosing "
                     "the rows for auto");
        else if (kernel_self_test(c->k, v, err, sizeof err)) {
            snprintf(c->chosen, sizeof c->chosen, "self-test failed, not "
                     "timed: %s", err);
            note_skipped(skipped, skipped_len, c->name, c->chosen);
        } else {
            c->v = v;
            autoisa_describe(chooser, c->k, len, c->chosen, sizeof c->chosen);
        }
    }
    return (double)(timer_start() - start) / timer->tsc_hz;
}

/* "chacha20=avx512 blake2b=avx512 ...": the row each kernel of ours in
 * the run takes by default here, its table's first supported one, which
 * the summary holds the run's measurements against. */
static void describe_dispatch(const bench_case *cases, size_t n, char *buf,
                              size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; kernel_registry[i] && used < len; i++) {
        const kernel *k = kernel_registry[i];
        size_t j = 0;
        while (j < n && cases[j].k != k)
            j++;
        if (j < n && !k->reference)
            used += (size_t)snprintf(buf + used, len - used, "%s%s=%s",
                                     used ? " " : "", k->name,
                                     kernel_best_variant(k)->isa);
    }
}

/* The run */

static int write_results(const bench_options *o, const char *stamp,
                         char **reports)
{
    char err[512];
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

/* The rounds still due, run once every benchmark has, into the JSON
 * reports as "pair_rounds". Returns 0, or 1 after saying why not. */
static int record_pair_rounds(const gb_format *formats, char **reports,
                              size_t n_reports)
{
    pair_rounds_run_due(&rounds, SIZE_MAX);
    if (!rounds.n)
        return 0;
    char *json = pair_rounds_json(&rounds);
    int failed = !json;
    for (size_t i = 0; i < n_reports && !failed; i++)
        if (formats[i] == GB_FORMAT_JSON)
            failed = results_add_member(&reports[i], "pair_rounds", json);
    free(json);
    if (failed)
        usage_error("out of memory recording the pair rounds");
    return failed;
}

/* What the results' context says about the method. */
static void describe_method(uint64_t seed,
                            char *sampling_text, size_t sampling_len,
                            char *order_text, size_t order_len)
{
    snprintf(sampling_text, sampling_len,
             "median of timed batches of >= %.0f ticks (fenced RDTSC, timer "
             "overhead subtracted); a %.0f-tick warm-up per benchmark "
             "discarded; until the 95%% CI of the median, over the medians "
             "of %.0f-tick blocks of samples, is within +-%.1f%% (at least "
             "%zu blocks and %zu samples%s%.3g s), capped at %.3g s per "
             "benchmark",
             (double)sampling.batch_ticks, (double)sampling.warmup_ticks,
             (double)sampling.block_ticks, sampling.precision * 100,
             sampling.min_blocks, sampling.min_samples,
             sampling.min_ticks ? ", sampling at least " : ", minimum time ",
             (double)sampling.min_ticks / timer->tsc_hz,
             (double)sampling.cap_ticks / timer->tsc_hz);
    snprintf(order_text, order_len,
             "grouped: each kernel of ours at every ISA with its external "
             "counterparts, one size at a time, in random order within the "
             "group (seed %llu)", (unsigned long long)seed);
}

/* The n registered benchmarks, cases. */
static int run(const bench_options *o, bench_case *cases, size_t n,
               char *skipped, size_t skipped_len, time_t started,
               uint64_t seed)
{
    static char chosen[8192], dispatch[4096];
    char stamp[32], sampling_text[512], order_text[256], pairing[512];
    autoisa chooser;
    sysctl_report turbo;
    gb_format formats[3] = { GB_FORMAT_JSON, GB_FORMAT_CSV, o->out_format };
    char *reports[3] = { NULL, NULL, NULL };
    size_t n_reports = o->out_path ? 3 : 2;
    int status;

    double cap = o->max_time > 0 ? o->max_time : sampler_cap_for_run(
        n, pair_rounds_seconds(rounds.rounds, rounds.n));
    double least = o->min_time >= 0 ? o->min_time : sampler_min_time(cap);
    sysctl_tune("/sys/devices/system/cpu", o->system_tune, &turbo);
    timer = timer_get_info();
    sampling = sampler_default_config(timer->tsc_hz, least, cap);
    core_cycles_index = pmu_core_cycles_index(&counters);
    autoisa_init(&chooser);
    double choosing = choose_auto_rows(o, cases, n, &chooser, skipped,
                                       skipped_len);
    autoisa_describe_all(&chooser, chosen, sizeof chosen);
    describe_dispatch(cases, n, dispatch, sizeof dispatch);
    results_timestamp(started, stamp, sizeof stamp);
    describe_method(seed, sampling_text, sizeof sampling_text, order_text,
                    sizeof order_text);
    pair_rounds_schedule(&rounds, n);
    pair_rounds_describe(&rounds, pairing, sizeof pairing);
    results_add_context(&(results_context){
        .run_id = stamp,
        .sampling = sampling_text,
        .order = order_text,
        .timer = timer,
        .core_clock_source = core_cycles_index >= 0 ? "pmu" : "estimated",
        .pmu = &counters,
        .turbo = &turbo,
        .pinned_cpu = o->cpu,
        .skipped = skipped,
        .direction = o->decrypt ? "decrypt" : "encrypt",
        .autoisa = chosen,
        .autoisa_seconds = choosing,
        .dispatch = dispatch,
        .pairing = pairing,
    });
    /* The calibration above ends in a 0.1 s sleep: keep the core busy a
     * moment so the first benchmark does not start on an idle clock. */
    timer_busy_wait(RUN_WARMUP_SECONDS);
    /* --benchmark_list_tests runs nothing and has nothing to record. */
    if (gb_run(formats, reports, n_reports) == 0)
        status = 0;
    else if (record_pair_rounds(formats, reports, n_reports))
        status = 1;
    else
        status = write_results(o, stamp, reports);
    for (int i = 0; i < 3; i++)
        free(reports[i]);
    autoisa_free(&chooser);
    return status;
}

/* The benchmarks selected, into cases. Returns how many, or 0 after a
 * usage error. */
/* Under an emulator bench refuses, unless --emulated asks for results
 * that say so (the context's "emulator"; the tools show none of their
 * figures as a speed). --emulated on a CPU of the binary's own is a
 * mistake, said before anything runs. */
static int check_emulated(const bench_options *o)
{
    if (!o->emulated)
        return refuse_emulated("bench");
    if (cpu_emulator())
        return 0;
    usage_error("bench: --emulated is for a binary run under an emulator, "
                "and this %s binary runs on its own CPU: drop --emulated",
                cpu_arch());
    return -1;
}

static size_t select_or_refuse(const bench_options *o, bench_case *cases)
{
    char q[128];
    size_t n = select_cases(o, cases);
    if (n == 0 && count_candidates(o) == 0)
        usage_error("--kernel and --isa select no kernel variant: see "
                    "'cyclebench list'");
    else if (n == 0)
        usage_error("no benchmark matches --benchmark_filter=%s: see the "
                    "names with --benchmark_list_tests=true",
                    cli_quote(gb_filter(), q, sizeof q));
    return n;
}

/* Bad input ends the command before anything is tuned, calibrated or
 * measured: options, output paths, Google Benchmark's flags, the
 * selection and the counters, in that order. Then the variants' self-tests
 * and the run. */
int cmd_bench(int argc, char **argv)
{
    static bench_options o;
    static cli_request r;
    static char skipped[65536];
    char err[512];
    time_t started = time(NULL);
    uint64_t seed = (uint64_t)started ^ (uint64_t)getpid() << 32;
    int status = EXIT_USAGE;
    bench_case *cases = NULL;
    size_t n = 0;

    if (parse_options(&o, &r, argc, argv) || check_outputs(&o))
        goto done;
    if (gb_initialize(o.n_gb_args, o.gb_args, err, sizeof err)) {
        usage_error("%s", err);
        goto done;
    }
    cases = calloc(count_candidates(&o) + 1, sizeof *cases);
    if (!cases) {
        usage_error("out of memory");
        goto done;
    }
    if ((n = select_or_refuse(&o, cases)) == 0 || check_emulated(&o))
        goto done;
    if (pmu_open(&counters, o.counters, err, sizeof err)) {
        usage_error("%s", err);
        goto done;
    }
    if ((n = screen_cases(&o, cases, n, skipped, sizeof skipped)) == 0)
        usage_error("nothing to run: every selected kernel variant and size "
                    "was skipped (see above)");
    else if (sysctl_pin(o.cpu, err, sizeof err))
        usage_error("%s", err);
    else {
        register_all(cases, n, seed);
        pair_rounds_init(&rounds, o.pair_rounds);
        if (plan_pairs(cases, n, &rounds))
            usage_error("out of memory planning the pair rounds");
        else
            status = run(&o, cases, n, skipped, sizeof skipped, started,
                         seed);
    }
    pmu_close(&counters);
done:
    pair_rounds_free(&rounds);
    free(cases);
    cli_free(&r);
    return status;
}
