#include "args.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Values */

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

int parse_hex(const char *s, uint8_t **out, size_t *len)
{
    size_t cap = strlen(s) / 2;
    uint8_t *buf = malloc(cap + 1);
    long n = buf ? kernel_hex_decode(s, buf, cap) : -1;
    if (n < 0) {
        free(buf);
        return -1;
    }
    *out = buf;
    *len = (size_t)n;
    return 0;
}

const char *cli_quote(const char *s, char *buf, size_t len)
{
    size_t used = 0;
    if (len < 8) {
        buf[0] = '\0';
        return buf;
    }
    buf[used++] = '\'';
    for (; *s && used + 6 < len; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c > 0x7e)
            used += (size_t)snprintf(buf + used, len - used, "\\x%02x", c);
        else
            buf[used++] = (char)c;
    }
    if (*s)
        used += (size_t)snprintf(buf + used, len - used, "...");
    buf[used++] = '\'';
    buf[used] = '\0';
    return buf;
}

int parse_seconds(const char *name, const char *s, double *out)
{
    char *end, q[96];
    double v = strtod(s, &end);
    if (!*s || *end || !(v > 0 && v <= CLI_MAX_SECONDS)) {
        usage_error("%s must be a number of seconds above 0 and at most %.0f "
                    "(got %s)", name, CLI_MAX_SECONDS,
                    cli_quote(s, q, sizeof q));
        return -1;
    }
    *out = v;
    return 0;
}

int parse_size(const char *name, const char *s, size_t *out)
{
    uint64_t v;
    char q[96];
    if (parse_u64(s, &v) || v < 1 || v > CLI_MAX_SIZE) {
        usage_error("%s must be a byte count from 1 to %u (got %s)", name,
                    CLI_MAX_SIZE, cli_quote(s, q, sizeof q));
        return -1;
    }
    *out = (size_t)v;
    return 0;
}

/* The option table */

typedef enum cli_kind {
    CLI_WORD,    /* any text; choices, when given, limit it */
    CLI_SIZE,    /* a byte count, 1 to CLI_MAX_SIZE */
    CLI_COUNT,   /* a count, 1 to max */
    CLI_SECONDS, /* above 0, at most CLI_MAX_SECONDS */
    CLI_SWITCH,  /* present or not */
} cli_kind;

typedef struct cli_option {
    const char *name; /* without "--" */
    cli_kind kind;
    unsigned commands; /* enum cli_command bits */
    const char *meta;  /* in usage lines: --name=META */
    uint64_t max;      /* CLI_COUNT */
    const char *const *choices; /* CLI_WORD: NULL-terminated, or NULL */
    size_t offset;     /* of its cli_value in cli_request */
} cli_option;

#define ALL_COMMANDS (CLI_KAT | CLI_RUN | CLI_LEAK | CLI_CTGRIND)
#define MAX_MEASUREMENTS 1000000000000ull

static const char *const secret_choices[] = { "key", "input", NULL };

static const cli_option command_options[] = {
    { "isa", CLI_WORD, ALL_COMMANDS, "NAME", 0, NULL,
      offsetof(cli_request, isa) },
    { "size", CLI_SIZE, CLI_RUN | CLI_LEAK | CLI_CTGRIND, "N", 0, NULL,
      offsetof(cli_request, size) },
    { "seconds", CLI_SECONDS, CLI_RUN | CLI_LEAK, "S", 0, NULL,
      offsetof(cli_request, seconds) },
    { "stages", CLI_SWITCH, CLI_RUN, NULL, 0, NULL,
      offsetof(cli_request, stages) },
    { "secret", CLI_WORD, CLI_LEAK, "key|input", 0, secret_choices,
      offsetof(cli_request, secret) },
    { "measurements", CLI_COUNT, CLI_LEAK, "N", MAX_MEASUREMENTS, NULL,
      offsetof(cli_request, measurements) },
};
#define N_COMMAND_OPTIONS (sizeof command_options / sizeof command_options[0])

static const char *command_name(enum cli_command cmd)
{
    switch (cmd) {
    case CLI_KAT:
        return "kat";
    case CLI_RUN:
        return "run";
    case CLI_LEAK:
        return "leak";
    default:
        return "ctgrind-driver";
    }
}

static const char *kernel_meta(const kernel_option_info *o)
{
    return o->kind == KOPT_KIND_HEX ? "HEX" : "N";
}

const char *cli_usage(enum cli_command cmd)
{
    static char line[512];
    size_t used = (size_t)snprintf(line, sizeof line, "%s <kernel>[@isa]",
                                   command_name(cmd));
    for (size_t i = 0; i < N_COMMAND_OPTIONS && used < sizeof line; i++) {
        const cli_option *o = &command_options[i];
        if (!(o->commands & cmd))
            continue;
        used += (size_t)snprintf(line + used, sizeof line - used,
                                 " [--%s%s%s]", o->name, o->meta ? "=" : "",
                                 o->meta ? o->meta : "");
    }
    if (cmd == CLI_KAT && used < sizeof line)
        snprintf(line + used, sizeof line - used,
                 " [the kernel's options] < message");
    return line;
}

