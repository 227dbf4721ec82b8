/* LIONESS: the shared compatibility vectors on every ISA, round trips at
 * every length 41-2048, every ISA against generic, and a differential
 * against the same construction composed from libsodium. */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/registry.h"
#include "../../kernels/lioness/lioness.h"
#include "check.h"
#include "vectors.h"

#define MAX_LEN 2048

static int usable(const lioness_impl *impl)
{
    if (cpu_supports(impl->v.required))
        return 1;
    SKIP("%s not supported by this CPU", impl->v.isa);
    return 0;
}

static const lioness_impl *generic_impl(void)
{
    const lioness_impl *impl = lioness_impls;
    while (impl[1].v.isa)
        impl++;
    return impl;
}

/* A row may only run where both primitives it pairs can. */
static void test_table(void)
{
    CASE("lioness rows name existing ChaCha and BLAKE2b rows they can run");
    for (const lioness_impl *impl = lioness_impls; impl->v.isa; impl++) {
        const chacha_impl *c = lioness_chacha(impl);
        const blake2b_impl *b = lioness_blake2b(impl);
        if (!CHECK(c && b, "%s names a missing row", impl->v.isa))
            continue;
        CHECK((impl->v.required & c->v.required) == c->v.required &&
                  (impl->v.required & b->v.required) == b->v.required,
              "%s requires less than chacha@%s and blake2b@%s", impl->v.isa,
              c->v.isa, b->v.isa);
    }
}

static void test_compat_vectors(const lioness_impl *impl)
{
    size_t n;
    kv_record *recs = kv_load(vector_path("lioness_compat.txt"), &n);
    CASE("lioness compatibility vectors (go-lioness / C implementation) @%s",
         impl->v.isa);
    if (!usable(impl) || !CHECK(recs && n == 2, "expected 2 vectors, got %zu", n))
        goto done;
    for (size_t i = 0; i < n; i++) {
        size_t key_len, len, ct_len;
        uint8_t *key = hex_decode(kv_get(&recs[i], "key"), &key_len);
        uint8_t *block = hex_decode(kv_get(&recs[i], "block"), &len);
        uint8_t *ct = hex_decode(kv_get(&recs[i], "ciphertext"), &ct_len);
        uint8_t *out = malloc(len);
        lioness_key k;
        if (CHECK(key_len == LIONESS_KEY_BYTES && ct_len == len,
                  "vector %zu malformed", i)) {
            lioness_setup(&k, impl, key, 20);
            lioness_encrypt(&k, out, block, len);
            CHECK(memcmp(out, ct, len) == 0, "vector %zu encrypt: got %s", i,
                  check_hex(out, len));
            lioness_decrypt(&k, out, out, len);
            CHECK(memcmp(out, block, len) == 0, "vector %zu decrypt", i);
        }
        free(key); free(block); free(ct); free(out);
    }
done:
    if (recs)
        kv_free(recs, n);
}

/* Encrypt and decrypt every length 41..2048 in place with this ISA, and
 * compare the ciphertext with generic's. */
static void test_round_trips(const lioness_impl *impl, unsigned rounds)
{
    static uint8_t key[LIONESS_KEY_BYTES], plain[MAX_LEN], buf[MAX_LEN + 3],
        want[MAX_LEN];
    uint64_t seed = rounds;
    lioness_key k, ref;
    CASE("lioness%u round trips and == generic, lengths %d-%d @%s", rounds,
         LIONESS_MIN_BLOCK, MAX_LEN, impl->v.isa);
    if (!usable(impl))
        return;
    check_fill_random(key, sizeof key, &seed);
    lioness_setup(&k, impl, key, rounds);
    lioness_setup(&ref, generic_impl(), key, rounds);
    for (size_t len = LIONESS_MIN_BLOCK; len <= MAX_LEN; len++) {
        uint8_t *b = buf + len % 4; /* misaligned on three of four lengths */
        check_fill_random(plain, len, &seed);
        lioness_encrypt(&ref, want, plain, len);
        memcpy(b, plain, len);
        lioness_encrypt(&k, b, b, len);
        if (!CHECK(memcmp(b, want, len) == 0, "len %zu differs from generic",
                   len) ||
            !CHECK(memcmp(b, plain, len) != 0, "len %zu unchanged", len))
            return;
        lioness_decrypt(&k, b, b, len);
        if (!CHECK(memcmp(b, plain, len) == 0, "len %zu round trip", len))
            return;
    }
}

