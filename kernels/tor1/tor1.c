/* Tor's relay crypto before CGO, "tor1": AES-128-CTR over each 509-byte
 * payload and a running SHA-1 digest of the circuit's payloads, its first
 * four bytes in the relay header (C tor's relay_crypto_tor1.c). The two
 * paths a relay takes, which CGO's kernels are read against row by row:
 *
 *   tor1-relay-originate: a cell the relay (or client) originates: the
 *     digest updated with the payload (digest field zeroed) and its first
 *     four bytes written into the header, then CTR. The 2015 tor-dev
 *     LIONESS measurements set LIONESS against this path (with Tor's own
 *     cell_ops benchmark;
 *     docs/scenario.md) as `tor-relay-cell`, which stays a name kat, run
 *     and bench accept for it (one kernel, one row).
 *   tor1-relay-forward: a cell passing a middle relay: CTR, then the
 *     recognized field (bytes 1-2) checked; only when it is zero is the
 *     digest checked (and, when it matches, kept and the field left
 *     zeroed; otherwise restored, as Tor restores it). A middle relay's
 *     cells are someone else's ciphertext, so that is once in 65536 cells.
 *     Both checks compare without a branch and are then declassified
 *     (kernel_public_equal): the relay acts on them, so they are public,
 *     and `make ctgrind` reports only what else depends on the key.
 *
 * AES is ours at the chosen ISA (so the generic row is "without AES-NI");
 * SHA-1 is OpenSSL's SHA1_Update, and the digest's current value is read
 * from a copy of its context, as Tor's crypto_digest_get_digest does.
 * (OpenSSL 3 deprecates that API; EVP's context copy allocates on every
 * cell, which Tor does not pay.)
 *
 * Tor's CTR stream runs on across cells byte by byte; here each cell starts
 * at the next whole counter block, which costs the same work. */
/* SHA1_Init and friends are deprecated in OpenSSL 3, still shipped, and
 * what Tor's relay crypto calls. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../aes/aes.h"
#include "../registry.h"

#define RELAY_HEADER_BYTES 11
#define RELAY_RECOGNIZED_OFFSET 1
#define RELAY_DIGEST_OFFSET 5
#define RELAY_DIGEST_BYTES 4
#define RELAY_KEY_BYTES 16

typedef struct relay_crypto {
    aes_key aes;
    uint8_t counter[16];
    SHA_CTX running_digest;
} relay_crypto;

/* Tor seeds each direction's digest with key material; any fixed seed costs
 * the same. */
static const uint8_t digest_seed[20] = "cyclebench relay sha";

static int relay_crypto_init(relay_crypto *rc, const isa_variant *v,
                             const kernel_args *a)
{
    aes_setup((const aes_impl *)v, &rc->aes, a->key.bytes, a->key.len);
    if (a->iv.set)
        memcpy(rc->counter, a->iv.bytes, sizeof rc->counter);
    else
        memset(rc->counter, 0, sizeof rc->counter);
    return SHA1_Init(&rc->running_digest) &&
                   SHA1_Update(&rc->running_digest, digest_seed,
                               sizeof digest_seed)
               ? 0 : -1;
}

/* The counter block as a 128-bit big-endian integer, plus n. */
static void advance_counter(uint8_t counter[16], uint64_t n)
{
    for (int i = 15; i >= 0 && n; i--) {
        uint64_t sum = counter[i] + (n & 0xff);
        counter[i] = (uint8_t)sum;
        n = (n >> 8) + (sum >> 8);
    }
}

/* The running digest updated with the cell, and its current value. */
static int running_digest(relay_crypto *rc, const uint8_t *cell, size_t len,
                          uint8_t digest[SHA_DIGEST_LENGTH])
{
    SHA_CTX current;
    if (!SHA1_Update(&rc->running_digest, cell, len))
        return -1;
    current = rc->running_digest;
    return SHA1_Final(digest, &current) ? 0 : -1;
}

static int relay_originate_cell(relay_crypto *rc, const isa_variant *v,
                                uint8_t *out, const uint8_t *in, size_t len)
{
    uint8_t digest[SHA_DIGEST_LENGTH];
    if (out != in)
        memmove(out, in, len);
    memset(out + RELAY_DIGEST_OFFSET, 0, RELAY_DIGEST_BYTES);
    if (running_digest(rc, out, len, digest))
        return -1;
    memcpy(out + RELAY_DIGEST_OFFSET, digest, RELAY_DIGEST_BYTES);
    aes_ctr_xor((const aes_impl *)v, &rc->aes, out, out, len, rc->counter);
    advance_counter(rc->counter, (len + AES_BLOCK_BYTES - 1) / AES_BLOCK_BYTES);
    return 0;
}

/* Whether the digest of the circuit's cells so far and this one (digest
 * field zeroed) starts with the four bytes in its digest field: if so the
 * digest keeps the cell and the field stays zeroed; if not both are as
 * they were. */
