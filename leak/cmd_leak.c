/* `cyclebench leak <kernel>`: does the kernel's time depend on a secret?
 * dudect's fixed-against-random t-test (harness/leak.h) on one variant,
 * the secret being one of:
 *   input  the message and the per-message inputs that go with it (nonce,
 *          IV, tweak) under a fixed key. In CTR mode the block cipher
 *          encrypts the counter block, not the message, so the IV belongs
 *          to what varies (dudect's own AES-CTR example varies it);
 *   key    the key, under a fixed message. A kernel with per-key setup
 *          (round keys) sets up each key outside the timed call.
 * The fixed class is zeros for inputs, as in dudect's examples, and the
 * kernel's benchmark key for keys (an all-zero key is refused by some:
 * OpenSSL's XTS rejects two equal halves).
 *
 * The verdict is dudect's: |t| > 10 a leak, above 4.5 a possible one;
 * below, no leak was found, which proves nothing about a longer run or
 * another machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/kernel.h"
#include "../harness/args.h"
#include "../harness/commands.h"
#include "leak.h"
#include "../harness/sysctl.h"

#define DEFAULT_SIZE 64
/* Bytes of inputs prepared per batch, within these counts of slots: a
 * batch stays in the caches without being so short that preparing it is
 * most of the run. */
#define BATCH_BYTES (256u << 10)
#define MIN_SLOTS 16
#define MAX_SLOTS 1024
/* Exit status when the variant cannot be measured at all (it fails its
 * self-test, pinning fails, memory runs out): neither verdict. */
#define EXIT_NOT_MEASURED 3

typedef enum secret_kind { SECRET_INPUT, SECRET_KEY } secret_kind;
static const char *const secret_names[] = { "input", "key" };

typedef struct leak_options {
    const kernel *k;
    const isa_variant *v;
    size_t size;
    secret_kind secret;
    leak_budget budget;
} leak_options;

/* Options */

static int parse_options(leak_options *o, int argc, char **argv)
{
    cli_request r;
    int rc = cli_parse(CLI_LEAK, argc, argv, &r);
    if (rc == 0) {
        *o = (leak_options){
            .k = r.k, .v = r.v,
            .size = r.size.set ? (size_t)r.size.num : DEFAULT_SIZE,
            .secret = r.secret.set && !strcmp(r.secret.text, "key")
                          ? SECRET_KEY : SECRET_INPUT,
            .budget = { r.measurements.num, r.seconds.seconds },
        };
        if (!r.measurements.set && !r.seconds.set)
            o->budget = (leak_budget){ LEAK_DEFAULT_MEASUREMENTS,
                                       LEAK_DEFAULT_SECONDS };
    }
    cli_free(&r);
    return rc;
}

/* The kernel as a leak_target: a batch of slots, each with its own
 * arguments pointing at its own message and secret bytes. */

typedef struct kernel_slots {
    const leak_options *o;
    kernel_args base;  /* with the fixed key; prepared for the input class */
    kernel_args *args; /* per slot */
    uint8_t *messages, *secrets, *out;
    size_t message_bytes, secret_bytes, n;
} kernel_slots;

/* The per-message inputs the input class varies with the message. */
static size_t public_input_bytes(const kernel_args *a)
{
    return a->nonce.len + a->iv.len + a->tweak.len;
}

/* Slot i's args: the base with its secret bytes in place of the base's. */
static void point_slot(kernel_slots *s, size_t i)
{
    kernel_args *a = &s->args[i];
    uint8_t *p = s->secrets + i * s->secret_bytes;
    *a = s->base;
    if (s->o->secret == SECRET_KEY) {
        a->key.bytes = p;
        a->prepared = NULL;
        return;
    }
    if (a->nonce.set)
        a->nonce.bytes = p, p += a->nonce.len;
    if (a->iv.set)
        a->iv.bytes = p, p += a->iv.len;
    if (a->tweak.set)
        a->tweak.bytes = p;
}

static void fill(uint8_t *p, size_t n, int cls, const uint8_t *fixed)
{
    if (cls)
        leak_random(p, n);
    else if (fixed)
        memcpy(p, fixed, n);
    else
        memset(p, 0, n);
}

static void prepare_slot(void *ctx, size_t i, int cls)
{
    kernel_slots *s = ctx;
    const leak_options *o = s->o;
    uint8_t *secret = s->secrets + i * s->secret_bytes;
    if (o->secret == SECRET_INPUT) {
        fill(s->messages + i * s->message_bytes, s->message_bytes, cls, NULL);
        fill(secret, s->secret_bytes, cls, NULL);
        return;
    }
    fill(secret, s->secret_bytes, cls, s->base.key.bytes);
    kernel_release(o->k, &s->args[i]);
    kernel_prepare(o->k, o->v, &s->args[i]);
}

static void call_slot(void *ctx, size_t i)
{
    kernel_slots *s = ctx;
    const kernel *k = s->o->k;
    k->run(k, s->o->v, &s->args[i], s->messages + i * s->message_bytes,
           s->o->size, s->out);
}

