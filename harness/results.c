#include "results.h"

#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../kernels/cpu.h"
#include "args.h"
#include "gbench.h"

/* Given by the Makefile, so results name the build that produced them. */
#if !defined(CB_COMPILER) || !defined(CB_CFLAGS) || !defined(CB_GIT_COMMIT)
#error "build through the Makefile: it defines CB_COMPILER, CB_CFLAGS, CB_GIT_COMMIT"
#endif

static void add_number(const char *key, const char *fmt, double value)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, value);
    gb_add_context(key, buf);
}

void results_add_context(const results_context *c)
{
    char buf[2048];
    gb_add_context("run_id", c->run_id);
    gb_add_context("sampling", c->sampling);
    gb_add_context("order", c->order);
    gb_add_context("cpu_model", cpu_model_name());
    gb_add_context("cpu_features", cpu_feature_names());
    gb_add_context("arch", cpu_arch());
    /* Kernels that choose a narrower AVX-512 layout on such a core
     * (docs/kernels.md) ran that one. */
    if (cpu_zmm_halves())
        gb_add_context("zmm_halves", "true");
    /* Which counter the tsc_* fields count: "tsc" on x86-64, "cntvct"
     * (the generic timer, at tsc_hz) on aarch64 (docs/arm64.md). */
    gb_add_context("timer_clock", TIMER_CLOCK);
    /* Timed under an emulator (bench --emulated): the figures describe
     * it, not a CPU, and the tools read this to show none as a speed. */
    if (cpu_emulator())
        gb_add_context("emulator", cpu_emulator());
    add_number("tsc_hz", "%.0f", c->timer->tsc_hz);
    gb_add_context("tsc_hz_source", c->timer->tsc_hz_source);
    add_number("timer_overhead_ticks", "%.0f", (double)c->timer->overhead_ticks);
    add_number("core_tsc_ratio", "%.4f", c->timer->core_tsc_ratio);
    gb_add_context("core_clock_source", c->core_clock_source);
    pmu_describe_opened(c->pmu, buf, sizeof buf);
    gb_add_context("pmu_events_opened", buf);
    pmu_describe_unavailable(c->pmu, buf, sizeof buf);
    gb_add_context("pmu_events_unavailable", buf);
    snprintf(buf, sizeof buf, "before: %s; after: %s; changed: %s",
             c->turbo->before, c->turbo->after, c->turbo->changed);
    gb_add_context("turbo", buf);
    add_number("pinned_cpu", "%.0f", c->pinned_cpu);
    gb_add_context("skipped", c->skipped);
    gb_add_context("direction", c->direction);
    gb_add_context("auto", c->autoisa);
    add_number("auto_calibration_seconds", "%.3f", c->autoisa_seconds);
    gb_add_context("dispatch", c->dispatch);
    gb_add_context("pairing", c->pairing);
    gb_add_context("compiler", CB_COMPILER);
    gb_add_context("cflags", CB_CFLAGS);
    gb_add_context("git_commit", CB_GIT_COMMIT);
}

int results_add_member(char **report, const char *key, const char *value)
{
    char *end = strrchr(*report, '}');
    if (!end)
        return -1;
    size_t kept = (size_t)(end - *report);
    while (kept && strchr(" \n", (*report)[kept - 1]))
        kept--;
    size_t len = kept + strlen(key) + strlen(value) + 16;
    char *grown = malloc(len);
    if (!grown)
        return -1;
    snprintf(grown, len, "%.*s,\n  \"%s\": %s\n}\n", (int)kept, *report, key,
             value);
    free(*report);
    *report = grown;
    return 0;
}

void results_timestamp(time_t t, char *buf, size_t len)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y%m%dT%H%M%SZ", &tm);
}

static int write_all(int fd, const char *text)
{
    size_t len = strlen(text);
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        text += n;
        len -= (size_t)n;
    }
    return 0;
}

/* The temporary name beside path that a file is written under before it
 * is renamed over path; its six X's are mkstemp's. */
static int temp_beside(const char *path, char *tmp, size_t len, char *err,
                       size_t errlen)
{
    char q[256];
    if (snprintf(tmp, len, "%s.tmp.XXXXXX", path) < (int)len)
        return 0;
    snprintf(err, errlen, "path too long: %s", cli_quote(path, q, sizeof q));
    return -1;
}

