/* Strict parsing of command-line values: a malformed value is an error with
 * a one-line reason, never a silent zero. */
#ifndef CYCLEBENCH_ARGS_H
#define CYCLEBENCH_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* Exit status for bad input anywhere on the command line. */
#define EXIT_USAGE 2

/* If arg is "--name=value", point *value at value and return 1. */
int arg_value(const char *arg, const char *name, const char **value);

/* Decimal digits only, no sign, no overflow. Returns 0 on success. */
int parse_u64(const char *s, uint64_t *out);

/* Even number of hex digits; *out is malloc'd (non-NULL even when empty).
 * Returns 0 on success. */
int parse_hex(const char *s, uint8_t **out, size_t *len);

/* Print "cyclebench: <message>" on stderr as one line. */
void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
