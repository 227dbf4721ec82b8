/* ChaCha: known answers on every ISA, and differentials against libsodium
 * and OpenSSL over random lengths, counters that carry, misaligned and
 * in-place buffers. */
#include <openssl/evp.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/chacha/chacha.h"
#include "check.h"
#include "peers.h"
#include "vectors.h"

#define MAX_LEN 4096
#define TRIALS 150

static int usable(const chacha_impl *impl)
{
    if (cpu_supports(impl->v.required))
        return 1;
    SKIP("%s not supported by this CPU", impl->v.isa);
    return 0;
}

/* A 12-byte nonce selects the IETF layout, an 8-byte one DJB's. */
static void apply_layout(const chacha_impl *impl, uint8_t *out,
                         const uint8_t *in, size_t len, const uint8_t *key,
                         const uint8_t *nonce, size_t nonce_len,
                         uint64_t counter, unsigned rounds)
{
    if (nonce_len == CHACHA_IETF_NONCE_BYTES)
        chacha_ietf_xor(impl, out, in, len, key, nonce, (uint32_t)counter,
                        rounds);
    else
        chacha_djb_xor(impl, out, in, len, key, nonce, counter, rounds);
}

static void test_known_answers(const chacha_impl *impl)
{
    size_t n;
    kv_record *recs = kv_load(vector_path("chacha_kat.txt"), &n);
    CASE("chacha known answers (RFC 8439, Strombergson 8/12/20) @%s",
         impl->v.isa);
    if (!usable(impl) || !CHECK(recs && n >= 10, "chacha_kat.txt: %zu records", n))
        goto done;
    for (size_t i = 0; i < n; i++) {
        size_t key_len, nonce_len, pt_len, ct_len;
        uint8_t *key = hex_decode(kv_get(&recs[i], "key"), &key_len);
        uint8_t *nonce = hex_decode(kv_get(&recs[i], "nonce"), &nonce_len);
        uint8_t *pt = hex_decode(kv_get(&recs[i], "plaintext"), &pt_len);
        uint8_t *ct = hex_decode(kv_get(&recs[i], "ciphertext"), &ct_len);
        unsigned rounds = (unsigned)atoi(kv_get(&recs[i], "rounds"));
        uint64_t counter = strtoull(kv_get(&recs[i], "counter"), NULL, 10);
        uint8_t *out = malloc(pt_len + 1);
        apply_layout(impl, out, pt, pt_len, key, nonce, nonce_len, counter,
                     rounds);
        CHECK(ct_len == pt_len && memcmp(out, ct, ct_len) == 0,
              "%s: got %s", kv_get(&recs[i], "name"), check_hex(out, pt_len));
        /* Decryption is the same operation; here in place. */
        apply_layout(impl, out, out, pt_len, key, nonce, nonce_len, counter,
                     rounds);
        CHECK(memcmp(out, pt, pt_len) == 0, "%s: in-place decrypt",
              kv_get(&recs[i], "name"));
        free(key); free(nonce); free(pt); free(ct); free(out);
    }
done:
    if (recs)
        kv_free(recs, n);
}

/* HChaCha20 from draft-irtf-cfrg-xchacha section 2.2.1. */
static void test_hchacha(const chacha_impl *impl)
{
    static const uint8_t nonce[16] = { 0x00, 0x00, 0x00, 0x09, 0x00, 0x00,
                                       0x00, 0x4a, 0x00, 0x00, 0x00, 0x00,
                                       0x31, 0x41, 0x59, 0x27 };
    uint8_t key[32], out[32], want[32];
    size_t want_len;
    uint8_t *expected = hex_decode(
        "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc",
        &want_len);
    CASE("hchacha20 draft-irtf-cfrg-xchacha 2.2.1 and libsodium @%s",
         impl->v.isa);
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    if (usable(impl)) {
        impl->hchacha(out, key, nonce, 20);
        CHECK(memcmp(out, expected, 32) == 0, "got %s", check_hex(out, 32));
        crypto_core_hchacha20(want, nonce, key, NULL);
        CHECK(memcmp(out, want, 32) == 0, "libsodium disagrees");
    }
    free(expected);
}

/* A random trial's buffers: misaligned by a random offset, sometimes in
 * place (out == in). */
typedef struct trial {
    uint8_t key[32], nonce[24];
    uint8_t *in, *out;
    size_t len;
    uint64_t counter;
    int in_place;
} trial;

