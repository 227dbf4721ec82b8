/* Subcommands of build/cyclebench. Each takes the arguments after its name
 * and returns the process exit status. */
#ifndef CYCLEBENCH_COMMANDS_H
#define CYCLEBENCH_COMMANDS_H

#include <stddef.h>

int cmd_list(int argc, char **argv);
int cmd_kat(int argc, char **argv);
int cmd_bench(int argc, char **argv);
/* The most benchmarks a plain `bench` (the full sweep) registers: every
 * row of every kernel, and each composite at auto, at every default size
 * the kernel takes, as on a CPU that runs them all. */
size_t cmd_bench_full_sweep(void);
/* The pairs of its pair rounds, as on a CPU that runs every kernel. */
size_t cmd_bench_full_sweep_pairs(void);
int cmd_run(int argc, char **argv);
int cmd_leak(int argc, char **argv);

#endif
