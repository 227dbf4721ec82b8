/* Poly1305: RFC 8439's known answers (2.5.2 and the reduction edge cases of
 * A.3) on every ISA, all-0xff keys and messages that carry through every
 * limb, messages fed in pieces, differentials against libsodium and OpenSSL
 * over random lengths and misaligned buffers, and every ISA against
 * generic at every length to 2100 bytes. The avx512 file also runs on
 * emulated zmm intrinsics (tests/c/emulated/emulated.h). */
#include <openssl/evp.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/kernel.h"
#include "../../kernels/poly1305/poly1305.h"
#include "check.h"
#include "vectors.h"

#define MAX_LEN 4096
#define TRIALS 300
#define EVERY_LEN_MAX 20000

#if defined(__x86_64__)
#include "emulated/emulated.h"

/* poly1305_avx512.c on stand-in intrinsics; like the real row it hands
 * mid-length calls to the real avx2 function. */
poly1305_blocks_fn poly1305_blocks_avx512_emulated;
static const poly1305_impl avx512_emulated = {
    { "avx512 (emulated zmm)", EMULATED_CPU | CPU_AVX2 },
    poly1305_blocks_avx512_emulated,
};
#endif

static int usable(const poly1305_impl *impl)
{
    if (cpu_supports(impl->v.required))
        return 1;
    SKIP("%s not supported by this CPU", impl->v.isa);
    return 0;
}

static void test_known_answers(const poly1305_impl *impl)
{
    size_t n;
    kv_record *recs = kv_load(vector_path("poly1305_kat.txt"), &n);
    CASE("poly1305 RFC 8439 2.5.2 and A.3 known answers @%s", impl->v.isa);
    if (!usable(impl) ||
        !CHECK(recs && n == 12, "poly1305_kat.txt: %zu records", n))
        goto done;
    for (size_t i = 0; i < n; i++) {
        size_t key_len, msg_len, tag_len;
        uint8_t *key = hex_decode(kv_get(&recs[i], "key"), &key_len);
        uint8_t *msg = hex_decode(kv_get(&recs[i], "message"), &msg_len);
        uint8_t *tag = hex_decode(kv_get(&recs[i], "tag"), &tag_len);
        uint8_t got[POLY1305_TAG_BYTES];
        poly1305_auth(impl, got, msg, msg_len, key);
        CHECK(key_len == 32 && tag_len == 16 && memcmp(got, tag, 16) == 0,
              "%s: got %s", kv_get(&recs[i], "name"), check_hex(got, 16));
        free(key);
        free(msg);
        free(tag);
    }
done:
    if (recs)
        kv_free(recs, n);
}

/* r and s at their largest (r as clamped), and h kept near 2^130 by
 * messages of 0xff: every limb carries on every block. */
static void test_all_ones(const poly1305_impl *impl)
{
    static uint8_t ones[MAX_LEN];
    uint8_t key[32], got[16], want[16];
    CASE("poly1305 all-0xff keys and messages vs libsodium @%s", impl->v.isa);
    if (!usable(impl))
        return;
    memset(ones, 0xff, sizeof ones);
    memset(key, 0xff, sizeof key);
    for (size_t len = 0; len <= MAX_LEN; len += len < 300 ? 1 : 61) {
        poly1305_auth(impl, got, ones, len, key);
        crypto_onetimeauth_poly1305(want, ones, len, key);
        if (!CHECK(memcmp(got, want, 16) == 0, "len %zu: got %s", len,
                   check_hex(got, 16)))
            return;
    }
    /* r all ones with s zero, and the reverse. */
    for (int half = 0; half < 2; half++) {
        memset(key, 0, sizeof key);
        memset(key + 16 * half, 0xff, 16);
        poly1305_auth(impl, got, ones, MAX_LEN, key);
        crypto_onetimeauth_poly1305(want, ones, MAX_LEN, key);
        CHECK(memcmp(got, want, 16) == 0, "only %s all ones: got %s",
              half ? "s" : "r", check_hex(got, 16));
    }
}

/* How much of a message the next call takes, in bytes (whole blocks). */
typedef size_t piece_fn(uint64_t *seed);

/* Some pieces too short for the vector path, some long. */
static size_t listed_piece(uint64_t *seed)
{
    static const size_t pieces[] = { 0, 16, 48, 64, 112, 128, 144, 512, 1040 };
    return pieces[check_random(seed) % 9];
}

/* 0 to 39 blocks. */
static size_t any_piece(uint64_t *seed)
{
    return (check_random(seed) % 40) * 16;
}

/* The state carries between calls: the vector paths convert on entry and
 * exit and compute their powers of r once. The whole blocks go in pieces,
 * then the padded last one. */
static void auth_in_pieces(const poly1305_impl *impl, uint8_t tag[16],
                           const uint8_t *in, size_t len, const uint8_t *key,
                           piece_fn *piece, uint64_t *seed)
{
    poly1305_state st;
    size_t done = 0, full = len - len % 16;
    poly1305_init(&st, key);
    while (done < full) {
        size_t step = piece(seed);
        if (step > full - done)
            step = full - done;
        impl->blocks(&st, in + done, step, 1);
        done += step;
    }
    if (full < len) {
        uint8_t last[16] = { 0 };
        memcpy(last, in + full, len - full);
        last[len - full] = 1;
        impl->blocks(&st, last, 16, 0);
    }
    poly1305_finish(&st, tag);
}