static uint8_t in_buf[MAX_LEN + 64], out_buf[MAX_LEN + 64], want[MAX_LEN];

static trial random_trial(uint64_t *seed)
{
    trial t;
    check_fill_random(t.key, sizeof t.key, seed);
    check_fill_random(t.nonce, sizeof t.nonce, seed);
    t.len = check_random(seed) % (MAX_LEN + 1);
    t.in_place = check_random(seed) % 4 == 0;
    t.in = in_buf + check_random(seed) % 16;
    t.out = t.in_place ? t.in : out_buf + check_random(seed) % 16;
    check_fill_random(t.in, t.len, seed);
    t.counter = check_random(seed);
    return t;
}

/* The DJB counter must cross 2^32 within the message in some trials:
 * a start just below the carry. */
static uint64_t carrying_counter(uint64_t r, size_t len)
{
    return (r & 1) ? 0xffffffffULL - (r >> 1) % (len / 64 + 2)
                   : (r >> 1) % 1000;
}

static void test_djb_vs_libsodium(const chacha_impl *impl)
{
    uint64_t seed = 1;
    CASE("chacha20 DJB vs libsodium crypto_stream_chacha20_xor_ic @%s",
         impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        trial t = random_trial(&seed);
        uint64_t ic = carrying_counter(t.counter, t.len);
        crypto_stream_chacha20_xor_ic(want, t.in, t.len, t.nonce, ic, t.key);
        chacha_djb_xor(impl, t.out, t.in, t.len, t.key, t.nonce, ic, 20);
        CHECK(memcmp(t.out, want, t.len) == 0,
              "len %zu counter %llu in_place %d", t.len,
              (unsigned long long)ic, t.in_place);
    }
}

/* A message of many batches whose counter carries in the middle: the
 * batches before the carry, the one it falls in, and those after it (word
 * 13 one higher) each start right. The avx512 row's batches after the
 * first take columns 1-3 of the first round from words computed once for
 * a value of word 13; these see that value change. */
static void test_djb_carry_midway(const chacha_impl *impl)
{
    static uint8_t in[12288], out[sizeof in], ref[sizeof in];
    static const uint8_t key[32] = { 7 }, nonce[8] = { 9 };
    uint64_t seed = 5;
    CASE("chacha20 DJB vs libsodium, 12 KiB, the carry at blocks 40-140 @%s",
         impl->v.isa);
    if (!usable(impl))
        return;
    check_fill_random(in, sizeof in, &seed);
    for (uint64_t at = 40; at <= 140; at += 20) {
        uint64_t ic = ((uint64_t)1 << 32) - at;
        crypto_stream_chacha20_xor_ic(ref, in, sizeof in, nonce, ic, key);
        chacha_djb_xor(impl, out, in, sizeof in, key, nonce, ic, 20);
        CHECK(memcmp(out, ref, sizeof in) == 0, "carry at block %llu",
              (unsigned long long)at);
    }
}

static void test_ietf_vs_libsodium(const chacha_impl *impl)
{
    uint64_t seed = 2;
    CASE("chacha20 IETF vs libsodium crypto_stream_chacha20_ietf_xor_ic @%s",
         impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        trial t = random_trial(&seed);
        /* Up to the last block the 32-bit counter allows. */
        uint32_t ic = (uint32_t)(0xffffffffULL - t.len / 64 -
                                 t.counter % 1000 - 1);
        if (!CHECK(chacha_ietf_fits(ic, t.len), "counter %u should fit", ic))
            continue;
        crypto_stream_chacha20_ietf_xor_ic(want, t.in, t.len, t.nonce, ic,
                                           t.key);
        chacha_ietf_xor(impl, t.out, t.in, t.len, t.key, t.nonce, ic, 20);
        CHECK(memcmp(t.out, want, t.len) == 0, "len %zu counter %u", t.len, ic);
    }
    CHECK(!chacha_ietf_fits(0xffffffffULL, 65), "wrap must be refused");
    CHECK(chacha_ietf_fits(0xffffffffULL, 64), "last block must be allowed");
}

