/* `cyclebench run <kernel>[@isa]`: loop one kernel variant for a while and
 * print what it cost as one JSON object. It is the driver `make profile`
 * records under perf, so it does nothing but the kernel in its timed loop,
 * and it reports that loop's CLOCK_MONOTONIC window: perf, recording with
 * the same clock, can keep to exactly the samples that were timed.
 *
 * The TSC counts time the thread spent off its CPU too, so the result also
 * says what fraction of the loop the thread actually ran (CPU time over wall
 * time); core cycles come from the PMU where there is one, else from the TSC
 * and the timer's core/TSC ratio ("estimated").
 *
 * With --stages, a composite kernel (one with run_staged) is run a second
 * time, for as long again, with RDTSC around each of its stages; those
 * stamps cost time of their own, so the first loop stays unstaged.
 *
 * At --isa=auto the rows are measured at --size, after pinning, before the
 * loop; the result's "auto" says what was chosen.
 *
 * With --vs=KERNEL[@isa], the two take turns in blocks instead (paired.h)
 * and the result gives each one's median and the ratio of the first to the
 * second per pair of blocks: a same-moment ratio, with its spread.
 *
 * With --calls=N it times nothing: N calls for a tool to count from
 * outside (profiles/emulated.py), so it also runs under an emulator. */
#include <link.h> /* dl_iterate_phdr (the Makefile defines _GNU_SOURCE) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../kernels/kernel.h"
#include "args.h"
#include "autoisa.h"
#include "commands.h"
#include "gbench.h"
#include "json_out.h"
#include "paired.h"
#include "pmu.h"
#include "sysctl.h"
#include "timed_kernel.h"
#include "timer.h"

#define DEFAULT_SIZE 509
#define DEFAULT_SECONDS 3.0
#define MAX_STAGES 16
/* Calls between clock checks grow until a batch takes this many TSC ticks
 * (about a millisecond), so checking the clock costs nothing measurable. */
#define BATCH_TICKS 2000000u

typedef struct run_options {
    const kernel *k;
    const isa_variant *v;
    size_t size;
    double seconds;
    int stages;
    int check;        /* --check: the request and self-tests only */
    uint64_t calls;   /* --calls=N: N untimed calls, counted from outside */
    int at_auto;      /* --isa=auto: v is measured for, after pinning */
    char chosen[512]; /* and what was chosen */
    const kernel *vs_k; /* --vs: the kernel timed in turn with k, or NULL */
    const isa_variant *vs_v;
} run_options;

typedef struct loop_result {
    uint64_t calls, ticks;
    double core_cycles; /* from the PMU; < 0 when it has none */
    double mono_start, mono_end; /* CLOCK_MONOTONIC seconds */
    double cpu_seconds; /* this thread's CPU time in the loop */
    uint64_t stage_ticks[MAX_STAGES];
} loop_result;

/* Options */

static int parse_options(run_options *o, int argc, char **argv)
{
    cli_request r;
    int rc = cli_parse(CLI_RUN, argc, argv, &r);
    if (rc == 0)
        *o = (run_options){
            .k = r.k, .v = r.v,
            .size = r.size.set ? (size_t)r.size.num : DEFAULT_SIZE,
            .seconds = r.seconds.set ? r.seconds.seconds : DEFAULT_SECONDS,
            .stages = r.stages.set, .at_auto = r.v == NULL,
            .check = r.check.set,
            .calls = r.calls.set ? r.calls.num : 0,
        };
    if (rc == 0 && o->calls && (o->at_auto || r.vs.set || o->stages ||
                                r.seconds.set || o->check)) {
        usage_error("run: --calls makes untimed calls of one fixed row: give "
                    "%s an ISA, and drop --vs, --stages, --seconds and "
                    "--check", o->k->name);
        rc = -1;
    }
    /* A pair is two fixed rows, timed alike: auto measures rows of its
     * own first, and --stages a second loop. */
    if (rc == 0 && r.vs.set) {
        if (o->stages) {
            usage_error("run: --vs times two fixed rows: drop --stages");
            rc = -1;
        } else if (o->at_auto) {
            usage_error("run: --vs times two fixed rows: give %s an ISA, "
                        "not auto", o->k->name);
            rc = -1;
        } else if (select_variant(r.vs.text, NULL, &o->vs_k, &o->vs_v)) {
            rc = -1;
        } else if (!o->vs_v) {
            usage_error("run: --vs times two fixed rows: give %s an ISA, "
                        "not auto", o->vs_k->name);
            rc = -1;
        }
    }
    cli_free(&r);
    return rc;
}

