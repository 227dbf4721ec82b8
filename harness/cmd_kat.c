/* `cyclebench kat <kernel> [options] < message`: run one kernel once on
 * stdin and write the raw result to stdout. Scripts and tests compare these
 * bytes with known answers, so on any error nothing reaches stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/kernel.h"
#include "args.h"
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

static int run_request(const cli_request *r)
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
    if (kernel_check(r->k, &r->args, len, err, sizeof err)) {
        usage_error("%s", err);
        free(in);
        return EXIT_USAGE;
    }
    size_t out_len = kernel_out_len(r->k, &r->args, len) * batch;
    uint8_t *out = malloc(out_len + 1);
    int status = 0;
    if (!out) {
        usage_error("kat: out of memory for %zu bytes", out_len);
        status = EXIT_USAGE;
    } else if (r->k->run(r->k, r->v, &r->args, in, len, out) != 0) {
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
    int status = EXIT_USAGE;
    if (cli_parse(CLI_KAT, argc, argv, &r) == 0)
        status = run_request(&r);
    cli_free(&r);
    return status;
}