static void test_xchacha_vs_libsodium(const chacha_impl *impl)
{
    uint64_t seed = 3;
    CASE("xchacha20 vs libsodium crypto_stream_xchacha20_xor_ic @%s",
         impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        trial t = random_trial(&seed);
        uint64_t ic = carrying_counter(t.counter, t.len);
        crypto_stream_xchacha20_xor_ic(want, t.in, t.len, t.nonce, ic, t.key);
        xchacha_xor(impl, t.out, t.in, t.len, t.key, t.nonce, ic, 20);
        CHECK(memcmp(t.out, want, t.len) == 0, "len %zu counter %llu", t.len,
              (unsigned long long)ic);
    }
}

/* EVP_chacha20's 16-byte IV is the whole of row 3: a 32-bit counter and a
 * 96-bit nonce, with the counter carrying into the next word like DJB's. */
static int openssl_chacha20(uint8_t *out, const uint8_t *in, size_t len,
                            const uint8_t key[32], const uint8_t row3[16])
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int outl = 0, ok = ctx && EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL,
                                                 key, row3) &&
                       EVP_EncryptUpdate(ctx, out, &outl, in, (int)len);
    EVP_CIPHER_CTX_free(ctx);
    return ok && (size_t)outl == len;
}

static void test_vs_openssl(const chacha_impl *impl)
{
    uint64_t seed = 4;
    CASE("chacha20 DJB vs OpenSSL EVP_chacha20 @%s", impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        trial t = random_trial(&seed);
        uint8_t row3[16];
        uint64_t ic = carrying_counter(t.counter, t.len);
        for (int b = 0; b < 8; b++)
            row3[b] = (uint8_t)(ic >> (8 * b));
        memcpy(row3 + 8, t.nonce, 8);
        if (!CHECK(openssl_chacha20(want, t.in, t.len, t.key, row3),
                   "EVP_chacha20 failed"))
            continue;
        chacha_djb_xor(impl, t.out, t.in, t.len, t.key, t.nonce, ic, 20);
        CHECK(memcmp(t.out, want, t.len) == 0, "len %zu counter %llu", t.len,
              (unsigned long long)ic);
    }
}

/* Two streams at once against each alone on generic, at every length
 * 0-1100 (both sides of every pass and of the avx512 row's hand-over to
 * rows), with different keys, nonces and counters, one or both of which
 * carry out of word 12 in some lengths; in place for every third length. */
static void test_two_streams(const chacha_impl *impl)
{
    enum { LEN2 = 1100 };
    static uint8_t in[2][LEN2 + 16], out[2][LEN2 + 16], want[2][LEN2];
    const chacha_impl *generic = impl;
    uint64_t seed = 5;
    while (generic[1].v.isa)
        generic++;
    CASE("chacha20 two streams == each alone on generic, lengths 0-%d, "
         "counters that carry @%s", LEN2, impl->v.isa);
    if (!usable(impl))
        return;
    for (size_t len = 0; len <= LEN2; len++) {
        uint8_t key[2][32], row3[2][16];
        uint8_t *o[2], *i2[2];
        const uint8_t *k[2] = { key[0], key[1] }, *r[2] = { row3[0], row3[1] };
        int in_place = len % 3 == 0;
        for (int j = 0; j < 2; j++) {
            uint64_t counter = carrying_counter(check_random(&seed), len);
            check_fill_random(key[j], 32, &seed);
            check_fill_random(row3[j], 16, &seed);
            for (int b = 0; b < 8; b++)
                row3[j][b] = (uint8_t)(counter >> (8 * b));
            i2[j] = in[j] + (len + j) % 16;
            o[j] = in_place ? i2[j] : out[j] + (len + 3 * j) % 16;
            check_fill_random(i2[j], len, &seed);
            generic->stream_xor(want[j], i2[j], len, key[j], row3[j], 20);
        }
        chacha_stream_xor2(impl, o, (const uint8_t *const *)i2, len, k, r, 20);
        for (int j = 0; j < 2; j++)
            if (!CHECK(memcmp(o[j], want[j], len) == 0,
                       "stream %d len %zu in_place %d", j, len, in_place))
                return;
    }
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    for (const chacha_impl *impl = chacha_impls; impl->v.isa; impl++) {
        test_known_answers(impl);
        test_hchacha(impl);
        test_djb_vs_libsodium(impl);
        test_djb_carry_midway(impl);
        test_ietf_vs_libsodium(impl);
        test_xchacha_vs_libsodium(impl);
        test_vs_openssl(impl);
        test_two_streams(impl);
    }
    check_gcrypt_peer("gcrypt:chacha20", 300, 60);
    return check_finish();
}
