#include "pmu.h"

#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define READ_FORMAT                                                      \
    (PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | \
     PERF_FORMAT_TOTAL_TIME_RUNNING)

static int pfm_ready(char *err, size_t errlen)
{
    static int rc = -1;
    if (rc != PFM_SUCCESS && (rc = pfm_initialize()) != PFM_SUCCESS) {
        snprintf(err, errlen, "libpfm4 failed to initialise (%s): check the "
                 "libpfm4 installation (ci/install-deps.sh)", pfm_strerror(rc));
        return -1;
    }
    return 0;
}

/* User mode only (PFM_PLM3): the kernel's work on our behalf is not what a
 * kernel benchmark measures. */
static int encode(const char *name, struct perf_event_attr *attr, char *err,
                  size_t errlen)
{
    pfm_perf_encode_arg_t arg;
    memset(&arg, 0, sizeof arg);
    memset(attr, 0, sizeof *attr);
    arg.attr = attr;
    arg.size = sizeof arg;
    int rc = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT,
                                       &arg);
    if (rc != PFM_SUCCESS) {
        snprintf(err, errlen, "unknown counter '%s': libpfm4 cannot encode "
                 "it (%s); list valid names with libpfm4's showevtinfo",
                 name, pfm_strerror(rc));
        return -1;
    }
    attr->size = sizeof *attr;
    attr->read_format = READ_FORMAT;
    return 0;
}

static const char *open_hint(int err)
{
    switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
        return "no PMU provides it here (a VM without a virtual PMU?)";
    case EACCES:
    case EPERM:
        return "not permitted: run as root or lower "
               "/proc/sys/kernel/perf_event_paranoid";
    case EINVAL:
        return "the kernel rejected it (too many events for one group?)";
    default:
        return "";
    }
}

static void open_event(pmu_group *g, pmu_event *e, struct perf_event_attr *attr)
{
    /* The leader starts disabled, so the whole group starts at once when
     * pmu_open enables it. */
    attr->disabled = g->leader_fd < 0;
    e->fd = perf_event_open(attr, 0, -1, g->leader_fd, 0);
    if (e->fd < 0) {
        int saved = errno;
        const char *hint = open_hint(saved);
        e->open_errno = saved;
        snprintf(e->unavailable, sizeof e->unavailable, "%s%s%s",
                 strerror(saved), *hint ? ": " : "", hint);
        fprintf(stderr, "cyclebench: counter '%s' unavailable, recorded as "
                "such and left out: %s\n", e->name, e->unavailable);
        return;
    }
    ioctl(e->fd, PERF_EVENT_IOC_ID, &e->id);
    if (g->leader_fd < 0)
        g->leader_fd = e->fd;
}

/* Every name is encoded before any event opens, so a bad name is the only
 * complaint. */
static int add_event(pmu_group *g, struct perf_event_attr *attr,
                     const char *name, size_t len, char *err, size_t errlen)
{
    if (len == 0) {
        snprintf(err, errlen, "--counters has an empty name: separate event "
                 "names with single commas");
        return -1;
    }
    if (g->n == PMU_MAX_EVENTS) {
        snprintf(err, errlen, "--counters takes at most %d events",
                 PMU_MAX_EVENTS);
        return -1;
    }
    pmu_event *e = &g->events[g->n];
    if (len >= sizeof e->name) {
        snprintf(err, errlen, "--counters: event name '%.*s' is too long",
                 (int)len, name);
        return -1;
    }
    memcpy(e->name, name, len);
    e->name[len] = '\0';
    e->fd = -1;
    if (encode(e->name, attr, err, errlen))
        return -1;
    e->is_core_cycles = attr->type == PERF_TYPE_HARDWARE &&
                        attr->config == PERF_COUNT_HW_CPU_CYCLES;
    g->n++;
    return 0;
}

int pmu_open(pmu_group *g, const char *list, char *err, size_t errlen)
{
    struct perf_event_attr attrs[PMU_MAX_EVENTS];
    memset(g, 0, sizeof *g);
    g->leader_fd = -1;
    if (*list == '\0')
        return 0;
    if (pfm_ready(err, errlen))
        return -1;
    for (const char *p = list;; ) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (add_event(g, &attrs[g->n], p, len, err, errlen))
            return -1;
        if (!comma)
            break;
        p = comma + 1;
    }
    for (size_t i = 0; i < g->n; i++)
        open_event(g, &g->events[i], &attrs[i]);
    if (g->leader_fd >= 0)
        ioctl(g->leader_fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
    return 0;
}

void pmu_close(pmu_group *g)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->events[i].fd >= 0)
            close(g->events[i].fd);
    g->n = 0;
    g->leader_fd = -1;
}

static int read_group(const pmu_group *g, pmu_reading *r)
{
    /* nr, time_enabled, time_running, then {value, id} per event. */
    uint64_t buf[3 + 2 * PMU_MAX_EVENTS];
    memset(r, 0, sizeof *r);
    if (read(g->leader_fd, buf, sizeof buf) < (ssize_t)(3 * sizeof *buf))
        return -1;
    r->enabled = buf[1];
    r->running = buf[2];
    for (size_t i = 0; i < g->n; i++)
        for (uint64_t j = 0; j < buf[0] && j < PMU_MAX_EVENTS; j++)
            if (g->events[i].fd >= 0 && buf[4 + 2 * j] == g->events[i].id)
                r->values[i] = buf[3 + 2 * j];
    return 0;
}

void pmu_start(pmu_group *g)
{
    if (g->leader_fd >= 0)
        read_group(g, &g->start);
}

int pmu_stop(pmu_group *g, double values[PMU_MAX_EVENTS])
{
    pmu_reading end;
    for (size_t i = 0; i < PMU_MAX_EVENTS; i++)
        values[i] = 0;
    if (g->leader_fd < 0)
        return 0;
    if (read_group(g, &end) != 0)
        return -1;
    uint64_t enabled = end.enabled - g->start.enabled;
    uint64_t running = end.running - g->start.running;
    if (running == 0)
        return -1;
    double scale = running < enabled ? (double)enabled / (double)running : 1;
    for (size_t i = 0; i < g->n; i++)
        values[i] = (double)(end.values[i] - g->start.values[i]) * scale;
    return 0;
}

int pmu_core_cycles_index(const pmu_group *g)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->events[i].fd >= 0 && g->events[i].is_core_cycles)
            return (int)i;
    return -1;
}

static void append(char *buf, size_t len, const char *fmt, const char *a,
                   const char *b)
{
    size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, fmt, used ? ", " : "", a, b);
}

void pmu_describe_opened(const pmu_group *g, char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < g->n; i++)
        if (g->events[i].fd >= 0)
            append(buf, len, "%s%s%s", g->events[i].name, "");
}

void pmu_describe_unavailable(const pmu_group *g, char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < g->n; i++)
        if (g->events[i].fd < 0)
            append(buf, len, "%s%s (%s)", g->events[i].name,
                   g->events[i].unavailable);
}
