/* The measurement harness: the timer and its clocks, the PMU path through
 * libpfm4, pinning, the frequency settings and their restoration, the
 * atomic results files, and the quoting of values in messages. Nothing
 * here asserts a speed: the machine is shared and noisy. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../harness/args.h"
#include "../../harness/pmu.h"
#include "../../harness/results.h"
#include "../../harness/sysctl.h"
#include "../../harness/timer.h"
#include "check.h"

static int64_t now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void spin_cpu_ns(int64_t ns)
{
    int64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ns;
    while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
        ;
}

static int read_file(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
    return 0;
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static int cpuinfo_has_flag(const char *flag)
{
    static char buf[1 << 16];
    char *line, *save;
    if (read_file("/proc/cpuinfo", buf, sizeof buf))
        return 0;
    for (line = strtok_r(buf, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        char *words;
        for (char *w = strtok_r(line, " \t", &words); w;
             w = strtok_r(NULL, " \t", &words))
            if (!strcmp(w, flag))
                return 1;
        return 0;
    }
    return 0;
}

/* CLOCK_MONOTONIC_RAW and the TSC at one moment, bracketed: the tightest
 * of 16 tries, with the ticks its bracket spans. A preemption between two
 * reads only widens a bracket, and the widest one is never used. */
static void clock_and_tsc(int64_t *ns, uint64_t *tsc, uint64_t *width)
{
    *width = UINT64_MAX;
    for (int i = 0; i < 16; i++) {
        uint64_t before = timer_start();
        int64_t now = now_ns(CLOCK_MONOTONIC_RAW);
        uint64_t after = timer_stop();
        if (after - before < *width) {
            *width = after - before;
            *ns = now;
            *tsc = before + (after - before) / 2;
        }
    }
}

/* The kernel's TSC frequency, best source first:
 *  - /sys/devices/system/cpu/cpu0/tsc_freq_khz, where the kernel exports
 *    its tsc_khz (some distribution kernels do);
 *  - "cpu MHz" of /proc/cpuinfo, when the kernel knows the TSC frequency
 *    (tsc_known_freq), the TSC is constant, and neither APERF/MPERF nor a
 *    cpufreq driver is there to make that line a core clock instead: it is
 *    then the cpu_khz the kernel booted with ("tsc: Detected ... MHz");
 *  - else TSC ticks over 200 ms of CLOCK_MONOTONIC_RAW, which the kernel
 *    derives from its own TSC calibration when tsc is the clocksource.
 * dmesg is not used: its ring buffer may have dropped the boot lines.
 * *uncertainty is the relative error the measurement may carry (0 for a
 * figure read): the TSC ticks it took to read the clock at either end. */
static double kernel_tsc_hz(const char **source, double *uncertainty)
{
    *uncertainty = 0;
    char buf[1 << 16];
    struct stat st;
    if (read_file("/sys/devices/system/cpu/cpu0/tsc_freq_khz", buf,
                  sizeof buf) == 0) {
        *source = "sysfs tsc_freq_khz";
        return atof(buf) * 1e3;
    }
    if (cpuinfo_has_flag("tsc_known_freq") && cpuinfo_has_flag("constant_tsc") &&
        !cpuinfo_has_flag("aperfmperf") &&
        stat("/sys/devices/system/cpu/cpu0/cpufreq", &st) != 0 &&
        read_file("/proc/cpuinfo", buf, sizeof buf) == 0) {
        char *mhz = strstr(buf, "cpu MHz");
        if (mhz && (mhz = strchr(mhz, ':'))) {
            *source = "/proc/cpuinfo cpu MHz";
            return atof(mhz + 1) * 1e6;
        }
    }
    *source = "200 ms of CLOCK_MONOTONIC_RAW";
    int64_t ns0, ns1;
    uint64_t t0, t1, w0, w1;
    clock_and_tsc(&ns0, &t0, &w0);
    struct timespec pause = { 0, 200000000 };
    nanosleep(&pause, NULL);
    clock_and_tsc(&ns1, &t1, &w1);
    *uncertainty = (double)(w0 + w1) / (double)(t1 - t0);
    return (double)(t1 - t0) * 1e9 / (double)(ns1 - ns0);
}

#if defined(__x86_64__)
/* A second clock for the core/TSC ratio: a 64-bit imul takes 3 cycles on
 * every x86-64 core since Nehalem and Zen, and no renamer folds it. The
 * chain is written out in asm, 100 multiplies a pass, each waiting for the
 * one before: whatever the compiler and the sanitized build's coverage
 * counters add to the loop around it runs alongside. The fastest of
 * several samples, as timer_calibrate_core_ratio takes. */
