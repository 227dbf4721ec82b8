/* PMU counters through libpfm4 and perf_event_open.
 *
 * Events are named as libpfm4 names them ("cycles", "perf::PAGE-FAULTS"),
 * counted in user mode only, and opened as one group under a leader so they
 * are scheduled together and share one enabled/running time. When the
 * kernel multiplexes the group, values are scaled by enabled/running. */
#ifndef CYCLEBENCH_PMU_H
#define CYCLEBENCH_PMU_H

#include <stddef.h>
#include <stdint.h>

#define PMU_MAX_EVENTS 16

typedef struct pmu_event {
    char name[64];        /* as given on the command line */
    int fd;               /* -1 when unavailable */
    uint64_t id;          /* the kernel's id, to find it in a group read */
    int is_core_cycles;   /* PERF_COUNT_HW_CPU_CYCLES */
    char unavailable[128]; /* why it did not open, when fd is -1 */
    int open_errno;       /* perf_event_open's errno then, else 0 */
} pmu_event;

/* One read of the whole group. */
typedef struct pmu_reading {
    uint64_t enabled, running; /* ns the group was enabled, and counting */
    uint64_t values[PMU_MAX_EVENTS]; /* in the order of pmu_group.events */
} pmu_reading;

typedef struct pmu_group {
    pmu_event events[PMU_MAX_EVENTS];
    size_t n;
    int leader_fd; /* the first event that opened; -1 when none did */
    pmu_reading start;
} pmu_group;

/* Encode and open a comma-separated list of event names (may be empty),
 * and start counting. A name libpfm4 cannot encode is a usage error:
 * returns -1 with the reason in err. An event that encodes but does not
 * open (no such PMU, permissions) is reported once on stderr and kept as
 * unavailable; the next event that opens becomes the leader. */
int pmu_open(pmu_group *g, const char *list, char *err, size_t errlen);
void pmu_close(pmu_group *g);

/* The group counts from pmu_open on; these read it before and after the
 * measured code. Toggling the group instead (ioctl DISABLE/ENABLE) loses
 * software members: after the first re-enable, a perf::TASK-CLOCK under
 * another leader reads 0 (seen on Linux 6.18). */
void pmu_start(pmu_group *g);

/* values[i]: the count of events[i] since pmu_start (0 for unavailable
 * ones), scaled by enabled/running time when the kernel multiplexed the
 * group. Returns 0, or -1 when the group never got onto the PMU in that
 * span (nothing can be scaled then). */
int pmu_stop(pmu_group *g, double values[PMU_MAX_EVENTS]);

/* Index of an opened core-cycles event, or -1. */
int pmu_core_cycles_index(const pmu_group *g);

/* Names of the opened events, and "name (reason)" of the others,
 * comma-separated, for the results context. */
void pmu_describe_opened(const pmu_group *g, char *buf, size_t len);
void pmu_describe_unavailable(const pmu_group *g, char *buf, size_t len);

#endif
