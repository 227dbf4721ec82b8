/* A kernel: a named operation over a message ("chacha20", "blake2b")
 * backed by one primitive's implementation table, and the arguments it
 * takes, stated once in its descriptor. `list`, `kat`, the tests and the
 * benchmarks all walk kernel_registry (registry.h); a kernel's ISA
 * variants are the rows of its table, never a list of its own. */
#ifndef CYCLEBENCH_KERNEL_H
#define CYCLEBENCH_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "cpu.h"

/* Every option a kernel may take, one row each:
 *   X(ID, field, "name", kind, largest)
 * kind HEX is bytes given in hex; NUMBER a number from 0 to largest, in
 * decimal or after 0x in hex; FLAG present or not. The row makes KOPT_ID,
 * the field kernel_args.field and the command-line option --name; which
 * kernels take it, and which lengths or values each accepts, their
 * descriptors say (kernel.args). */
#define KERNEL_OPTIONS(X)                                                    \
    X(KEY, key, "key", HEX, 0)                                               \
    X(NONCE, nonce, "nonce", HEX, 0)                                         \
    X(IV, iv, "iv", HEX, 0)                                                  \
    X(AAD, aad, "aad", HEX, 0)                                               \
    X(TWEAK, tweak, "tweak", HEX, 0)                                         \
    X(TPRIME, tprime, "tprime", HEX, 0)                                      \
    X(CMD, cmd, "cmd", NUMBER, 255)                                          \
    X(COUNTER, counter, "counter", NUMBER, UINT64_MAX)                       \
    X(SECTOR, sector, "sector", NUMBER, UINT64_MAX)                          \
    X(OUTLEN, outlen, "out-len", NUMBER, 1u << 20)                           \
    X(ROUNDS, rounds, "rounds", NUMBER, 1000)                                \
    X(TAG_LEN, tag_len, "tag-len", NUMBER, UINT64_MAX)                       \
    X(DOMAIN, domain, "domain", NUMBER, 255)                                 \
    X(CUSTOM, custom, "custom", HEX, 0)                                      \
    X(DECRYPT, decrypt, "decrypt", FLAG, 1)

#define KERNEL_OPTION_ID(id, field, name, kind, largest) KOPT_##id,
enum kernel_option {
    KOPT_NONE, /* ends a kernel's argument list */
    KERNEL_OPTIONS(KERNEL_OPTION_ID)
    KOPT_COUNT
};
#undef KERNEL_OPTION_ID

typedef enum kernel_option_kind {
    KOPT_KIND_HEX,
    KOPT_KIND_NUMBER,
    KOPT_KIND_FLAG,
} kernel_option_kind;

/* One option as the command line names it. */
typedef struct kernel_option_info {
    const char *name; /* without the leading "--" */
    kernel_option_kind kind;
    uint64_t largest; /* NUMBER: the largest value parsed */
    size_t offset;    /* of its kernel_value in kernel_args */
} kernel_option_info;

/* Indexed by enum kernel_option; [KOPT_NONE] is all zeros. */
extern const kernel_option_info kernel_options[KOPT_COUNT];

/* An option's value: bytes (HEX), a number (NUMBER), or only whether it
 * was given (FLAG). Unset, every field is zero. */
typedef struct kernel_value {
    int set;
    const uint8_t *bytes;
    size_t len;
    uint64_t num;
} kernel_value;

/* Bytes of a kernel's prepared state that derive from its key. */
typedef struct kernel_region {
    const void *at;
    size_t len;
} kernel_region;

/* Enough for four CGO circuits' hops (tor-cgo-relay-forward-x4), four
 * regions each: two AES schedules, the POLYVAL keys, the nonce. */
#define KERNEL_MAX_SECRET_REGIONS 16

/* A kernel's options: from `kat`'s command line, or fixed values for
 * benchmarks (bench_args). */
