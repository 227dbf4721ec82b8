/* Subcommands of build/cyclebench. Each takes the arguments after its name
 * and returns the process exit status. */
#ifndef CYCLEBENCH_COMMANDS_H
#define CYCLEBENCH_COMMANDS_H

int cmd_list(int argc, char **argv);
int cmd_kat(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_leak(int argc, char **argv);

#endif
