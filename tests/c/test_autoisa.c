/* --isa=auto's choices under a model clock: the measured row a model makes
 * fastest wins, for every supported row of every part; a composite takes
 * each part's winner; only rows that may be timed are measured, each part
 * once per length; the descriptions say what was chosen. Then every
 * combination of part rows, composed, gives what generic gives (known
 * answers and awkward lengths), and the sampler's own choice runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/autoisa.h"
#include "../../kernels/adiantum/adiantum.h"
#include "../../kernels/aead/aead.h"
#include "../../kernels/aes/aes.h"
#include "../../kernels/cgo/cgo.h"
#include "../../kernels/gcmsiv/gcmsiv.h"
#include "../../kernels/hctr2/hctr2.h"
#include "../../kernels/lioness/lioness.h"
#include "../../kernels/registry.h"
#include "check.h"

#define MAX_FAVOURITES 8
#define MAX_SEEN 256

/* The model: a favourite row per kernel costs 1 tick a call, any other row
 * 10 plus its place in the table (so the table's order decides among
 * them); a kernel listed as untimeable cannot be timed at all. */
typedef struct model {
    const kernel *k[MAX_FAVOURITES];
    const isa_variant *favourite[MAX_FAVOURITES];
    size_t n;
    const kernel *untimeable;
    /* What was measured. */
    const kernel *seen_k[MAX_SEEN];
    const isa_variant *seen_v[MAX_SEEN];
    size_t seen_len[MAX_SEEN];
    double seen_seconds[MAX_SEEN];
    size_t calls;
} model;

static size_t row_index(const kernel *k, const isa_variant *v)
{
    size_t i = 0;
    while (kernel_variant_at(k, i) != v)
        i++;
    return i;
}

static double model_ticks(void *ctx, const kernel *k, const isa_variant *v,
                          size_t len, double seconds)
{
    model *m = ctx;
    if (m->calls < MAX_SEEN) {
        m->seen_k[m->calls] = k;
        m->seen_v[m->calls] = v;
        m->seen_len[m->calls] = len;
        m->seen_seconds[m->calls] = seconds;
    }
    m->calls++;
    if (k == m->untimeable)
        return -1;
    for (size_t i = 0; i < m->n; i++)
        if (m->k[i] == k && m->favourite[i] == v)
            return 1;
    return 10 + (double)row_index(k, v);
}

static void favour(model *m, const kernel *k, const isa_variant *v)
{
    m->k[m->n] = k;
    m->favourite[m->n++] = v;
}

/* The rows of k this CPU runs, in table order. */
static size_t usable_rows(const kernel *k, const isa_variant **rows)
{
    size_t n = 0;
    const isa_variant *v;
    for (size_t i = 0; (v = kernel_variant_at(k, i)); i++)
        if (kernel_variant_usable(k, v))
            rows[n++] = v;
    return n;
}

#define MAX_ROWS 16

static void test_fastest_row_wins(const kernel *k)
{
    const isa_variant *rows[MAX_ROWS];
    size_t n = usable_rows(k, rows);
    CASE("auto picks %s's fastest row under a model clock, whichever it is",
         k->name);
    if (n < 2) {
        SKIP("this CPU runs one row of %s", k->name);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        model m = { 0 };
        autoisa a;
        favour(&m, k, rows[i]);
        autoisa_init_with(&a, model_ticks, &m);
        const isa_variant *got = autoisa_row_for(&a, k, 509);
        CHECK(got == rows[i], "favouring %s gave %s", rows[i]->isa,
              got ? got->isa : "NULL");
        CHECK(m.calls == n * AUTOISA_ROUNDS, "%zu rows measured %zu times",
              n, m.calls);
        autoisa_free(&a);
    }
}

/* The length k's part (or k itself) is timed at for messages of len. */
static size_t expected_len(const kernel *k, const kernel *part, size_t len)
{
    for (size_t i = 0; i < kernel_n_parts(k); i++)
        if (k->parts[i] == part)
            return kernel_part_len(k, i, len);
    return len < kernel_min_len(k) ? kernel_min_len(k) : len;
}