#define IMUL10 "imul %[one], %[x]\n\t" "imul %[one], %[x]\n\t"               \
    "imul %[one], %[x]\n\t" "imul %[one], %[x]\n\t" "imul %[one], %[x]\n\t" \
    "imul %[one], %[x]\n\t" "imul %[one], %[x]\n\t" "imul %[one], %[x]\n\t" \
    "imul %[one], %[x]\n\t" "imul %[one], %[x]\n\t"
static double imul_core_ratio(void)
{
    enum { MULS = 300000 };
    uint64_t best = UINT64_MAX, one = 1;
    __asm__ volatile("" : "+r"(one));
    for (int i = 0; i < 20; i++) {
        uint64_t x = 3;
        uint64_t t0 = timer_start();
        for (int k = 0; k < MULS / 100; k++)
            __asm__ volatile(IMUL10 IMUL10 IMUL10 IMUL10 IMUL10 IMUL10 IMUL10
                             IMUL10 IMUL10 IMUL10
                             : [x] "+r"(x)
                             : [one] "r"(one));
        uint64_t ticks = timer_stop() - t0;
        if (ticks < best)
            best = ticks;
    }
    return 3.0 * MULS / (double)best;
}
#endif

/* The add chain on a model clock: TIMER_RATIO_ADDS adds take `ticks`,
 * the warm-up rounds ten times that (a core still waking up), and each
 * timed sample but one gains an interrupt's worth, 1-60% more. */
typedef struct ratio_model {
    uint64_t ticks, seed;
    int calls, undisturbed; /* which timed sample runs clean */
} ratio_model;

static uint64_t model_adds(void *ctx)
{
    ratio_model *m = ctx;
    int call = m->calls++;
    if (call < 5)
        return 10 * m->ticks;
    if (call - 5 == m->undisturbed)
        return m->ticks;
    return m->ticks + m->ticks * (1 + check_random(&m->seed) % 60) / 100;
}

static void test_core_ratio_model(void)
{
    CASE("core/TSC ratio on a model clock: the least disturbed sample, the "
         "same whichever sample ran clean");
    double want = (double)TIMER_RATIO_ADDS / 800000;
    for (int clean = 0; clean < 15; clean += 7) {
        ratio_model m = { .ticks = 800000, .seed = 7 + (uint64_t)clean,
                          .undisturbed = clean };
        double got = timer_core_ratio_of(model_adds, &m);
        CHECK(fabs(got - want) < 1e-12, "clean sample %d: ratio %.6f, want "
              "%.6f", clean, got, want);
        CHECK(m.calls == 20, "%d calls, want 5 warm-up and 15 timed",
              m.calls);
    }
}

static void test_timer(void)
{
    const char *source, *kernel_source;

#if defined(__x86_64__)
    CASE("timer overhead is positive and under 100 ticks");
    uint64_t overhead = timer_measure_overhead();
    CHECK(overhead > 0 && overhead < 100, "overhead %llu ticks",
          (unsigned long long)overhead);
#else
    /* The generic timer may tick less than once in an empty pair. */
    CASE("timer overhead is under 100 ticks");
    uint64_t overhead = timer_measure_overhead();
    CHECK(overhead < 100, "overhead %llu ticks", (unsigned long long)overhead);
#endif

    /* 1% is what separates a TSC rate read from the wrong place (a
     * misdecoded cpuid leaf, kHz for MHz) from the right one; the
     * reference, when measured, may be off by as much as its brackets
     * span, which a busy host widens, and the bound with them. */
    CASE("tsc_hz is within 1%% of the kernel's TSC frequency");
    double uncertainty;
    double hz = timer_tsc_hz(&source);
    double want = kernel_tsc_hz(&kernel_source, &uncertainty);
    printf("   tsc_hz %.0f (%s), kernel %.0f (%s, +-%.2g)\n", hz, source,
           want, kernel_source, uncertainty);
    CHECK(fabs(hz - want) < (0.01 + uncertainty) * want,
          "tsc_hz %.0f (%s) vs %.0f (%s, +-%.2g)", hz, source, want,
          kernel_source, uncertainty);

    CASE("core/TSC ratio is positive");
    double r1 = timer_calibrate_core_ratio(), r2 = timer_calibrate_core_ratio();
    printf("   core/TSC ratio %.4f, %.4f\n", r1, r2);
    CHECK(r1 > 0 && r2 > 0, "ratios %f %f", r1, r2);

#if defined(__x86_64__)
    /* aarch64 cores differ in MUL's latency: no second clock there. */
    /* A chain that ran two adds a cycle (folded at rename, or no longer
     * dependent) would be off by a factor of 2 or more; the two chains,
     * each the least disturbed of many samples, never drift half that far
     * apart on a busy host, as they may by 10%% over a frequency step. */
    CASE("core/TSC ratio agrees within a factor of 1.5 with a chain of "
         "multiplies");
    double by_imul = imul_core_ratio();
    printf("   core/TSC ratio %.4f, by imul %.4f\n", r2, by_imul);
    CHECK(r2 < 1.5 * by_imul && by_imul < 1.5 * r2, "adds say %f, imul says "
          "%f: the add chain is not one add per cycle here", r2, by_imul);
#endif

    /* No x86 core runs at 6.5 GHz: a ratio implying it means the CPU ran
     * the chain faster than one add per cycle (immediate-add folding). */
    CASE("core/TSC ratio implies a core clock below 6.5 GHz");
    double tsc_hz = timer_calibrate_tsc_hz();
    CHECK(r1 * tsc_hz < 6.5e9, "ratio %.3f at a %.3f GHz TSC is a %.2f GHz "
          "core", r1, tsc_hz / 1e9, r1 * tsc_hz / 1e9);
}

