/* build/ctgrind-driver <kernel>[@isa]... [--isa=NAME] [--size=N]: kernel
 * variants run one after another with their secret marked undefined
 * (leak/ctgrind.h), for tools/cyclebench/leak/ctgrind.py to run under
 * `valgrind --tool=memcheck`: one process for every variant of a kernel,
 * because valgrind's start (reading the libraries' debug information,
 * translating the code they share) costs more than a variant's run.
 *
 * Each variant is a section: a "variant <kernel>@<isa>" line on stdout and
 * the same words as a client message in memcheck's report, so that the
 * errors memcheck reports after it are that variant's; then what was
 * marked and run, or why it cannot run; then "memcheck errors: N",
 * memcheck's count of the errors it saw during the section, repeats
 * included. memcheck reports an error at a place (its innermost four
 * callers) only the first time, so a variant's sites are whole only where
 * no variant before it had errors: where one did, the caller runs the
 * variant again in a process of its own.
 *
 * The secret is the key, copied into a buffer of our own and marked before
 * any setup, and then the parts of the prepared state that the kernel's
 * prepare hook reports as derived from it (kernel_args.secret): memcheck
 * does not carry a mark through a table lookup, so a key schedule built
 * from S-box lookups would otherwise come out as if public. A kernel that
 * takes no key (memcpy, an unkeyed hash) has its message as the secret.
 * BLAKE2b is run keyed (kernel_keyed_args).
 *
 * What a kernel reveals by design (kernel_declassify: whether a Tor cell
 * is recognized) is marked public as the kernel computes it.
 *
 * The kernel runs once at each length (by default 64, Tor's 509 with a
 * partial block, and 1024 for the widest batches valgrind can run), and its
 * output and return value are declassified after each call.
 *
 * Every operand and length is checked before anything runs. A variant that
 * cannot run on this CPU, as seen from inside valgrind, says "not runnable:
 * <why>" in its section, and the next one runs. Exit status: 0 every
 * section written (memcheck's findings are in its own report), 1 out of
 * memory, 2 bad input. stdout is line-buffered, so that a variant that
 * crashes the process leaves the sections before it whole. Compiled
 * without ISA flags, linking the same kernel objects as cyclebench. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness/args.h"
#include "../kernels/kernel.h"
#include "ctgrind.h"

static const size_t default_lengths[] = { 64, 509, 1024 };
#define N_DEFAULT_LENGTHS (sizeof default_lengths / sizeof *default_lengths)

/* One operand, checked: the variant and the lengths it runs at. */
typedef struct variant_run {
    const kernel *k;
    const isa_variant *v;
    size_t lengths[N_DEFAULT_LENGTHS];
    size_t n_lengths;
} variant_run;

/* Nonzero, after saying why on stdout, when v cannot run here. Under
 * valgrind "here" is valgrind's CPU, whose CPUID leaves out what it cannot
 * execute. */
static int not_runnable(const kernel *k, const isa_variant *v)
{
    char why[256];
    if (!kernel_variant_refusal(k, v, why, sizeof why))
        return 0;
    printf("not runnable: %s\n", why);
    return 1;
}

/* The secret key, in memory of our own so that marking it touches nothing
 * else; prepared state and its key-derived regions marked after setup. */
static uint8_t *mark_key(const kernel *k, const isa_variant *v,
                         kernel_args *a)
{
    uint8_t *key = malloc(a->key.len + 1);
    size_t prepared_bytes = 0;
    if (!key)
        return NULL;
    memcpy(key, a->key.bytes, a->key.len);
    a->key.bytes = key;
    ct_secret(key, a->key.len);
    kernel_prepare(k, v, a);
    for (size_t i = 0; i < a->n_secret; i++) {
        ct_secret(a->secret[i].at, a->secret[i].len);
        prepared_bytes += a->secret[i].len;
    }
    printf("secret: the key (%zu bytes)", a->key.len);
    if (a->n_secret)
        printf(" and %zu bytes of prepared key state in %zu region%s",
               prepared_bytes, a->n_secret, a->n_secret > 1 ? "s" : "");
    printf("\n");
    return key;
}

static int run_once(const kernel *k, const isa_variant *v,
                    const kernel_args *a, size_t len, int secret_message)
{
    size_t batch = kernel_batch(k), out_len = kernel_out_len(k, a, len) * batch;
    uint8_t *in = kernel_buffer(len * batch), *out = kernel_buffer(out_len);
    if (!in || !out) {
        free(in);
        free(out);
        return -1;
    }
    kernel_fill_message(in, len * batch);
    if (secret_message)
        ct_secret(in, len * batch);
    int rc = k->run(k, v, a, in, len, out);
    /* What the caller may see: the output, and whether it was accepted. */
    ct_public(out, out_len);
    ct_public(&rc, sizeof rc);
    printf("ran %zu bytes: %s\n", len, rc ? "rejected" : "ok");
    free(in);
    free(out);
    return 0;
}