/* Every row measured may be timed here, and was measured at the length
 * its part sees in k's messages of len bytes. */
static void check_measured(const model *m, const kernel *k, size_t len)
{
    char err[256];
    for (size_t i = 0; i < m->calls && i < MAX_SEEN; i++) {
        size_t want = expected_len(k, m->seen_k[i], len);
        CHECK(kernel_variant_usable(m->seen_k[i], m->seen_v[i]),
              "%s@%s measured on a CPU that lacks it", m->seen_k[i]->name,
              m->seen_v[i]->isa);
        CHECK(kernel_self_test(m->seen_k[i], m->seen_v[i], err,
                               sizeof err) == 0,
              "%s@%s measured though it fails its self-test",
              m->seen_k[i]->name, m->seen_v[i]->isa);
        CHECK(m->seen_len[i] == want, "%s measured at %zu, not %zu",
              m->seen_k[i]->name, m->seen_len[i], want);
    }
}

/* The row of part i that a composite's row runs, where this test knows
 * the composite's row type. */
static const char *part_isa_of(const kernel *k, const isa_variant *row,
                               size_t i)
{
    if (!strcmp(k->family, "lioness")) {
        const lioness_impl *impl = (const lioness_impl *)row;
        return i == 0 ? impl->chacha_isa : impl->blake2b_isa;
    }
    if (!strcmp(k->family, "chacha20-poly1305")) {
        const aead_impl *impl = (const aead_impl *)row;
        return i == 0 ? impl->chacha_isa : impl->poly1305_isa;
    }
    if (!strcmp(k->family, "tor-cgo")) {
        const cgo_impl *impl = (const cgo_impl *)row;
        return i == 0 ? impl->aes_isa : impl->polyval_isa;
    }
    if (!strcmp(k->family, "adiantum")) {
        const adiantum_impl *impl = (const adiantum_impl *)row;
        const char *isa[] = { impl->chacha_isa, impl->nh_isa,
                              impl->poly1305_isa,
                              adiantum_parts_of(impl).aes->v.isa };
        return isa[i];
    }
    if (!strcmp(k->family, "hctr2")) {
        const hctr2_impl *impl = (const hctr2_impl *)row;
        return i == 0 ? impl->aes_isa : impl->polyval_isa;
    }
    if (!strcmp(k->family, "aes-gcm-siv")) {
        const gcmsiv_impl *impl = (const gcmsiv_impl *)row;
        return i == 0 ? impl->aes_isa : impl->polyval_isa;
    }
    if (!strcmp(k->family, "tor1") || k == &kernel_tor_relay_cell) {
        const aes_impl *impl = (const aes_impl *)row;
        for (size_t j = 0; aes_impls[j].v.isa; j++)
            if (aes_impls[j].ctr == impl->ctr &&
                aes_impls[j].expand == impl->expand)
                return aes_impls[j].v.isa;
    }
    return NULL;
}

/* The AES row adiantum@generic runs: the constant-time one without AES
 * instructions where the CPU has it (ssse3 on x86-64, neon on aarch64),
 * else the table-driven generic. */
static const char *adiantum_generic_aes(void)
{
#if defined(__x86_64__)
    return cpu_supports(CPU_SSSE3) ? "ssse3" : "generic";
#elif defined(__aarch64__)
    return cpu_supports(CPU_NEON) ? "neon" : "generic";
#endif
}

/* The row of part i that k's row runs when want wins: want, but for
 * Adiantum's AES, which takes adiantum@generic's constant-time one where
 * the table-driven generic AES wins (adiantum_compose). */
static const char *expected_isa(const kernel *k, size_t i,
                                const isa_variant *want)
{
    if (!strcmp(k->family, "adiantum") && k->parts[i] == &kernel_aes256_ctr &&
        want == kernel_generic_variant(&kernel_aes256_ctr))
        return adiantum_generic_aes();
    return want->isa;
}

/* Each part's favourite is what the composite's row runs. The model
 * favours the last supported row (generic) of every other part and the
 * first of the rest, or the other way round, so that the parts disagree
 * with their tables and with each other (LIONESS's avx512 ChaCha with the
 * generic BLAKE2b). */
