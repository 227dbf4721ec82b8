#include "sysctl.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Pinning */

static const cpu_set_t *initial_affinity(void)
{
    static cpu_set_t set;
    static int known;
    if (!known) {
        if (sched_getaffinity(0, sizeof set, &set) != 0) {
            CPU_ZERO(&set);
            CPU_SET(0, &set);
        }
        known = 1;
    }
    return &set;
}

int sysctl_cpu_allowed(int cpu)
{
    return cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, initial_affinity());
}

int sysctl_default_cpu(void)
{
    for (int cpu = CPU_SETSIZE - 1; cpu > 0; cpu--)
        if (sysctl_cpu_allowed(cpu))
            return cpu;
    return 0;
}

void sysctl_describe_allowed(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int cpu = 0; cpu < CPU_SETSIZE && used < len; cpu++) {
        if (!sysctl_cpu_allowed(cpu))
            continue;
        int last = cpu;
        while (sysctl_cpu_allowed(last + 1))
            last++;
        used += (size_t)snprintf(buf + used, len - used, last > cpu ?
                                 "%s%d-%d" : "%s%d", used ? "," : "", cpu, last);
        cpu = last;
    }
}

int sysctl_pinned_cpu(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) != 1)
        return -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &set))
            return cpu;
    return -1;
}

int sysctl_pin(int cpu, char *err, size_t errlen)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        snprintf(err, errlen, "cannot pin to CPU %d: %s (pick another with "
                 "--cpu=N)", cpu, strerror(errno));
        return -1;
    }
    if (sysctl_pinned_cpu() != cpu) {
        snprintf(err, errlen, "pinning to CPU %d did not hold: "
                 "sched_getaffinity reports another mask", cpu);
        return -1;
    }
    return 0;
}

/* Frequency settings */

/* Under /sys/devices/system/cpu. Per-CPU settings live in cpufreq's policy
 * directories (cpuN/cpufreq links to them), so globbing policy* changes
 * each once. amd_pstate uses cpufreq/boost and, since Linux 6.11, the
 * per-policy boost. */
static const struct knob {
    const char *pattern;
    const char *steady; /* the value for a steady clock */
} knobs[] = {
    { "intel_pstate/no_turbo", "1" },
    { "cpufreq/boost", "0" },
    { "cpufreq/policy*/boost", "0" },
    { "cpufreq/policy*/scaling_governor", "performance" },
};

#define MAX_SAVED 64

/* What sysctl_restore writes back. Fixed arrays, so the signal handler
 * needs no allocation. */
static struct {
    char path[256];
    char value[64];
} saved[MAX_SAVED];
static volatile sig_atomic_t n_saved;

void sysctl_restore(void)
{
    while (n_saved > 0) {
        int i = n_saved - 1;
        int fd = open(saved[i].path, O_WRONLY | O_TRUNC);
        if (fd >= 0) {
            ssize_t ignored = write(fd, saved[i].value, strlen(saved[i].value));
            (void)ignored;
            close(fd);
        }
        n_saved = i;
    }
}

static void restore_and_die(int sig)
{
    sysctl_restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void restore_at_exit(void)
{
    static int installed;
    if (installed)
        return;
    installed = 1;
    atexit(sysctl_restore);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = restore_and_die;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static int read_setting(const char *path, char *value, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int ok = fgets(value, (int)len, f) != NULL;
    fclose(f);
    if (!ok)
        return -1;
    value[strcspn(value, "\n")] = '\0';
    return 0;
}

static int write_setting(const char *path, const char *value)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int ok = fputs(value, f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static void append(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;
    if (used + 1 >= len)
        return;
    if (used)
        buf[used++] = ' ', buf[used] = '\0';
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

static void set_steady(const char *path, const char *name, const char *old,
                       const char *steady, sysctl_report *r)
{
    if (n_saved == MAX_SAVED || strlen(path) >= sizeof saved[0].path ||
        strlen(old) >= sizeof saved[0].value) {
        append(r->changed, sizeof r->changed, "%s:not-changed(too-many)", name);
        return;
    }
    /* Saved before the write: a signal between the two restores a value
     * that is still in place, which is harmless. */
    strcpy(saved[n_saved].path, path);
    strcpy(saved[n_saved].value, old);
    n_saved = n_saved + 1;
    restore_at_exit();
    if (write_setting(path, steady) != 0) {
        append(r->changed, sizeof r->changed, "%s:not-changed(%s)", name,
               strerror(errno));
        n_saved = n_saved - 1;
        return;
    }
    append(r->changed, sizeof r->changed, "%s:%s->%s", name, old, steady);
}

static void tune_path(const char *path, const char *name, const char *steady,
                      int change, sysctl_report *r)
{
    char old[64], now[64];
    if (read_setting(path, old, sizeof old) != 0)
        return;
    append(r->before, sizeof r->before, "%s=%s", name, old);
    if (change && strcmp(old, steady) != 0)
        set_steady(path, name, old, steady, r);
    if (read_setting(path, now, sizeof now) != 0)
        strcpy(now, "unreadable");
    append(r->after, sizeof r->after, "%s=%s", name, now);
}

void sysctl_tune(const char *cpu_dir, int change, sysctl_report *r)
{
    char pattern[512];
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < sizeof knobs / sizeof knobs[0]; i++) {
        glob_t g;
        snprintf(pattern, sizeof pattern, "%s/%s", cpu_dir, knobs[i].pattern);
        if (glob(pattern, 0, NULL, &g) != 0)
            continue;
        for (size_t j = 0; j < g.gl_pathc; j++)
            tune_path(g.gl_pathv[j], g.gl_pathv[j] + strlen(cpu_dir) + 1,
                      knobs[i].steady, change, r);
        globfree(&g);
    }
    if (!r->before[0]) {
        snprintf(r->before, sizeof r->before, "unknown (no turbo, boost or "
                 "governor control under %s)", cpu_dir);
        strcpy(r->after, "unknown");
        strcpy(r->changed, "nothing");
        if (change)
            fprintf(stderr, "cyclebench: no turbo, boost or governor control "
                    "under %s: the clock is left as it is (recorded in the "
                    "results)\n", cpu_dir);
        return;
    }
    if (!change)
        strcpy(r->changed, "nothing (--no-system-tune)");
    else if (!r->changed[0])
        strcpy(r->changed, "nothing (already steady)");
}
