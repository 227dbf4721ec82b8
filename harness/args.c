#include "args.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/registry.h"
#include "pair_rounds.h"

/* Values */

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

/* What cli_quote keeps room for after a character: its widest (\xNN),
 * then "...", the closing quote and the NUL. */
#define QUOTE_TAIL (4 + 3 + 1 + 1)

const char *cli_quote(const char *s, char *buf, size_t len)
{
    size_t used = 0;
    if (len < 1 + QUOTE_TAIL) {
        if (len)
            buf[0] = '\0';
        return buf;
    }
    buf[used++] = '\'';
    for (; *s && used + QUOTE_TAIL <= len; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c > 0x7e)
            used += (size_t)snprintf(buf + used, len - used, "\\x%02x", c);
        else
            buf[used++] = (char)c;
    }
    if (*s) {
        memcpy(buf + used, "...", 3);
        used += 3;
    }
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
    CLI_PATH,    /* a file or directory name: not empty */
    CLI_SIZE,    /* a byte count, 1 to CLI_MAX_SIZE */
    CLI_SIZES,   /* comma-separated byte counts */
    CLI_KERNELS, /* comma-separated kernel names */
    CLI_COUNT,   /* a count, 1 to max */
    CLI_NUMBER,  /* a count, 0 to max */
    CLI_SECONDS, /* above 0, at most CLI_MAX_SECONDS */
    CLI_SWITCH,  /* present or not */
    CLI_BOOL,    /* present, or given one of bool_words */
} cli_kind;

/* Where an option's value goes: a field of cli_request, or nowhere (a flag
 * only handed on to Google Benchmark). */
#define NO_FIELD SIZE_MAX
#define FIELD(name) offsetof(cli_request, name)

typedef struct cli_option {
    const char *name; /* without "--" */
    cli_kind kind;
    unsigned commands; /* enum cli_command bits */
    const char *meta;  /* in usage lines: --name=META */
    uint64_t max;      /* CLI_COUNT, CLI_NUMBER */
    const char *const *choices; /* CLI_WORD: NULL-terminated, or NULL */
    size_t offset;     /* of its cli_value in cli_request, or NO_FIELD */
    int library;       /* bench hands it, as given, to Google Benchmark */
} cli_option;

#define ALL_COMMANDS (CLI_KAT | CLI_RUN | CLI_LEAK | CLI_CTGRIND)
#define MAX_MEASUREMENTS 1000000000000ull
/* run --calls: counted under an emulator, which logs every block it runs;
 * a million calls of anything is more than a count needs. */
#define MAX_COUNTED_CALLS 1000000
/* Each repetition samples for at least 0.1 s: a million is 28 hours. */
#define MAX_REPETITIONS 1000000

static const char *const secret_choices[] = { "key", "input", NULL };
/* The words Google Benchmark 1.7.1 reads a boolean flag's value as (it
 * takes any other word for true). */
static const char *const bool_words[] = { "true", "false", "yes", "no",
                                          "on",   "off",   "1",   "0",
                                          NULL };
static const char *const color_choices[] = { "auto", "true", "false", "yes",
                                             "no",   "on",   "off",   "1",
                                             "0",    NULL };
static const char *const format_choices[] = { "console", "json", "csv",
                                              NULL };
static const char *const out_format_choices[] = { "json", "csv", "console",
                                                  NULL };
static const char *const time_unit_choices[] = { "ns", "us", "ms", "s",
                                                 NULL };

