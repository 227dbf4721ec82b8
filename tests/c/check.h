/* A small test framework: cases of checks, visible SKIPs, and a summary
 * line that tests/run.sh adds up across binaries.
 *
 *   CASE("blake2b kat %s", isa);   starts a case (ends the previous one)
 *   CHECK(cond, "fmt", ...);       a failing check prints FAIL with reason
 *   SKIP("why");                   marks the current case skipped
 *   return check_finish();         prints "# counts: P F S", exit status
 *
 * A case passes when it ran at least one check and none failed. */
#ifndef CYCLEBENCH_CHECK_H
#define CYCLEBENCH_CHECK_H

#include <stddef.h>
#include <stdint.h>

void check_case(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int check_that(int ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void check_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int check_finish(void);

#define CASE(...) check_case(__VA_ARGS__)
#define CHECK(cond, ...) check_that(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define SKIP(...) check_skip(__VA_ARGS__)

/* Helpers for tests. */
char *check_hex(const uint8_t *p, size_t n); /* static buffer, truncated */
void check_fill_random(uint8_t *p, size_t n, uint64_t *seed);
uint64_t check_random(uint64_t *seed);

#endif
