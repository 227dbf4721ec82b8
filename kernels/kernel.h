/* The kernel registry: what `list`, `kat`, the tests and the benchmarks walk.
 *
 * A kernel is a named operation over a message ("chacha20", "blake2b")
 * backed by one primitive's implementation table. Its ISA variants are the
 * rows of that table; a kernel never keeps a list of its own. */
#ifndef CYCLEBENCH_KERNEL_H
#define CYCLEBENCH_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "cpu.h"

/* Bytes of a kernel's prepared state that derive from its key. */
typedef struct kernel_region {
    const void *at;
    size_t len;
} kernel_region;

/* Enough for LIONESS's key: its two stream keys and, per BLAKE2b state,
 * the chaining value and the buffered key block. */
#define KERNEL_MAX_SECRET_REGIONS 8

/* Options of `kat`, also filled with fixed values for benchmarks. A field is
 * meaningful only when its has_ flag is set. */
typedef struct kernel_args {
    const uint8_t *key;
    size_t key_len;
    int has_key;
    const uint8_t *nonce;
    size_t nonce_len;
    int has_nonce;
    uint64_t counter;
    int has_counter;
    size_t outlen;
    int has_outlen;
    unsigned rounds;
    int has_rounds;
    const uint8_t *iv;
    size_t iv_len;
    int has_iv;
    const uint8_t *aad;
    size_t aad_len;
    int has_aad;
    const uint8_t *tweak;
    size_t tweak_len;
    int has_tweak;
    uint64_t sector;
    int has_sector;
    int decrypt;
    /* Per-key state from kernel_prepare (LIONESS's expanded key), so that
     * timing covers the per-message work only; NULL means run() sets up
     * for itself. */
    void *prepared;
    /* Set by prepare (through kernel_add_secret): the parts of *prepared
     * derived from the key (round keys, subkeys, a keyed hash state), which
     * `make ctgrind` marks secret beside the key itself. Public fields in
     * between (round counts, lengths, pointers) are left out, so that
     * branching on them is not reported. None for a library's opaque
     * context, whose key schedule memcheck can only follow from the key. */
    kernel_region secret[KERNEL_MAX_SECRET_REGIONS];
    size_t n_secret;
} kernel_args;

/* The options a kernel's kat accepts; anything else is refused by name. */
enum kernel_option {
    KOPT_KEY = 1u << 0,
    KOPT_NONCE = 1u << 1,
    KOPT_COUNTER = 1u << 2,
    KOPT_OUTLEN = 1u << 3,
    KOPT_ROUNDS = 1u << 4,
    KOPT_DECRYPT = 1u << 5,
    KOPT_IV = 1u << 6,
    KOPT_AAD = 1u << 7,
    KOPT_TWEAK = 1u << 8,
    KOPT_SECTOR = 1u << 9,
};

typedef struct kernel kernel;

struct kernel {
    const char *name;          /* as typed on the command line */
    const char *primitive;     /* family, for grouping in reports */
    const isa_variant *table;  /* first row of the implementation table */
    size_t row_size;           /* sizeof one row of that table */
    unsigned param;            /* kernel-specific, e.g. ChaCha rounds */

    /* Validate args for a message of len bytes. Returns 0, or writes a
     * one-line reason (naming the fix) into err and returns nonzero. */
    int (*check)(const kernel *k, const kernel_args *a, size_t len,
                 char *err, size_t errlen);
    /* Bytes run() writes for a message of len bytes. */
    size_t (*out_len)(const kernel *k, const kernel_args *a, size_t len);
    /* Run on checked args. Returns 0, or 1 when authentication fails (no
     * output is valid then). */
    int (*run)(const kernel *k, const isa_variant *v, const kernel_args *a,
               const uint8_t *in, size_t len, uint8_t *out);
    /* Fixed, valid args for timing and self-tests at any length. */
    void (*bench_args)(const kernel *k, kernel_args *a);

