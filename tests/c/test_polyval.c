/* POLYVAL: google/hctr2's vectors (tests/vectors/polyval.json) on every ISA;
 * every ISA against generic on random keys over lengths from 0 to 6 KiB,
 * around every batch boundary (8, 16 and 32 blocks and their 4-, 2- and
 * 1-vector rests), from misaligned buffers and fed in pieces, so that the
 * accumulator carries between calls; dot products by mul against a
 * one-block update; and the registry kernel's known answers and
 * self-test. */
#include <stdlib.h>
#include <string.h>

#include "../../kernels/polyval/polyval.h"
#include "../../kernels/registry.h"
#include "check.h"
#include "vectors.h"

#define MAX_BLOCKS 384
#define TRIALS 200

static int usable(const polyval_impl *impl)
{
    if (cpu_supports(impl->v.required))
        return 1;
    SKIP("%s not supported by this CPU", impl->v.isa);
    return 0;
}

static const polyval_impl *generic_row(void)
{
    return polyval_find("generic");
}

static void test_vectors(const polyval_impl *impl, const json_t *doc)
{
    size_t n = 0;
    CASE("polyval google/hctr2 Polyval.json @%s", impl->v.isa);
    if (!usable(impl) || !CHECK(doc && json_is_array(doc), "no vectors"))
        return;
    for (size_t i = 0; i < json_array_size(doc); i++, n++) {
        const json_t *t = json_array_get(doc, i),
                     *input = json_object_get(t, "input");
        size_t key_len, msg_len, want_len;
        uint8_t *key = hex_decode(vector_string(input, "key_hex"), &key_len);
        uint8_t *msg =
            hex_decode(vector_string(input, "message_hex"), &msg_len);
        uint8_t *want = hex_decode(vector_string(t, "hash_hex"), &want_len);
        uint8_t got[16];
        polyval_hash(impl, got, key, msg, msg_len);
        CHECK(key_len == 16 && want_len == 16 && memcmp(got, want, 16) == 0,
              "%s (%zu bytes): got %s", vector_string(t, "description"),
              msg_len, check_hex(got, 16));
        free(key);
        free(msg);
        free(want);
    }
    CHECK(n == 45, "%zu vectors, expected 45", n);
}

/* Block counts around every batch and rest boundary of every row. */
static const size_t edge_blocks[] = {
    0, 1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 15, 16, 17, 23, 24, 28, 31, 32, 33,
    35, 36, 39, 40, 47, 48, 60, 63, 64, 65, 95, 96, 97, 127, 128, 129, 383,
};

static void one_differential(const polyval_impl *impl, const uint8_t *h,
                             const uint8_t *acc0, const uint8_t *msg,
                             size_t nblocks, const char *what)
{
    polyval_key kg, ki;
    uint8_t want[16], got[16];
    memcpy(want, acc0, 16);
    memcpy(got, acc0, 16);
    generic_row()->init(&kg, h);
    generic_row()->update(&kg, want, msg, nblocks);
    impl->init(&ki, h);
    impl->update(&ki, got, msg, nblocks);
    CHECK(memcmp(got, want, 16) == 0, "%s, %zu blocks: got %s", what, nblocks,
          check_hex(got, 16));
}

static void test_differential(const polyval_impl *impl)
{
    static uint8_t buf[16 * MAX_BLOCKS + 64];
    uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)impl->v.isa[0];
    uint8_t h[16], acc0[16];
    CASE("polyval @%s == generic on random keys, batch edges, misaligned",
         impl->v.isa);
    if (!usable(impl))
        return;
    for (size_t i = 0; i < sizeof edge_blocks / sizeof *edge_blocks; i++) {
        size_t offset = check_random(&seed) % 64;
        check_fill_random(h, 16, &seed);
        check_fill_random(acc0, 16, &seed);
        check_fill_random(buf, sizeof buf, &seed);
        one_differential(impl, h, acc0, buf + offset, edge_blocks[i],
                         "edge length, carried accumulator");
    }
    for (int t = 0; t < TRIALS; t++) {
        size_t nblocks = check_random(&seed) % (MAX_BLOCKS + 1);
        size_t offset = check_random(&seed) % 64;
        check_fill_random(h, 16, &seed);
        memset(acc0, 0, 16);
        check_fill_random(buf, sizeof buf, &seed);
        one_differential(impl, h, acc0, buf + offset, nblocks, "random");
    }
    /* All ones: every product term is set. */
    memset(h, 0xff, 16);
    memset(acc0, 0xff, 16);
    memset(buf, 0xff, sizeof buf);
    one_differential(impl, h, acc0, buf, MAX_BLOCKS, "all 0xff");
}

/* One update over n blocks == updates over its pieces. */
/* A key made for updates of at most n blocks (polyval_init_upto, the
 * powers H^1 .. H^n alone where the row makes them so) hashes n blocks as
 * the whole key does, for n across the doublings' edges; the rest of the
 * key, left as it was, is filled with junk first. */
static void test_init_upto(const polyval_impl *impl)
{
    static uint8_t buf[16 * 40];
    uint64_t seed = 0x51d0 ^ (uint64_t)impl->v.isa[0];
    CASE("polyval @%s: a key for n blocks hashes n blocks as the whole key, "
         "n = 1-40", impl->v.isa);
    if (!usable(impl))
        return;
    for (size_t n = 1; n <= 40; n++) {
        polyval_key full, upto;
        uint8_t h[16], want[16] = { 0 }, got[16] = { 0 };
        check_fill_random(h, 16, &seed);
        check_fill_random(buf, 16 * n, &seed);
        check_fill_random((uint8_t *)&upto, sizeof upto, &seed);
        impl->init(&full, h);
        polyval_init_upto(impl, &upto, h, n);
        impl->update(&full, want, buf, n);
        impl->update(&upto, got, buf, n);
        CHECK(memcmp(got, want, 16) == 0, "%zu blocks: got %s", n,
              check_hex(got, 16));
    }
}