/* The loop */

static double clock_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Calls k until `seconds` of TSC have passed; staged calls add their stage
 * ticks into r->stage_ticks. */
static void run_loop(const run_options *o, const kernel_args *a,
                     const uint8_t *in, uint8_t *out, int staged,
                     pmu_group *pmu, loop_result *r)
{
    const kernel *k = o->k;
    uint64_t target = (uint64_t)(o->seconds * timer_get_info()->tsc_hz);
    uint64_t batch = 1, now;
    double pmu_values[PMU_MAX_EVENTS];
    int cycles = pmu_core_cycles_index(pmu);
    memset(r, 0, sizeof *r);
    r->mono_start = clock_seconds(CLOCK_MONOTONIC);
    double cpu_start = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
    pmu_start(pmu);
    uint64_t t0 = timer_start(), batch_start = t0;
    do {
        for (uint64_t i = 0; i < batch; i++) {
            if (staged)
                k->run_staged(k, o->v, a, in, o->size, out, r->stage_ticks);
            else
                k->run(k, o->v, a, in, o->size, out);
            gb_clobber_memory();
        }
        r->calls += batch;
        now = timer_start();
        if (now - batch_start < BATCH_TICKS)
            batch *= 2;
        batch_start = now;
    } while (now - t0 < target);
    uint64_t t1 = timer_stop();
    r->core_cycles = pmu_stop(pmu, pmu_values) == 0 && cycles >= 0
                         ? pmu_values[cycles] : -1;
    r->cpu_seconds = clock_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
    r->mono_end = clock_seconds(CLOCK_MONOTONIC);
    r->ticks = t1 - t0;
}

/* Output */

/* Bytes one call processes: size is per message, and a batch kernel takes
 * several. */
static double call_bytes(const run_options *o)
{
    return (double)(o->size * kernel_batch(o->k));
}

static void print_stages(const run_options *o, const loop_result *s,
                         double ratio)
{
    const kernel *k = o->k;
    uint64_t sum = 0;
    for (size_t i = 0; i < k->n_stages; i++)
        sum += s->stage_ticks[i];
    printf(",\n  \"staged_calls\": %llu,\n  \"staged_tsc_cycles_per_byte\": "
           "%.4f,\n  \"stages\": [", (unsigned long long)s->calls,
           (double)s->ticks / ((double)s->calls * call_bytes(o)));
    for (size_t i = 0; i < k->n_stages; i++) {
        double per_call = (double)s->stage_ticks[i] / (double)s->calls;
        printf("%s\n    {\"name\": ", i ? "," : "");
        json_print_string(stdout, k->stage_names[i]);
        printf(", \"tsc_ticks_per_call\": %.2f, \"tsc_cycles_per_byte\": %.4f, "
               "\"core_cycles_per_byte\": %.4f, \"percent\": %.2f}", per_call,
               per_call / call_bytes(o), per_call / call_bytes(o) * ratio,
               sum ? 100.0 * s->stage_ticks[i] / sum : 0.0);
    }
    printf("\n  ]");
}

static void print_result(const run_options *o, const loop_result *r,
                         const loop_result *staged)
{
    const timer_info *t = timer_get_info();
    double bytes = (double)r->calls * call_bytes(o);
    double tsc_per_byte = (double)r->ticks / bytes;
    double core_per_byte = r->core_cycles >= 0 ? r->core_cycles / bytes
                                               : tsc_per_byte * t->core_tsc_ratio;
    printf("{\n  \"kernel\": ");
    json_print_string(stdout, o->k->name);
    printf(",\n  \"isa\": ");
    json_print_string(stdout, o->at_auto ? KERNEL_AUTO_ISA : o->v->isa);
    printf(",\n  \"size\": %zu,\n  \"bytes_per_call\": %.0f,\n"
           "  \"seconds\": %.3f,\n  \"calls\": %llu,\n"
           "  \"timer_clock\": \"" TIMER_CLOCK "\",\n"
           "  \"tsc_hz\": %.0f,\n  \"tsc_hz_source\": \"%s\",\n"
           "  \"core_tsc_ratio\": %.4f,\n  \"core_clock_source\": \"%s\",\n"
           "  \"pinned_cpu\": %d,\n  \"on_cpu_fraction\": %.3f,\n"
           "  \"tsc_cycles_per_byte\": %.4f,\n"
           "  \"core_cycles_per_byte\": %.4f,\n  \"ns_per_byte\": %.4f,\n"
           "  \"monotonic_start\": %.6f,\n  \"monotonic_end\": %.6f,\n"
           "  \"stage_names\": [",
           o->size, call_bytes(o), (double)r->ticks / t->tsc_hz,
           (unsigned long long)r->calls, t->tsc_hz, t->tsc_hz_source,
           t->core_tsc_ratio, r->core_cycles >= 0 ? "pmu" : "estimated",
           sysctl_pinned_cpu(), r->cpu_seconds / (r->mono_end - r->mono_start),
           tsc_per_byte, core_per_byte,
           tsc_per_byte * 1e9 / t->tsc_hz, r->mono_start, r->mono_end);
    for (size_t i = 0; i < o->k->n_stages; i++) {
        printf("%s", i ? ", " : "");
        json_print_string(stdout, o->k->stage_names[i]);
    }
    printf("]");
    if (o->at_auto) {
        printf(",\n  \"auto\": ");
        json_print_string(stdout, o->chosen);
    }
    if (staged)
        print_stages(o, staged, core_per_byte / tsc_per_byte);
    printf("\n}\n");
}