/* Through the registry, as kat and the benchmarks call it. */
static void test_vs_libsodium(const lioness_impl *impl)
{
    static uint8_t key[LIONESS_KEY_BYTES], in[MAX_LEN], got[MAX_LEN],
        want[MAX_LEN];
    uint64_t seed = 99;
    const kernel *ours = &kernel_lioness, *theirs = &kernel_sodium_lioness;
    CASE("lioness vs the libsodium composition (ChaCha20, generichash) @%s",
         impl->v.isa);
    if (!usable(impl))
        return;
    for (int trial = 0; trial < 100; trial++) {
        size_t len = LIONESS_MIN_BLOCK + check_random(&seed) %
                                             (MAX_LEN - LIONESS_MIN_BLOCK + 1);
        kernel_args a = { .key = KERNEL_BYTES(key, sizeof key),
                          .decrypt.set = trial % 2 };
        check_fill_random(key, sizeof key, &seed);
        check_fill_random(in, len, &seed);
        theirs->run(theirs, &theirs->table[0], &a, in, len, want);
        kernel_prepare(ours, &impl->v, &a);
        ours->run(ours, &impl->v, &a, in, len, got);
        kernel_release(ours, &a);
        CHECK(memcmp(got, want, len) == 0, "len %zu %s", len,
              a.decrypt.set ? "decrypt" : "encrypt");
    }
}

/* Four cells under four different keys, four at a time, against each cell
 * encrypted alone by generic; then decrypted back four at a time. */
static void test_x4(const lioness_impl *impl, unsigned rounds)
{
    enum { CELLS = LIONESS_X4, MAX = 1100 };
    static uint8_t key[CELLS][LIONESS_KEY_BYTES], plain[CELLS][MAX],
        buf[CELLS][MAX], want[MAX];
    uint64_t seed = 40 + rounds;
    lioness_key k[CELLS], ref[CELLS];
    const lioness_key *keys[CELLS];
    uint8_t *cells[CELLS];
    CASE("lioness%u four cells, four keys, == one by one, lengths %d-%d @%s",
         rounds, LIONESS_MIN_BLOCK, MAX, impl->v.isa);
    if (!usable(impl))
        return;
    for (unsigned j = 0; j < CELLS; j++) {
        check_fill_random(key[j], sizeof key[j], &seed);
        lioness_setup(&k[j], impl, key[j], rounds);
        lioness_setup(&ref[j], generic_impl(), key[j], rounds);
        keys[j] = &k[j];
        cells[j] = buf[j];
    }
    for (size_t len = LIONESS_MIN_BLOCK; len <= MAX; len++) {
        for (unsigned j = 0; j < CELLS; j++) {
            check_fill_random(plain[j], len, &seed);
            memcpy(buf[j], plain[j], len);
        }
        lioness_encrypt_x4(keys, cells, len, NULL);
        for (unsigned j = 0; j < CELLS; j++) {
            lioness_encrypt(&ref[j], want, plain[j], len);
            if (!CHECK(memcmp(buf[j], want, len) == 0,
                       "len %zu cell %u differs from generic", len, j))
                return;
        }
        lioness_decrypt_x4(keys, cells, len);
        for (unsigned j = 0; j < CELLS; j++)
            if (!CHECK(memcmp(buf[j], plain[j], len) == 0,
                       "len %zu cell %u round trip", len, j))
                return;
    }
}

/* The lioness-x4 kernel, as kat and the benchmarks call it: four cells
 * back to back under one key, against the lioness kernel cell by cell. */
static void test_x4_kernel(const lioness_impl *impl)
{
    enum { CELL = 509 };
    static uint8_t key[LIONESS_KEY_BYTES], in[LIONESS_X4 * CELL],
        got[LIONESS_X4 * CELL], want[CELL];
    uint64_t seed = 509;
    const kernel *x4 = &kernel_lioness_x4, *one = &kernel_lioness;
    CASE("lioness-x4 kernel == lioness kernel per cell, both directions @%s",
         impl->v.isa);
    if (!usable(impl))
        return;
    check_fill_random(key, sizeof key, &seed);
    check_fill_random(in, sizeof in, &seed);
    for (int decrypt = 0; decrypt <= 1; decrypt++) {
        kernel_args a = { .key = KERNEL_BYTES(key, sizeof key),
                          .decrypt.set = decrypt };
        CHECK(kernel_batch(x4) == LIONESS_X4, "batch %zu", kernel_batch(x4));
        kernel_prepare(x4, &impl->v, &a);
        x4->run(x4, &impl->v, &a, in, CELL, got);
        kernel_release(x4, &a);
        for (unsigned j = 0; j < LIONESS_X4; j++) {
            one->run(one, &impl->v, &a, in + j * CELL, CELL, want);
            CHECK(memcmp(got + j * CELL, want, CELL) == 0, "cell %u %s", j,
                  decrypt ? "decrypt" : "encrypt");
        }
    }
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    test_table();
    for (const lioness_impl *impl = lioness_impls; impl->v.isa; impl++) {
        test_compat_vectors(impl);
        test_round_trips(impl, 20);
        test_round_trips(impl, 12);
        test_round_trips(impl, 8);
        test_vs_libsodium(impl);
        test_x4(impl, 20);
        test_x4(impl, 8);
        test_x4_kernel(impl);
    }
    return check_finish();
}