static int find_event(const pmu_group *g, const char *name)
{
    for (size_t i = 0; i < g->n; i++)
        if (!strcmp(g->events[i].name, name))
            return (int)i;
    return -1;
}

/* kernel.perf_event_paranoid's value, for a message. */
static const char *paranoid_level(void)
{
    static char buf[32];
    if (read_file("/proc/sys/kernel/perf_event_paranoid", buf, sizeof buf))
        return "unreadable";
    buf[strcspn(buf, "\n")] = '\0';
    return buf;
}

static void test_software_events(void)
{
    enum { PAGES = 64 };
    pmu_group g;
    char err[256];
    double v[PMU_MAX_EVENTS];
    long page = sysconf(_SC_PAGESIZE);

    CASE("perf::PAGE-FAULTS counts fresh pages; perf::TASK-CLOCK grows");
    if (pmu_open(&g, "perf::PAGE-FAULTS,perf::TASK-CLOCK", err, sizeof err)) {
        CHECK(0, "%s", err);
        return;
    }
    int faults = find_event(&g, "perf::PAGE-FAULTS");
    int clock = find_event(&g, "perf::TASK-CLOCK");
    /* Software events need no PMU: only a refusal to let this process
     * count anything (kernel.perf_event_paranoid, or a container's seccomp
     * profile) excuses them. Any other error is pmu.c's, and fails. */
    const pmu_event *closed = g.events[faults].fd < 0   ? &g.events[faults]
                              : g.events[clock].fd < 0 ? &g.events[clock]
                                                       : NULL;
    if (closed && (closed->open_errno == EACCES ||
                   closed->open_errno == EPERM)) {
        SKIP("perf_event_open is not permitted here (%s): "
             "kernel.perf_event_paranoid is %s", closed->unavailable,
             paranoid_level());
        pmu_close(&g);
        return;
    }
    if (closed) {
        CHECK(0, "%s does not open: %s", closed->name, closed->unavailable);
        pmu_close(&g);
        return;
    }
    uint8_t *mem = mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(mem != MAP_FAILED, "mmap failed");
    pmu_start(&g);
    for (long i = 0; i < PAGES; i++)
        mem[i * page] = 1;
    spin_cpu_ns(20000000);
    CHECK(pmu_stop(&g, v) == 0, "the group never ran");
    munmap(mem, PAGES * page);
    CHECK(v[faults] >= PAGES, "%.0f page faults for %d fresh pages", v[faults],
          PAGES);
    CHECK(v[clock] >= 15e6 && v[clock] < 2e9, "task clock %.0f ns over 20 ms "
          "of CPU", v[clock]);
    /* Twice more: the group must keep counting across measurements. */
    for (int i = 0; i < 2; i++) {
        pmu_start(&g);
        spin_cpu_ns(5000000);
        pmu_stop(&g, v);
        CHECK(v[clock] >= 4e6, "task clock %.0f ns over 5 ms, measurement %d",
              v[clock], i + 2);
    }
    pmu_close(&g);
}