static void test_composite_takes_winners(const kernel *k, int flip)
{
    size_t n_parts = kernel_n_parts(k);
    const isa_variant *want[KERNEL_MAX_PARTS], *rows[MAX_ROWS];
    model m = { 0 };
    autoisa a;
    char text[512], part[128];
    CASE("%s at auto runs each part's fastest row (the model favouring %s)",
         k->name, flip ? "generic, then the first row, ..."
                       : "the first row, then generic, ...");
    int any_choice = 0;
    for (size_t i = 0; i < n_parts; i++) {
        size_t n = usable_rows(k->parts[i], rows);
        want[i] = rows[(i + flip) % 2 ? n - 1 : 0];
        favour(&m, k->parts[i], want[i]);
        any_choice |= n > 1;
    }
    autoisa_init_with(&a, model_ticks, &m);
    const isa_variant *row = autoisa_row_for(&a, k, 509);
    if (!CHECK(row != NULL, "no row"))
        goto done;
    CHECK(!strcmp(row->isa, KERNEL_AUTO_ISA), "named %s", row->isa);
    for (size_t i = 0; i < n_parts; i++) {
        const char *got = part_isa_of(k, row, i);
        CHECK(got != NULL, "test_autoisa does not know %s's row type: add "
              "it to part_isa_of", k->name);
        CHECK(!got || !strcmp(got, expected_isa(k, i, want[i])),
              "part %s runs %s, not %s", k->parts[i]->name, got,
              expected_isa(k, i, want[i]));
        CHECK(cpu_supports(row->required) &&
                  (row->required & want[i]->required) == want[i]->required,
              "the row does not require what %s@%s does",
              k->parts[i]->name, want[i]->isa);
    }
    check_measured(&m, k, 509);
    autoisa_describe(&a, k, 509, text, sizeof text);
    for (size_t i = 0; i < n_parts; i++) {
        snprintf(part, sizeof part, "%s%s=%s", i ? " " : "",
                 k->parts[i]->name, want[i]->isa);
        CHECK(strstr(text, part) != NULL, "'%s' lacks '%s'", text, part);
    }
    /* Parts with one usable row are taken unmeasured. */
    CHECK(!any_choice || strstr(text, "(measured at 509 B)") != NULL, "'%s'",
          text);
    CHECK(autoisa_row_for(&a, k, 509) == row, "asked again, a new row");
done:
    autoisa_free(&a);
}

/* Kernels sharing a part at one length measure it once. */
static void test_parts_measured_once(void)
{
    model m = { 0 };
    autoisa a;
    const isa_variant *rows[MAX_ROWS];
    size_t blake2b_rows = usable_rows(&kernel_blake2b, rows);
    size_t chacha12_rows = usable_rows(&kernel_chacha12, rows);
    CASE("lioness then lioness12 at one length measure blake2b once");
    autoisa_init_with(&a, model_ticks, &m);
    autoisa_row_for(&a, &kernel_lioness, 509);
    size_t after_first = m.calls;
    autoisa_row_for(&a, &kernel_lioness12, 509);
    size_t expect = chacha12_rows > 1 ? chacha12_rows * AUTOISA_ROUNDS : 0;
    CHECK(m.calls - after_first == expect, "lioness12 measured %zu rows, "
          "not %zu (chacha12's)", m.calls - after_first, expect);
    autoisa_row_for(&a, &kernel_lioness, 1024);
    CHECK(m.calls > after_first + expect || blake2b_rows < 2,
          "another length measured nothing");
    autoisa_free(&a);
}

/* A chacha20 whose rows other than generic flip an output bit: they fail
 * the self-test, so only generic may be timed. */
static int flipping_run(const kernel *k, const isa_variant *v,
                        const kernel_args *a, const uint8_t *in, size_t len,
                        uint8_t *out)
{
    int rc = kernel_chacha20.run(k, v, a, in, len, out);
    if (v != kernel_generic_variant(k) && len > 100)
        out[len / 2] ^= 1;
    return rc;
}