/* text in a new temporary file beside path, synced; its name into tmp. */
static int write_temp(const char *path, const char *text, char *tmp,
                      size_t len, char *err, size_t errlen)
{
    char q[256];
    if (temp_beside(path, tmp, len, err, errlen))
        return -1;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a file beside %s: %s",
                 cli_quote(path, q, sizeof q), strerror(errno));
        return -1;
    }
    int failed = write_all(fd, text) != 0 || fchmod(fd, 0644) != 0 ||
                 fsync(fd) != 0;
    int saved = errno;
    failed |= close(fd) != 0;
    if (!failed)
        return 0;
    snprintf(err, errlen, "cannot write %s: %s", cli_quote(path, q, sizeof q),
             strerror(saved ? saved : errno));
    unlink(tmp);
    return -1;
}

static int rename_over(const char *tmp, const char *path, char *err,
                       size_t errlen)
{
    char q[256];
    if (rename(tmp, path) == 0)
        return 0;
    snprintf(err, errlen, "cannot write %s: %s", cli_quote(path, q, sizeof q),
             strerror(errno));
    unlink(tmp);
    return -1;
}

/* SIGINT, SIGTERM and SIGHUP held while files are written, so that no
 * temporary file is left behind. */
static void hold_signals(sigset_t *old)
{
    sigset_t held;
    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    sigaddset(&held, SIGHUP);
    sigprocmask(SIG_BLOCK, &held, old);
}

int results_write_file(const char *path, const char *text, char *err,
                       size_t errlen)
{
    char tmp[4096];
    sigset_t old;
    hold_signals(&old);
    int rc = write_temp(path, text, tmp, sizeof tmp, err, errlen) ||
             rename_over(tmp, path, err, errlen) ? -1 : 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

static int make_dirs(const char *dir, char *err, size_t errlen)
{
    char path[4096], q[256];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1;; p++) {
        char c = *p;
        if (c != '/' && c != '\0')
            continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "cannot create directory %s: %s",
                     cli_quote(path, q, sizeof q), strerror(errno));
            return -1;
        }
        *p = c;
        if (c == '\0')
            return 0;
    }
}

/* Whether a file can be written under path's temporary name: created and
 * removed again. */
static int probe_beside(const char *path, char *err, size_t errlen)
{
    char tmp[4096];
    if (temp_beside(path, tmp, sizeof tmp, err, errlen))
        return -1;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        char dir[4096], q[256];
        snprintf(dir, sizeof dir, "%s", path);
        snprintf(err, errlen, "cannot write in %s: %s",
                 cli_quote(dirname(dir), q, sizeof q), strerror(errno));
        return -1;
    }
    close(fd);
    unlink(tmp);
    return 0;
}

static int is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int results_check_file(const char *path, char *err, size_t errlen)
{
    char q[256];
    if (is_directory(path)) {
        snprintf(err, errlen, "%s is a directory: name a file",
                 cli_quote(path, q, sizeof q));
        return -1;
    }
    return probe_beside(path, err, errlen);
}

/* The files of a run, in the order they are renamed into place. */
#define RUN_FILES 4

static void run_file_path(const char *dir, const char *stamp, size_t i,
                          char *path, size_t len)
{
    snprintf(path, len, "%s/%s.%s", dir, i < 2 ? stamp : "latest",
             i % 2 ? "csv" : "json");
}

int results_prepare_dir(const char *dir, char *err, size_t errlen)
{
    char path[4096], q[256];
    if (make_dirs(dir, err, errlen))
        return -1;
    if (!is_directory(dir)) {
        snprintf(err, errlen, "%s is not a directory: name one, which is "
                 "created if missing", cli_quote(dir, q, sizeof q));
        return -1;
    }
    run_file_path(dir, "latest", 2, path, sizeof path);
    return probe_beside(path, err, errlen);
}

int results_write_run(const char *dir, const char *stamp, const char *json,
                      const char *csv, char *err, size_t errlen)
{
    char path[RUN_FILES][4096], tmp[RUN_FILES][4096];
    size_t written = 0, renamed = 0;
    sigset_t old;
    if (results_prepare_dir(dir, err, errlen))
        return -1;
    hold_signals(&old);
    /* Every file is written before any is renamed into place: a write that
     * fails (a full disk) leaves the previous files as they were. */
    while (written < RUN_FILES) {
        run_file_path(dir, stamp, written, path[written], sizeof path[0]);
        if (write_temp(path[written], written % 2 ? csv : json, tmp[written],
                       sizeof tmp[0], err, errlen))
            break;
        written++;
    }
    if (written == RUN_FILES)
        while (renamed < RUN_FILES &&
               rename_over(tmp[renamed], path[renamed], err, errlen) == 0)
            renamed++;
    for (size_t i = renamed; i < written; i++)
        unlink(tmp[i]);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return renamed == RUN_FILES ? 0 : -1;
}
