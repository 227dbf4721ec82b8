/* `cyclebench kat <kernel> [options] < message`: run one kernel once on
 * stdin and write the raw result to stdout. Scripts and tests compare these
 * bytes with known answers, so on any error nothing reaches stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/kernel.h"
#include "args.h"
#include "commands.h"

/* --isa is accepted by every kernel; a bit no kernel option uses. */
#define KOPT_ISA (1 << 30)

typedef struct kat_request {
    const kernel *k;
    const isa_variant *v;
    kernel_args a;
    /* owned buffers behind a.key, a.nonce, ... */
    uint8_t *key, *nonce, *iv, *aad, *tweak;
} kat_request;

static int parse_hex_option(const char *name, const char *value,
                            uint8_t **buf, size_t *len, int *has)
{
    free(*buf);
    *buf = NULL;
    if (parse_hex(value, buf, len)) {
        usage_error("%s must be an even number of hex digits (got '%s')",
                    name, value);
        return -1;
    }
    *has = 1;
    return 0;
}

static int parse_number_option(const char *name, const char *value,
                               uint64_t max, uint64_t *out, int *has)
{
    if (parse_u64(value, out) || *out > max) {
        usage_error("%s must be a decimal number from 0 to %llu (got '%s')",
                    name, (unsigned long long)max, value);
        return -1;
    }
    *has = 1;
    return 0;
}

/* Names of the KOPT_* bits, for messages. */
static const struct { unsigned bit; const char *name; } option_names[] = {
    { KOPT_KEY, "--key=HEX" },         { KOPT_NONCE, "--nonce=HEX" },
    { KOPT_COUNTER, "--counter=N" },   { KOPT_OUTLEN, "--outlen=N" },
    { KOPT_ROUNDS, "--rounds=N" },     { KOPT_DECRYPT, "--decrypt" },
    { KOPT_IV, "--iv=HEX" },           { KOPT_AAD, "--aad=HEX" },
    { KOPT_TWEAK, "--tweak=HEX" },     { KOPT_SECTOR, "--sector=N" },
};

static void refuse_option(const kernel *k, const char *arg)
{
    char accepted[160] = "";
    for (size_t i = 0; i < sizeof option_names / sizeof option_names[0]; i++)
        if (k->options & option_names[i].bit) {
            strcat(accepted, " ");
            strcat(accepted, option_names[i].name);
        }
    usage_error("%s does not take '%s' (it takes --isa=NAME%s)", k->name, arg,
                accepted);
}

/* Parses one option into r; KOPT_* bit of the option, 0 if unknown, or -1
 * after reporting a malformed value. */
static int parse_option(kat_request *r, const char *arg, const char **isa)
{
    const char *value;
    uint64_t n;
    if (arg_value(arg, "--isa", &value)) {
        *isa = value;
        return KOPT_ISA;
    }
    if (arg_value(arg, "--key", &value))
        return parse_hex_option("--key", value, &r->key, &r->a.key_len,
                                &r->a.has_key) ? -1 : KOPT_KEY;
    if (arg_value(arg, "--nonce", &value))
        return parse_hex_option("--nonce", value, &r->nonce, &r->a.nonce_len,
                                &r->a.has_nonce) ? -1 : KOPT_NONCE;
    if (arg_value(arg, "--iv", &value))
        return parse_hex_option("--iv", value, &r->iv, &r->a.iv_len,
                                &r->a.has_iv) ? -1 : KOPT_IV;
    if (arg_value(arg, "--aad", &value))
        return parse_hex_option("--aad", value, &r->aad, &r->a.aad_len,
                                &r->a.has_aad) ? -1 : KOPT_AAD;
    if (arg_value(arg, "--tweak", &value))
        return parse_hex_option("--tweak", value, &r->tweak,
                                &r->a.tweak_len, &r->a.has_tweak)
                   ? -1 : KOPT_TWEAK;
    if (arg_value(arg, "--sector", &value))
        return parse_number_option("--sector", value, UINT64_MAX,
                                   &r->a.sector, &r->a.has_sector)
                   ? -1 : KOPT_SECTOR;
    if (arg_value(arg, "--counter", &value))
        return parse_number_option("--counter", value, UINT64_MAX,
                                   &r->a.counter, &r->a.has_counter)
                   ? -1 : KOPT_COUNTER;
    if (arg_value(arg, "--outlen", &value)) {
        if (parse_number_option("--outlen", value, 1u << 20, &n,
                                &r->a.has_outlen))
            return -1;
        r->a.outlen = (size_t)n;
        return KOPT_OUTLEN;
    }
    if (arg_value(arg, "--rounds", &value)) {
        if (parse_number_option("--rounds", value, 1000, &n,
                                &r->a.has_rounds))
            return -1;
        r->a.rounds = (unsigned)n;
        return KOPT_ROUNDS;
    }
    if (strcmp(arg, "--decrypt") == 0) {
        r->a.decrypt = 1;
        return KOPT_DECRYPT;
    }
    return 0;
}