static void test_unavailable_leader(void)
{
    pmu_group g;
    char err[256];
    double v[PMU_MAX_EVENTS];

    CASE("cycles counts, or is unavailable and the next event leads");
    if (pmu_open(&g, "cycles,perf::TASK-CLOCK", err, sizeof err)) {
        CHECK(0, "%s", err);
        return;
    }
    pmu_start(&g);
    spin_cpu_ns(10000000);
    CHECK(pmu_stop(&g, v) == 0, "the group never ran");
    if (g.events[0].fd >= 0) {
        CHECK(g.leader_fd == g.events[0].fd, "cycles opened but does not lead");
        CHECK(pmu_core_cycles_index(&g) == 0, "cycles not recognised");
        CHECK(v[0] > 1e6, "%.0f cycles in 10 ms", v[0]);
    } else {
        printf("   cycles unavailable: %s\n", g.events[0].unavailable);
        CHECK(g.events[0].unavailable[0] != '\0', "no reason recorded");
        CHECK(pmu_core_cycles_index(&g) == -1, "unopened cycles counted");
        CHECK(g.leader_fd == g.events[1].fd, "TASK-CLOCK does not lead");
        CHECK(v[1] >= 5e6, "task clock %.0f ns over 10 ms", v[1]);
    }
    pmu_close(&g);

    CASE("an event libpfm4 cannot encode is an error naming it");
    CHECK(pmu_open(&g, "perf::TASK-CLOCK,no-such-event", err, sizeof err) != 0,
          "accepted no-such-event");
    CHECK(strstr(err, "no-such-event") != NULL, "message: %s", err);
    CHECK(pmu_open(&g, "perf::TASK-CLOCK,,cycles", err, sizeof err) != 0,
          "accepted an empty name");
}

static void test_pinning(void)
{
    char err[256];
    int cpu = sysctl_default_cpu();

    CASE("pinning to the default CPU %d is confirmed", cpu);
    CHECK(sysctl_cpu_allowed(cpu), "default CPU %d not allowed", cpu);
    CHECK(sysctl_pin(cpu, err, sizeof err) == 0, "%s", err);
    CHECK(sysctl_pinned_cpu() == cpu, "affinity says %d", sysctl_pinned_cpu());
    CHECK(sched_getcpu() == cpu, "running on %d", sched_getcpu());
    CHECK(!sysctl_cpu_allowed(CPU_SETSIZE) && !sysctl_cpu_allowed(-1),
          "out-of-range CPUs allowed");
}

/* A fake /sys/devices/system/cpu with every setting sysctl_tune knows. */
static const struct {
    const char *path, *value, *steady;
} fake_settings[] = {
    { "intel_pstate/no_turbo", "0\n", "1" },
    { "cpufreq/boost", "1\n", "0" },
    { "cpufreq/policy0/boost", "1\n", "0" },
    { "cpufreq/policy0/scaling_governor", "powersave\n", "performance" },
};
#define N_FAKE (sizeof fake_settings / sizeof fake_settings[0])

static void make_fake_sysfs(const char *root)
{
    char path[512];
    const char *dirs[] = { "intel_pstate", "cpufreq", "cpufreq/policy0" };
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        mkdir(path, 0755);
    }
    for (size_t i = 0; i < N_FAKE; i++) {
        snprintf(path, sizeof path, "%s/%s", root, fake_settings[i].path);
        write_file(path, fake_settings[i].value);
    }
}

/* Number of settings that hold their original value (sysfs reads end in a
 * newline that writes may omit). */
static size_t count_original(const char *root)
{
    char path[512], buf[64];
    size_t n = 0;
    for (size_t i = 0; i < N_FAKE; i++) {
        snprintf(path, sizeof path, "%s/%s", root, fake_settings[i].path);
        size_t len = strcspn(fake_settings[i].value, "\n");
        n += read_file(path, buf, sizeof buf) == 0 &&
             strcspn(buf, "\n") == len &&
             strncmp(buf, fake_settings[i].value, len) == 0;
    }
    return n;
}

/* Child: tune, check every setting moved, then end by exit or signal. */
static void tune_then_end(const char *root, int sig)
{
    sysctl_report r;
    char path[512], buf[64];
    sysctl_tune(root, 1, &r);
    for (size_t i = 0; i < N_FAKE; i++) {
        snprintf(path, sizeof path, "%s/%s", root, fake_settings[i].path);
        if (read_file(path, buf, sizeof buf) || strcmp(buf, fake_settings[i].steady))
            _exit(3);
    }
    if (sig)
        raise(sig);
    exit(0);
}

