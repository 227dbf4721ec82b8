/* Secret tainting for memcheck, the method of Adam Langley's ctgrind and
 * SUPERCOP's TIMECOP: mark the secret's bytes undefined, and memcheck
 * reports every conditional branch and every memory address computed from
 * them, which are what a timing or cache attacker observes. What the code
 * may reveal (its output, an AEAD's accept/reject) is marked defined again
 * before the caller uses it.
 *
 * Outside valgrind the client requests are a few no-op instructions. */
#ifndef CYCLEBENCH_CTGRIND_H
#define CYCLEBENCH_CTGRIND_H

#include <stddef.h>
#include <valgrind/memcheck.h>

static inline void ct_secret(const void *p, size_t n)
{
    VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

static inline void ct_public(const void *p, size_t n)
{
    VALGRIND_MAKE_MEM_DEFINED(p, n);
}

#endif
