/* build/ctgrind-driver <kernel>[@isa] [--isa=NAME] [--size=N]: one kernel
 * variant run with its secret marked undefined (leak/ctgrind.h), for
 * tools/cyclebench/leak/ctgrind.py to run under `valgrind --tool=memcheck`.
 *
 * The secret is the key, copied into a buffer of our own and marked before
 * any setup, and then the parts of the prepared state that the kernel's
 * prepare hook reports as derived from it (kernel_args.secret): memcheck
 * does not carry a mark through a table lookup, so a key schedule built
 * from S-box lookups would otherwise come out as if public. A kernel that
 * takes no key (memcpy, an unkeyed hash) has its message as the secret.
 * BLAKE2b is run keyed (kernel_keyed_args).
 *
 * The kernel runs once at each length (by default 64, Tor's 509 with a
 * partial block, and 1024 for the widest batches valgrind can run), and its
 * output and return value are declassified after each call.
 *
 * Exit status: 0 ran (memcheck's findings are in its own report), 2 bad
 * input, 3 the variant cannot run on this CPU, as seen from inside
 * valgrind: the reason is printed on stdout. Compiled without ISA flags,
 * linking the same kernel objects as cyclebench. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness/args.h"
#include "../kernels/kernel.h"
#include "ctgrind.h"

#define EXIT_NOT_RUNNABLE 3

static const size_t default_lengths[] = { 64, 509, 1024 };
#define N_DEFAULT_LENGTHS (sizeof default_lengths / sizeof *default_lengths)

typedef struct driver_options {
    const kernel *k;
    const isa_variant *v;
    size_t size; /* 0: the default lengths */
} driver_options;

static int parse_options(driver_options *o, int argc, char **argv)
{
    cli_request r;
    int rc = cli_parse(CLI_CTGRIND, argc - 1, argv + 1, &r);
    if (rc == 0)
        *o = (driver_options){ r.k, r.v, r.size.set ? (size_t)r.size.num : 0 };
    cli_free(&r);
    return rc;
}

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
static size_t choose_lengths(const driver_options *o, const kernel_args *a,
                             size_t *lengths)
{
    char err[256];
    size_t n = 0;
    if (o->size) {
        lengths[0] = o->size;
        return check_kernel_args(o->k, a, o->size) ? 0 : 1;
    }
    for (size_t i = 0; i < N_DEFAULT_LENGTHS; i++)
        if (kernel_check(o->k, a, default_lengths[i], err, sizeof err) == 0)
            lengths[n++] = default_lengths[i];
    if (!n)
        usage_error("%s accepts none of the default lengths: give --size",
                    o->k->name);
    return n;
}

int main(int argc, char **argv)
{
    driver_options o = { 0 };
    kernel_args a;
    size_t lengths[N_DEFAULT_LENGTHS], n;
    uint8_t *key = NULL;
    if (parse_options(&o, argc, argv))
        return EXIT_USAGE;
    if (not_runnable(o.k, o.v))
        return EXIT_NOT_RUNNABLE;
    kernel_keyed_args(o.k, &a);
    if (!(n = choose_lengths(&o, &a, lengths)))
        return EXIT_USAGE;
    if (a.key.set) {
        if (!(key = mark_key(o.k, o.v, &a))) {
            usage_error("out of memory");
            return 1;
        }
    } else {
        kernel_prepare(o.k, o.v, &a);
        printf("secret: the message (%s takes no key)\n", o.k->name);
    }
    int status = 0;
    for (size_t i = 0; i < n && !status; i++)
        status = run_once(o.k, o.v, &a, lengths[i], !a.key.set) ? 1 : 0;
    if (status)
        usage_error("out of memory");
    kernel_release(o.k, &a);
    free(key);
    return status;
}