static int parse_options(kat_request *r, int argc, char **argv)
{
    const char *isa = NULL;
    for (int i = 0; i < argc; i++) {
        int bit = parse_option(r, argv[i], &isa);
        if (bit < 0)
            return -1;
        if (bit == 0 || (bit != KOPT_ISA && !(r->k->options & (unsigned)bit))) {
            refuse_option(r->k, argv[i]);
            return -1;
        }
    }
    r->a.key = r->key;
    r->a.nonce = r->nonce;
    r->a.iv = r->iv;
    r->a.aad = r->aad;
    r->a.tweak = r->tweak;
    return select_variant(r->k->name, isa, &r->k, &r->v);
}

static uint8_t *read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, used = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        used += fread(buf + used, 1, cap - used, f);
        if (used < cap)
            break;
        uint8_t *bigger = realloc(buf, cap *= 2);
        if (!bigger)
            free(buf);
        buf = bigger;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    *len = used;
    return buf;
}

static int run_request(const kat_request *r)
{
    char err[256];
    size_t len;
    uint8_t *in = read_all(stdin, &len);
    if (!in) {
        usage_error("kat: could not read the message from stdin");
        return EXIT_USAGE;
    }
    size_t batch = kernel_batch(r->k);
    if (len % batch) {
        usage_error("%s takes %zu messages of one length back to back: "
                    "the input's %zu bytes do not divide by %zu", r->k->name,
                    batch, len, batch);
        free(in);
        return EXIT_USAGE;
    }
    len /= batch;
    if (r->k->check(r->k, &r->a, len, err, sizeof err)) {
        usage_error("%s", err);
        free(in);
        return EXIT_USAGE;
    }
    size_t out_len = r->k->out_len(r->k, &r->a, len) * batch;
    uint8_t *out = malloc(out_len + 1);
    int status = 0;
    if (!out) {
        usage_error("kat: out of memory for %zu bytes", out_len);
        status = EXIT_USAGE;
    } else if (r->k->run(r->k, r->v, &r->a, in, len, out) != 0) {
        usage_error("%s: authentication failed, no output", r->k->name);
        status = 1;
    } else if (fwrite(out, 1, out_len, stdout) != out_len ||
               fflush(stdout) != 0) {
        usage_error("kat: writing stdout failed");
        status = 1;
    }
    free(in);
    free(out);
    return status;
}

int cmd_kat(int argc, char **argv)
{
    kat_request r = { 0 };
    int status = EXIT_USAGE;
    if (argc < 1 || argv[0][0] == '-') {
        usage_error("kat needs a kernel name first: cyclebench kat <kernel> "
                    "[options] < message (kernels: 'cyclebench list')");
        return EXIT_USAGE;
    }
    r.k = kernel_find(argv[0]);
    if (!r.k)
        usage_error("unknown kernel '%s': see 'cyclebench list'", argv[0]);
    else if (parse_options(&r, argc - 1, argv + 1) == 0)
        status = run_request(&r);
    free(r.key);
    free(r.nonce);
    free(r.iv);
    free(r.aad);
    free(r.tweak);
    return status;
}
