#include "autoisa.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampler.h"
#include "timed_kernel.h"
#include "timer.h"

/* The sampler's median over a look at v of about seconds: a fifth to warm
 * up and size the batch, then blocks of a tenth, stopping early once the
 * median is pinned. */
static double sampled_ticks(void *ctx, const kernel *k, const isa_variant *v,
                            size_t len, double seconds)
{
    sampler_config c = sampler_default_config(timer_get_info()->tsc_hz, 0,
                                              seconds * 0.8);
    kernel_args args;
    timed_kernel t;
    sampler_result r;
    (void)ctx;
    c.warmup_ticks = c.cap_ticks / 4;
    c.block_ticks = c.cap_ticks / 8;
    c.min_blocks = 4;
    kernel_bench_args(k, &args);
    if (timed_kernel_open(&t, k, v, &args, len))
        return -1;
    sampler_source source = timed_kernel_source(&t);
    int rc = sampler_run(&c, &source, &r);
    timed_kernel_close(&t);
    return rc ? -1 : r.median;
}

void autoisa_init(autoisa *a)
{
    autoisa_init_with(a, sampled_ticks, NULL);
}

void autoisa_init_with(autoisa *a, autoisa_measure_fn *fn, void *ctx)
{
    *a = (autoisa){ .measure = fn, .ctx = ctx, .seconds = AUTOISA_SECONDS };
}

void autoisa_free(autoisa *a)
{
    for (size_t i = 0; i < a->n_rows; i++)
        free(a->rows[i].row);
    free(a->rows);
    free(a->choices);
    free(a->tested);
    *a = (autoisa){ 0 };
}

/* Room for one more of size bytes in *array. Returns 0, or -1 when out of
 * memory (the array is unchanged). */
static int reserve(void **array, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t more = *cap ? *cap * 2 : 16;
    void *bigger = realloc(*array, more * size);
    if (!bigger)
        return -1;
    *array = bigger;
    *cap = more;
    return 0;
}

/* The kernels whose rows decide k's row at auto, its parts or k itself,
 * and the length each is timed at for messages of len bytes. */
static size_t deciding(const kernel *k, size_t len,
                       const kernel *out[KERNEL_MAX_PARTS],
                       size_t lens[KERNEL_MAX_PARTS])
{
    size_t n = kernel_n_parts(k);
    if (n == 0) {
        size_t min = kernel_min_len(k);
        out[0] = k;
        lens[0] = len < min ? min : len;
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        out[i] = k->parts[i];
        lens[i] = kernel_part_len(k, i, len);
    }
    return n;
}

/* A part's choice for messages of len bytes, timed at measured: a part
 * two composites share at one length is measured once when both time it
 * alike, and twice when they do not. */
static autoisa_choice *find_choice(const autoisa *a, const kernel *part,
                                   size_t len, size_t measured)
{
    for (size_t i = 0; i < a->n_choices; i++)
        if (a->choices[i].part == part && a->choices[i].len == len &&
            a->choices[i].measured_len == measured)
            return &a->choices[i];
    return NULL;
}

/* part's choice, added unmeasured if it is new. NULL when out of memory.
 * The pointer lasts until the next choice is added. */
static autoisa_choice *note_choice(autoisa *a, const kernel *part, size_t len,
                                   size_t measured)
{
    autoisa_choice *c = find_choice(a, part, len, measured);
    if (c)
        return c;
    if (reserve((void **)&a->choices, &a->cap_choices, a->n_choices,
                sizeof *a->choices))
        return NULL;
    c = &a->choices[a->n_choices++];
    *c = (autoisa_choice){ .part = part, .len = len,
                           .measured_len = measured, .ticks = -1 };
    return c;
}

static size_t count_rows(const kernel *k)
{
    size_t n = 0;
    while (kernel_variant_at(k, n))
        n++;
    return n;
}

/* Whether v of part passes its self-test, tested once a run. */
static int passes_self_test(autoisa *a, const kernel *part,
                            const isa_variant *v)
{
    char err[256];
    for (size_t i = 0; i < a->n_tested; i++)
        if (a->tested[i].part == part && a->tested[i].row == v)
            return a->tested[i].passed;
    int passed = kernel_self_test(part, v, err, sizeof err) == 0;
    if (!reserve((void **)&a->tested, &a->cap_tested, a->n_tested,
                 sizeof *a->tested))
        a->tested[a->n_tested++] = (autoisa_tested){ part, v, passed };
    return passed;
}