#define KERNEL_OPTION_FIELD(id, field, name, kind, largest) kernel_value field;
typedef struct kernel_args {
    KERNEL_OPTIONS(KERNEL_OPTION_FIELD)
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
#undef KERNEL_OPTION_FIELD

/* Values for bench_args and tests: (kernel_args){ .key = KERNEL_BYTES(k,
 * 32), .counter = KERNEL_NUMBER(0), .decrypt = KERNEL_FLAG }. */
#define KERNEL_BYTES(p, n) ((kernel_value){ .set = 1, .bytes = (p), .len = (n) })
#define KERNEL_NUMBER(n) ((kernel_value){ .set = 1, .num = (n) })
#define KERNEL_FLAG ((kernel_value){ .set = 1 })

/* The value of option id in a. */
kernel_value *kernel_args_value(kernel_args *a, enum kernel_option id);
const kernel_value *kernel_args_get(const kernel_args *a,
                                    enum kernel_option id);

/* One option a kernel takes, and what it accepts: the byte lengths of a
 * HEX option, the values of a NUMBER. Either a list (n_values > 0) or the
 * range min..max. Write them with the KARG_ macros below. */
#define KERNEL_MAX_VALUES 4
typedef struct kernel_arg {
    enum kernel_option option;
    int required;
    size_t n_values;
    uint64_t values[KERNEL_MAX_VALUES];
    uint64_t min, max;
    /* Words after the accepted lengths in messages ("the data key then the
     * tweak key"); NULL for none. */
    const char *note;
} kernel_arg;

#define KARG_VALUES_(...)                                                    \
    .values = { __VA_ARGS__ },                                               \
    .n_values = sizeof((uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t)
/* { KARG_NEEDS(KEY, 16, 32) }: required, one of these lengths or values;
 * KARG_TAKES the same when optional; _RANGE from lo to hi; KARG_TAKES_ANY
 * whatever the option parses (a flag, an AAD of any length). Follow with
 * .note = "..." inside the braces to add words to messages. */
#define KARG_NEEDS(opt, ...)                                                 \
    .option = KOPT_##opt, .required = 1, KARG_VALUES_(__VA_ARGS__)
#define KARG_TAKES(opt, ...) .option = KOPT_##opt, KARG_VALUES_(__VA_ARGS__)
#define KARG_NEEDS_RANGE(opt, lo, hi)                                        \
    .option = KOPT_##opt, .required = 1, .min = (lo), .max = (hi)
#define KARG_TAKES_RANGE(opt, lo, hi)                                        \
    .option = KOPT_##opt, .min = (lo), .max = (hi)
#define KARG_TAKES_ANY(opt) .option = KOPT_##opt, .max = UINT64_MAX

#define KERNEL_MAX_ARGS 8
/* Enough for Adiantum's ChaCha, NH, Poly1305 and AES. */
#define KERNEL_MAX_PARTS 4

typedef struct kernel kernel;

struct kernel {
    const char *name;          /* as typed on the command line */
    const char *family;        /* for grouping in reports */
    const isa_variant *table;  /* first row of the implementation table */
    size_t row_size;           /* sizeof one row of that table */
    /* The rows this kernel lists, where it takes fewer than the table
     * has: a row whose code for this kernel is another row's (a vector
     * row that has only a multi-state form, say) is left out, so that no
     * ISA's name is timed over another's code. NULL lists every row. */
    int (*lists_row)(const isa_variant *row);
    unsigned param;            /* kernel-specific, e.g. ChaCha rounds */

    /* The options the kernel takes and what each accepts, ended by
     * KOPT_NONE (all zeros). kernel_check enforces them with one message
     * for every kernel; kat refuses any other option. */
    kernel_arg args[KERNEL_MAX_ARGS];
    /* Shortest message run() accepts (LIONESS: 41 bytes), and why, for
     * the message (NULL: none). Self-tests and benchmarks leave shorter
     * lengths out. */
    size_t min_len;
    const char *min_len_why;
    /* An AEAD's tag, after the ciphertext: encryption writes len + tag_len
     * bytes, --decrypt reads them and needs at least tag_len. 0: none. A
     * kernel that takes --tag-len states its default here and the lengths
     * it accepts in args; kernel_tag_len says which applies. */
    size_t tag_len;
    /* Optional: constraints no table states (ChaCha's 32-bit counter wrap,
     * GCM's length limit, XTS's tweak-or-sector), on args that kernel_check
     * has already checked against args[]. Returns 0, or writes a one-line
     * reason (naming the fix) into err and returns nonzero. */
    int (*check)(const kernel *k, const kernel_args *a, size_t len,
                 char *err, size_t errlen);
    /* Bytes run() writes for a message of len bytes; NULL: len, with the
     * tag added or taken off. */
    size_t (*out_len)(const kernel *k, const kernel_args *a, size_t len);
    /* Run on checked args. Returns 0, or 1 when authentication fails (no
     * output is valid then). */
    int (*run)(const kernel *k, const isa_variant *v, const kernel_args *a,
               const uint8_t *in, size_t len, uint8_t *out);
    /* Fixed, valid args for timing and self-tests at any length. */
    void (*bench_args)(const kernel *k, kernel_args *a);

    /* External kernels (another library's implementation of the same
     * operation: "openssl:chacha20") name the kernel of ours they must
     * agree with; their one table row has isa "external". NULL for our
     * own. What an external kernel leaves unset (args, min_len, out_len,
     * bench_args, batch) is its reference's, and the reference's check
     * applies to it too: they compute the same thing. */
    const kernel *reference;
    /* Optional: NULL when usable, else why not (a provider that is missing).
     * An unavailable kernel is listed as unsupported and never run. */
    const char *(*unavailable)(const kernel *k);
    /* Optional: check variant v against published known answers. Returns 0,
     * or writes the failure into err. */
    int (*known_answer)(const kernel *k, const isa_variant *v, char *err,
                        size_t errlen);
    /* Optional: per-key setup into a->prepared, and its release; without
     * a release, kernel_release frees a->prepared. */
    void (*prepare)(const kernel *k, const isa_variant *v, kernel_args *a);
    void (*release)(const kernel *k, kernel_args *a);
    /* Optional: run() that also adds the TSC ticks of each of its stages
     * into ticks[0..n_stages-1], for profiles that split a composite kernel
     * (LIONESS: its two S passes, two H passes and copies) without perf. */
    int (*run_staged)(const kernel *k, const isa_variant *v,
                      const kernel_args *a, const uint8_t *in, size_t len,
                      uint8_t *out, uint64_t *ticks);
    const char *const *stage_names;
    size_t n_stages;
    /* Messages per call, 0 meaning 1: run() then gets batch messages of len
     * bytes back to back and writes their batch outputs back to back
     * (LIONESS's four-cell kernel). len, check(), out_len() and benchmark
     * sizes all speak of one message; bytes per second count them all. */
    size_t batch;

    /* A composite kernel (LIONESS, an AEAD, Tor's relay cell) names the
     * primitives it is built from, each by the registry kernel that times
     * that primitive's table on its own, NULL-ended: lioness has
     * { &kernel_chacha20, &kernel_blake2b }. A part times what the
     * composite calls, over the table the composite finds its rows in
     * (lioness-x4 names chacha20-x2, the two-stream form, over
     * chacha_impls). `--isa=auto` measures every supported row of each
     * part on this CPU and passes the fastest, one per part in this order,
     * to compose, which fills in *row: a row of the composite's own table
     * type (row_size bytes, zeroed, in storage the caller keeps) that runs
     * on those part rows. kernel_compose then names it "auto" and gives it
     * the features its parts need. Adopting auto is these two fields (see
     * lioness.c); a kernel without parts runs its own table's fastest row
     * at auto. */
    const kernel *parts[KERNEL_MAX_PARTS];
    void (*compose)(const kernel *k, const isa_variant *const part[],
                    isa_variant *row);
    /* Optional: the length part i is timed at when the composite runs
     * messages of len bytes, where the part sees another length than the
     * message's (Adiantum's Poly1305 hashes NH's output, 32 bytes a KiB;
     * its AES encrypts one block). NULL: len. */
    size_t (*part_len)(size_t i, size_t len);
};

/* What k takes and accepts (its own args, or its reference's). */
const kernel_arg *kernel_spec(const kernel *k);
/* The entry of option id in k's spec, or NULL when k does not take it. */
const kernel_arg *kernel_spec_find(const kernel *k, enum kernel_option id);
/* k's shortest message, messages per call (at least 1), output length
 * and fixed args: its own, or its reference's. */
size_t kernel_min_len(const kernel *k);
size_t kernel_batch(const kernel *k);
/* The tag's length with args a: --tag-len's value where k takes that
 * option and a gives it, else the descriptor's tag_len (a may be NULL). */
size_t kernel_tag_len(const kernel *k, const kernel_args *a);
size_t kernel_out_len(const kernel *k, const kernel_args *a, size_t len);
void kernel_bench_args(const kernel *k, kernel_args *a);

/* The one checker: a for a message of len bytes against k's spec (every
 * option given is taken, every required one is there, each of an accepted
 * length or value), k's min_len, then the check hooks. Returns 0, or
 * writes the one-line reason into err and returns -1. */
int kernel_check(const kernel *k, const kernel_args *a, size_t len,
                 char *err, size_t errlen);

/* What arg accepts, in words: "32 bytes", "8 or 12 bytes",
 * "0 to 64 bytes", "8, 12 or 20", "any length". */
void kernel_describe_accepted(const kernel_arg *arg, char *buf, size_t len);

/* Hex digits into at most cap bytes at out. Returns the byte count, or -1
 * for an odd count, a non-hex digit or more than cap bytes. */
long kernel_hex_decode(const char *hex, uint8_t *out, size_t cap);

/* A buffer for a kernel's input or output, aligned to a cache line (64
 * bytes) and rounded up to whole lines, so that timing never depends on
 * where malloc happened to put it; free() it. NULL when out of memory. */
uint8_t *kernel_buffer(size_t len);

/* The fill every harness command gives a message of len bytes: the same
 * bytes for bench, run, leak's key class and the ctgrind driver. */
void kernel_fill_message(uint8_t *p, size_t len);

const kernel *kernel_find(const char *name);

/* Rows of k's table, i = 0.. until NULL. */
const isa_variant *kernel_variant_at(const kernel *k, size_t i);
const isa_variant *kernel_variant_find(const kernel *k, const char *isa);
/* The first row this CPU supports (generic always is). */
const isa_variant *kernel_best_variant(const kernel *k);
/* The last row: the portable reference every variant is compared with. */
const isa_variant *kernel_generic_variant(const kernel *k);

/* The ISA name of a row chosen by measuring (`--isa=auto`), never a row of
 * a table. */
#define KERNEL_AUTO_ISA "auto"
/* How many parts k names: 0 for a kernel that is not a composite. */
size_t kernel_n_parts(const kernel *k);
/* The length `--isa=auto` times part i of k at, for messages of len
 * bytes: k->part_len's, or len, and at least the part's shortest
 * message. */
size_t kernel_part_len(const kernel *k, size_t i, size_t len);
/* k's row over part[i], a row of k->parts[i]'s table for each part, into
 * row (k->row_size bytes): the compose hook's, named KERNEL_AUTO_ISA and
 * requiring every feature its parts require. */
void kernel_compose(const kernel *k, const isa_variant *const part[],
                    isa_variant *row);

/* For known_answer hooks: run v on (a, in) and compare with want. in holds
 * kernel_batch(k) messages of len bytes, want their outputs. Returns 0, or
 * writes "<kernel>@<isa> fails <source>" into err. */
int kernel_check_known_answer(const kernel *k, const isa_variant *v,
                              const kernel_args *a, const uint8_t *in,
                              size_t len, const uint8_t *want, size_t want_len,
                              const char *source, char *err, size_t errlen);

/* Per-key setup for variant v on checked args (a no-op for kernels
 * without it), and its release: the kernel's own, or free(a->prepared)
 * for a kernel that has none. Benchmarks prepare outside the timed loop. */
void kernel_prepare(const kernel *k, const isa_variant *v, kernel_args *a);
void kernel_release(const kernel *k, kernel_args *a);
/* For prepare hooks: note len bytes at p as derived from the key. */
void kernel_add_secret(kernel_args *a, const void *p, size_t len);

/* What a kernel reveals by design but computes from secrets (whether a Tor
 * cell is recognized, which the relay then acts on): the kernel computes it
 * without branching, passes it here, then may branch on it. A no-op unless
 * a tool that tracks secrets set the hook: `make ctgrind`'s driver marks
 * the bytes public, so that memcheck reports what else depends on the
 * secret, not that. */
extern void (*kernel_declassify_hook)(const void *p, size_t len);
static inline void kernel_declassify(const void *p, size_t len)
{
    if (kernel_declassify_hook)
        kernel_declassify_hook(p, len);
}
/* Whether a == b over n bytes, compared without a branch on either, then
 * declassified: for what a protocol acts on (a Tor cell recognized, its
 * digest matching), never for a secret's own comparison. */
int kernel_public_equal(const void *a, const void *b, size_t n);

/* bench_args, plus a fixed key for a kernel that takes one although its
 * bench_args carry none (BLAKE2b, timed unkeyed): for the tools whose
 * secret is the key (`cyclebench leak`, `make ctgrind`). */
void kernel_keyed_args(const kernel *k, kernel_args *a);

/* NULL when v can run here, else why not, into buf: the kernel is
 * unavailable (an external library lacks a provider) or the CPU lacks
 * some of v's features ("the CPU lacks avx512f vaes"). */
const char *kernel_variant_refusal(const kernel *k, const isa_variant *v,
                                   char *buf, size_t len);
/* Nonzero when v can run here (kernel_variant_refusal finds nothing). */
int kernel_variant_usable(const kernel *k, const isa_variant *v);

/* The gate before timing: v's known answers (if the kernel has them), then
 * v against our generic (of k, or of k->reference for an external kernel)
 * on a spread of awkward lengths with the kernel's bench_args. Returns 0
 * when all agree, else writes the first failure into err. A variant that
 * fails is never timed. */
int kernel_self_test(const kernel *k, const isa_variant *v, char *err,
                     size_t errlen);

#endif