static void test_untimeable_rows(void)
{
    kernel broken = kernel_chacha20;
    model m = { 0 };
    autoisa a;
    char text[512];
    broken.run = flipping_run;
    CASE("rows failing their self-test are never measured; one left is "
         "taken unmeasured");
    autoisa_init_with(&a, model_ticks, &m);
    const isa_variant *row = autoisa_row_for(&a, &broken, 509);
    CHECK(row == kernel_generic_variant(&broken), "took %s",
          row ? row->isa : "NULL");
    CHECK(m.calls == 0, "measured %zu times", m.calls);
    autoisa_describe(&a, &broken, 509, text, sizeof text);
    CHECK(strstr(text, "chacha20=generic (not measured") == text, "'%s'",
          text);
    row = autoisa_row_for(&a, &broken, 1024);
    CHECK(row == kernel_generic_variant(&broken) && m.calls == 0,
          "at another length (self-tests remembered) took %s, measured %zu "
          "times", row ? row->isa : "NULL", m.calls);
    autoisa_free(&a);

    CASE("a part that cannot be timed falls back to its table's first row");
    m = (model){ .untimeable = &kernel_blake2b };
    autoisa_init_with(&a, model_ticks, &m);
    row = autoisa_row_for(&a, &kernel_blake2b, 509);
    CHECK(row == kernel_best_variant(&kernel_blake2b), "took %s",
          row ? row->isa : "NULL");
    autoisa_describe(&a, &kernel_blake2b, 509, text, sizeof text);
    CHECK(strstr(text, "not measured") != NULL, "'%s'", text);
    autoisa_free(&a);

    CASE("an external kernel's one row is taken unmeasured");
    m = (model){ 0 };
    autoisa_init_with(&a, model_ticks, &m);
    row = autoisa_row_for(&a, &kernel_openssl_chacha20, 509);
    CHECK(row == kernel_variant_at(&kernel_openssl_chacha20, 0), "took %s",
          row ? row->isa : "NULL");
    CHECK(m.calls == 0, "measured %zu times", m.calls);
    autoisa_free(&a);
}