    /* External kernels (another library's implementation of the same
     * operation: "openssl:chacha20") name the kernel of ours they must agree
     * with; their one table row has isa "external". NULL for our own. */
    const kernel *reference;
    /* Optional: NULL when usable, else why not (a provider that is missing).
     * An unavailable kernel is listed as unsupported and never run. */
    const char *(*unavailable)(const kernel *k);
    /* Optional: check variant v against published known answers. Returns 0,
     * or writes the failure into err. */
    int (*known_answer)(const kernel *k, const isa_variant *v, char *err,
                        size_t errlen);
    /* Optional: per-key setup into a->prepared, and its release. */
    void (*prepare)(const kernel *k, const isa_variant *v, kernel_args *a);
    void (*release)(const kernel *k, kernel_args *a);
    /* KOPT_* bits: the options kat accepts for this kernel. */
    unsigned options;
    /* Optional: run() that also adds the TSC ticks of each of its stages
     * into ticks[0..n_stages-1], for profiles that split a composite kernel
     * (LIONESS: its two S passes, two H passes and copies) without perf. */
    int (*run_staged)(const kernel *k, const isa_variant *v,
                      const kernel_args *a, const uint8_t *in, size_t len,
                      uint8_t *out, uint64_t *ticks);
    const char *const *stage_names;
    size_t n_stages;
    /* Shortest message run() accepts (LIONESS: 41 bytes); self-tests and
     * benchmarks leave shorter lengths out. */
    size_t min_len;
    /* Messages per call, 0 meaning 1: run() then gets batch messages of len
     * bytes back to back and writes their batch outputs back to back
     * (LIONESS's four-cell kernel). len, check(), out_len() and benchmark
     * sizes all speak of one message; bytes per second count them all. */
    size_t batch;
};

/* k->batch, with 0 read as 1. */
size_t kernel_batch(const kernel *k);

/* A buffer for a kernel's input or output, aligned to a cache line (64
 * bytes) and rounded up to whole lines, so that timing never depends on
 * where malloc happened to put it; free() it. NULL when out of memory. */
uint8_t *kernel_buffer(size_t len);

/* out_len of every kernel whose output is as long as its input. */
size_t kernel_same_length(const kernel *k, const kernel_args *a, size_t len);

/* NULL-terminated, in the order `list` prints them. */
extern const kernel *const kernel_registry[];

const kernel *kernel_find(const char *name);

/* Rows of k's table, i = 0.. until NULL. */
const isa_variant *kernel_variant_at(const kernel *k, size_t i);
const isa_variant *kernel_variant_find(const kernel *k, const char *isa);
/* The first row this CPU supports (generic always is). */
const isa_variant *kernel_best_variant(const kernel *k);
/* The last row: the portable reference every variant is compared with. */
const isa_variant *kernel_generic_variant(const kernel *k);

/* For known_answer hooks: run v on (a, in) and compare with want. in holds
 * kernel_batch(k) messages of len bytes, want their outputs. Returns 0, or
 * writes "<kernel>@<isa> fails <source>" into err. */
int kernel_check_known_answer(const kernel *k, const isa_variant *v,
                              const kernel_args *a, const uint8_t *in,
                              size_t len, const uint8_t *want, size_t want_len,
                              const char *source, char *err, size_t errlen);

/* Per-key setup for variant v on checked args (a no-op for kernels
 * without it), and its release. Benchmarks prepare outside the timed loop. */
void kernel_prepare(const kernel *k, const isa_variant *v, kernel_args *a);
void kernel_release(const kernel *k, kernel_args *a);
/* For prepare hooks: note len bytes at p as derived from the key. */
void kernel_add_secret(kernel_args *a, const void *p, size_t len);

/* bench_args, plus a fixed key for a kernel that takes one although its
 * bench_args carry none (BLAKE2b, timed unkeyed): for the tools whose
 * secret is the key (`cyclebench leak`, `make ctgrind`). */
void kernel_keyed_args(const kernel *k, kernel_args *a);

/* Nonzero when v can run here: the CPU has its features and the kernel is
 * available (external libraries may lack a provider). */
int kernel_variant_usable(const kernel *k, const isa_variant *v);

/* The gate before timing: v's known answers (if the kernel has them), then
 * v against our generic (of k, or of k->reference for an external kernel)
 * on a spread of awkward lengths with the kernel's bench_args. Returns 0
 * when all agree, else writes the first failure into err. A variant that
 * fails is never timed. */
int kernel_self_test(const kernel *k, const isa_variant *v, char *err,
                     size_t errlen);

#endif
