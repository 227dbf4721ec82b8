/* build/cyclebench: the command-line entry point. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis;
} commands[] = {
    { "list", cmd_list, "list" },
    { "kat", cmd_kat,
      "kat <kernel> [--isa=NAME] [--key=HEX] [--nonce=HEX] [--counter=N] "
      "[--out-len=N] [--rounds=N] [--iv=HEX] [--aad=HEX] [--tweak=HEX] "
      "[--sector=N] [--tag-len=N] [--tprime=HEX] [--cmd=N] [--domain=N] "
      "[--custom=HEX] [--decrypt] < message" },
    { "bench", cmd_bench,
      "bench [--sizes=N,..] [--isa=NAME] [--kernel=NAME,..] [--cpu=N] "
      "[--counters=EVENT,..] [--no-system-tune] [--emulated] "
      "[--results-dir=DIR] "
      "[--benchmark_*]" },
    { "run", cmd_run,
      "run <kernel>[@isa] [--isa=NAME] [--size=N] [--seconds=S] [--stages] "
      "[--vs=KERNEL[@isa]] [--check] [--calls=N]" },
    { "leak", cmd_leak,
      "leak <kernel>[@isa] [--isa=NAME] [--size=N] [--secret=key|input] "
      "[--measurements=N] [--seconds=S]" },
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *f)
{
    fputs("usage:\n", f);
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  cyclebench %s\n", commands[i].synopsis);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage_error("no subcommand: use one of list, kat, bench, run, leak (see "
                    "'cyclebench --help')");
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        print_usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 2, argv + 2);
    usage_error("unknown subcommand '%s': use one of list, kat, bench, run, leak (see "
                "'cyclebench --help')", argv[1]);
    return EXIT_USAGE;
}