/* The command */

static int prepare_args(const run_options *o, kernel_args *a)
{
    kernel_bench_args(o->k, a);
    return check_kernel_args(o->k, a, o->size);
}

static int measure(const run_options *o, kernel_args *a, pmu_group *pmu)
{
    const kernel *k = o->k;
    size_t batch = kernel_batch(k);
    uint8_t *in = kernel_buffer(o->size * batch);
    uint8_t *out = kernel_buffer(kernel_out_len(k, a, o->size) * batch);
    loop_result r, staged;
    int with_stages = o->stages && k->run_staged && k->n_stages <= MAX_STAGES;
    if (!in || !out) {
        usage_error("out of memory for two %zu-byte buffers", o->size);
        free(in);
        free(out);
        return 1;
    }
    kernel_fill_message(in, o->size * batch);
    kernel_prepare(k, o->v, a);
    k->run(k, o->v, a, in, o->size, out);
    run_loop(o, a, in, out, 0, pmu, &r);
    if (with_stages)
        run_loop(o, a, in, out, 1, pmu, &staged);
    kernel_release(k, a);
    free(in);
    free(out);
    print_result(o, &r, with_stages ? &staged : NULL);
    return 0;
}

/* The objects loaded and where: a tool that counts the instructions this
 * process runs (profiles/emulated.py, under qemu) maps their addresses back
 * to the files: load base and executable ranges. The program itself has
 * the empty name. */
static int print_object(struct dl_phdr_info *info, size_t size, void *data)
{
    int *n = data, k = 0;
    (void)size;
    printf("%s\n    {\"name\": ", (*n)++ ? "," : "");
    json_print_string(stdout, info->dlpi_name ? info->dlpi_name : "");
    printf(", \"base\": \"0x%llx\", \"code\": [",
           (unsigned long long)info->dlpi_addr);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        unsigned long long lo = info->dlpi_addr + ph->p_vaddr;
        printf("%s[\"0x%llx\", \"0x%llx\"]", k++ ? ", " : "", lo,
               lo + ph->p_memsz);
    }
    printf("]}");
    return 0;
}

/* --calls=N: the row's self-test, then N calls on buffers set up as bench
 * sets them up (timed_kernel.h), nothing timed. A tool outside counts what
 * they run (the same program with N and with M calls differ by N - M
 * calls' work), which is why this works under an emulator, where no time
 * is a speed. */
static int counted_calls(const run_options *o, kernel_args *a)
{
    const kernel *k = o->k;
    timed_kernel t;
    int n = 0;
    if (timed_kernel_open(&t, k, o->v, a, o->size)) {
        usage_error("out of memory for the buffers");
        return 1;
    }
    for (uint64_t i = 0; i < o->calls; i++) {
        k->run(k, t.v, &t.a, t.in, t.len, t.out);
        gb_clobber_memory();
    }
    timed_kernel_close(&t);
    printf("{\n  \"kernel\": ");
    json_print_string(stdout, k->name);
    printf(",\n  \"isa\": ");
    json_print_string(stdout, o->v->isa);
    printf(",\n  \"size\": %zu,\n  \"bytes_per_call\": %.0f,\n"
           "  \"calls\": %llu,\n  \"timed\": false,\n  \"emulator\": ",
           o->size, call_bytes(o), (unsigned long long)o->calls);
    if (cpu_emulator())
        json_print_string(stdout, cpu_emulator());
    else
        printf("null");
    printf(",\n  \"objects\": [");
    dl_iterate_phdr(print_object, &n);
    printf("\n  ]\n}\n");
    return 0;
}

