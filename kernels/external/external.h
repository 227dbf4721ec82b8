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

#endif