static void test_lengths(void)
{
    model m = { 0 };
    autoisa a;
    char text[1024];
    const isa_variant *rows[MAX_ROWS];
    CASE("a part is measured at its shortest message when asked for less, "
         "and says so");
    autoisa_init_with(&a, model_ticks, &m);
    autoisa_row_for(&a, &kernel_blake2b_x4, 0);
    check_measured(&m, &kernel_blake2b_x4, 0);
    autoisa_describe(&a, &kernel_blake2b_x4, 0, text, sizeof text);
    CHECK(usable_rows(&kernel_blake2b_x4, rows) > 1
              ? strstr(text, "(at 1 B)") != NULL
              : 1,
          "'%s'", text);
    autoisa_free(&a);

    CASE("adiantum's parts are measured at the lengths a 4096-byte "
         "message gives them");
    m = (model){ 0 };
    autoisa_init_with(&a, model_ticks, &m);
    autoisa_row_for(&a, &kernel_adiantum, 4096);
    const size_t want[] = { 4080, 4080, 128, 16 }; /* xchacha12 nh poly1305 aes */
    for (size_t i = 0; i < 4; i++)
        CHECK(kernel_part_len(&kernel_adiantum, i, 4096) == want[i],
              "%s at %zu, not %zu", kernel_adiantum.parts[i]->name,
              kernel_part_len(&kernel_adiantum, i, 4096), want[i]);
    for (size_t i = 0; i < m.calls && i < MAX_SEEN; i++)
        CHECK(m.seen_len[i] == expected_len(&kernel_adiantum, m.seen_k[i],
                                            4096),
              "%s measured at %zu", m.seen_k[i]->name, m.seen_len[i]);
    /* Parts with one usable row are taken unmeasured. */
    int any_choice = 0;
    for (size_t i = 0; i < kernel_n_parts(&kernel_adiantum); i++)
        any_choice |= usable_rows(kernel_adiantum.parts[i], rows) > 1;
    CHECK(!any_choice || m.calls > 0, "nothing measured");
    /* Each part with a choice says the length it was measured at, each
     * without one that it was not measured. */
    autoisa_describe(&a, &kernel_adiantum, 4096, text, sizeof text);
    for (size_t i = 0; i < kernel_n_parts(&kernel_adiantum); i++) {
        char at[32];
        snprintf(at, sizeof at, "(at %zu B)", want[i]);
        CHECK(usable_rows(kernel_adiantum.parts[i], rows) > 1
                  ? strstr(text, at) != NULL
                  : strstr(text, "(not measured") != NULL,
              "%s: '%s'", kernel_adiantum.parts[i]->name, text);
    }
    CHECK(!any_choice || strstr(text, "(measured at 4096 B)"), "'%s'", text);
    autoisa_free(&a);

    CASE("a part two composites time at different lengths is measured for "
         "each");
    if (usable_rows(&kernel_poly1305, rows) < 2) {
        SKIP("this CPU runs one row of poly1305");
        goto described;
    }
    m = (model){ 0 };
    autoisa_init_with(&a, model_ticks, &m);
    autoisa_row_for(&a, &kernel_adiantum, 4096);
    size_t after_adiantum = m.calls;
    autoisa_row_for(&a, &kernel_chacha20_poly1305, 4096);
    size_t poly1305_at_4096 = 0;
    for (size_t i = after_adiantum; i < m.calls && i < MAX_SEEN; i++)
        poly1305_at_4096 += m.seen_k[i] == &kernel_poly1305 &&
                            m.seen_len[i] == 4096;
    CHECK(poly1305_at_4096 > 0, "chacha20-poly1305 reused adiantum's "
          "128-byte Poly1305 choice");
    autoisa_free(&a);

described:
    CASE("the run's description lists the choices shortest first");
    m = (model){ 0 };
    autoisa_init_with(&a, model_ticks, &m);
    autoisa_row_for(&a, &kernel_blake2b, 16384);
    autoisa_row_for(&a, &kernel_chacha20, 64);
    autoisa_row_for(&a, &kernel_blake2b, 64);
    autoisa_describe_all(&a, text, sizeof text);
    const char *at64 = strstr(text, "(measured at 64 B)");
    const char *at16k = strstr(text, "(measured at 16384 B)");
    if (usable_rows(&kernel_chacha20, rows) > 1 &&
        usable_rows(&kernel_blake2b, rows) > 1)
        CHECK(at64 && at16k && at64 < at16k &&
                  !strncmp(text, "chacha20=", 9) &&
                  strstr(text, "; blake2b=") == at64 + 18,
              "'%s'", text);
    else
        CHECK(strstr(text, "not measured") != NULL, "'%s'", text);
    autoisa_free(&a);
}

static void test_calibrate_shares_budget(void)
{
    const isa_variant *rows[MAX_ROWS];
    size_t chacha = usable_rows(&kernel_chacha20, rows),
           blake2b = usable_rows(&kernel_blake2b, rows),
           n = chacha + blake2b;
    size_t measured = ((chacha > 1 ? chacha : 0) + (blake2b > 1 ? blake2b : 0)) *
                      AUTOISA_ROUNDS;
    const double budgets[] = { 0.002 * AUTOISA_ROUNDS * (double)n, 0, 1e3 };
    const double expect[] = { 0.002, AUTOISA_MIN_SECONDS, AUTOISA_MAX_SECONDS };
    for (size_t b = 0; b < 3; b++) {
        model m = { 0 };
        autoisa a;
        CASE("calibrate measures what lioness needs at 509 bytes within a "
             "budget of %g s, each row for %g s", budgets[b], expect[b]);
        autoisa_init_with(&a, model_ticks, &m);
        CHECK(autoisa_want(&a, &kernel_lioness, 509) == 0, "want failed");
        CHECK(m.calls == 0, "want measured");
        autoisa_calibrate(&a, budgets[b]);
        CHECK(m.calls == measured, "%zu measurements, not %zu", m.calls,
              measured);
        for (size_t i = 0; i < m.calls && i < MAX_SEEN; i++)
            CHECK(m.seen_seconds[i] > expect[b] * 0.999 &&
                      m.seen_seconds[i] < expect[b] * 1.001,
                  "a row sampled for %g s", m.seen_seconds[i]);
        size_t before = m.calls;
        autoisa_row_for(&a, &kernel_lioness, 509);
        CHECK(m.calls == before, "measured again after calibrating");
        autoisa_free(&a);
    }
}