/* --vs: k and vs_k in turn, then one JSON object. */
static void print_paired(const run_options *o, const paired_config *c,
                         const paired_result *p, double seconds)
{
    const timer_info *t = timer_get_info();
    const paired_names names = { o->k->name, o->v->isa, o->vs_k->name,
                                 o->vs_v->isa };
    printf("{\n  ");
    paired_print_json(stdout, &names, o->size, seconds, p, ",\n  ");
    printf(",\n  \"block_seconds\": %.3f,\n"
           "  \"timer_clock\": \"" TIMER_CLOCK "\",\n"
           "  \"tsc_hz\": %.0f,\n  \"tsc_hz_source\": \"%s\",\n"
           "  \"core_tsc_ratio\": %.4f,\n  \"pinned_cpu\": %d\n}\n",
           (double)c->block_ticks / t->tsc_hz, t->tsc_hz, t->tsc_hz_source,
           t->core_tsc_ratio, sysctl_pinned_cpu());
}

static int measure_paired(const run_options *o, const kernel_args *a,
                          const kernel_args *vs_a)
{
    const timed_row side[2] = { { o->k, o->v, a }, { o->vs_k, o->vs_v, vs_a } };
    paired_config c = paired_default_config(timer_get_info()->tsc_hz,
                                            o->seconds);
    paired_result p;
    uint64_t t0 = timer_start();
    if (timed_kernel_pair(side, o->size, &c, &p)) {
        usage_error("out of memory for the buffers or the samples");
        return 1;
    }
    print_paired(o, &c, &p, (double)(timer_stop() - t0) /
                                timer_get_info()->tsc_hz);
    return 0;
}

/* At auto, the row to run, measured at the run's size: 0, or -1 after
 * saying why not. */
static int choose_auto(run_options *o, autoisa *chooser)
{
    if (!o->at_auto)
        return 0;
    o->v = autoisa_row_for(chooser, o->k, o->size);
    if (!o->v) {
        usage_error("run: out of memory choosing the rows for auto");
        return -1;
    }
    autoisa_describe(chooser, o->k, o->size, o->chosen, sizeof o->chosen);
    return 0;
}

int cmd_run(int argc, char **argv)
{
    run_options o = { 0 };
    kernel_args a, vs_a;
    pmu_group pmu;
    autoisa chooser;
    char err[256];
    int status = 1;
    if (parse_options(&o, argc, argv) || prepare_args(&o, &a))
        return EXIT_USAGE;
    if (o.vs_k) {
        kernel_bench_args(o.vs_k, &vs_a);
        if (check_kernel_args(o.vs_k, &vs_a, o.size))
            return EXIT_USAGE;
    }
    if (o.calls)
        return require_self_test(o.k, o.v, "run") ? 1
                                                  : counted_calls(&o, &a);
    if (refuse_emulated("run"))
        return EXIT_USAGE;
    /* --check: what make profile and make diff ask before they record
     * anything, so that a bad request is refused before any measurement.
     * At auto the rows pass their self-tests when auto times them. */
    if (o.check)
        return (o.v && require_self_test(o.k, o.v, "run")) ||
                       (o.vs_k && require_self_test(o.vs_k, o.vs_v, "run"))
                   ? 1
                   : 0;
    if (sysctl_pin(sysctl_default_cpu(), err, sizeof err)) {
        usage_error("%s", err);
        return 1;
    }
    autoisa_init(&chooser);
    if (choose_auto(&o, &chooser) || require_self_test(o.k, o.v, "run") ||
        (o.vs_k && require_self_test(o.vs_k, o.vs_v, "run")))
        goto done;
    if (o.vs_k) {
        status = measure_paired(&o, &a, &vs_a);
        goto done;
    }
    /* Core cycles from the PMU where there is one; otherwise estimated from
     * the TSC and the timer's core/TSC ratio (pmu_open says why on stderr). */
    if (pmu_open(&pmu, "cycles", err, sizeof err)) {
        usage_error("%s", err);
        goto done;
    }
    status = measure(&o, &a, &pmu);
    pmu_close(&pmu);
done:
    autoisa_free(&chooser);
    return status;
}