/* The lengths to run: --size, or the default lengths the kernel accepts
 * (a CBC kernel refuses partial blocks). Asked before anything is marked:
 * checking arguments is the caller's work, not the kernel's. Returns how
 * many, or 0 after a usage error. */
static size_t choose_lengths(const kernel *k, size_t size, size_t *lengths)
{
    char err[256];
    kernel_args a;
    size_t n = 0;
    kernel_keyed_args(k, &a);
    if (size) {
        lengths[0] = size;
        return check_kernel_args(k, &a, size) ? 0 : 1;
    }
    for (size_t i = 0; i < N_DEFAULT_LENGTHS; i++)
        if (kernel_check(k, &a, default_lengths[i], err, sizeof err) == 0)
            lengths[n++] = default_lengths[i];
    if (!n)
        usage_error("%s accepts none of the default lengths: give --size",
                    k->name);
    return n;
}

/* The operand argv[at] with every option: one variant, parsed and its
 * lengths chosen. Returns 0, or -1 after a usage error. */
static int parse_variant(variant_run *run, int at, int argc, char **argv)
{
    char **one = malloc((size_t)argc * sizeof *one);
    int n = 0, rc;
    cli_request r;
    if (!one) {
        usage_error("out of memory");
        return -1;
    }
    one[n++] = argv[at];
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-')
            one[n++] = argv[i];
    rc = cli_parse(CLI_CTGRIND, n, one, &r);
    if (rc == 0) {
        run->k = r.k;
        run->v = r.v;
        run->n_lengths = choose_lengths(r.k, r.size.set ? (size_t)r.size.num
                                                        : 0, run->lengths);
        rc = run->n_lengths ? 0 : -1;
    }
    cli_free(&r);
    free(one);
    return rc;
}

/* Every operand of argv, each checked before any runs: how many (at least
 * one), or -1 after a usage error. */
static int parse_variants(variant_run **runs, int argc, char **argv)
{
    int n = 0;
    cli_request r;
    *runs = calloc((size_t)argc, sizeof **runs);
    if (!*runs) {
        usage_error("out of memory");
        return -1;
    }
    for (int i = 1; i < argc; i++)
        if (argv[i][0] != '-' && parse_variant(&(*runs)[n++], i, argc, argv))
            return -1;
    if (n)
        return n;
    /* No operand: the parser's own message says what is missing. */
    cli_parse(CLI_CTGRIND, argc - 1, argv + 1, &r);
    cli_free(&r);
    return -1;
}

/* kernel_declassify's hook: what a kernel reveals by design is public. */
static void declassify(const void *p, size_t len)
{
    ct_public(p, len);
}

/* One variant under its secret: marked, run at each length, released.
 * Returns 0, or -1 out of memory. */
static int run_variant(const variant_run *run)
{
    kernel_args a;
    uint8_t *key = NULL;
    int status = 0;
    kernel_keyed_args(run->k, &a);
    if (a.key.set) {
        if (!(key = mark_key(run->k, run->v, &a)))
            return -1;
    } else {
        kernel_prepare(run->k, run->v, &a);
        printf("secret: the message (%s takes no key)\n", run->k->name);
    }
    for (size_t i = 0; i < run->n_lengths && !status; i++)
        status = run_once(run->k, run->v, &a, run->lengths[i], !a.key.set);
    kernel_release(run->k, &a);
    free(key);
    return status;
}

/* A variant's section, on stdout and in memcheck's report. */
static int run_section(const variant_run *run)
{
    unsigned before = ct_error_count();
    int status = 0;
    printf("variant %s@%s\n", run->k->name, run->v->isa);
    ct_section("variant %s@%s", run->k->name, run->v->isa);
    if (!not_runnable(run->k, run->v))
        status = run_variant(run);
    if (!status) /* else the section is left unfinished */
        printf("memcheck errors: %u\n", ct_error_count() - before);
    return status;
}

int main(int argc, char **argv)
{
    variant_run *runs;
    int n, status = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    n = parse_variants(&runs, argc, argv);
    if (n < 0) {
        free(runs);
        return EXIT_USAGE;
    }
    kernel_declassify_hook = declassify;
    for (int i = 0; i < n && !status; i++)
        status = run_section(&runs[i]);
    if (status)
        usage_error("out of memory");
    free(runs);
    return status ? 1 : 0;
}