static int relay_digest_matches(relay_crypto *rc, uint8_t *cell, size_t len)
{
    uint8_t digest[SHA_DIGEST_LENGTH], received[RELAY_DIGEST_BYTES];
    SHA_CTX before = rc->running_digest;
    memcpy(received, cell + RELAY_DIGEST_OFFSET, RELAY_DIGEST_BYTES);
    memset(cell + RELAY_DIGEST_OFFSET, 0, RELAY_DIGEST_BYTES);
    if (running_digest(rc, cell, len, digest))
        return -1;
    if (kernel_public_equal(digest, received, RELAY_DIGEST_BYTES))
        return 1;
    rc->running_digest = before;
    memcpy(cell + RELAY_DIGEST_OFFSET, received, RELAY_DIGEST_BYTES);
    return 0;
}

static int relay_forward_cell(relay_crypto *rc, const isa_variant *v,
                              uint8_t *out, const uint8_t *in, size_t len)
{
    static const uint8_t zero[2];
    aes_ctr_xor((const aes_impl *)v, &rc->aes, out, in, len, rc->counter);
    advance_counter(rc->counter, (len + AES_BLOCK_BYTES - 1) / AES_BLOCK_BYTES);
    if (!kernel_public_equal(out + RELAY_RECOGNIZED_OFFSET, zero, 2))
        return 0;
    return relay_digest_matches(rc, out, len) < 0 ? -1 : 0;
}

/* Abort rather than return a wrong cell: OpenSSL's SHA-1 does not fail on a
 * working OpenSSL, and a timed run must not go on without it. */
static void must_init(int rc)
{
    if (rc) {
        fprintf(stderr, "cyclebench: OpenSSL's SHA-1 is unavailable\n");
        abort();
    }
}

static void tor_prepare(const kernel *k, const isa_variant *v, kernel_args *a)
{
    (void)k;
    /* aes_key wants 64-byte alignment, which malloc does not promise. */
    size_t size = (sizeof(relay_crypto) + 63) / 64 * 64;
    relay_crypto *rc = aligned_alloc(64, size);
    if (rc) {
        must_init(relay_crypto_init(rc, v, a));
        /* The running digest is seeded with a constant here, not a key. */
        aes_add_secret_key(a, &rc->aes);
    }
    a->prepared = rc;
}

typedef int relay_cell_fn(relay_crypto *rc, const isa_variant *v,
                          uint8_t *out, const uint8_t *in, size_t len);

/* Prepared: the circuit's running state goes on from cell to cell, as on a
 * relay. Unprepared (kat, self-tests): one cell on a fresh circuit. */
static int tor1_run(relay_cell_fn *cell, const isa_variant *v,
                    const kernel_args *a, const uint8_t *in, size_t len,
                    uint8_t *out)
{
    if (a->prepared)
        return cell(a->prepared, v, out, in, len) ? 1 : 0;
    relay_crypto fresh;
    must_init(relay_crypto_init(&fresh, v, a));
    must_init(cell(&fresh, v, out, in, len));
    return 0;
}

static int originate_run(const kernel *k, const isa_variant *v,
                         const kernel_args *a, const uint8_t *in, size_t len,
                         uint8_t *out)
{
    (void)k;
    return tor1_run(relay_originate_cell, v, a, in, len, out);
}

static int forward_run(const kernel *k, const isa_variant *v,
                       const kernel_args *a, const uint8_t *in, size_t len,
                       uint8_t *out)
{
    (void)k;
    return tor1_run(relay_forward_cell, v, a, in, len, out);
}

static const uint8_t bench_key[RELAY_KEY_BYTES] = "cyclebench relay";

static void tor_bench_args(const kernel *k, kernel_args *a)
{
    (void)k;
    *a = (kernel_args){ .key = KERNEL_BYTES(bench_key, sizeof bench_key) };
}

/* An auto row: the AES row measured fastest here, as it is (tor1's table
 * is AES's; SHA-1 is OpenSSL's whatever the row). */
static void tor1_compose(const kernel *k, const isa_variant *const part[],
                         isa_variant *row)
{
    (void)k;
    *(aes_impl *)row = *(const aes_impl *)part[0];
}

#define TOR1_KERNEL(var, kname, kfamily, run_fn)                              \
    const kernel var = {                                                      \
        .name = kname,                                                        \
        .family = kfamily,                                                    \
        .table = &aes_impls[0].v,                                             \
        .row_size = sizeof aes_impls[0],                                      \
        .args = { { KARG_NEEDS(KEY, RELAY_KEY_BYTES), .note = "AES-128" },    \
                  { KARG_TAKES(IV, 16),                                       \
                    .note = "the initial counter block" } },                  \
        .min_len = RELAY_HEADER_BYTES,                                        \
        .min_len_why = "the relay header; send a 509-byte payload",           \
        .run = run_fn,                                                        \
        .bench_args = tor_bench_args,                                         \
        .prepare = tor_prepare,                                               \
        .parts = { &kernel_aes128_ctr },                                      \
        .compose = tor1_compose,                                              \
    }

TOR1_KERNEL(kernel_tor1_relay_originate, "tor1-relay-originate", "tor1",
            originate_run);
TOR1_KERNEL(kernel_tor1_relay_forward, "tor1-relay-forward", "tor1",
            forward_run);
/* tor-relay-cell, the originate path's old name, is an alias
 * (kernel_aliases in registry.c) and this the same object, so that a sweep
 * times it once. */
extern const kernel kernel_tor_relay_cell
    __attribute__((alias("kernel_tor1_relay_originate")));