static const cli_option command_options[] = {
    { "isa", CLI_WORD, ALL_COMMANDS | CLI_BENCH, "NAME", 0, NULL,
      FIELD(isa), 0 },
    { "size", CLI_SIZE, CLI_RUN | CLI_LEAK | CLI_CTGRIND, "N", 0, NULL,
      FIELD(size), 0 },
    { "seconds", CLI_SECONDS, CLI_RUN | CLI_LEAK, "S", 0, NULL,
      FIELD(seconds), 0 },
    { "stages", CLI_SWITCH, CLI_RUN, NULL, 0, NULL, FIELD(stages), 0 },
    { "check", CLI_SWITCH, CLI_RUN, NULL, 0, NULL, FIELD(check), 0 },
    { "calls", CLI_COUNT, CLI_RUN, "N", MAX_COUNTED_CALLS, NULL,
      FIELD(calls), 0 },
    { "vs", CLI_WORD, CLI_RUN, "KERNEL[@isa]", 0, NULL, FIELD(vs), 0 },
    { "secret", CLI_WORD, CLI_LEAK, "key|input", 0, secret_choices,
      FIELD(secret), 0 },
    { "measurements", CLI_COUNT, CLI_LEAK, "N", MAX_MEASUREMENTS, NULL,
      FIELD(measurements), 0 },
    { "kernel", CLI_KERNELS, CLI_BENCH, "NAME,..", 0, NULL, FIELD(kernels),
      0 },
    { "sizes", CLI_SIZES, CLI_BENCH, "N,..", 0, NULL, FIELD(sizes), 0 },
    { "cpu", CLI_WORD, CLI_BENCH, "N", 0, NULL, FIELD(cpu), 0 },
    { "counters", CLI_WORD, CLI_BENCH, "EVENT,..", 0, NULL, FIELD(counters),
      0 },
    { "emulated", CLI_SWITCH, CLI_BENCH, NULL, 0, NULL, FIELD(emulated), 0 },
    { "no-system-tune", CLI_SWITCH, CLI_BENCH, NULL, 0, NULL,
      FIELD(no_system_tune), 0 },
    { "decrypt", CLI_SWITCH, CLI_BENCH, NULL, 0, NULL, FIELD(decrypt), 0 },
    { "max-time", CLI_SECONDS, CLI_BENCH, "S", 0, NULL, FIELD(max_time), 0 },
    { "results-dir", CLI_PATH, CLI_BENCH, "DIR", 0, NULL, FIELD(results_dir),
      0 },
    { "pair-rounds", CLI_NUMBER, CLI_BENCH, "N", PAIR_ROUNDS_MAX, NULL,
      FIELD(pair_rounds), 0 },
    /* Google Benchmark 1.7.1's flags: bench acts on the first three
     * itself (the least sampling time, the file it writes), and hands the
     * others on as they are. */
    { "benchmark_min_time", CLI_SECONDS, CLI_BENCH, "S", 0, NULL,
      FIELD(min_time), 0 },
    { "benchmark_out", CLI_PATH, CLI_BENCH, "FILE", 0, NULL, FIELD(out), 0 },
    { "benchmark_out_format", CLI_WORD, CLI_BENCH, "json|csv|console", 0,
      out_format_choices, FIELD(out_format), 0 },
    { "benchmark_filter", CLI_WORD, CLI_BENCH, "REGEX", 0, NULL, NO_FIELD,
      1 },
    { "benchmark_repetitions", CLI_COUNT, CLI_BENCH, "N", MAX_REPETITIONS,
      NULL, NO_FIELD, 1 },
    { "benchmark_list_tests", CLI_BOOL, CLI_BENCH, "true|false", 0,
      bool_words, NO_FIELD, 1 },
    { "benchmark_min_warmup_time", CLI_SECONDS, CLI_BENCH, "S", 0, NULL,
      NO_FIELD, 1 },
    { "benchmark_enable_random_interleaving", CLI_BOOL, CLI_BENCH,
      "true|false", 0, bool_words, NO_FIELD, 1 },
    { "benchmark_report_aggregates_only", CLI_BOOL, CLI_BENCH, "true|false",
      0, bool_words, NO_FIELD, 1 },
    { "benchmark_display_aggregates_only", CLI_BOOL, CLI_BENCH,
      "true|false", 0, bool_words, NO_FIELD, 1 },
    { "benchmark_format", CLI_WORD, CLI_BENCH, "console|json|csv", 0,
      format_choices, NO_FIELD, 1 },
    { "benchmark_color", CLI_WORD, CLI_BENCH, "auto|true|false", 0,
      color_choices, NO_FIELD, 1 },
    { "benchmark_counters_tabular", CLI_BOOL, CLI_BENCH, "true|false", 0,
      bool_words, NO_FIELD, 1 },
    { "benchmark_context", CLI_WORD, CLI_BENCH, "KEY=VALUE,..", 0, NULL,
      NO_FIELD, 1 },
    { "benchmark_time_unit", CLI_WORD, CLI_BENCH, "ns|us|ms|s", 0,
      time_unit_choices, NO_FIELD, 1 },
    { "benchmark_perf_counters", CLI_WORD, CLI_BENCH, "EVENT,..", 0, NULL,
      NO_FIELD, 1 },
};
#define N_COMMAND_OPTIONS (sizeof command_options / sizeof command_options[0])
_Static_assert(N_COMMAND_OPTIONS <= CLI_MAX_OPTIONS,
               "raise CLI_MAX_OPTIONS: every option may be given once");

static const char *command_name(enum cli_command cmd)
{
    switch (cmd) {
    case CLI_KAT:
        return "kat";
    case CLI_RUN:
        return "run";
    case CLI_LEAK:
        return "leak";
    case CLI_BENCH:
        return "bench";
    default:
        return "ctgrind-driver";
    }
}

static const char *kernel_meta(const kernel_option_info *o)
{
    return o->kind == KOPT_KIND_HEX ? "HEX" : "N";
}

