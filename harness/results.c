#include "results.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../kernels/cpu.h"
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
    gb_add_context("compiler", CB_COMPILER);
    gb_add_context("cflags", CB_CFLAGS);
    gb_add_context("git_commit", CB_GIT_COMMIT);
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

static int replace_file(const char *path, const char *text, char *err,
                        size_t errlen)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path) >= (int)sizeof tmp) {
        snprintf(err, errlen, "path too long: %s", path);
        return -1;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a file beside %s: %s", path,
                 strerror(errno));
        return -1;
    }
    int failed = write_all(fd, text) != 0 || fchmod(fd, 0644) != 0 ||
                 fsync(fd) != 0;
    failed |= close(fd) != 0;
    if (failed || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int results_write_file(const char *path, const char *text, char *err,
                       size_t errlen)
{
    sigset_t held, old;
    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    sigaddset(&held, SIGHUP);
    sigprocmask(SIG_BLOCK, &held, &old);
    int rc = replace_file(path, text, err, errlen);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

static int make_dirs(const char *dir, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1;; p++) {
        char c = *p;
        if (c != '/' && c != '\0')
            continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "cannot create directory %s: %s", path,
                     strerror(errno));
            return -1;
        }
        *p = c;
        if (c == '\0')
            return 0;
    }
}

int results_write_run(const char *dir, const char *stamp, const char *json,
                      const char *csv, char *err, size_t errlen)
{
    const struct {
        const char *name, *ext, *text;
    } files[] = {
        { stamp, "json", json },
        { stamp, "csv", csv },
        { "latest", "json", json },
        { "latest", "csv", csv },
    };
    char path[4096];
    if (make_dirs(dir, err, errlen))
        return -1;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s.%s", dir, files[i].name,
                 files[i].ext);
        if (results_write_file(path, files[i].text, err, errlen))
            return -1;
    }
    return 0;
}
