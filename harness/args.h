/* The command line of every command that takes options (kat, run, leak,
 * bench and the ctgrind driver), parsed from one option table; strict
 * parsing of values (a malformed value is an error with a one-line reason,
 * never a silent zero); and the checks every command makes before it runs
 * a variant.
 *
 * One rule for every command: an option may be given once, Google
 * Benchmark's flags too. A value echoed in a message is quoted, control
 * characters escaped, so that the message stays one line. */
#ifndef CYCLEBENCH_ARGS_H
#define CYCLEBENCH_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "../kernels/kernel.h"

/* Exit status for bad input anywhere on the command line. */
#define EXIT_USAGE 2

/* The longest message any command takes (--size, --sizes): 1 GiB. */
#define CLI_MAX_SIZE (1u << 30)
/* The longest time any command takes a --seconds-like option for. */
#define CLI_MAX_SECONDS 3600.0

/* The commands that share the parser. */
enum cli_command {
    CLI_KAT = 1 << 0,
    CLI_RUN = 1 << 1,
    CLI_LEAK = 1 << 2,
    CLI_CTGRIND = 1 << 3,
    CLI_BENCH = 1 << 4,
};

/* bench: at most this many --sizes, and room for every option once. */
#define CLI_MAX_SIZES 64
#define CLI_MAX_OPTIONS 48

/* A command option's value. */
typedef struct cli_value {
    int set;
    const char *text; /* as given */
    uint64_t num;     /* sizes and counts */
    double seconds;
} cli_value;

/* Everything a command was given. */
typedef struct cli_request {
    const char *spec; /* the <kernel>[@isa] operand */
    const kernel *k;
    /* The ISA asked for, else the best supported; NULL for --isa=auto
     * (kat and run measure, autoisa.h, once the length is known). */
    const isa_variant *v;
    kernel_args args;     /* kat: the kernel's options as given */
    cli_value isa, size, seconds, stages, check, calls, vs, secret,
        measurements;
    /* bench's own options, and the --benchmark_* flags it acts on itself */
    cli_value kernels, sizes, cpu, counters, no_system_tune, decrypt, emulated,
        max_time, results_dir, pair_rounds, min_time, out, out_format;
    size_t size_list[CLI_MAX_SIZES]; /* --sizes, parsed */
    size_t n_sizes;
    /* bench: the other --benchmark_* flags, as given, for Google Benchmark */
    char *library_flags[CLI_MAX_OPTIONS];
    int n_library_flags;
    uint8_t *owned[KOPT_COUNT]; /* the bytes behind args' hex options */
} cli_request;

/* Parse argv (after the command's name) for cmd into r: the operand (bench
 * takes none), the command's options and, for kat, the kernel's, each at
 * most once; then the variant, which must be usable here unless cmd is
 * CLI_CTGRIND (whose driver says itself what valgrind's CPU cannot run),
 * and auto only for kat and run. For bench, the values Google Benchmark's flags may take as far as their
 * meaning is known (a repetition count from 1, a time above 0, one of a
 * flag's words), the ISA known to some kernel and every --kernel known.
 * Returns 0, or -1 after one usage error. Free r with cli_free, either
 * way. */
int cli_parse(enum cli_command cmd, int argc, char **argv, cli_request *r);
void cli_free(cli_request *r);

/* The usage line of cmd, from the option table. */
const char *cli_usage(enum cli_command cmd);

/* Whether kernel name is one of the comma-separated names in list, by its
 * name or an alias (bench's --kernel). */
int cli_listed(const char *list, const char *name);

/* Decimal digits only, no sign, no overflow. Returns 0 on success. */
int parse_u64(const char *s, uint64_t *out);

/* Even number of hex digits; *out is malloc'd (non-NULL even when empty).
 * Returns 0 on success. */
int parse_hex(const char *s, uint8_t **out, size_t *len);

/* A number of seconds above 0 and at most CLI_MAX_SECONDS, for option
 * name. Returns 0, or -1 after a usage error. */
int parse_seconds(const char *name, const char *s, double *out);
/* A byte count from 1 to CLI_MAX_SIZE, for option name. Returns 0, or -1
 * after a usage error. */
int parse_size(const char *name, const char *s, size_t *out);

/* s for a one-line message: in single quotes, control characters and
 * bytes above 0x7e as \xNN, cut to fit buf. Returns buf. */
const char *cli_quote(const char *s, char *buf, size_t len);

/* "kernel" or "kernel@isa" (the ISA may come from --isa instead; neither
 * means the best this CPU supports; "auto" sets *v to NULL, for the
 * caller to measure). find_variant returns 0, or -1 after a usage error
 * naming an unknown kernel or ISA; select_variant also refuses a variant
 * this machine cannot run (kernel_variant_refusal says why). */
int find_variant(const char *spec, const char *isa, const kernel **k,
                 const isa_variant **v);
int select_variant(const char *spec, const char *isa, const kernel **k,
                   const isa_variant **v);

/* kernel_check, as a usage error. Returns 0, or -1 after saying why not. */
int check_kernel_args(const kernel *k, const kernel_args *a, size_t size);

/* chacha-opt's rule: a variant that disagrees with generic is not timed.
 * Returns 0 when v passes kernel_self_test, else -1 after saying
 * "self-test failed, not <not_done>: <why>". */
int require_self_test(const kernel *k, const isa_variant *v,
                      const char *not_done);

/* Under an emulator (cpu_emulator), nothing timed is a speed: returns -1
 * after saying so in one line naming what was not done, else 0. */
int refuse_emulated(const char *command);

/* Print "cyclebench: <message>" on stderr as one line. */
void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
