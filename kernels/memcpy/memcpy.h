/* Copy kernels: the memory-bandwidth baseline. Each variant copies len bytes
 * from src to dst (no overlap, any alignment). */
#ifndef CYCLEBENCH_MEMCPY_H
#define CYCLEBENCH_MEMCPY_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu.h"

typedef void memcpy_copy_fn(uint8_t *dst, const uint8_t *src, size_t len);

typedef struct memcpy_impl {
    isa_variant v;
    memcpy_copy_fn *copy;
} memcpy_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const memcpy_impl memcpy_impls[];

/* generic is the C library's memcpy, which picks its own vector width:
 * it is the line a user gets without doing anything. avx2 and avx512 are
 * plain unrolled vector copies, so the ladder shows what width alone buys. */
memcpy_copy_fn memcpy_copy_generic;
#if defined(__x86_64__)
memcpy_copy_fn memcpy_copy_avx2, memcpy_copy_avx512;
#elif defined(__aarch64__)
#endif

#endif
