/* Secret tainting for memcheck, the method of Adam Langley's ctgrind and
 * SUPERCOP's TIMECOP: mark the secret's bytes undefined, and memcheck
 * reports every conditional branch and every memory address computed from
 * them, which are what a timing or cache attacker observes. What the code
 * may reveal (its output, an AEAD's accept/reject) is marked defined again
 * before the caller uses it.
 *
 * A process that runs several variants marks where each starts, in
 * memcheck's own report, and asks memcheck how many errors it has seen.
 *
 * Outside valgrind the client requests are a few no-op instructions. */
#ifndef CYCLEBENCH_CTGRIND_H
#define CYCLEBENCH_CTGRIND_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <valgrind/memcheck.h>

static inline void ct_secret(const void *p, size_t n)
{
    VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

static inline void ct_public(const void *p, size_t n)
{
    VALGRIND_MAKE_MEM_DEFINED(p, n);
}

/* A line in memcheck's report (a <clientmsg> in its XML), in order with
 * the errors around it. */
__attribute__((format(printf, 1, 2)))
static inline void ct_section(const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    VALGRIND_PRINTF("%s\n", line);
}

/* The errors memcheck has seen so far, each time an error recurs counted
 * again (it reports only the first); 0 outside valgrind. */
static inline unsigned ct_error_count(void)
{
    return VALGRIND_COUNT_ERRORS;
}

#endif