/* Every part-row combination this CPU runs, composed: known answers and
 * generic's output at awkward lengths (kernel_self_test), so that auto's
 * output is every fixed level's whatever it picks. */
static void test_every_combination(const kernel *k)
{
    size_t n_parts = kernel_n_parts(k), count[KERNEL_MAX_PARTS],
           pick[KERNEL_MAX_PARTS] = { 0 };
    const isa_variant *rows[KERNEL_MAX_PARTS][MAX_ROWS],
        *chosen[KERNEL_MAX_PARTS];
    isa_variant *row = malloc(k->row_size);
    char err[256];
    CASE("%s composed from every combination of its parts' supported rows "
         "gives generic's output", k->name);
    if (!CHECK(row != NULL, "out of memory"))
        return;
    for (size_t i = 0; i < n_parts; i++)
        count[i] = usable_rows(k->parts[i], rows[i]);
    for (;;) {
        size_t i;
        for (i = 0; i < n_parts; i++)
            chosen[i] = rows[i][pick[i]];
        kernel_compose(k, chosen, row);
        CHECK(kernel_self_test(k, row, err, sizeof err) == 0, "%s", err);
        for (i = 0; i < n_parts && ++pick[i] == count[i]; i++)
            pick[i] = 0;
        if (i == n_parts)
            break;
    }
    free(row);
}

/* k's row over the named part rows (every row named exists). */
static void compose_named(const kernel *k, const char *const isa[],
                          isa_variant *row)
{
    const isa_variant *part[KERNEL_MAX_PARTS];
    for (size_t i = 0; i < kernel_n_parts(k); i++)
        part[i] = kernel_variant_find(k->parts[i], isa[i]);
    kernel_compose(k, part, row);
}

/* The hctr2 and aes-gcm-siv rows with a fused XCTR and POLYVAL pass of
 * their own. */
static int has_fused_pass(const char *isa)
{
#if defined(__x86_64__)
    return !strncmp(isa, "vaes", 4) || !strcmp(isa, "aesni");
#elif defined(__aarch64__)
    return !strcmp(isa, "ce");
#endif
}

static int hctr2_row_fused(const isa_variant *row)
{
    return hctr2_fused((const hctr2_impl *)row);
}

static int gcmsiv_row_fused(const isa_variant *row)
{
    return gcmsiv_fused((const gcmsiv_impl *)row);
}

/* k's auto rows, and its own, run XCTR and POLYVAL in one pass (fused
 * says whether a row of k's table type does) exactly where both are one
 * level's rows and that AES row has the pass. */
static void test_fused_pass(const kernel *k, int (*fused)(const isa_variant *))
{
    static const struct {
        const char *aes, *polyval;
        int fused;
    } pairs[] = {
#if defined(__x86_64__)
        { "vaes-avx512", "vpclmul-avx512", 1 },
        { "vaes-avx2", "vpclmul-avx2", 1 },
        { "aesni", "pclmul", 1 },
        { "aesni", "vpclmul-avx512", 0 },
        { "vaes-avx512", "pclmul", 0 },
        { "vaes-avx2", "generic", 0 },
        { "ssse3", "generic", 0 },
        { "generic", "pclmul", 0 },
#elif defined(__aarch64__)
        { "ce", "ce", 1 },
        { "ce", "generic", 0 },
        { "generic", "ce", 0 },
        { "neon", "generic", 0 },
#endif
        { "generic", "generic", 0 },
    };
    union {
        hctr2_impl hctr2;
        gcmsiv_impl gcmsiv;
    } row;
    const isa_variant *fixed;
    CASE("%s at auto fuses XCTR and POLYVAL only when both rows are one "
         "level's that has the pass", k->name);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const char *isa[] = { pairs[i].aes, pairs[i].polyval };
        compose_named(k, isa, (isa_variant *)&row);
        CHECK(fused((isa_variant *)&row) == pairs[i].fused, "%s with %s: %s",
              pairs[i].aes, pairs[i].polyval,
              pairs[i].fused ? "two passes" : "fused");
    }
    for (size_t j = 0; (fixed = kernel_variant_at(k, j)); j++)
        CHECK(fused(fixed) == has_fused_pass(fixed->isa),
              "%s@%s's own row: %s", k->name, fixed->isa,
              fused(fixed) ? "fused" : "two passes");
}