/* The options kernel k takes, as " --key=HEX --decrypt", into buf. */
static void kernel_takes(const kernel *k, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const kernel_arg *arg = kernel_spec(k); arg->option && used < len;
         arg++) {
        const kernel_option_info *o = &kernel_options[arg->option];
        used += (size_t)snprintf(buf + used, len - used, " --%s%s%s", o->name,
                                 o->kind == KOPT_KIND_FLAG ? "" : "=",
                                 o->kind == KOPT_KIND_FLAG ? "" : kernel_meta(o));
    }
}

/* Parsing */

static const cli_option *find_command_option(enum cli_command cmd,
                                             const char *name, size_t n)
{
    for (size_t i = 0; i < N_COMMAND_OPTIONS; i++)
        if ((command_options[i].commands & cmd) &&
            strlen(command_options[i].name) == n &&
            !strncmp(command_options[i].name, name, n))
            return &command_options[i];
    return NULL;
}

static enum kernel_option find_kernel_option(const char *name, size_t n)
{
    for (int id = 1; id < KOPT_COUNT; id++)
        if (strlen(kernel_options[id].name) == n &&
            !strncmp(kernel_options[id].name, name, n))
            return (enum kernel_option)id;
    return KOPT_NONE;
}

static int refuse_repeat(int *set, const char *arg, size_t n)
{
    if (!*set) {
        *set = 1;
        return 0;
    }
    usage_error("%.*s given twice: give each option once", (int)n, arg);
    return -1;
}

static int parse_word(const cli_option *o, const char *value, cli_value *slot)
{
    char q[96];
    if (o->choices) {
        for (const char *const *c = o->choices; *c; c++)
            if (!strcmp(*c, value))
                return 0;
        usage_error("--%s must be %s (got %s)", o->name, o->meta,
                    cli_quote(value, q, sizeof q));
        return -1;
    }
    (void)slot;
    return 0;
}

static int parse_command_value(const cli_option *o, const char *value,
                               cli_value *slot)
{
    char name[64], q[96];
    size_t size;
    snprintf(name, sizeof name, "--%s", o->name);
    slot->text = value;
    switch (o->kind) {
    case CLI_WORD:
        return parse_word(o, value, slot);
    case CLI_SIZE:
        if (parse_size(name, value, &size))
            return -1;
        slot->num = size;
        return 0;
    case CLI_COUNT:
        if (parse_u64(value, &slot->num) || slot->num < 1 ||
            slot->num > o->max) {
            usage_error("%s must be a count from 1 to %llu (got %s)", name,
                        (unsigned long long)o->max,
                        cli_quote(value, q, sizeof q));
            return -1;
        }
        return 0;
    case CLI_SECONDS:
        return parse_seconds(name, value, &slot->seconds);
    default:
        return 0;
    }
}

static int parse_kernel_value(cli_request *r, enum kernel_option id,
                              const char *value)
{
    const kernel_option_info *o = &kernel_options[id];
    kernel_value *v = kernel_args_value(&r->args, id);
    char q[96];
    if (o->kind == KOPT_KIND_HEX) {
        if (parse_hex(value, &r->owned[id], &v->len)) {
            usage_error("--%s must be an even number of hex digits (got %s)",
                        o->name, cli_quote(value, q, sizeof q));
            return -1;
        }
        v->bytes = r->owned[id];
        return 0;
    }
    if (parse_u64(value, &v->num) || v->num > o->largest) {
        usage_error("--%s must be a decimal number from 0 to %llu (got %s)",
                    o->name, (unsigned long long)o->largest,
                    cli_quote(value, q, sizeof q));
        return -1;
    }
    return 0;
}

/* A kernel option named by arg: refused unless r->k takes it. */
static int parse_kernel_option(cli_request *r, enum kernel_option id,
                               const char *arg, size_t n, const char *value)
{
    char takes[256], q[96];
    const kernel_option_info *o = &kernel_options[id];
    if (!kernel_spec_find(r->k, id)) {
        kernel_takes(r->k, takes, sizeof takes);
        usage_error("%s does not take %s (it takes --isa=NAME%s)", r->k->name,
                    cli_quote(arg, q, sizeof q), takes);
        return -1;
    }
    if ((o->kind == KOPT_KIND_FLAG) != (value == NULL)) {
        usage_error(o->kind == KOPT_KIND_FLAG ? "--%s takes no value"
                                              : "--%s needs a value: --%s=%s",
                    o->name, o->name, kernel_meta(o));
        return -1;
    }
    if (refuse_repeat(&kernel_args_value(&r->args, id)->set, arg, n))
        return -1;
    return value ? parse_kernel_value(r, id, value) : 0;
}

