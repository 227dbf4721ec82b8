/* make fuzz's command-line target: the one parser (harness/args.c) on
 * whatever arguments the fuzz input makes, for kat, run, leak, bench and
 * the ctgrind driver, and for kat the kernel's own check of what it was
 * given. Besides the sanitizers' reports, it holds the parser to its rule:
 * refused input gives exactly one line (control characters in it escaped),
 * accepted input none. A breach aborts with the line; rerun the artefact
 * with build/fuzz/fuzz-cli <artefact>.
 *
 * The input: one byte picking the command, one byte and a half the message
 * length for kat's check, then the arguments, separated by NUL bytes (at
 * most MAX_ARGS, each cut to MAX_ARG bytes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness/args.h"

#define MAX_ARGS 12
#define MAX_ARG 300

static const enum cli_command commands[] = {
    CLI_KAT, CLI_RUN, CLI_LEAK, CLI_BENCH, CLI_CTGRIND,
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

/* Where a breach is reported while stderr is the parser's memory. */
static FILE *report;

/* What the parser wrote on stderr, one line or nothing. */
static void check_output(const char *text, size_t len, int refused,
                         const char *what)
{
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    int one_line = lines == 1 && len > 0 && text[len - 1] == '\n';
    if (refused ? one_line : len == 0)
        return;
    fprintf(report, "cyclebench fuzz: %s %s %zu lines, not %s:\n%.*s\n",
            what, refused ? "refused in" : "accepted with", lines,
            refused ? "one" : "none", (int)len, text);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *args[MAX_ARGS], *text = NULL;
    int argc = 0;
    size_t text_len = 0;
    if (size < 3)
        return 0;
    enum cli_command cmd = commands[data[0] % N_COMMANDS];
    size_t len = (size_t)data[1] | (size_t)(data[2] & 0x0f) << 8;
    for (size_t i = 3; i < size && argc < MAX_ARGS;) {
        size_t n = strnlen((const char *)data + i, size - i);
        size_t kept = n < MAX_ARG ? n : MAX_ARG;
        args[argc] = malloc(kept + 1);
        memcpy(args[argc], data + i, kept);
        args[argc++][kept] = '\0';
        i += n + 1;
    }
    report = stderr;
    stderr = open_memstream(&text, &text_len);
    cli_request r;
    int refused = cli_parse(cmd, argc, args, &r) != 0;
    fflush(stderr);
    check_output(text, text_len, refused, "the parser");
    if (!refused && cmd == CLI_KAT) {
        rewind(stderr);
        refused = check_kernel_args(r.k, &r.args, len) != 0;
        fflush(stderr);
        check_output(text, text_len, refused, "kat's check");
    }
    fclose(stderr);
    stderr = report;
    cli_free(&r);
    free(text);
    for (int i = 0; i < argc; i++)
        free(args[i]);
    return 0;
}