/* bench's usage names Google Benchmark's flags as one. */
const char *cli_usage(enum cli_command cmd)
{
    static char line[512];
    size_t used = (size_t)snprintf(line, sizeof line, "%s%s",
                                   command_name(cmd),
                                   cmd == CLI_BENCH ? "" : " <kernel>[@isa]");
    for (size_t i = 0; i < N_COMMAND_OPTIONS && used < sizeof line; i++) {
        const cli_option *o = &command_options[i];
        if (!(o->commands & cmd) || !strncmp(o->name, "benchmark_", 10))
            continue;
        used += (size_t)snprintf(line + used, sizeof line - used,
                                 " [--%s%s%s]", o->name, o->meta ? "=" : "",
                                 o->meta ? o->meta : "");
    }
    if (cmd == CLI_KAT && used < sizeof line)
        snprintf(line + used, sizeof line - used,
                 " [the kernel's options] < message");
    if (cmd == CLI_BENCH && used < sizeof line)
        snprintf(line + used, sizeof line - used, " [--benchmark_*]");
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
    char name[80], q[96];
    if (!*set) {
        *set = 1;
        return 0;
    }
    snprintf(name, sizeof name, "%.*s", (int)n, arg);
    usage_error("%s given twice: give each option once",
                cli_quote(name, q, sizeof q));
    return -1;
}

static int is_choice(const char *const *choices, const char *value)
{
    for (const char *const *c = choices; *c; c++)
        if (!strcmp(*c, value))
            return 1;
    return 0;
}

/* Copy the comma-separated item at *p into buf and move *p past it (to
 * NULL after the last item). Returns -1 when the item does not fit. */
static int next_item(const char **p, char *buf, size_t len)
{
    const char *comma = strchr(*p, ',');
    size_t n = comma ? (size_t)(comma - *p) : strlen(*p);
    int fits = n < len;
    snprintf(buf, len, "%.*s", (int)n, *p);
    *p = comma ? comma + 1 : NULL;
    return fits ? 0 : -1;
}

static int parse_sizes(const char *list, cli_request *r)
{
    char item[32], q[96];
    uint64_t size;
    r->n_sizes = 0;
    for (const char *p = list; p;) {
        if (next_item(&p, item, sizeof item) || r->n_sizes == CLI_MAX_SIZES ||
            parse_u64(item, &size) || size < 1 || size > CLI_MAX_SIZE) {
            usage_error("--sizes must be up to %d comma-separated byte counts "
                        "from 1 to %u (got %s)", CLI_MAX_SIZES, CLI_MAX_SIZE,
                        cli_quote(list, q, sizeof q));
            return -1;
        }
        r->size_list[r->n_sizes++] = (size_t)size;
    }
    return 0;
}

static int check_kernels(const char *list)
{
    char item[64], q[96];
    for (const char *p = list; p;)
        if (next_item(&p, item, sizeof item) || !kernel_find(item)) {
            usage_error("unknown kernel %s in --kernel: see 'cyclebench "
                        "list'", cli_quote(item, q, sizeof q));
            return -1;
        }
    return 0;
}

int cli_listed(const char *list, const char *name)
{
    char item[64];
    for (const char *p = list; p;) {
        const kernel *k;
        if (next_item(&p, item, sizeof item) == 0 &&
            (k = kernel_find(item)) && !strcmp(k->name, name))
            return 1;
    }
    return 0;
}

