#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../kernels/kernel.h"

static char case_name[256];
static int case_open, case_checks, case_failed, case_skipped;
static int n_passed, n_failed, n_skipped;

static void close_case(void)
{
    if (!case_open)
        return;
    if (case_failed) {
        n_failed++;
        printf("FAIL %s\n", case_name);
    } else if (case_skipped) {
        n_skipped++;
    } else if (case_checks == 0) {
        n_failed++;
        printf("FAIL %s (no checks ran)\n", case_name);
    } else {
        n_passed++;
        printf("ok   %s (%d checks)\n", case_name, case_checks);
    }
    case_open = 0;
    fflush(stdout);
}

void check_case(const char *fmt, ...)
{
    va_list ap;
    close_case();
    va_start(ap, fmt);
    vsnprintf(case_name, sizeof case_name, fmt, ap);
    va_end(ap);
    case_open = 1;
    case_checks = case_failed = case_skipped = 0;
}

/* A check or skip before the first CASE still counts: as a case of its
 * own, named by where it is. */
static void open_case_at(const char *file, int line)
{
    if (!case_open)
        check_case("checks before the first CASE (%s:%d)", file, line);
}

int check_that(int ok, const char *file, int line, const char *fmt, ...)
{
    open_case_at(file, line);
    case_checks++;
    if (ok)
        return 1;
    /* Report only the first few failures of a case: one broken kernel
     * would otherwise print thousands of lines. */
    if (case_failed++ < 5) {
        va_list ap;
        printf("  %s:%d: ", file, line);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        putchar('\n');
    }
    return 0;
}

void check_skip(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    open_case_at(file, line);
    printf("SKIP %s: ", case_name);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    case_skipped = 1;
}

int check_finish(void)
{
    close_case();
    printf("# counts: %d %d %d\n", n_passed, n_failed, n_skipped);
    return n_failed ? 1 : 0;
}

char *check_hex(const uint8_t *p, size_t n)
{
    static char buf[2 * 64 + 4];
    size_t shown = n > 64 ? 64 : n;
    for (size_t i = 0; i < shown; i++)
        sprintf(buf + 2 * i, "%02x", p[i]);
    strcpy(buf + 2 * shown, n > shown ? "..." : "");
    return buf;
}

/* splitmix64: deterministic, so a failure reproduces from its seed. */
uint64_t check_random(uint64_t *seed)
{
    uint64_t z = (*seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void check_fill_random(uint8_t *p, size_t n, uint64_t *seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)check_random(seed);
}

int check_usable(const isa_variant *v)
{
    if (cpu_supports(v->required))
        return 1;
    SKIP("%s not supported by this CPU", v->isa);
    return 0;
}

void check_rows_own_code(const kernel *k,
                         const void *(*code)(const isa_variant *row))
{
    const isa_variant *v, *w;
    const char *twin = NULL, *of = NULL;
    size_t rows = 0;
    CASE("%s lists no row whose code is another row's", k->name);
    for (size_t j = 0; (v = kernel_variant_at(k, j)); j++, rows++)
        for (size_t i = 0; i < j; i++)
            if (code(w = kernel_variant_at(k, i)) == code(v)) {
                twin = v->isa;
                of = w->isa;
            }
    CHECK(rows > 0 && twin == NULL, "%s@%s runs %s@%s's code (%zu rows)",
          k->name, twin ? twin : "", k->name, of ? of : "", rows);
}

int check_runs_here(const kernel *k, const isa_variant *v)
{
    char missing[160];
    const char *why;
    if (!cpu_supports(v->required)) {
        cpu_describe(v->required & ~cpu_features(), missing, sizeof missing);
        SKIP("the CPU lacks %s", missing);
        return 0;
    }
    why = k->unavailable ? k->unavailable(k) : NULL;
#ifndef CB_HAVE_GCRYPT
    /* A build without libgcrypt (the arm64 cross build: Debian's
     * libgcrypt20-dev is for one architecture at a time) lists its kernels
     * as unavailable, saying so. */
    if (strncmp(k->name, "gcrypt:", 7) == 0) {
        CHECK(why && strstr(why, "libgcrypt"), "%s@%s in a build without "
              "libgcrypt: '%s'", k->name, v->isa, why ? why : "available");
        return 0;
    }
#endif
    if (why) {
        CHECK(0, "%s@%s cannot run although the CPU can: %s (ci/install-deps.sh "
              "installs it)", k->name, v->isa, why);
        return 0;
    }
    return 1;
}

int check_all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}
