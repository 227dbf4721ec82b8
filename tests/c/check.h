/* A small test framework: cases of checks, visible SKIPs, and a summary
 * line that tests/run.sh adds up across binaries.
 *
 *   CASE("blake2b kat %s", isa);   starts a case (ends the previous one)
 *   CHECK(cond, "fmt", ...);       a failing check prints FAIL with reason
 *   SKIP("why");                   marks the current case skipped
 *   return check_finish();         prints "# counts: P F S", exit status
 *
 * A case passes when it ran at least one check and none failed. A CHECK
 * or SKIP before the first CASE is a case of its own; tests/run.sh fails a
 * binary that reports no cases at all. */
#ifndef CYCLEBENCH_CHECK_H
#define CYCLEBENCH_CHECK_H

#include <stddef.h>
#include <stdint.h>

void check_case(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int check_that(int ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void check_skip(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int check_finish(void);

#define CASE(...) check_case(__VA_ARGS__)
#define CHECK(cond, ...) check_that(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define SKIP(...) check_skip(__FILE__, __LINE__, __VA_ARGS__)

/* Helpers for tests. */
struct isa_variant;
struct kernel;
/* Nonzero when this CPU supports v; otherwise SKIPs the current case. */
int check_usable(const struct isa_variant *v);
/* Nonzero when k's variant v can run here. Otherwise the current case is
 * a SKIP, naming the features, when the CPU lacks some of v's; and a
 * failure when k is unavailable for any other reason (an external
 * library's provider missing): ci/install-deps.sh installs OpenSSL, its
 * legacy provider and libsodium, so that is never a skip. */
int check_runs_here(const struct kernel *k, const struct isa_variant *v);
/* A case of its own: no two rows k lists run the same code, code(row)
 * being the function the kernel calls at that row (a vector row that
 * only borrows generic's would time generic's code under its name). */
void check_rows_own_code(const struct kernel *k,
                         const void *(*code)(const struct isa_variant *row));
int check_all_zero(const uint8_t *p, size_t n);
char *check_hex(const uint8_t *p, size_t n); /* static buffer, truncated */
void check_fill_random(uint8_t *p, size_t n, uint64_t *seed);
uint64_t check_random(uint64_t *seed);

#endif