/* Every length to 2100 bytes (every vector path's entry and tail, and the
 * hand-offs between widths) and every 97th to 20000; random keys and
 * misaligned messages, then all 0xff; whole and in pieces. */
static void test_every_length(const poly1305_impl *impl,
                              const poly1305_impl *generic)
{
    static uint8_t buf[EVERY_LEN_MAX + 16];
    uint64_t seed = 99;
    CASE("poly1305 == generic at every length to 2100 and to 20000 in steps "
         "of 97, random and all-0xff, whole and in pieces @%s", impl->v.isa);
    if (!usable(impl))
        return;
    for (size_t len = 0; len <= EVERY_LEN_MAX; len += len < 2100 ? 1 : 97) {
        for (int ones = 0; ones < 2; ones++) {
            uint8_t key[32], got[16], pieces[16], want[16];
            uint8_t *in = buf + (ones ? 0 : check_random(&seed) % 16);
            if (ones) {
                memset(key, 0xff, sizeof key);
                memset(in, 0xff, len);
            } else {
                check_fill_random(key, sizeof key, &seed);
                check_fill_random(in, len, &seed);
            }
            poly1305_auth(generic, want, in, len, key);
            poly1305_auth(impl, got, in, len, key);
            auth_in_pieces(impl, pieces, in, len, key, any_piece, &seed);
            CHECK(memcmp(got, want, 16) == 0 && memcmp(pieces, want, 16) == 0,
                  "len %zu %s: %s", len, ones ? "all 0xff" : "random",
                  memcmp(got, want, 16) ? "whole" : "in pieces");
        }
    }
}

static int openssl_poly1305(uint8_t tag[16], const uint8_t *in, size_t len,
                            const uint8_t key[32])
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
    EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
    size_t out_len = 0;
    int ok = ctx && EVP_MAC_init(ctx, key, 32, NULL) &&
             EVP_MAC_update(ctx, in, len) &&
             EVP_MAC_final(ctx, tag, &out_len, 16) && out_len == 16;
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
    return ok;
}

static void test_vs_libraries(const poly1305_impl *impl)
{
    static uint8_t buf[MAX_LEN + 16];
    uint64_t seed = 5;
    CASE("poly1305 vs libsodium and OpenSSL, random lengths, misaligned, "
         "in pieces @%s", impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        uint8_t key[32], got[16], pieces[16], want[16], evp[16];
        size_t len = check_random(&seed) % (MAX_LEN + 1);
        uint8_t *in = buf + check_random(&seed) % 16;
        check_fill_random(key, sizeof key, &seed);
        check_fill_random(in, len, &seed);
        poly1305_auth(impl, got, in, len, key);
        auth_in_pieces(impl, pieces, in, len, key, listed_piece, &seed);
        crypto_onetimeauth_poly1305(want, in, len, key);
        CHECK(memcmp(got, want, 16) == 0, "len %zu: libsodium disagrees", len);
        CHECK(memcmp(pieces, want, 16) == 0, "len %zu in pieces differs", len);
        if (CHECK(openssl_poly1305(evp, in, len, key), "EVP POLY1305 failed"))
            CHECK(memcmp(got, evp, 16) == 0, "len %zu: OpenSSL disagrees",
                  len);
    }
}

/* The registry's self-test (known answers and generic at awkward lengths)
 * for our kernel and libsodium's, as `bench` runs it before timing. */
static void test_self_tests(void)
{
    static const char *const names[] = { "poly1305", "sodium:poly1305" };
    for (size_t i = 0; i < 2; i++) {
        const kernel *k = kernel_find(names[i]);
        const isa_variant *v;
        char err[256];
        for (size_t j = 0; k && (v = kernel_variant_at(k, j)); j++) {
            CASE("%s@%s passes kernel_self_test", names[i], v->isa);
            if (!kernel_variant_usable(k, v)) {
                SKIP("%s not supported by this CPU", v->isa);
                continue;
            }
            CHECK(kernel_self_test(k, v, err, sizeof err) == 0, "%s", err);
        }
        if (!k) {
            CASE("%s is registered", names[i]);
            CHECK(0, "kernel_find(\"%s\") is NULL", names[i]);
        }
    }
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const poly1305_impl *impls[8], *generic = NULL;
    size_t n = 0;
    for (const poly1305_impl *impl = poly1305_impls; impl->v.isa; impl++)
        impls[n++] = generic = impl;
#if defined(__x86_64__)
    impls[n++] = &avx512_emulated;
#endif
    for (size_t i = 0; i < n; i++) {
        test_known_answers(impls[i]);
        test_all_ones(impls[i]);
        test_vs_libraries(impls[i]);
        test_every_length(impls[i], generic);
    }
    test_self_tests();
    return check_finish();
}
