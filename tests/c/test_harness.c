/* The measurement harness: the timer and its clocks, the PMU path through
 * libpfm4, pinning, the frequency settings and their restoration, the
 * atomic results files, and the quoting of values in messages. Nothing
 * here asserts a speed: the machine is shared and noisy. */
#include <dirent.h>
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

/* The kernel's TSC frequency, best source first:
 *  - /sys/devices/system/cpu/cpu0/tsc_freq_khz, where the kernel exports
 *    its tsc_khz (some distribution kernels do);
 *  - "cpu MHz" of /proc/cpuinfo, when the kernel knows the TSC frequency
 *    (tsc_known_freq), the TSC is constant, and neither APERF/MPERF nor a
 *    cpufreq driver is there to make that line a core clock instead: it is
 *    then the cpu_khz the kernel booted with ("tsc: Detected ... MHz");
 *  - else TSC ticks over 200 ms of CLOCK_MONOTONIC_RAW, which the kernel
 *    derives from its own TSC calibration when tsc is the clocksource.
 * dmesg is not used: its ring buffer may have dropped the boot lines. */
static double kernel_tsc_hz(const char **source)
{
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
    int64_t ns0 = now_ns(CLOCK_MONOTONIC_RAW);
    uint64_t t0 = timer_start();
    struct timespec pause = { 0, 200000000 };
    nanosleep(&pause, NULL);
    int64_t ns1 = now_ns(CLOCK_MONOTONIC_RAW);
    uint64_t t1 = timer_stop();
    return (double)(t1 - t0) * 1e9 / (double)(ns1 - ns0);
}

#if defined(__x86_64__)
/* A second clock for the core/TSC ratio: a 64-bit imul takes 3 cycles on
 * every x86-64 core since Nehalem and Zen, and no renamer folds it. The
 * empty asm hides x and one from the compiler, so each multiply waits for
 * the one before; the loop's own counting runs alongside. The fastest of
 * several samples, as timer_calibrate_core_ratio takes. */
static double imul_core_ratio(void)
{
    enum { MULS = 300000 };
    uint64_t best = UINT64_MAX, one = 1;
    __asm__ volatile("" : "+r"(one));
    for (int i = 0; i < 20; i++) {
        uint64_t x = 3;
        uint64_t t0 = timer_start();
        for (int k = 0; k < MULS; k++) {
            x *= one;
            __asm__ volatile("" : "+r"(x));
        }
        uint64_t ticks = timer_stop() - t0;
        if (ticks < best)
            best = ticks;
    }
    return 3.0 * MULS / (double)best;
}
#endif

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

    CASE("tsc_hz is within 1%% of the kernel's TSC frequency");
    double hz = timer_tsc_hz(&source);
    double want = kernel_tsc_hz(&kernel_source);
    printf("   tsc_hz %.0f (%s), kernel %.0f (%s)\n", hz, source, want,
           kernel_source);
    CHECK(fabs(hz - want) < 0.01 * want, "tsc_hz %.0f (%s) vs %.0f (%s)", hz,
          source, want, kernel_source);

    CASE("core/TSC ratio is positive and repeatable within 5%%");
    double r1 = timer_calibrate_core_ratio(), r2 = timer_calibrate_core_ratio();
    printf("   core/TSC ratio %.4f, %.4f\n", r1, r2);
    CHECK(r1 > 0 && r2 > 0, "ratios %f %f", r1, r2);
    CHECK(fabs(r1 - r2) < 0.05 * fmax(r1, r2), "ratios %f %f differ", r1, r2);

#if defined(__x86_64__)
    /* aarch64 cores differ in MUL's latency: no second clock there. */
    CASE("core/TSC ratio agrees within 10%% with a chain of multiplies");
    double by_imul = imul_core_ratio();
    printf("   core/TSC ratio %.4f, by imul %.4f\n", r2, by_imul);
    CHECK(fabs(r2 - by_imul) < 0.10 * by_imul, "adds say %f, imul says %f: "
          "the add chain is not one add per cycle here", r2, by_imul);
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
    if (g.events[faults].fd < 0 || g.events[clock].fd < 0) {
        SKIP("software events do not open here: %s", g.events[faults].fd < 0 ?
             g.events[faults].unavailable : g.events[clock].unavailable);
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
    test_software_events();
    test_unavailable_leader();
    test_tune_and_restore();
    test_results_files();
    return check_finish();
}
