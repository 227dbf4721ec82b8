/* make fuzz's differential target for one kernel (--kernel=NAME, a flag
 * libFuzzer leaves to the target), or for all of them with the input's
 * first byte choosing (--kernel=all, make test's bounded pass): every
 * ISA variant this CPU runs,
 * and every other library's kernel that computes the same thing (those
 * whose `reference` is it), against the kernel's generic variant, on
 * arguments the fuzz input chooses within what the kernel's descriptor
 * accepts (kernel_spec, kernel_check). Any difference in the output bytes
 * or the return code aborts with a one-line report, and libFuzzer keeps the
 * input as a crash artefact: rerun it with
 *     build/fuzz/fuzz-kernel --kernel=NAME <artefact>
 * An AEAD (a kernel with a tag) also has each variant open the sealed
 * message, then a mutated one: a changed ciphertext byte, tag byte or AAD,
 * or a shortened message, which every variant must refuse without writing
 * a byte of output. `--list` prints the kernels there are targets for:
 * every kernel but the other libraries' ones that have a kernel of ours
 * for a reference, which are fuzzed in their reference's target.
 *
 * The input, read front to back (bytes past its end read as zero):
 *   with --kernel=all, 1 byte choosing the kernel (modulo their number)
 *   2 bytes  message length, modulo MAX_MESSAGE + 1
 *   1 byte   flags: FLAG_IN_PLACE, FLAG_DECRYPT, FLAG_PREPARED
 *   1 byte   input offset, 1 byte output offset (modulo 64)
 *   then for each option in the kernel's spec, in order: one byte (an
 *     optional one is given when its low bit is set; the rest picks a
 *     length or value among those accepted), then a HEX option's bytes or
 *     a NUMBER's eight (little-endian, reduced into the accepted range)
 *   AEADs: 1 byte what to change, 2 bytes where, 1 byte the xor
 *   the rest: the message, repeated to its length. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/registry.h"

/* Every batch boundary of every variant (ChaCha's 16-block zmm batches are
 * 1024 bytes; LIONESS-x4 runs four such messages) and then some. */
#define MAX_MESSAGE 4608
#define MAX_OFFSET 64
#define MAX_PEERS 8
#define MAX_TARGETS 128
/* An option's bytes: keys of LIONESS (208), AADs up to 255. */
#define MAX_OPTION_BYTES 256

enum { FLAG_IN_PLACE = 1, FLAG_DECRYPT = 2, FLAG_PREPARED = 4 };
enum { CHANGE_CIPHERTEXT, CHANGE_TAG, CHANGE_AAD, SHORTEN, N_CHANGES };

/* A kernel, and the other libraries' kernels of the same computation. */
typedef struct fuzz_target {
    const kernel *k;
    const kernel *peers[MAX_PEERS];
    size_t n_peers;
} fuzz_target;

static fuzz_target targets[MAX_TARGETS];
static size_t n_targets;
static int all_targets; /* --kernel=all: the input's first byte chooses */

/* The target of the input being run. */
static const kernel *target;
static const kernel *const *peers;
static size_t n_peers;

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint64_t take(reader *r, size_t bytes)
{
    uint64_t v = 0;
    for (size_t i = 0; i < bytes; i++) {
        uint64_t b = 0;
        if (r->n) {
            b = *r->p++;
            r->n--;
        }
        v |= b << (8 * i);
    }
    return v;
}

/* One fuzz case: the arguments and the message, and where the variants'
 * buffers sit. */
typedef struct fuzz_case {
    kernel_args a;
    uint8_t option_bytes[KOPT_COUNT][MAX_OPTION_BYTES];
    uint8_t *msg;
    size_t len; /* of one message; the kernel's batch of them is in msg */
    unsigned flags, in_offset, out_offset;
    unsigned change, where, flip;
} fuzz_case;

static uint64_t pick_value(const kernel_arg *arg, uint64_t chooser,
                           uint64_t raw)
{
    if (arg->n_values)
        return arg->values[chooser % arg->n_values];
    uint64_t span = arg->max - arg->min;
    return span == UINT64_MAX ? raw : arg->min + raw % (span + 1);
}