/* The rows of part that may be timed, in table order: supported here and
 * passing the self-test (a row that fails it is never timed). */
static size_t timeable_rows(autoisa *a, const kernel *part,
                            const isa_variant **rows)
{
    size_t n = 0;
    const isa_variant *v;
    for (size_t i = 0; (v = kernel_variant_at(part, i)); i++)
        if (kernel_variant_usable(part, v) && passes_self_test(a, part, v))
            rows[n++] = v;
    return n;
}

/* Each row's fastest round into best[] (below 0: never timed). */
static void sample_rows(autoisa *a, const autoisa_choice *c,
                        const isa_variant *const *rows, size_t n,
                        double *best)
{
    for (size_t i = 0; i < n; i++)
        best[i] = -1;
    for (int round = 0; round < AUTOISA_ROUNDS; round++)
        for (size_t i = 0; i < n; i++) {
            size_t j = round % 2 ? n - 1 - i : i;
            double ticks = a->measure(a->ctx, c->part, rows[j],
                                      c->measured_len, a->seconds);
            if (ticks >= 0 && (best[j] < 0 || ticks < best[j]))
                best[j] = ticks;
        }
}

/* The fastest of the rows; ties go to the earlier row. */
static void pick_fastest(autoisa_choice *c, const isa_variant *const *rows,
                         size_t n, const double *best)
{
    for (size_t i = 0; i < n; i++)
        if (best[i] >= 0 && (c->ticks < 0 || best[i] < c->ticks)) {
            c->row = rows[i];
            c->ticks = best[i];
        }
    if (c->ticks < 0) {
        c->row = rows[0];
        c->unmeasured = "no row could be timed";
    }
}

static void measure_choice(autoisa *a, autoisa_choice *c)
{
    kernel_args args;
    char err[256];
    size_t cap = count_rows(c->part);
    const isa_variant **rows = malloc(cap * sizeof *rows);
    double *best = malloc(cap * sizeof *best);
    size_t n = 0;
    kernel_bench_args(c->part, &args);
    /* Without a row to measure, the table's order decides, and the
     * caller's refusal of an unusable row says why. */
    c->row = kernel_best_variant(c->part);
    if (!rows || !best)
        c->unmeasured = "out of memory";
    else if (kernel_check(c->part, &args, c->measured_len, err, sizeof err))
        c->unmeasured = "refuses this length";
    else if ((n = timeable_rows(a, c->part, rows)) == 0)
        c->unmeasured = "no row runs here";
    else if (n == 1) {
        c->row = rows[0];
        c->unmeasured = "the only row that may be timed here";
    } else {
        sample_rows(a, c, rows, n, best);
        pick_fastest(c, rows, n, best);
    }
    free(rows);
    free(best);
}

int autoisa_want(autoisa *a, const kernel *k, size_t len)
{
    const kernel *parts[KERNEL_MAX_PARTS];
    size_t lens[KERNEL_MAX_PARTS];
    size_t n = deciding(k, len, parts, lens);
    for (size_t i = 0; i < n; i++)
        if (!note_choice(a, parts[i], len, lens[i]))
            return -1;
    return 0;
}

void autoisa_calibrate(autoisa *a, double budget_seconds)
{
    size_t rows = 0;
    const isa_variant *v;
    for (size_t i = 0; i < a->n_choices; i++)
        for (size_t j = 0; !a->choices[i].row &&
                           (v = kernel_variant_at(a->choices[i].part, j));
             j++)
            rows += kernel_variant_usable(a->choices[i].part, v);
    if (rows == 0)
        return;
    a->seconds = budget_seconds / (double)(rows * AUTOISA_ROUNDS);
    if (a->seconds < AUTOISA_MIN_SECONDS)
        a->seconds = AUTOISA_MIN_SECONDS;
    if (a->seconds > AUTOISA_MAX_SECONDS)
        a->seconds = AUTOISA_MAX_SECONDS;
    for (size_t i = 0; i < a->n_choices; i++)
        if (!a->choices[i].row)
            measure_choice(a, &a->choices[i]);
}