/* polyval_wipe_upto zeroes every power init_upto wrote, and for a row
 * with init_upto no more than the first power of two at or above the
 * blocks (and a row's four lanes): the key starts as a pattern, and after
 * the two each power is zero or still the pattern, the zeroed ones the
 * top ones (H down). */
static void test_wipe_upto(const polyval_impl *impl)
{
    CASE("polyval @%s: wipe_upto zeroes what init_upto wrote, the top "
         "powers only, n = 1-40", impl->v.isa);
    if (!usable(impl))
        return;
    for (size_t n = 1; n <= 40; n++) {
        polyval_key k, pattern;
        uint8_t h[16];
        uint64_t seed = 0x3d1e ^ n;
        size_t zeroed = 0, lowest = POLYVAL_POWERS, other = 0, most = 4;
        while (most < n && most < POLYVAL_POWERS)
            most *= 2;
        check_fill_random(h, 16, &seed);
        memset(&pattern, 0xa5, sizeof pattern);
        k = pattern;
        polyval_init_upto(impl, &k, h, n);
        polyval_wipe_upto(impl, &k, n);
        for (size_t i = 0; i < POLYVAL_POWERS; i++) {
            if (check_all_zero(k.pow[i], 16) && check_all_zero(k.kpow[i], 16)) {
                zeroed++;
                lowest = i < lowest ? i : lowest;
            } else if (memcmp(k.pow[i], pattern.pow[i], 16) ||
                       memcmp(k.kpow[i], pattern.kpow[i], 16)) {
                other++;
            }
        }
        CHECK(other == 0 && zeroed >= 1 && lowest == POLYVAL_POWERS - zeroed,
              "%zu blocks: %zu powers written and left, %zu zeroed from "
              "pow[%zu]", n, other, zeroed, lowest);
        CHECK(!impl->init_upto || zeroed <= most,
              "%zu blocks: %zu powers zeroed, more than %zu", n, zeroed, most);
    }
}

static void test_pieces(const polyval_impl *impl)
{
    static uint8_t msg[16 * MAX_BLOCKS];
    uint64_t seed = 42;
    uint8_t h[16];
    polyval_key k;
    CASE("polyval @%s: the accumulator carries across update calls",
         impl->v.isa);
    if (!usable(impl))
        return;
    for (int t = 0; t < TRIALS; t++) {
        size_t n = check_random(&seed) % MAX_BLOCKS + 1, done = 0;
        uint8_t whole[16] = { 0 }, pieces[16] = { 0 };
        check_fill_random(h, 16, &seed);
        check_fill_random(msg, 16 * n, &seed);
        impl->init(&k, h);
        impl->update(&k, whole, msg, n);
        while (done < n) {
            size_t step = check_random(&seed) % 40;
            step = step > n - done ? n - done : step;
            impl->update(&k, pieces, msg + 16 * done, step);
            done += step;
        }
        if (!CHECK(memcmp(whole, pieces, 16) == 0, "%zu blocks in pieces", n))
            return;
    }
}

/* mul(x, h) is the one-block hash, in place too; finish pads with zeros. */
static void test_mul_and_finish(const polyval_impl *impl)
{
    uint64_t seed = 7;
    polyval_key k;
    CASE("polyval @%s: mul == one-block update, finish zero-pads",
         impl->v.isa);
    if (!usable(impl))
        return;
    for (int t = 0; t < TRIALS; t++) {
        uint8_t x[16], h[16], want[16] = { 0 }, got[16], tail[16] = { 0 };
        uint8_t acc[16] = { 0 }, padded[16] = { 0 };
        size_t len = (size_t)t % 16;
        check_fill_random(x, 16, &seed);
        check_fill_random(h, 16, &seed);
        impl->init(&k, h);
        impl->update(&k, want, x, 1);
        impl->mul(got, x, h);
        CHECK(memcmp(got, want, 16) == 0, "mul: got %s", check_hex(got, 16));
        memcpy(got, x, 16);
        impl->mul(got, got, h);
        CHECK(memcmp(got, want, 16) == 0, "mul in place");
        memcpy(tail, x, len);
        polyval_finish(impl, &k, acc, x, len);
        if (len)
            impl->update(&k, padded, tail, 1);
        CHECK(memcmp(acc, padded, 16) == 0, "finish of %zu bytes", len);
    }
}

static void test_kernel(void)
{
    const kernel *k = &kernel_polyval;
    const isa_variant *v;
    char err[256];
    for (size_t i = 0; (v = kernel_variant_at(k, i)); i++) {
        CASE("polyval kernel @%s: known answers and self-test", v->isa);
        if (!kernel_variant_usable(k, v)) {
            SKIP("%s not supported by this CPU", v->isa);
            continue;
        }
        CHECK(kernel_self_test(k, v, err, sizeof err) == 0, "%s", err);
    }
}

int main(void)
{
    json_t *doc = vector_json("polyval.json");
    for (const polyval_impl *impl = polyval_impls; impl->v.isa; impl++) {
        test_vectors(impl, doc);
        test_differential(impl);
        test_init_upto(impl);
        test_wipe_upto(impl);
        test_pieces(impl);
        test_mul_and_finish(impl);
    }
    test_kernel();
    if (doc)
        json_decref(doc);
    return check_finish();
}