static void read_option(reader *r, fuzz_case *c, const kernel_arg *arg)
{
    const kernel_option_info *o = &kernel_options[arg->option];
    kernel_value *v = kernel_args_value(&c->a, arg->option);
    uint64_t byte = take(r, 1);
    if (!arg->required && !(byte & 1))
        return;
    uint64_t chooser = arg->required ? byte : byte >> 1;
    if (o->kind == KOPT_KIND_FLAG) {
        *v = KERNEL_FLAG;
    } else if (o->kind == KOPT_KIND_NUMBER) {
        *v = KERNEL_NUMBER(pick_value(arg, chooser, take(r, 8)));
    } else {
        kernel_arg lengths = *arg;
        if (!lengths.n_values && lengths.max > MAX_OPTION_BYTES - 1)
            lengths.max = MAX_OPTION_BYTES - 1;
        size_t len = (size_t)pick_value(&lengths, chooser, chooser);
        uint8_t *bytes = c->option_bytes[arg->option];
        for (size_t i = 0; i < len && i < MAX_OPTION_BYTES; i++)
            bytes[i] = (uint8_t)take(r, 1);
        *v = KERNEL_BYTES(bytes, len);
    }
}

/* The case the input describes, within what target accepts. Returns 0, or
 * -1 when the kernel refuses it (no case: the input is not interesting). */
static int read_case(const uint8_t *data, size_t size, fuzz_case *c)
{
    reader r = { data, size };
    char err[256];
    memset(&c->a, 0, sizeof c->a);
    c->len = (size_t)(take(&r, 2) % (MAX_MESSAGE + 1));
    c->flags = (unsigned)take(&r, 1);
    c->in_offset = (unsigned)(take(&r, 1) % MAX_OFFSET);
    c->out_offset = (unsigned)(take(&r, 1) % MAX_OFFSET);
    for (const kernel_arg *arg = kernel_spec(target); arg->option; arg++)
        if (arg->option != KOPT_DECRYPT)
            read_option(&r, c, arg);
    if (kernel_tag_len(target, &c->a)) {
        c->change = (unsigned)(take(&r, 1) % N_CHANGES);
        c->where = (unsigned)take(&r, 2);
        c->flip = (unsigned)take(&r, 1) | 1;
    } else if (kernel_spec_find(target, KOPT_DECRYPT) &&
               (c->flags & FLAG_DECRYPT)) {
        c->a.decrypt = KERNEL_FLAG;
    }
    if (c->len < kernel_min_len(target))
        c->len += kernel_min_len(target);
    if (kernel_check(target, &c->a, c->len, err, sizeof err))
        return -1;
    size_t total = c->len * kernel_batch(target);
    c->msg = malloc(total + 1);
    for (size_t i = 0; i < total; i++)
        c->msg[i] = r.n ? r.p[i % r.n] : (uint8_t)(i * 131 + 7);
    return 0;
}

static void diverged(const kernel *k, const isa_variant *v,
                     const fuzz_case *c, const kernel_args *a,
                     const char *how, size_t len)
{
    fprintf(stderr, "cyclebench fuzz: %s@%s %s %s@%s on a %zu-byte input "
            "(%s, input +%u, output %s%u%s)\n", k->name, v->isa, how,
            target->name, kernel_generic_variant(target)->isa, len,
            a->decrypt.set ? "decrypt" : "encrypt", c->in_offset,
            c->flags & FLAG_IN_PLACE ? "in place, " : "+", c->out_offset,
            c->flags & FLAG_PREPARED ? ", prepared" : "");
    abort();
}

/* k@v on a, the message in (len bytes each, a batch of them) copied to its
 * offset, into *out (malloc'd to exactly the output's length past the
 * offset, so a write beyond it is ASan's to report): in place when asked
 * and the output is the input's size. Returns run()'s code. */
static int run_variant(const kernel *k, const isa_variant *v,
                       const kernel_args *args, const fuzz_case *c,
                       const uint8_t *in, size_t len, uint8_t **buf,
                       uint8_t **out, size_t out_len)
{
    kernel_args a = *args;
    size_t in_len = len * kernel_batch(k);
    int in_place = (c->flags & FLAG_IN_PLACE) && out_len == in_len;
    uint8_t *in_buf = malloc(c->in_offset + in_len + 1);
    memcpy(in_buf + c->in_offset, in, in_len);
    if (in_place) {
        *buf = in_buf;
        *out = in_buf + c->in_offset;
    } else {
        *buf = malloc(c->out_offset + out_len + 1);
        *out = *buf + c->out_offset;
        memset(*out, 0xa5, out_len);
    }
    if (c->flags & FLAG_PREPARED)
        kernel_prepare(k, v, &a);
    int rc = k->run(k, v, &a, in_buf + c->in_offset, len, *out);
    kernel_release(k, &a);
    if (!in_place)
        free(in_buf);
    return rc;
}