static void test_adiantum_block_constant_time(const kernel *k)
{
    const char *isa[] = { "generic", "generic", "generic", "generic" };
    adiantum_impl row;
    CASE("%s at auto runs adiantum@generic's constant-time AES where the "
         "table-driven one wins", k->name);
    compose_named(k, isa, &row.v);
    const char *aes = adiantum_parts_of(&row).aes->v.isa;
    CHECK(!strcmp(aes, adiantum_generic_aes()), "runs aes@%s", aes);
    /* Any other winner is taken as it is: the table's first row, where
     * there is one besides generic. */
    isa[3] = aes_impls[0].v.isa;
    if (strcmp(isa[3], "generic") != 0) {
        compose_named(k, isa, &row.v);
        CHECK(!strcmp(row.aes_from, isa[3]), "an %s winner gave %s", isa[3],
              row.aes_from);
    }
}

/* v of k on in (len bytes; out may be in), with its key prepared. */
static void run_row(const kernel *k, const isa_variant *v,
                    const kernel_args *args, const uint8_t *in, size_t len,
                    uint8_t *out)
{
    kernel_args a = *args;
    kernel_prepare(k, v, &a);
    k->run(k, v, &a, in, len, out);
    kernel_release(k, &a);
}

#define AUTO_MAX_LEN 5000

/* Lengths around Adiantum's and HCTR2's boundaries (the 16-byte block, NH's
 * 1024-byte pieces, ChaCha's and XCTR's batches), then random ones. */
static size_t trial_len(size_t trial, uint64_t *seed)
{
    static const size_t edges[] = { 16, 17, 31, 32, 33, 47, 79, 80, 81, 143,
                                    271, 527, 1039, 1040, 1041, 2064, 4112 };
    if (trial < sizeof edges / sizeof edges[0])
        return edges[trial];
    return 16 + check_random(seed) % (AUTO_MAX_LEN - 16);
}

/* Whatever auto picks (the sampler's row, and the model's mixes of
 * levels), its output is every fixed row's: random keys, tweaks and
 * lengths, both directions, misaligned and in place. */
