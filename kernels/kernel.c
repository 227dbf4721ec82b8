#include "kernel.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

#define KERNEL_OPTION_ROW(id, field, nm, kind, big)                          \
    [KOPT_##id] = { nm, KOPT_KIND_##kind, big, offsetof(kernel_args, field) },
const kernel_option_info kernel_options[KOPT_COUNT] = {
    KERNEL_OPTIONS(KERNEL_OPTION_ROW)
};
#undef KERNEL_OPTION_ROW

kernel_value *kernel_args_value(kernel_args *a, enum kernel_option id)
{
    return (kernel_value *)((char *)a + kernel_options[id].offset);
}

const kernel_value *kernel_args_get(const kernel_args *a,
                                    enum kernel_option id)
{
    return (const kernel_value *)((const char *)a +
                                  kernel_options[id].offset);
}

/* What an external kernel leaves unset is its reference's. */
static const kernel *defining(const kernel *k)
{
    return k->reference && !k->args[0].option ? k->reference : k;
}

const kernel_arg *kernel_spec(const kernel *k)
{
    return defining(k)->args;
}

const kernel_arg *kernel_spec_find(const kernel *k, enum kernel_option id)
{
    for (const kernel_arg *arg = kernel_spec(k); arg->option; arg++)
        if (arg->option == id)
            return arg;
    return NULL;
}

size_t kernel_min_len(const kernel *k)
{
    return k->min_len || !k->reference ? k->min_len : k->reference->min_len;
}

static const char *min_len_why(const kernel *k)
{
    return k->min_len || !k->reference ? k->min_len_why
                                       : k->reference->min_len_why;
}

size_t kernel_batch(const kernel *k)
{
    size_t batch = k->batch || !k->reference ? k->batch : k->reference->batch;
    return batch ? batch : 1;
}

size_t kernel_tag_len(const kernel *k, const kernel_args *a)
{
    if (a && a->tag_len.set && kernel_spec_find(k, KOPT_TAG_LEN))
        return (size_t)a->tag_len.num;
    return k->tag_len || !k->reference ? k->tag_len : k->reference->tag_len;
}

size_t kernel_out_len(const kernel *k, const kernel_args *a, size_t len)
{
    const kernel *owner = k->out_len || !k->reference ? k : k->reference;
    size_t tag = kernel_tag_len(k, a);
    if (owner->out_len)
        return owner->out_len(owner, a, len);
    if (!a->decrypt.set)
        return len + tag;
    return len >= tag ? len - tag : 0;
}

void kernel_bench_args(const kernel *k, kernel_args *a)
{
    const kernel *owner = k->bench_args || !k->reference ? k : k->reference;
    owner->bench_args(owner, a);
}

static int accepts(const kernel_arg *arg, uint64_t v)
{
    if (arg->n_values == 0)
        return v >= arg->min && v <= arg->max;
    for (size_t i = 0; i < arg->n_values; i++)
        if (arg->values[i] == v)
            return 1;
    return 0;
}

void kernel_describe_accepted(const kernel_arg *arg, char *buf, size_t len)
{
    int hex = kernel_options[arg->option].kind == KOPT_KIND_HEX;
    const char *unit = hex ? " bytes" : "";
    size_t used = 0;
    buf[0] = '\0';
    if (arg->n_values == 0 && arg->min == 0 && arg->max == UINT64_MAX)
        used = (size_t)snprintf(buf, len, hex ? "any length" : "any value");
    else if (arg->n_values == 0)
        used = (size_t)snprintf(buf, len, "%" PRIu64 " to %" PRIu64 "%s",
                                arg->min, arg->max, unit);
    else
        for (size_t i = 0; i < arg->n_values && used < len; i++)
            used += (size_t)snprintf(
                buf + used, len - used, "%s%" PRIu64 "%s",
                i == 0 ? "" : i + 1 == arg->n_values ? " or " : ", ",
                arg->values[i], i + 1 == arg->n_values ? unit : "");
    if (arg->note && used < len)
        snprintf(buf + used, len - used, " (%s)", arg->note);
}

/* The one message for an option missing or out of what it accepts. */
static int refuse_value(const kernel *k, const kernel_arg *arg,
                        const kernel_value *v, char *err, size_t errlen)
{
    char accepted[160], got[48] = "";
    kernel_describe_accepted(arg, accepted, sizeof accepted);
    if (v->set)
        snprintf(got, sizeof got, " (got %" PRIu64 ")",
                 kernel_options[arg->option].kind == KOPT_KIND_HEX
                     ? (uint64_t)v->len : v->num);
    snprintf(err, errlen, "%s needs --%s of %s%s", k->name,
             kernel_options[arg->option].name, accepted, got);
    return -1;
}

static int check_spec(const kernel *k, const kernel_args *a, char *err,
                      size_t errlen)
{
    for (int id = 1; id < KOPT_COUNT; id++) {
        const kernel_value *v = kernel_args_get(a, (enum kernel_option)id);
        const kernel_arg *arg = kernel_spec_find(k, (enum kernel_option)id);
        if (!arg && v->set) {
            snprintf(err, errlen, "%s does not take --%s", k->name,
                     kernel_options[id].name);
            return -1;
        }
        if (!arg || (!v->set && !arg->required))
            continue;
        uint64_t got = kernel_options[id].kind == KOPT_KIND_HEX ? v->len : v->num;
        if (!v->set || !accepts(arg, got))
            return refuse_value(k, arg, v, err, errlen);
    }
    return 0;
}

int kernel_check(const kernel *k, const kernel_args *a, size_t len,
                 char *err, size_t errlen)
{
    size_t min = kernel_min_len(k), tag = kernel_tag_len(k, a);
    const char *why = min_len_why(k);
    if (check_spec(k, a, err, errlen))
        return -1;
    if (a->decrypt.set && len < tag) {
        snprintf(err, errlen, "%s --decrypt reads the ciphertext then its "
                 "%zu-byte tag: at least %zu bytes (got %zu)", k->name, tag,
                 tag, len);
        return -1;
    }
    if (len < min) {
        snprintf(err, errlen, "%s needs a message of at least %zu bytes (got "
                 "%zu)%s%s", k->name, min, len, why ? ": " : "",
                 why ? why : "");
        return -1;
    }
    if (k->reference && k->reference->check &&
        k->reference->check(k, a, len, err, errlen))
        return -1;
    return k->check ? k->check(k, a, len, err, errlen) : 0;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

long kernel_hex_decode(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = strlen(hex);
    if (n % 2 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(n / 2);
}

uint8_t *kernel_buffer(size_t len)
{
    size_t rounded = (len + 63) / 64 * 64;
    return aligned_alloc(64, rounded ? rounded : 64);
}

void kernel_fill_message(uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        p[i] = (uint8_t)(i * 131 + 7);
}

const kernel *kernel_find(const char *name)
{
    for (size_t i = 0; kernel_registry[i]; i++)
        if (strcmp(kernel_registry[i]->name, name) == 0)
            return kernel_registry[i];
    for (size_t i = 0; kernel_aliases[i].alias; i++)
        if (strcmp(kernel_aliases[i].alias, name) == 0)
            return kernel_aliases[i].k;
    return NULL;
}

const isa_variant *kernel_variant_at(const kernel *k, size_t i)
{
    const isa_variant *v;
    if (!k->lists_row)
        return isa_table_row(k->table, k->row_size, i);
    for (size_t r = 0; (v = isa_table_row(k->table, k->row_size, r)); r++)
        if (k->lists_row(v) && i-- == 0)
            return v;
    return NULL;
}

const isa_variant *kernel_variant_find(const kernel *k, const char *isa)
{
    const isa_variant *v = isa_table_find(k->table, k->row_size, isa);
    return v && (!k->lists_row || k->lists_row(v)) ? v : NULL;
}

const isa_variant *kernel_best_variant(const kernel *k)
{
    const isa_variant *v;
    for (size_t i = 0; (v = kernel_variant_at(k, i)); i++)
        if (kernel_variant_usable(k, v))
            return v;
    return kernel_generic_variant(k);
}

const isa_variant *kernel_generic_variant(const kernel *k)
{
    const isa_variant *last = NULL, *v;
    for (size_t i = 0; (v = kernel_variant_at(k, i)); i++)
        last = v;
    return last;
}

size_t kernel_n_parts(const kernel *k)
{
    size_t n = 0;
    while (n < KERNEL_MAX_PARTS && k->parts[n])
        n++;
    return n;
}

size_t kernel_part_len(const kernel *k, size_t i, size_t len)
{
    size_t want = k->part_len ? k->part_len(i, len) : len,
           min = kernel_min_len(k->parts[i]);
    return want < min ? min : want;
}

void kernel_compose(const kernel *k, const isa_variant *const part[],
                    isa_variant *row)
{
    uint32_t required = 0;
    memset(row, 0, k->row_size);
    k->compose(k, part, row);
    for (size_t i = 0; i < kernel_n_parts(k); i++)
        required |= part[i]->required;
    row->isa = KERNEL_AUTO_ISA;
    row->required = required;
}

/* Lengths around every block and batch boundary a variant may have
 * (64-byte ChaCha blocks in batches of 4, 8, 16; 128-byte BLAKE2b blocks),
 * plus Tor's cell payload. */
static const size_t self_test_lengths[] = {
    0, 1, 7, 63, 64, 65, 127, 128, 129, 255, 256, 257, 509, 511, 512, 513,
    1023, 1024, 1025, 2047, 2049, 4096,
};

static int compare_on_length(const kernel *k, const isa_variant *v,
                             const kernel *ref_k, const kernel_args *a,
                             size_t len, char *err, size_t errlen)
{
    const isa_variant *ref = kernel_generic_variant(ref_k);
    size_t batch = kernel_batch(k);
    size_t out_len = kernel_out_len(k, a, len) * batch;
    uint8_t *in = malloc(len * batch + 1), *want = malloc(out_len + 1),
            *got = malloc(out_len + 1);
    int rc = -1;
    if (!in || !want || !got) {
        snprintf(err, errlen, "out of memory at %zu bytes", len);
        goto done;
    }
    for (size_t i = 0; i < len * batch; i++)
        in[i] = (uint8_t)(i * 7 + 3);
    int want_rc = ref_k->run(ref_k, ref, a, in, len, want);
    int got_rc = k->run(k, v, a, in, len, got);
    if (want_rc != got_rc || memcmp(want, got, out_len) != 0) {
        snprintf(err, errlen, "%s@%s differs from %s@%s at %zu bytes",
                 k->name, v->isa, ref_k->name, ref->isa, len);
        goto done;
    }
    rc = 0;
done:
    free(in);
    free(want);
    free(got);
    return rc;
}

int kernel_check_known_answer(const kernel *k, const isa_variant *v,
                              const kernel_args *a, const uint8_t *in,
                              size_t len, const uint8_t *want, size_t want_len,
                              const char *source, char *err, size_t errlen)
{
    uint8_t *got = malloc(want_len + 1);
    int ok = got && kernel_out_len(k, a, len) * kernel_batch(k) == want_len &&
             k->run(k, v, a, in, len, got) == 0 &&
             memcmp(got, want, want_len) == 0;
    free(got);
    if (ok)
        return 0;
    snprintf(err, errlen, "%s@%s fails its known answer (%s)", k->name,
             v->isa, source);
    return -1;
}

void kernel_prepare(const kernel *k, const isa_variant *v, kernel_args *a)
{
    a->n_secret = 0;
    if (k->prepare)
        k->prepare(k, v, a);
}

void kernel_release(const kernel *k, kernel_args *a)
{
    if (k->release && a->prepared)
        k->release(k, a);
    else
        free(a->prepared);
    a->prepared = NULL;
    a->n_secret = 0;
}

void kernel_add_secret(kernel_args *a, const void *p, size_t len)
{
    /* A prepare hook that notes more regions than there is room for is a
     * bug in that hook: found by the first `make ctgrind`, never silent. */
    if (a->n_secret == KERNEL_MAX_SECRET_REGIONS) {
        fprintf(stderr, "cyclebench: more than %d secret regions in a "
                "prepared key: raise KERNEL_MAX_SECRET_REGIONS\n",
                KERNEL_MAX_SECRET_REGIONS);
        abort();
    }
    a->secret[a->n_secret++] = (kernel_region){ p, len };
}

void (*kernel_declassify_hook)(const void *p, size_t len);

int kernel_public_equal(const void *a, const void *b, size_t n)
{
    const uint8_t *x = a, *y = b;
    unsigned diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned)(x[i] ^ y[i]);
    int equal = (int)(1 & ((diff - 1) >> 8));
    kernel_declassify(&equal, sizeof equal);
    return equal;
}

/* Any fixed key serves; 32 bytes is a length BLAKE2b (1-64) accepts. */
static const uint8_t fixed_key[32] = "cyclebench fixed secret key.....";

void kernel_keyed_args(const kernel *k, kernel_args *a)
{
    kernel_bench_args(k, a);
    if (kernel_spec_find(k, KOPT_KEY) && !a->key.set)
        a->key = KERNEL_BYTES(fixed_key, sizeof fixed_key);
}

const char *kernel_variant_refusal(const kernel *k, const isa_variant *v,
                                   char *buf, size_t len)
{
    char missing[160];
    const char *why = k->unavailable ? k->unavailable(k) : NULL;
    if (why)
        snprintf(buf, len, "%s", why);
    else if (!cpu_supports(v->required)) {
        uint32_t lacking = v->required & ~cpu_features();
        cpu_describe(lacking, missing, sizeof missing);
        snprintf(buf, len, "the CPU lacks %s%s", missing,
                 (lacking & cpu_features_disabled()) == lacking
                     ? " (taken away by CYCLEBENCH_CPU_DISABLE)"
                     : "");
    } else
        return NULL;
    return buf;
}

int kernel_variant_usable(const kernel *k, const isa_variant *v)
{
    char why[256];
    return kernel_variant_refusal(k, v, why, sizeof why) == NULL;
}

int kernel_self_test(const kernel *k, const isa_variant *v, char *err,
                     size_t errlen)
{
    const kernel *ref_k = k->reference ? k->reference : k;
    kernel_args a;
    char why[256];
    if (kernel_variant_refusal(k, v, why, sizeof why)) {
        snprintf(err, errlen, "%s@%s cannot run here: %s", k->name, v->isa,
                 why);
        return -1;
    }
    if (k->known_answer && k->known_answer(k, v, err, errlen))
        return -1;
    kernel_bench_args(k, &a);
    for (size_t i = 0; i < sizeof self_test_lengths / sizeof *self_test_lengths; i++) {
        size_t len = self_test_lengths[i];
        /* Lengths the kernel refuses (under LIONESS's 41 bytes, partial
         * blocks for a CBC cipher) are never run, so are not compared. */
        if (kernel_check(k, &a, len, err, errlen) != 0)
            continue;
        if (compare_on_length(k, v, ref_k, &a, len, err, errlen))
            return -1;
    }
    return 0;
}
