/* What every external kernel shares: the one-row table, and the argument
 * handling of its reference kernel, which decides what is valid. */
#ifndef CYCLEBENCH_EXTERNAL_H
#define CYCLEBENCH_EXTERNAL_H

#include "../kernel.h"

/* { "external", 0 }, then the terminating row. */
extern const isa_variant external_row[2];

/* k->reference's check, out_len and bench_args. */
int external_check(const kernel *k, const kernel_args *a, size_t len,
                   char *err, size_t errlen);
size_t external_out_len(const kernel *k, const kernel_args *a, size_t len);
void external_bench_args(const kernel *k, kernel_args *a);

/* NULL when libsodium initialised, else why not (sodium_init is
 * idempotent and thread-safe, so every call may ask). */
const char *external_sodium_unavailable(const kernel *k);

/* OpenSSL calls on fetched algorithms and checked arguments do not fail;
 * if one does, OpenSSL itself is broken and no output can be trusted, so
 * this aborts naming the call. */
void external_openssl_must(int ok, const char *what);

/* An external kernel checked against, and taking the arguments of, our
 * kernel ref. */
#define EXTERNAL_KERNEL(kname, prim, ref, run_fn, unavailable_fn, opts)      \
    {                                                                        \
        .name = kname, .primitive = prim, .table = external_row,             \
        .row_size = sizeof external_row[0], .check = external_check,         \
        .out_len = external_out_len, .run = run_fn,                          \
        .bench_args = external_bench_args, .reference = &ref,                \
        .unavailable = unavailable_fn, .options = opts,                      \
    }

#endif
