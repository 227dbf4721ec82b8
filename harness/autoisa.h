/* `--isa=auto`: dispatch by measuring, as FFTW's planner and libcpucycles
 * choose, where the tables' best-first order is only a guess that some
 * CPUs contradict (BLAKE2b's scalar row beat its SIMD rows on a Zen 5).
 *
 * For each primitive a kernel is built from (kernel.parts), every row of
 * that primitive's table this CPU supports and that passes its self-test
 * is timed briefly through the sampler on the part's own registry kernel,
 * at the message length being run, and the fastest wins; the composite's
 * row is composed from the winners (kernel_compose). A kernel without
 * parts gets its own table's fastest row. Choices are kept for the run, so
 * a part shared by several kernels (ChaCha20 in LIONESS and the AEADs) is
 * measured once per length.
 *
 * Measuring is the only thing auto adds: a command without --isa=auto
 * still takes each table's first supported row. */
#ifndef CYCLEBENCH_AUTOISA_H
#define CYCLEBENCH_AUTOISA_H

#include <stddef.h>

#include "../kernels/kernel.h"

/* kat and run: each row sampled for about this long, in each of
 * AUTOISA_ROUNDS rounds (a few ms per part altogether). */
#define AUTOISA_SECONDS 0.003
/* Rows are sampled in turn, in table order and then backwards, and each
 * keeps its fastest round: a neighbour's burst during one row's turn does
 * not decide. */
#define AUTOISA_ROUNDS 2
/* autoisa_calibrate's limits on one row's sampling, whatever its budget. */
#define AUTOISA_MIN_SECONDS 0.0005
#define AUTOISA_MAX_SECONDS AUTOISA_SECONDS

/* Ticks per call of v of k on messages of len bytes, sampled for about
 * seconds; below 0 when it could not be timed. The sampler's in the
 * harness, a model clock in the tests. */
typedef double autoisa_measure_fn(void *ctx, const kernel *k,
                                  const isa_variant *v, size_t len,
                                  double seconds);

/* One part's choice at one length. */
typedef struct autoisa_choice {
    const kernel *part;
    size_t len;          /* asked for */
    size_t measured_len; /* the part's shortest message when len is less */
    const isa_variant *row; /* NULL until measured */
    double ticks;           /* the winner's per call; < 0: not measured */
    const char *unmeasured; /* why not, when ticks < 0 */
} autoisa_choice;

/* A composite's row, composed for one length. */
typedef struct autoisa_row {
    const kernel *k;
    size_t len;
    isa_variant *row;
} autoisa_row;

/* A row's self-test, passed or not, once a run. */
typedef struct autoisa_tested {
    const kernel *part;
    const isa_variant *row;
    int passed;
} autoisa_tested;

typedef struct autoisa {
    autoisa_measure_fn *measure;
    void *ctx;
    double seconds; /* per row and round, warm-up included */
    autoisa_choice *choices;
    size_t n_choices, cap_choices;
    autoisa_row *rows;
    size_t n_rows, cap_rows;
    autoisa_tested *tested;
    size_t n_tested, cap_tested;
} autoisa;

/* Measuring with the sampler, AUTOISA_SECONDS per row and round. */
void autoisa_init(autoisa *a);
/* Measuring with fn instead (the tests' model clock). */
void autoisa_init_with(autoisa *a, autoisa_measure_fn *fn, void *ctx);
void autoisa_free(autoisa *a);

/* Note that k will run at auto on messages of len bytes, for
 * autoisa_calibrate to measure its parts with the others'. Returns 0, or
 * -1 when out of memory. */
int autoisa_want(autoisa *a, const kernel *k, size_t len);
/* Measure every part noted and not yet measured, each row sampled for
 * budget_seconds shared among them all (within AUTOISA_MIN_SECONDS and
 * AUTOISA_MAX_SECONDS a row and round). */
void autoisa_calibrate(autoisa *a, double budget_seconds);

/* The row k runs at auto for messages of len bytes: its parts' winners
 * composed, or its own table's fastest row; measured first where that
 * has not been done. NULL when out of memory. */
const isa_variant *autoisa_row_for(autoisa *a, const kernel *k, size_t len);

/* What k at auto runs for len, after autoisa_row_for: "chacha20=avx512
 * blake2b=generic (measured at 509 B)". */
void autoisa_describe(const autoisa *a, const kernel *k, size_t len,
                      char *buf, size_t buflen);
/* Every choice made, by length: "... (measured at 64 B); ... (measured at
 * 509 B)", or "" when none was. */
void autoisa_describe_all(const autoisa *a, char *buf, size_t buflen);

#endif