static void test_tune_and_restore(void)
{
    char root[] = "/tmp/cyclebench-sysfs-XXXXXX";
    sysctl_report r;
    int status;

    CASE("settings are changed, and restored at exit and on SIGTERM/SIGINT");
    if (!mkdtemp(root)) {
        CHECK(0, "mkdtemp failed");
        return;
    }
    make_fake_sysfs(root);
    sysctl_tune(root, 0, &r);
    CHECK(count_original(root) == N_FAKE, "--no-system-tune changed settings");
    CHECK(strstr(r.changed, "--no-system-tune") != NULL, "changed: %s",
          r.changed);
    CHECK(strstr(r.before, "scaling_governor=powersave") != NULL, "before: %s",
          r.before);
    const int endings[] = { 0, SIGTERM, SIGINT };
    for (size_t i = 0; i < 3; i++) {
        pid_t pid = fork();
        if (pid == 0)
            tune_then_end(root, endings[i]);
        waitpid(pid, &status, 0);
        if (endings[i])
            CHECK(WIFSIGNALED(status) && WTERMSIG(status) == endings[i],
                  "child did not die of signal %d (status %#x)", endings[i],
                  status);
        else
            CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "child status %#x (3: settings not changed)", status);
        CHECK(count_original(root) == N_FAKE, "%zu of %zu settings restored "
              "after ending %d", count_original(root), N_FAKE, endings[i]);
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    CHECK(system(cmd) == 0, "cleanup");
}

static size_t count_entries(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static void test_results_files(void)
{
    char root[] = "/tmp/cyclebench-results-XXXXXX", dir[256], path[300];
    char err[256], buf[64];

    CASE("results files are written whole, with latest copies");
    if (!mkdtemp(root)) {
        CHECK(0, "mkdtemp failed");
        return;
    }
    snprintf(dir, sizeof dir, "%s/out/results", root);
    CHECK(results_write_run(dir, "20240101T000000Z", "{\"j\":1}", "c,1\n", err,
                            sizeof err) == 0, "%s", err);
    CHECK(count_entries(dir) == 4, "%zu files, want 4 (no temporaries)",
          count_entries(dir));
    snprintf(path, sizeof path, "%s/latest.json", dir);
    CHECK(read_file(path, buf, sizeof buf) == 0 && !strcmp(buf, "{\"j\":1}"),
          "latest.json holds '%s'", buf);
    snprintf(path, sizeof path, "%s/20240101T000000Z.csv", dir);
    CHECK(read_file(path, buf, sizeof buf) == 0 && !strcmp(buf, "c,1\n"),
          "csv holds '%s'", buf);
    CHECK(results_write_file("/nonexistent-dir/x.json", "{}", err,
                             sizeof err) != 0, "wrote into a missing dir");

    char stamp[32];
    results_timestamp(0, stamp, sizeof stamp);
    CHECK(!strcmp(stamp, "19700101T000000Z"), "timestamp %s", stamp);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    CHECK(system(cmd) == 0, "cleanup");
}

/* Each buffer size, each string: the quoted text stays inside the buffer
 * (the bytes after it untouched), quoted, and cut with "..." when long. */
static void test_quoting(void)
{
    char s[64], buf[128], want[16];
    CASE("quoted values stay in their buffer, whatever they hold");
    for (int fill = 0; fill < 3; fill++) {
        memset(s, fill == 0 ? 'a' : fill == 1 ? '\n' : 0xff, sizeof s - 1);
        s[sizeof s - 1] = '\0';
        for (size_t len = 0; len <= 40; len++) {
            memset(buf, '#', sizeof buf);
            cli_quote(s, buf, len);
            int inside = 1;
            for (size_t i = len; i < sizeof buf; i++)
                inside &= buf[i] == '#';
            size_t n = len ? strnlen(buf, len) : 0;
            CHECK(inside && (len == 0 || n < len), "fill %d, %zu bytes: "
                  "wrote past the buffer", fill, len);
            CHECK(n == 0 || (buf[0] == '\'' && buf[n - 1] == '\'' &&
                             n >= 5 && !memcmp(buf + n - 4, "...", 3)),
                  "fill %d, %zu bytes: '%.*s'", fill, len, (int)n, buf);
        }
    }
    snprintf(want, sizeof want, "'a\\x0ab'");
    CHECK(!strcmp(cli_quote("a\nb", buf, sizeof buf), want), "got %s", buf);
}

int main(void)
{
    test_quoting();
    test_pinning();
    test_timer();
    test_core_ratio_model();
    test_software_events();
    test_unavailable_leader();
    test_tune_and_restore();
    test_results_files();
    return check_finish();
}