/* Whether k@v on (a, in) gives want's bytes and code, else aborts. */
static void compare_variant(const kernel *k, const isa_variant *v,
                            const kernel_args *a, const fuzz_case *c,
                            const uint8_t *in, size_t len,
                            const uint8_t *want, size_t out_len, int want_rc)
{
    uint8_t *buf, *out;
    int rc = run_variant(k, v, a, c, in, len, &buf, &out, out_len);
    if (rc != want_rc)
        diverged(k, v, c, a, rc ? "refuses what is accepted by"
                                : "accepts what is refused by", len);
    if (rc == 0 && memcmp(out, want, out_len) != 0)
        diverged(k, v, c, a, "differs from", len);
    free(buf);
}

/* Every variant and peer that can run here and takes these args. */
typedef void each_fn(const kernel *k, const isa_variant *v, void *ctx);

static void for_each_variant(const kernel_args *a, size_t len, each_fn *fn,
                             void *ctx)
{
    char err[256];
    const isa_variant *v;
    for (size_t i = 0; (v = kernel_variant_at(target, i)); i++)
        if (kernel_variant_usable(target, v))
            fn(target, v, ctx);
    for (size_t i = 0; i < n_peers; i++)
        if (kernel_check(peers[i], a, len, err, sizeof err) == 0)
            fn(peers[i], kernel_variant_at(peers[i], 0), ctx);
}

typedef struct expectation {
    const fuzz_case *c;
    const kernel_args *a;
    const uint8_t *in;
    size_t len;
    const uint8_t *want;
    size_t out_len;
    int rc;
} expectation;

static void expect_same(const kernel *k, const isa_variant *v, void *ctx)
{
    const expectation *e = ctx;
    compare_variant(k, v, e->a, e->c, e->in, e->len, e->want, e->out_len,
                    e->rc);
}

/* Generic's output for (a, in), malloc'd into *want, and its code. */
static int generic_output(const kernel_args *a, const uint8_t *in,
                          size_t len, uint8_t **want, size_t *out_len)
{
    *out_len = kernel_out_len(target, a, len) * kernel_batch(target);
    *want = malloc(*out_len + 1);
    return target->run(target, kernel_generic_variant(target), a, in, len,
                       *want);
}

/* An AEAD's sealed message, changed as the input says: the opening that
 * every variant must refuse, releasing no plaintext: each output byte is
 * still the marker, or wiped to zero (a decryption that verifies after
 * writing, as GCM's and OpenSSL's do, must wipe what it wrote). */
static void refuse_changed(const kernel *k, const isa_variant *v, void *ctx)
{
    const expectation *e = ctx;
    uint8_t *buf, *out;
    int rc = run_variant(k, v, e->a, e->c, e->in, e->len, &buf, &out,
                         e->out_len);
    int released = 0;
    for (size_t i = 0; i < e->out_len; i++)
        released |= out[i] != 0xa5 && out[i] != 0;
    if (rc == 0)
        diverged(k, v, e->c, e->a, "opens a changed message refused by",
                 e->len);
    if (released)
        diverged(k, v, e->c, e->a, "leaves output on a refusal, unlike",
                 e->len);
    free(buf);
}

/* Lengths are of one message (run()'s len), outputs of the kernel's whole
 * batch: ascon-aead128-x8 seals eight messages of len bytes to eight of
 * len + tag, and opens them back. The changes below fall in the first
 * message, which refuses the whole call. */
