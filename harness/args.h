/* Strict parsing of command-line values: a malformed value is an error with
 * a one-line reason, never a silent zero. And the checks every command
 * makes before it runs a kernel variant it was asked for. */
#ifndef CYCLEBENCH_ARGS_H
#define CYCLEBENCH_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "../kernels/kernel.h"

/* Exit status for bad input anywhere on the command line. */
#define EXIT_USAGE 2

/* If arg is "--name=value", point *value at value and return 1. */
int arg_value(const char *arg, const char *name, const char **value);

/* Decimal digits only, no sign, no overflow. Returns 0 on success. */
int parse_u64(const char *s, uint64_t *out);

/* Even number of hex digits; *out is malloc'd (non-NULL even when empty).
 * Returns 0 on success. */
int parse_hex(const char *s, uint8_t **out, size_t *len);

/* --seconds: above 0, at most an hour. Returns 0, or -1 after a usage
 * error. */
int parse_seconds_arg(const char *s, double *out);
/* --size: a message length from 1 byte to 1 GiB. Returns 0, or -1 after a
 * usage error. */
int parse_size_arg(const char *s, size_t *out);

/* "kernel" or "kernel@isa" (the ISA may come from --isa instead; neither
 * means the best this CPU supports). find_variant returns 0, or -1 after a
 * usage error naming an unknown kernel or ISA; select_variant also refuses
 * an ISA this machine cannot run. */
int find_variant(const char *spec, const char *isa, const kernel **k,
                 const isa_variant **v);
int select_variant(const char *spec, const char *isa, const kernel **k,
                   const isa_variant **v);

/* k's args valid for a message of size bytes (at least its min_len)?
 * Returns 0, or -1 after a usage error saying why not. */
int check_kernel_args(const kernel *k, const kernel_args *a, size_t size);

/* chacha-opt's rule: a variant that disagrees with generic is not timed.
 * Returns 0 when v passes kernel_self_test, else -1 after saying
 * "self-test failed, not <not_done>: <why>". */
int require_self_test(const kernel *k, const isa_variant *v,
                      const char *not_done);

/* Print "cyclebench: <message>" on stderr as one line. */
void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