static int parse_option(enum cli_command cmd, cli_request *r, const char *arg)
{
    const char *eq = strchr(arg, '='), *value = eq ? eq + 1 : NULL;
    size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
    const cli_option *o = find_command_option(cmd, arg + 2, n - 2);
    enum kernel_option id = find_kernel_option(arg + 2, n - 2);
    char q[96];
    if (o) {
        cli_value *slot = (cli_value *)((char *)r + o->offset);
        if ((o->kind == CLI_SWITCH) != (value == NULL)) {
            usage_error(o->kind == CLI_SWITCH ? "--%s takes no value"
                                              : "--%s needs a value: --%s=%s",
                        o->name, o->name, o->meta);
            return -1;
        }
        if (refuse_repeat(&slot->set, arg, n))
            return -1;
        return value ? parse_command_value(o, value, slot) : 0;
    }
    if (cmd == CLI_KAT && id != KOPT_NONE)
        return parse_kernel_option(r, id, arg, n, value);
    if (cmd == CLI_KAT)
        return parse_kernel_option(r, KOPT_NONE, arg, n, value);
    usage_error("%s: unexpected %s (usage: %s)", command_name(cmd),
                cli_quote(arg, q, sizeof q), cli_usage(cmd));
    return -1;
}

/* The operand: one argument not starting with '-'. */
static int find_operand(enum cli_command cmd, int argc, char **argv,
                        cli_request *r)
{
    char q[96];
    for (int i = 0; i < argc; i++) {
        if (argv[i][0] == '-')
            continue;
        if (r->spec) {
            usage_error("%s: unexpected %s: one kernel at a time (usage: %s)",
                        command_name(cmd), cli_quote(argv[i], q, sizeof q),
                        cli_usage(cmd));
            return -1;
        }
        r->spec = argv[i];
    }
    if (r->spec)
        return 0;
    usage_error("%s needs a kernel: %s (kernels: 'cyclebench list')",
                command_name(cmd), cli_usage(cmd));
    return -1;
}

int cli_parse(enum cli_command cmd, int argc, char **argv, cli_request *r)
{
    *r = (cli_request){ 0 };
    if (find_operand(cmd, argc, argv, r) ||
        find_variant(r->spec, NULL, &r->k, &r->v))
        return -1;
    for (int i = 0; i < argc; i++)
        if (argv[i][0] == '-' && parse_option(cmd, r, argv[i]))
            return -1;
    const char *isa = r->isa.set ? r->isa.text : NULL;
    if (cmd == CLI_CTGRIND ? find_variant(r->spec, isa, &r->k, &r->v)
                           : select_variant(r->spec, isa, &r->k, &r->v))
        return -1;
    if (r->v || (cmd & (CLI_KAT | CLI_RUN)))
        return 0;
    usage_error("%s tests one fixed variant and takes no --isa=auto (kat, run "
                "and bench measure which rows are fastest): name an ISA from "
                "'cyclebench list'", command_name(cmd));
    return -1;
}

void cli_free(cli_request *r)
{
    for (int i = 0; i < KOPT_COUNT; i++)
        free(r->owned[i]);
}

/* Variants */

int find_variant(const char *spec, const char *isa, const kernel **k,
                 const isa_variant **v)
{
    char name[96], q[128];
    const char *at = strrchr(spec, '@');
    size_t len = at ? (size_t)(at - spec) : strlen(spec);
    if (at && isa) {
        usage_error("give the ISA once: %s or --isa=%s",
                    cli_quote(spec, q, sizeof q), isa);
        return -1;
    }
    snprintf(name, sizeof name, "%.*s", (int)len, spec);
    if (at)
        isa = at + 1;
    *k = kernel_find(name);
    if (!*k) {
        usage_error("unknown kernel %s: see 'cyclebench list'",
                    cli_quote(name, q, sizeof q));
        return -1;
    }
    if (isa && !strcmp(isa, KERNEL_AUTO_ISA)) {
        *v = NULL; /* measured later, at the message's length */
        return 0;
    }
    *v = isa ? kernel_variant_find(*k, isa) : kernel_best_variant(*k);
    if (!*v) {
        usage_error("%s has no ISA %s: see 'cyclebench list'", name,
                    cli_quote(isa, q, sizeof q));
        return -1;
    }
    return 0;
}

int select_variant(const char *spec, const char *isa, const kernel **k,
                   const isa_variant **v)
{
    char why[256];
    if (find_variant(spec, isa, k, v))
        return -1;
    /* At auto, a kernel that runs nowhere here (a missing provider) has
     * no first row either. */
    const isa_variant *row = *v ? *v : kernel_best_variant(*k);
    if (kernel_variant_refusal(*k, row, why, sizeof why)) {
        usage_error("%s@%s cannot run here (%s): pick a supported one from "
                    "'cyclebench list'", (*k)->name,
                    *v ? row->isa : KERNEL_AUTO_ISA, why);
        return -1;
    }
    return 0;
}

int check_kernel_args(const kernel *k, const kernel_args *a, size_t size)
{
    char err[256];
    if (kernel_check(k, a, size, err, sizeof err)) {
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
