#include "args.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int arg_value(const char *arg, const char *name, const char **value)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0 || arg[n] != '=')
        return 0;
    *value = arg + n + 1;
    return 1;
}

int parse_u64(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int parse_hex(const char *s, uint8_t **out, size_t *len)
{
    size_t n = strlen(s);
    if (n % 2)
        return -1;
    uint8_t *buf = malloc(n / 2 + 1);
    if (!buf)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(buf);
            return -1;
        }
        buf[i] = (uint8_t)(hi << 4 | lo);
    }
    *out = buf;
    *len = n / 2;
    return 0;
}

#define MAX_SECONDS 3600.0
#define MAX_SIZE (1u << 30)

int parse_seconds_arg(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !(v > 0 && v <= MAX_SECONDS)) {
        usage_error("--seconds must be a number above 0 and at most %.0f "
                    "(got '%s')", MAX_SECONDS, s);
        return -1;
    }
    *out = v;
    return 0;
}

int parse_size_arg(const char *s, size_t *out)
{
    uint64_t v;
    if (parse_u64(s, &v) || v < 1 || v > MAX_SIZE) {
        usage_error("--size must be a byte count from 1 to %u (got '%s')",
                    MAX_SIZE, s);
        return -1;
    }
    *out = (size_t)v;
    return 0;
}

int find_variant(const char *spec, const char *isa, const kernel **k,
                 const isa_variant **v)
{
    char name[96];
    const char *at = strrchr(spec, '@');
    size_t len = at ? (size_t)(at - spec) : strlen(spec);
    if (at && isa) {
        usage_error("give the ISA once: '%s' or --isa=%s", spec, isa);
        return -1;
    }
    snprintf(name, sizeof name, "%.*s", (int)len, spec);
    if (at)
        isa = at + 1;
    *k = kernel_find(name);
    if (!*k) {
        usage_error("unknown kernel '%s': see 'cyclebench list'", name);
        return -1;
    }
    *v = isa ? kernel_variant_find(*k, isa) : kernel_best_variant(*k);
    if (!*v) {
        usage_error("%s has no ISA '%s': see 'cyclebench list'", name, isa);
        return -1;
    }
    return 0;
}

int select_variant(const char *spec, const char *isa, const kernel **k,
                   const isa_variant **v)
{
    if (find_variant(spec, isa, k, v))
        return -1;
    const char *missing = (*k)->unavailable ? (*k)->unavailable(*k) : NULL;
    if (missing) {
        usage_error("%s is unavailable: %s", (*k)->name, missing);
        return -1;
    }
    if (!kernel_variant_usable(*k, *v)) {
        usage_error("%s@%s is unsupported on this CPU: pick a supported "
                    "one from 'cyclebench list'", (*k)->name, (*v)->isa);
        return -1;
    }
    return 0;
}

int check_kernel_args(const kernel *k, const kernel_args *a, size_t size)
{
    char err[256];
    if (size < k->min_len) {
        usage_error("--size=%zu is below %s's minimum of %zu bytes", size,
                    k->name, k->min_len);
        return -1;
    }
    if (k->check(k, a, size, err, sizeof err)) {
        usage_error("%s", err);
        return -1;
    }
    return 0;
}

int require_self_test(const kernel *k, const isa_variant *v,
                      const char *not_done)
{
    char err[256];
    if (kernel_self_test(k, v, err, sizeof err) == 0)
        return 0;
    usage_error("self-test failed, not %s: %s", not_done, err);
    return -1;
}

void usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs("cyclebench: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