static const isa_variant *composed_row(autoisa *a, const kernel *k,
                                       size_t len,
                                       const isa_variant *const *winners)
{
    for (size_t i = 0; i < a->n_rows; i++)
        if (a->rows[i].k == k && a->rows[i].len == len)
            return a->rows[i].row;
    isa_variant *row = malloc(k->row_size);
    if (!row || reserve((void **)&a->rows, &a->cap_rows, a->n_rows,
                        sizeof *a->rows)) {
        free(row);
        return NULL;
    }
    kernel_compose(k, winners, row);
    a->rows[a->n_rows++] = (autoisa_row){ k, len, row };
    return row;
}

const isa_variant *autoisa_row_for(autoisa *a, const kernel *k, size_t len)
{
    const kernel *parts[KERNEL_MAX_PARTS];
    const isa_variant *winners[KERNEL_MAX_PARTS];
    size_t lens[KERNEL_MAX_PARTS];
    size_t n = deciding(k, len, parts, lens);
    for (size_t i = 0; i < n; i++) {
        autoisa_choice *c = note_choice(a, parts[i], len, lens[i]);
        if (!c)
            return NULL;
        if (!c->row)
            measure_choice(a, c);
        winners[i] = c->row;
    }
    return kernel_n_parts(k) ? composed_row(a, k, len, winners) : winners[0];
}

/* Describing */

static void append(char *buf, size_t cap, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t cap, size_t *used, const char *fmt, ...)
{
    va_list ap;
    if (*used >= cap)
        return;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, cap - *used, fmt, ap);
    va_end(ap);
    *used = n < 0 ? cap : *used + (size_t)n;
}

/* "blake2b=generic", and what it was not measured for or at. */
static void append_choice(const autoisa_choice *c, char *buf, size_t cap,
                          size_t *used)
{
    append(buf, cap, used, "%s%s=%s", *used ? " " : "", c->part->name,
           c->row ? c->row->isa : "?");
    if (c->ticks < 0)
        append(buf, cap, used, " (not measured: %s)", c->unmeasured);
    else if (c->measured_len != c->len)
        append(buf, cap, used, " (at %zu B)", c->measured_len);
}

static int any_measured(const autoisa *a, size_t len)
{
    for (size_t i = 0; i < a->n_choices; i++)
        if (a->choices[i].len == len && a->choices[i].ticks >= 0)
            return 1;
    return 0;
}

void autoisa_describe(const autoisa *a, const kernel *k, size_t len,
                      char *buf, size_t buflen)
{
    const kernel *parts[KERNEL_MAX_PARTS];
    size_t lens[KERNEL_MAX_PARTS];
    size_t n = deciding(k, len, parts, lens), used = 0, measured = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const autoisa_choice *c = find_choice(a, parts[i], len, lens[i]);
        if (c) {
            append_choice(c, buf, buflen, &used);
            measured += c->ticks >= 0;
        }
    }
    if (measured)
        append(buf, buflen, &used, " (measured at %zu B)", len);
}

void autoisa_describe_all(const autoisa *a, char *buf, size_t buflen)
{
    size_t used = 0, last = 0;
    int first = 1;
    buf[0] = '\0';
    for (;;) {
        /* The next length up, so that the choices read shortest first. */
        size_t len = 0;
        int found = 0;
        for (size_t i = 0; i < a->n_choices; i++) {
            size_t l = a->choices[i].len;
            if ((first || l > last) && (!found || l < len) &&
                a->choices[i].row) {
                len = l;
                found = 1;
            }
        }
        if (!found)
            return;
        if (used)
            append(buf, buflen, &used, ";");
        for (size_t i = 0; i < a->n_choices; i++)
            if (a->choices[i].len == len && a->choices[i].row)
                append_choice(&a->choices[i], buf, buflen, &used);
        if (any_measured(a, len))
            append(buf, buflen, &used, " (measured at %zu B)", len);
        last = len;
        first = 0;
    }
}