static void fuzz_aead(fuzz_case *c)
{
    uint8_t *sealed, *opened, aad[MAX_OPTION_BYTES + 1];
    size_t sealed_len, opened_len, tag = kernel_tag_len(target, &c->a);
    size_t batch = kernel_batch(target);
    size_t sealed_each = kernel_out_len(target, &c->a, c->len);
    kernel_args open = c->a;
    open.decrypt = KERNEL_FLAG;
    generic_output(&c->a, c->msg, c->len, &sealed, &sealed_len);
    expectation seal = { c, &c->a, c->msg, c->len, sealed, sealed_len, 0 };
    for_each_variant(&c->a, c->len, expect_same, &seal);
    /* Every variant opens what generic sealed, to the message. */
    if (generic_output(&open, sealed, sealed_each, &opened, &opened_len) != 0 ||
        memcmp(opened, c->msg, c->len * batch) != 0)
        diverged(target, kernel_generic_variant(target), c, &open,
                 "does not open what it sealed, like", sealed_each);
    expectation unseal = { c,      &open,          sealed, sealed_each,
                           c->msg, c->len * batch, 0 };
    for_each_variant(&open, sealed_each, expect_same, &unseal);
    /* And refuses it changed. */
    size_t len = sealed_each;
    switch (c->change) {
    case CHANGE_CIPHERTEXT:
        if (c->len)
            sealed[c->where % c->len] ^= (uint8_t)c->flip;
        else
            sealed[c->where % tag] ^= (uint8_t)c->flip;
        break;
    case CHANGE_TAG:
        sealed[c->len + c->where % tag] ^= (uint8_t)c->flip;
        break;
    case CHANGE_AAD:
        if (open.aad.len)
            memcpy(aad, open.aad.bytes, open.aad.len);
        if (open.aad.len && !(c->where & 1)) {
            aad[(c->where >> 1) % open.aad.len] ^= (uint8_t)c->flip;
        } else {
            aad[open.aad.len] = (uint8_t)c->flip;
            open.aad.len++;
        }
        open.aad.bytes = aad;
        open.aad.set = 1;
        break;
    default: { /* the last bytes cut off: the tag is read elsewhere */
        size_t cut = 1 + c->where % tag;
        if (sealed_each >= tag + cut)
            len -= cut;
        else
            sealed[c->len] ^= (uint8_t)c->flip;
        break;
    }
    }
    char err[256];
    if (kernel_check(target, &open, len, err, sizeof err) == 0) {
        expectation refused = { c, &open, sealed, len, NULL,
                                kernel_out_len(target, &open, len) * batch,
                                1 };
        for_each_variant(&open, len, refuse_changed, &refused);
    }
    free(sealed);
    free(opened);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_target *t = &targets[0];
    if (all_targets && size) {
        t = &targets[data[0] % n_targets];
        data++;
        size--;
    }
    target = t->k;
    peers = t->peers;
    n_peers = t->n_peers;
    fuzz_case *c = calloc(1, sizeof *c);
    if (read_case(data, size, c) == 0) {
        if (kernel_tag_len(target, &c->a)) {
            fuzz_aead(c);
        } else {
            uint8_t *want;
            size_t out_len;
            int rc = generic_output(&c->a, c->msg, c->len, &want, &out_len);
            expectation e = { c, &c->a, c->msg, c->len, want, out_len, rc };
            for_each_variant(&c->a, c->len, expect_same, &e);
            free(want);
        }
    }
    free(c->msg);
    free(c);
    return 0;
}

static int is_target(const kernel *k)
{
    return !k->reference;
}

static void add_target(const kernel *k)
{
    fuzz_target *t = &targets[n_targets++];
    t->k = k;
    for (size_t i = 0; kernel_registry[i] && t->n_peers < MAX_PEERS; i++)
        if (kernel_registry[i]->reference == k &&
            kernel_variant_usable(kernel_registry[i],
                                  kernel_variant_at(kernel_registry[i], 0)))
            t->peers[t->n_peers++] = kernel_registry[i];
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *name = NULL;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp((*argv)[i], "--list")) {
            for (size_t j = 0; kernel_registry[j]; j++)
                if (is_target(kernel_registry[j]))
                    printf("%s\n", kernel_registry[j]->name);
            exit(0);
        }
        if (!strncmp((*argv)[i], "--kernel=", 9))
            name = (*argv)[i] + 9;
    }
    all_targets = name && !strcmp(name, "all");
    for (size_t i = 0; kernel_registry[i] && n_targets < MAX_TARGETS; i++)
        if (is_target(kernel_registry[i]) &&
            (all_targets || (name && !strcmp(name, kernel_registry[i]->name))))
            add_target(kernel_registry[i]);
    if (n_targets == 0) {
        fprintf(stderr, "fuzz-kernel: name a kernel with --kernel=NAME (one "
                "of --list; another library's kernel with a reference is "
                "fuzzed in its reference's target), or --kernel=all\n");
        exit(2);
    }
    return 0;
}
