/* System control: the CPU the benchmark runs on and the clock it runs at.
 *
 * Pinning keeps the caches and the clock of one core; turning turbo/boost
 * off and choosing the performance governor keep that clock from moving
 * with temperature and load. Every setting changed is restored at exit,
 * including on SIGINT, SIGTERM and SIGHUP. */
#ifndef CYCLEBENCH_SYSCTL_H
#define CYCLEBENCH_SYSCTL_H

#include <stddef.h>

/* The CPUs this process may run on, as found at the first call (before any
 * pinning): the online CPUs unless taskset or a cgroup narrowed them. */
int sysctl_cpu_allowed(int cpu);
int sysctl_default_cpu(void); /* the last allowed CPU */
void sysctl_describe_allowed(char *buf, size_t len); /* "0-3,6" */

/* Pin the calling thread to cpu and confirm it with sched_getaffinity.
 * Returns 0, or -1 with the reason in err. */
int sysctl_pin(int cpu, char *err, size_t errlen);
/* The one CPU the calling thread may run on, or -1 when it may run on
 * several. */
int sysctl_pinned_cpu(void);

typedef struct sysctl_report {
    char before[512];  /* "path=value ..." as found */
    char after[512];   /* the same settings for the run */
    char changed[512]; /* "path old->new", failures, or "nothing" */
} sysctl_report;

/* Read the turbo, boost and governor settings under cpu_dir (normally
 * /sys/devices/system/cpu) into r and, when change is nonzero, set them for
 * a steady clock. Says once on stderr when there is nothing to change. */
void sysctl_tune(const char *cpu_dir, int change, sysctl_report *r);

/* Write back every value sysctl_tune changed. Async-signal-safe;
 * idempotent. */
void sysctl_restore(void);

#endif