static void free_slots(kernel_slots *s)
{
    if (s->o->secret == SECRET_KEY && s->args)
        for (size_t i = 0; i < s->n; i++)
            kernel_release(s->o->k, &s->args[i]);
    kernel_release(s->o->k, &s->base);
    free(s->args);
    free(s->messages);
    free(s->secrets);
    free(s->out);
}

static int make_slots(kernel_slots *s, const leak_options *o)
{
    const kernel *k = o->k;
    size_t batch = kernel_batch(k);
    *s = (kernel_slots){ .o = o, .message_bytes = o->size * batch };
    kernel_keyed_args(k, &s->base);
    s->secret_bytes = o->secret == SECRET_KEY ? s->base.key.len
                                              : public_input_bytes(&s->base);
    s->n = BATCH_BYTES / (s->message_bytes + s->secret_bytes);
    s->n = s->n < MIN_SLOTS ? MIN_SLOTS : s->n > MAX_SLOTS ? MAX_SLOTS : s->n;
    s->args = calloc(s->n, sizeof *s->args);
    s->messages = kernel_buffer(s->n * s->message_bytes);
    s->secrets = malloc(s->n * s->secret_bytes + 1);
    s->out = kernel_buffer(kernel_out_len(k, &s->base, o->size) * batch);
    if (!s->args || !s->messages || !s->secrets || !s->out)
        return -1;
    /* The key class's message: the same fixed bytes in every slot. */
    for (size_t i = 0; i < s->n; i++)
        kernel_fill_message(s->messages + i * s->message_bytes,
                            s->message_bytes);
    if (o->secret == SECRET_INPUT)
        kernel_prepare(k, o->v, &s->base);
    for (size_t i = 0; i < s->n; i++)
        point_slot(s, i);
    return 0;
}

/* Checks and output */

static int check_options(const leak_options *o)
{
    kernel_args a;
    kernel_keyed_args(o->k, &a);
    if (o->secret == SECRET_KEY && !a.key.set) {
        usage_error("%s takes no key: use --secret=input", o->k->name);
        return -1;
    }
    return check_kernel_args(o->k, &a, o->size);
}

/* 1234567 as "1,234,567". */
static const char *with_commas(uint64_t n, char *buf, size_t len)
{
    char digits[24];
    int nd = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
    size_t used = 0;
    for (int i = 0; i < nd && used + 2 < len; i++) {
        if (i && (nd - i) % 3 == 0)
            buf[used++] = ',';
        buf[used++] = digits[i];
    }
    buf[used] = '\0';
    return buf;
}

static void print_result(const leak_options *o, const leak_result *r)
{
    char count[32], size[48];
    size_t batch = kernel_batch(o->k);
    if (batch > 1)
        snprintf(size, sizeof size, "%zu x %zu B", batch, o->size);
    else
        snprintf(size, sizeof size, "%zu B", o->size);
    printf("# mean TSC ticks per call: %.1f fixed, %.1f random; ",
           r->mean_ticks[0], r->mean_ticks[1]);
    if (r->max.crop < 0)
        printf("largest |t| on the raw timings");
    else
        printf("largest |t| on timings below %llu ticks (the %.1fth "
               "percentile)", (unsigned long long)r->max.threshold,
               r->max.percentile);
    printf("; %.1f s on CPU %d\n", r->seconds, sysctl_pinned_cpu());
    printf("leak %s@%s (secret=%s, %s): max |t| = %.1f over %s measurements: "
           "%s\n", o->k->name, o->v->isa, secret_names[o->secret], size,
           r->max.abs_t, with_commas(r->measurements, count, sizeof count),
           leak_verdict_text(leak_judge(r->max.abs_t)));
}

int cmd_leak(int argc, char **argv)
{
    leak_options o = { 0 };
    kernel_slots slots;
    leak_result r;
    char err[256];
    if (parse_options(&o, argc, argv) || check_options(&o) ||
        refuse_emulated("leak"))
        return EXIT_USAGE;
    if (require_self_test(o.k, o.v, "measured"))
        return EXIT_NOT_MEASURED;
    if (sysctl_pin(sysctl_default_cpu(), err, sizeof err)) {
        usage_error("%s", err);
        return EXIT_NOT_MEASURED;
    }
    leak_target target = { prepare_slot, call_slot, &slots, 0 };
    int rc = make_slots(&slots, &o);
    target.slots = slots.n;
    if (rc == 0)
        rc = leak_measure(&target, &o.budget, &r);
    free_slots(&slots);
    if (rc) {
        usage_error("out of memory for %zu slots of %zu bytes", slots.n,
                    slots.message_bytes);
        return EXIT_NOT_MEASURED;
    }
    print_result(&o, &r);
    return leak_judge(r.max.abs_t) == LEAK_NONE_FOUND ? 0 : 1;
}