static void test_auto_equals_fixed(const kernel *k)
{
    static uint8_t in[AUTO_MAX_LEN + 16], want[AUTO_MAX_LEN],
        got[AUTO_MAX_LEN + 16];
    uint8_t key[32], tweak[40];
    const isa_variant *rows[MAX_ROWS], *autos[3];
    size_t n_rows, key_len = kernel_spec_find(k, KOPT_KEY)->values[0];
    uint64_t seed = 0xa070;
    autoisa sampled, modelled[2];
    model m[2];
    memset(m, 0, sizeof m);
    CASE("%s at auto (the sampler's choice and two mixes of levels) gives "
         "every supported row's output on random keys, tweaks and lengths",
         k->name);
    autoisa_init(&sampled);
    autos[0] = autoisa_row_for(&sampled, k, 4096);
    for (int flip = 0; flip < 2; flip++) {
        for (size_t i = 0; i < kernel_n_parts(k); i++) {
            size_t n = usable_rows(k->parts[i], rows);
            favour(&m[flip], k->parts[i], rows[(i + flip) % 2 ? n - 1 : 0]);
        }
        autoisa_init_with(&modelled[flip], model_ticks, &m[flip]);
        autos[1 + flip] = autoisa_row_for(&modelled[flip], k, 4096);
    }
    n_rows = usable_rows(k, rows);
    for (size_t trial = 0; trial < 40; trial++) {
        size_t len = trial_len(trial, &seed), shift = trial % 16;
        kernel_args a = {
            .key = KERNEL_BYTES(key, key_len),
            .tweak = KERNEL_BYTES(tweak, check_random(&seed) % sizeof tweak),
        };
        if (trial % 2)
            a.decrypt = KERNEL_FLAG;
        check_fill_random(key, sizeof key, &seed);
        check_fill_random(tweak, sizeof tweak, &seed);
        check_fill_random(in + shift, len, &seed);
        for (size_t r = 0; r < n_rows; r++) {
            run_row(k, rows[r], &a, in + shift, len, want);
            for (size_t x = 0; x < 3; x++) {
                if (!CHECK(autos[x], "no auto row"))
                    goto done;
                /* In place every third trial, else into a buffer at
                 * another offset. */
                int in_place = trial % 3 == 0;
                uint8_t *out = in_place ? got + shift : got + 15 - shift;
                if (in_place)
                    memcpy(out, in + shift, len);
                run_row(k, autos[x], &a, in_place ? out : in + shift, len,
                        out);
                if (!CHECK(memcmp(out, want, len) == 0,
                           "auto row %zu (%s) differs from @%s at %zu bytes, "
                           "%s%s, tweak %zu bytes",
                           x, x ? "a model's mix" : "the sampler's",
                           rows[r]->isa, len,
                           a.decrypt.set ? "decrypting" : "encrypting",
                           in_place ? " in place" : "", a.tweak.len))
                    goto done;
            }
        }
    }
done:
    autoisa_free(&sampled);
    autoisa_free(&modelled[0]);
    autoisa_free(&modelled[1]);
}

static void test_sampled_choice(void)
{
    autoisa a;
    char err[256], text[512];
    CASE("the sampler's choice for lioness at 509 bytes runs and passes "
         "its self-test");
    autoisa_init(&a);
    const isa_variant *row = autoisa_row_for(&a, &kernel_lioness, 509);
    CHECK(row && kernel_variant_usable(&kernel_lioness, row), "row %s",
          row ? row->isa : "NULL");
    CHECK(row && kernel_self_test(&kernel_lioness, row, err, sizeof err) == 0,
          "%s", err);
    autoisa_describe(&a, &kernel_lioness, 509, text, sizeof text);
    const isa_variant *rows[MAX_ROWS];
    int any_choice = usable_rows(&kernel_chacha20, rows) > 1 ||
                     usable_rows(&kernel_blake2b, rows) > 1;
    CHECK(strstr(text, "chacha20=") == text && strstr(text, " blake2b=") &&
              (!any_choice || strstr(text, "(measured at 509 B)")),
          "'%s'", text);
    autoisa_free(&a);
}

int main(void)
{
    for (size_t i = 0; kernel_registry[i]; i++) {
        const kernel *k = kernel_registry[i];
        if (!k->reference && !kernel_n_parts(k))
            test_fastest_row_wins(k);
    }
    for (size_t i = 0; kernel_registry[i]; i++) {
        const kernel *k = kernel_registry[i];
        if (!kernel_n_parts(k))
            continue;
        test_composite_takes_winners(k, 1);
        test_composite_takes_winners(k, 0);
        test_every_combination(k);
        if (!strcmp(k->family, "adiantum") || !strcmp(k->family, "hctr2"))
            test_auto_equals_fixed(k);
        if (!strcmp(k->family, "adiantum"))
            test_adiantum_block_constant_time(k);
        if (!strcmp(k->family, "hctr2"))
            test_fused_pass(k, hctr2_row_fused);
        if (!strcmp(k->family, "aes-gcm-siv"))
            test_fused_pass(k, gcmsiv_row_fused);
    }
    test_parts_measured_once();
    test_untimeable_rows();
    test_lengths();
    test_calibrate_shares_budget();
    test_sampled_choice();
    return check_finish();
}