static int parse_command_value(const cli_option *o, const char *value,
                               cli_value *slot, cli_request *r)
{
    char name[64], q[96];
    size_t size;
    snprintf(name, sizeof name, "--%s", o->name);
    slot->text = value;
    switch (o->kind) {
    case CLI_WORD:
    case CLI_BOOL:
        if (!o->choices || is_choice(o->choices, value))
            return 0;
        usage_error("%s must be %s (got %s)", name, o->meta,
                    cli_quote(value, q, sizeof q));
        return -1;
    case CLI_PATH:
        if (*value)
            return 0;
        usage_error("%s needs a name: %s=%s", name, name, o->meta);
        return -1;
    case CLI_SIZE:
        if (parse_size(name, value, &size))
            return -1;
        slot->num = size;
        return 0;
    case CLI_SIZES:
        return parse_sizes(value, r);
    case CLI_KERNELS:
        return check_kernels(value);
    case CLI_COUNT:
    case CLI_NUMBER:
        if (parse_u64(value, &slot->num) ||
            slot->num < (o->kind == CLI_COUNT) || slot->num > o->max) {
            usage_error("%s must be a count from %d to %llu (got %s)", name,
                        o->kind == CLI_COUNT, (unsigned long long)o->max,
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

/* A kernel option's number: decimal, or hex after 0x, as byte-valued
 * options such as TurboSHAKE's domain byte are usually written. */
static int parse_kernel_number(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
        return parse_u64(s, out);
    if (!s[2])
        return -1;
    for (s += 2; *s; s++) {
        uint8_t d;
        if (v >> 60 || kernel_hex_decode((char[]){ '0', *s, 0 }, &d, 1) != 1)
            return -1;
        v = v << 4 | d;
    }
    *out = v;
    return 0;
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
    if (parse_kernel_number(value, &v->num) || v->num > o->largest) {
        usage_error("--%s must be a number from 0 to %llu, in decimal or "
                    "after 0x in hex (got %s)", o->name,
                    (unsigned long long)o->largest,
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

/* A command option o given as arg; given[] marks the options seen. */
static int parse_command_option(cli_request *r, const cli_option *o,
                                const char *arg, size_t n, const char *value,
                                int given[])
{
    cli_value unused = { 0 };
    cli_value *slot = o->offset == NO_FIELD
                          ? &unused
                          : (cli_value *)((char *)r + o->offset);
    int needs_value = o->kind != CLI_SWITCH && o->kind != CLI_BOOL;
    if ((o->kind == CLI_SWITCH && value) || (needs_value && !value)) {
        usage_error(value ? "--%s takes no value" : "--%s needs a value: --%s=%s",
                    o->name, o->name, o->meta);
        return -1;
    }
    if (refuse_repeat(&given[o - command_options], arg, n))
        return -1;
    slot->set = 1;
    if (value && parse_command_value(o, value, slot, r))
        return -1;
    if (o->library)
        r->library_flags[r->n_library_flags++] = (char *)arg;
    return 0;
}

static int parse_option(enum cli_command cmd, cli_request *r, const char *arg,
                        int given[])
{
    const char *eq = strchr(arg, '='), *value = eq ? eq + 1 : NULL;
    size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
    int named = n > 2 && !strncmp(arg, "--", 2);
    const cli_option *o = named ? find_command_option(cmd, arg + 2, n - 2)
                                : NULL;
    enum kernel_option id = named ? find_kernel_option(arg + 2, n - 2)
                                  : KOPT_NONE;
    char q[96];
    if (o)
        return parse_command_option(r, o, arg, n, value, given);
    if (cmd == CLI_KAT)
        return parse_kernel_option(r, id, arg, n, value);
    if (cmd == CLI_BENCH && !strncmp(arg, "--benchmark_", 12))
        usage_error("unknown flag %s: see the --benchmark_* flags of Google "
                    "Benchmark 1.7.1", cli_quote(arg, q, sizeof q));
    else
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

static int isa_known(const char *isa)
{
    if (!strcmp(isa, KERNEL_AUTO_ISA))
        return 1;
    for (size_t i = 0; kernel_registry[i]; i++)
        if (kernel_variant_find(kernel_registry[i], isa))
            return 1;
    return 0;
}

/* bench: options only, and an ISA some kernel has. */
static int parse_bench(int argc, char **argv, cli_request *r, int given[])
{
    char q[96];
    for (int i = 0; i < argc; i++)
        if (parse_option(CLI_BENCH, r, argv[i], given))
            return -1;
    if (r->isa.set && !isa_known(r->isa.text)) {
        usage_error("unknown ISA %s: see 'cyclebench list'",
                    cli_quote(r->isa.text, q, sizeof q));
        return -1;
    }
    return 0;
}

int cli_parse(enum cli_command cmd, int argc, char **argv, cli_request *r)
{
    int given[CLI_MAX_OPTIONS] = { 0 };
    *r = (cli_request){ 0 };
    if (cmd == CLI_BENCH)
        return parse_bench(argc, argv, r, given);
    if (find_operand(cmd, argc, argv, r) ||
        find_variant(r->spec, NULL, &r->k, &r->v))
        return -1;
    for (int i = 0; i < argc; i++)
        if (argv[i][0] == '-' && parse_option(cmd, r, argv[i], given))
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
    char name[96], q[128], qi[96];
    const char *at = strrchr(spec, '@');
    size_t len = at ? (size_t)(at - spec) : strlen(spec);
    if (at && isa) {
        usage_error("give the ISA once: %s or --isa=%s",
                    cli_quote(spec, q, sizeof q), cli_quote(isa, qi, sizeof qi));
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

int refuse_emulated(const char *command)
{
    const char *emulator = cpu_emulator();
    if (!emulator)
        return 0;
    usage_error("%s: this %s binary runs under an emulator (%s), whose "
                "timings describe the emulator, not a CPU: run it on an %s "
                "host (docs/arm64.md); kat and list work here",
                command, cpu_arch(), emulator, cpu_arch());
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
