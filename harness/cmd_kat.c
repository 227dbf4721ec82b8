/* `cyclebench kat <kernel> [options] < message`: run one kernel once on
 * stdin and write the raw result to stdout. Scripts and tests compare these
 * bytes with known answers, so on any error nothing reaches stdout. At
 * --isa=auto the rows are measured at the message's length first, and
 * what was chosen goes to stderr as one "auto: ..." line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/kernel.h"
#include "args.h"
#include "autoisa.h"
#include "commands.h"

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

/* The variant r runs on messages of len bytes: r->v, or at auto the one
 * chooser measures, said on stderr. NULL after saying why not. */
static const isa_variant *variant_for(const cli_request *r, size_t len,
                                      autoisa *chooser)
{
    char chosen[512];
    const isa_variant *v = r->v ? r->v : autoisa_row_for(chooser, r->k, len);
    if (!v)
        usage_error("kat: out of memory choosing the rows for auto");
    else if (!r->v) {
        autoisa_describe(chooser, r->k, len, chosen, sizeof chosen);
        fprintf(stderr, "auto: %s\n", chosen);
    }
    return v;
}

static int run_request(const cli_request *r, autoisa *chooser)
{
    char err[256];
    const isa_variant *v;
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
    if (kernel_check(r->k, &r->args, len, err, sizeof err)) {
        usage_error("%s", err);
        free(in);
        return EXIT_USAGE;
    }
    size_t out_len = kernel_out_len(r->k, &r->args, len) * batch;
    uint8_t *out = malloc(out_len + 1);
    int status = 0;
    if (!(v = variant_for(r, len, chooser))) {
        status = EXIT_USAGE;
    } else if (!out) {
        usage_error("kat: out of memory for %zu bytes", out_len);
        status = EXIT_USAGE;
    } else if (r->k->run(r->k, v, &r->args, in, len, out) != 0) {
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
    cli_request r;
    autoisa chooser;
    int status = EXIT_USAGE;
    autoisa_init(&chooser);
    if (cli_parse(CLI_KAT, argc, argv, &r) == 0)
        status = run_request(&r, &chooser);
    cli_free(&r);
    autoisa_free(&chooser);
    return status;
}
