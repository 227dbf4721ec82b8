/* Ascon-AEAD128: every Wycheproof vector (NIST SP 800-232's algorithm, 252
 * cases, valid and invalid) on every row, invalid ones releasing only
 * zeros; every row against generic on random keys, nonces and AAD at
 * lengths around every 16-byte block, misaligned and in place, opened
 * back; a flipped bit of ciphertext, tag or AAD refused; and the registry
 * kernel's contract (self-test, a bad tag, refused arguments). The same
 * for eight messages at once (ascon_aead128_encrypt_x8, the lanes form of
 * each row, and the kernel ascon-aead128-x8): each Wycheproof case in
 * each of the eight lanes beside random messages, and every lane against
 * generic's one-message code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/ascon/ascon.h"
#include "../../kernels/registry.h"
#include "check.h"
#include "vectors.h"
#include "wycheproof.h"

#define MAX_LEN 1100
#define MAX_AAD 300
#define FORGERIES 200

static const ascon_impl *generic_row(void)
{
    return (const ascon_impl *)isa_table_find(
        &ascon_impls[0].v, sizeof ascon_impls[0], "generic");
}

static uint8_t sealed[MAX_LEN + ASCON_TAG_BYTES + 32],
    opened[MAX_LEN + 32], want[MAX_LEN + ASCON_TAG_BYTES], plain[MAX_LEN],
    aad[MAX_AAD];

typedef struct wycheproof_run {
    const ascon_impl *impl;
    size_t valid, invalid;
} wycheproof_run;

/* Seal the message and compare with ct || tag (valid cases), then open
 * ct || tag into a buffer of 0xa5: valid to the message, invalid refused
 * with zeros in place of the plaintext and nothing written past it. */
static void wycheproof_check(void *ctx, const wycheproof_vector *v)
{
    wycheproof_run *run = ctx;
    if (!CHECK(v->key_len == ASCON_KEY_BYTES &&
                   v->iv_len == ASCON_NONCE_BYTES &&
                   v->tag_len == ASCON_TAG_BYTES && v->ct_len == v->msg_len &&
                   v->msg_len <= MAX_LEN,
               "tcId %d: a vector of another shape", v->id))
        return;
    size_t len = v->msg_len;
    memcpy(want, v->ct, len);
    memcpy(want + len, v->tag, ASCON_TAG_BYTES);
    if (v->valid) {
        run->valid++;
        ascon_aead128_seal(run->impl, v->key, v->iv, v->aad, v->aad_len,
                           sealed, v->msg, len);
        CHECK(memcmp(sealed, want, len + ASCON_TAG_BYTES) == 0,
              "tcId %d: sealed %s", v->id,
              check_hex(sealed, len + ASCON_TAG_BYTES));
    } else {
        run->invalid++;
    }
    memset(opened, 0xa5, len + 1);
    int rc = ascon_aead128_open(run->impl, v->key, v->iv, v->aad, v->aad_len,
                                opened, want, len);
    if (v->valid)
        CHECK(rc == 0 && memcmp(opened, v->msg, len) == 0 &&
                  opened[len] == 0xa5,
              "tcId %d: does not open", v->id);
    else
        CHECK(rc != 0 && check_all_zero(opened, len) && opened[len] == 0xa5,
              "tcId %d (%s): %s", v->id, "invalid",
              rc == 0 ? "accepted" : "released plaintext");
}

static void test_wycheproof(const ascon_impl *impl, const json_t *doc)
{
    wycheproof_run run = { impl, 0, 0 };
    CASE("ascon-aead128@%s: Wycheproof (wycheproof_ascon_aead128_test.json)",
         impl->v.isa);
    if (!check_usable(&impl->v))
        return;
    size_t n = wycheproof_walk(doc, wycheproof_check, &run);
    CHECK(n == 252 && run.valid == 128 && run.invalid == 124,
          "%zu vectors, %zu valid, %zu invalid", n, run.valid, run.invalid);
}

/* Lengths 0-300 one by one, then each side of every multiple of 16 to
 * MAX_LEN; AAD none, within a few blocks, or up to MAX_AAD. */
static void test_vs_generic(const ascon_impl *impl)
{
    const ascon_impl *ref = generic_row();
    uint64_t seed = 0xa5c0;
    CASE("ascon-aead128@%s against generic: random key, nonce and AAD, "
         "lengths 0-%d, misaligned and in place, opened back", impl->v.isa,
         MAX_LEN);
    if (!check_usable(&impl->v))
        return;
    for (size_t len = 0; len <= MAX_LEN; len += len < 300 ? 1 : 8) {
        uint8_t key[16], nonce[16];
        uint64_t r = check_random(&seed);
        size_t aad_len = r % 3 == 0 ? 0
                         : r % 3 == 1 ? (r >> 8) % 50
                                      : (r >> 8) % (MAX_AAD + 1);
        int in_place = check_random(&seed) % 4 == 0;
        uint8_t *in = sealed + check_random(&seed) % 16,
                *out = in_place ? in : opened + check_random(&seed) % 16;
        check_fill_random(key, sizeof key, &seed);
        check_fill_random(nonce, sizeof nonce, &seed);
        check_fill_random(aad, aad_len, &seed);
        check_fill_random(plain, len, &seed);
        memcpy(in, plain, len);
        ascon_aead128_seal(ref, key, nonce, aad, aad_len, want, plain, len);
        ascon_aead128_seal(impl, key, nonce, aad, aad_len, out, in, len);
        if (!CHECK(memcmp(out, want, len + ASCON_TAG_BYTES) == 0,
                   "sealing differs: len %zu aad %zu in_place %d", len,
                   aad_len, in_place))
            continue;
        int rc = ascon_aead128_open(impl, key, nonce, aad, aad_len, out, out,
                                    len);
        CHECK(rc == 0 && memcmp(out, plain, len) == 0,
              "opening in place differs: len %zu aad %zu", len, aad_len);
    }
}

static void test_forgeries(const ascon_impl *impl)
{
    uint64_t seed = 0xf0a5c0;
    CASE("ascon-aead128@%s rejects a flipped bit of ciphertext, tag or AAD",
         impl->v.isa);
    if (!check_usable(&impl->v))
        return;
    for (int i = 0; i < FORGERIES; i++) {
        uint8_t key[16], nonce[16];
        size_t len = check_random(&seed) % 300,
               aad_len = 1 + check_random(&seed) % 100;
        check_fill_random(key, sizeof key, &seed);
        check_fill_random(nonce, sizeof nonce, &seed);
        check_fill_random(aad, aad_len, &seed);
        check_fill_random(plain, len, &seed);
        ascon_aead128_seal(impl, key, nonce, aad, aad_len, want, plain, len);
        uint64_t r = check_random(&seed);
        int where = (int)(r % 3); /* 0 ciphertext, 1 tag, 2 AAD */
        if (where == 0 && len == 0)
            where = 1;
        size_t at = where == 0   ? (r >> 8) % len
                    : where == 1 ? len + (r >> 8) % ASCON_TAG_BYTES
                                 : (r >> 8) % aad_len;
        uint8_t *target = where == 2 ? aad : want;
        target[at] ^= (uint8_t)(1u << ((r >> 40) % 8));
        memset(opened, 0xa5, len + 1);
        int rc = ascon_aead128_open(impl, key, nonce, aad, aad_len, opened,
                                    want, len);
        CHECK(rc != 0 && check_all_zero(opened, len) && opened[len] == 0xa5,
              "a flipped bit in %s byte %zu (len %zu) %s",
              where == 2 ? "AAD" : "sealed", at, len,
              rc == 0 ? "was accepted" : "left plaintext in the output");
    }
}

/* Eight messages' storage for the lanes form, and generic's sealing of
 * each (ciphertext || tag) to compare with. */
static struct {
    uint8_t key[ASCON_X8][ASCON_KEY_BYTES], nonce[ASCON_X8][ASCON_NONCE_BYTES];
    uint8_t ad[ASCON_X8][MAX_AAD], plain[ASCON_X8][MAX_LEN];
    uint8_t in[ASCON_X8][MAX_LEN + 32], out[ASCON_X8][MAX_LEN + 32];
    uint8_t tag[ASCON_X8][ASCON_TAG_BYTES];
    uint8_t want[ASCON_X8][MAX_LEN + ASCON_TAG_BYTES];
} x8;

/* A batch over x8's storage: random keys, nonces, data and messages of
 * the lengths given, message j at offset off[j] of its buffers (in place
 * where in_place has bit j), and generic's sealing of each into want. */
static void x8_random_batch(ascon_batch *b, size_t len, size_t ad_len,
                            uint64_t *seed, unsigned in_place)
{
    *b = (ascon_batch){ .ad_len = ad_len, .len = len };
    for (size_t j = 0; j < ASCON_X8; j++) {
        size_t off = check_random(seed) % 16;
        check_fill_random(x8.key[j], ASCON_KEY_BYTES, seed);
        check_fill_random(x8.nonce[j], ASCON_NONCE_BYTES, seed);
        check_fill_random(x8.ad[j], ad_len, seed);
        check_fill_random(x8.plain[j], len, seed);
        memcpy(x8.in[j] + off, x8.plain[j], len);
        b->key[j] = x8.key[j];
        b->nonce[j] = x8.nonce[j];
        b->ad[j] = x8.ad[j];
        b->in[j] = x8.in[j] + off;
        b->out[j] = in_place >> j & 1 ? x8.in[j] + off
                                      : x8.out[j] + check_random(seed) % 16;
        b->tag[j] = x8.tag[j];
        ascon_aead128_seal(generic_row(), x8.key[j], x8.nonce[j], x8.ad[j],
                           ad_len, x8.want[j], x8.plain[j], len);
    }
}

/* Whether every message of b sealed to what generic sealed it to. */
static int x8_sealed_as_generic(const ascon_batch *b)
{
    int same = 1;
    for (size_t j = 0; j < ASCON_X8; j++)
        same &= memcmp(b->out[j], x8.want[j], b->len) == 0 &&
                memcmp(b->tag[j], x8.want[j] + b->len, ASCON_TAG_BYTES) == 0;
    return same;
}

typedef struct x8_wycheproof_run {
    const ascon_impl *impl;
    size_t cases;
    uint64_t seed;
} x8_wycheproof_run;

/* The case in lane `lane`, random messages of its lengths in the others:
 * sealed, the case's lane to its ct || tag (valid cases) and the others
 * to generic's; then opened with the case's ct and tag in its lane: valid
 * ones open, invalid ones are refused in that lane alone, its plaintext
 * zeroed, the other lanes opened. */
static void x8_wycheproof_lane(x8_wycheproof_run *run,
                               const wycheproof_vector *v, size_t lane)
{
    ascon_batch b;
    const uint8_t *received[ASCON_X8];
    size_t len = v->msg_len;
    x8_random_batch(&b, len, v->aad_len, &run->seed, 0);
    b.key[lane] = v->key;
    b.nonce[lane] = v->iv;
    b.ad[lane] = v->aad;
    b.in[lane] = v->msg;
    memcpy(x8.want[lane], v->ct, len);
    memcpy(x8.want[lane] + len, v->tag, ASCON_TAG_BYTES);
    if (v->valid) {
        ascon_aead128_encrypt_x8(run->impl, &b);
        CHECK(x8_sealed_as_generic(&b), "tcId %d in lane %zu: sealed %s",
              v->id, lane, check_hex(b.out[lane], len));
    }
    for (size_t j = 0; j < ASCON_X8; j++) {
        b.in[j] = x8.want[j];
        received[j] = x8.want[j] + len;
        memset(b.out[j], 0xa5, len + 1);
    }
    unsigned refused = ascon_aead128_open_x8(run->impl, &b, received);
    int opened_others = 1;
    for (size_t j = 0; j < ASCON_X8; j++)
        if (j != lane)
            opened_others &= memcmp(b.out[j], x8.plain[j], len) == 0;
    if (v->valid)
        CHECK(refused == 0 && opened_others &&
                  memcmp(b.out[lane], v->msg, len) == 0 &&
                  b.out[lane][len] == 0xa5,
              "tcId %d in lane %zu: does not open (refused %#x)", v->id,
              lane, refused);
    else
        CHECK(refused == 1u << lane && opened_others &&
                  check_all_zero(b.out[lane], len) &&
                  b.out[lane][len] == 0xa5,
              "tcId %d (invalid) in lane %zu: refused %#x, %s", v->id, lane,
              refused,
              check_all_zero(b.out[lane], len) ? "zeroed" : "released");
}

static void x8_wycheproof_check(void *ctx, const wycheproof_vector *v)
{
    x8_wycheproof_run *run = ctx;
    if (!CHECK(v->key_len == ASCON_KEY_BYTES &&
                   v->iv_len == ASCON_NONCE_BYTES &&
                   v->tag_len == ASCON_TAG_BYTES && v->ct_len == v->msg_len &&
                   v->msg_len <= MAX_LEN && v->aad_len <= MAX_AAD,
               "tcId %d: a vector of another shape", v->id))
        return;
    run->cases++;
    for (size_t lane = 0; lane < ASCON_X8; lane++)
        x8_wycheproof_lane(run, v, lane);
}

static void test_x8_wycheproof(const ascon_impl *impl, const json_t *doc)
{
    x8_wycheproof_run run = { impl, 0, 0x8a5c0 };
    CASE("ascon-aead128 x8@%s (%zu lanes): each Wycheproof case in each of "
         "the eight messages", impl->v.isa, impl->lanes);
    if (!check_usable(&impl->v))
        return;
    size_t n = wycheproof_walk(doc, x8_wycheproof_check, &run);
    CHECK(n == 252 && run.cases == 252, "%zu vectors, %zu run", n,
          run.cases);
}

/* Lengths 0-300 one by one (every partial block and the 16-byte rate
 * boundary), then each side of every multiple of 16 to MAX_LEN; AAD as
 * in test_vs_generic; some messages in place. */
static void test_x8_vs_generic(const ascon_impl *impl)
{
    uint64_t seed = 0x8a5c1;
    CASE("ascon-aead128 x8@%s (%zu lanes) against generic one message at a "
         "time: random keys, nonces, AAD, lengths 0-%d, opened back",
         impl->v.isa, impl->lanes, MAX_LEN);
    if (!check_usable(&impl->v))
        return;
    for (size_t len = 0; len <= MAX_LEN; len += len < 300 ? 1 : 8) {
        ascon_batch b;
        const uint8_t *received[ASCON_X8];
        uint64_t r = check_random(&seed);
        size_t ad_len = r % 3 == 0 ? 0
                        : r % 3 == 1 ? (r >> 8) % 50
                                     : (r >> 8) % (MAX_AAD + 1);
        unsigned in_place = (unsigned)check_random(&seed) & 0xff;
        x8_random_batch(&b, len, ad_len, &seed, in_place);
        ascon_aead128_encrypt_x8(impl, &b);
        if (!CHECK(x8_sealed_as_generic(&b),
                   "sealing differs: len %zu aad %zu in place %#x", len,
                   ad_len, in_place))
            continue;
        /* Opened in place: each ciphertext back to its plaintext. */
        for (size_t j = 0; j < ASCON_X8; j++) {
            b.in[j] = b.out[j];
            received[j] = b.tag[j];
        }
        unsigned refused = ascon_aead128_open_x8(impl, &b, received);
        int same = 1;
        for (size_t j = 0; j < ASCON_X8; j++)
            same &= memcmp(b.out[j], x8.plain[j], len) == 0;
        CHECK(refused == 0 && same,
              "opening differs: len %zu aad %zu (refused %#x)", len, ad_len,
              refused);
    }
}

static const void *one_message_code(const isa_variant *row)
{
    return (const void *)((const ascon_impl *)row)->encrypt;
}

static void test_registry(void)
{
    const kernel *k = kernel_find("ascon-aead128");
    const isa_variant *v;
    kernel_args a;
    char err[256];
    uint8_t short_key[8] = { 0 };
    CASE("ascon-aead128 is registered, 16-byte tag, refuses bad input");
    if (!CHECK(k == &kernel_ascon_aead128, "kernel_find(\"ascon-aead128\")"))
        return;
    kernel_bench_args(k, &a);
    CHECK(kernel_check(k, &a, 100, err, sizeof err) == 0 &&
              kernel_out_len(k, &a, 100) == 116,
          "100 bytes seal to 116: %s", err);
    a.decrypt = KERNEL_FLAG;
    CHECK(kernel_check(k, &a, 15, err, sizeof err) != 0,
          "--decrypt of 15 bytes, shorter than the tag");
    kernel_bench_args(k, &a);
    a.key = KERNEL_BYTES(short_key, sizeof short_key);
    CHECK(kernel_check(k, &a, 100, err, sizeof err) != 0, "an 8-byte key");
    kernel_bench_args(k, &a);
    a.nonce = KERNEL_BYTES(short_key, 12);
    CHECK(kernel_check(k, &a, 100, err, sizeof err) != 0,
          "a 12-byte nonce (Ascon's is 16)");
    check_rows_own_code(k, one_message_code);
    for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
        CASE("ascon-aead128@%s self-test, through run(), a bad tag refused",
             v->isa);
        if (!kernel_variant_usable(k, v)) {
            SKIP("%s not supported by this CPU", v->isa);
            continue;
        }
        CHECK(kernel_self_test(k, v, err, sizeof err) == 0, "%s", err);
        uint8_t msg[100] = { 1, 2, 3 }, out[116], back[100];
        kernel_bench_args(k, &a);
        kernel_prepare(k, v, &a);
        CHECK(k->run(k, v, &a, msg, sizeof msg, out) == 0, "sealing");
        a.decrypt = KERNEL_FLAG;
        CHECK(k->run(k, v, &a, out, sizeof out, back) == 0 &&
                  memcmp(back, msg, sizeof msg) == 0,
              "does not open its own output");
        out[sizeof out - 1] ^= 1;
        CHECK(k->run(k, v, &a, out, sizeof out, back) == 1 &&
                  check_all_zero(back, sizeof back),
              "a bad tag was not refused, or plaintext was released");
        kernel_release(k, &a);
    }
}

/* ascon-aead128-x8: eight messages back to back, message j sealed under
 * the j-th nonce as ascon-aead128 seals it alone; a bad tag in one of
 * them refuses the call with no plaintext released. */
static void test_registry_x8(void)
{
    const kernel *k = kernel_find("ascon-aead128-x8");
    const isa_variant *v;
    kernel_args a;
    char err[256];
    enum { LEN = 100, SEALED = LEN + ASCON_TAG_BYTES };
    static uint8_t msg[ASCON_X8 * LEN], out[ASCON_X8 * SEALED],
        back[ASCON_X8 * LEN], one[SEALED];
    CASE("ascon-aead128-x8 is registered: eight messages a call, a nonce "
         "each, refuses bad input");
    if (!CHECK(k == &kernel_ascon_aead128_x8,
               "kernel_find(\"ascon-aead128-x8\")"))
        return;
    kernel_bench_args(k, &a);
    CHECK(kernel_batch(k) == ASCON_X8 &&
              kernel_check(k, &a, LEN, err, sizeof err) == 0 &&
              kernel_out_len(k, &a, LEN) == SEALED,
          "eight messages of 100 bytes seal to 116 each: %s", err);
    a.nonce.len = ASCON_NONCE_BYTES;
    CHECK(kernel_check(k, &a, LEN, err, sizeof err) != 0,
          "one 16-byte nonce for eight messages");
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 31 + 7);
    for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
        CASE("ascon-aead128-x8@%s self-test, each message as ascon-aead128 "
             "seals it, a bad tag refused", v->isa);
        if (!kernel_variant_usable(k, v)) {
            SKIP("%s not supported by this CPU", v->isa);
            continue;
        }
        CHECK(kernel_self_test(k, v, err, sizeof err) == 0, "%s", err);
        kernel_bench_args(k, &a);
        kernel_prepare(k, v, &a);
        CHECK(k->run(k, v, &a, msg, LEN, out) == 0, "sealing");
        for (size_t m = 0; m < ASCON_X8; m++) {
            ascon_aead128_seal(generic_row(), a.key.bytes,
                               a.nonce.bytes + m * ASCON_NONCE_BYTES, NULL, 0,
                               one, msg + m * LEN, LEN);
            CHECK(memcmp(out + m * SEALED, one, SEALED) == 0,
                  "message %zu is not sealed under its own nonce", m);
        }
        a.decrypt = KERNEL_FLAG;
        CHECK(k->run(k, v, &a, out, SEALED, back) == 0 &&
                  memcmp(back, msg, sizeof msg) == 0,
              "does not open its own output");
        out[5 * SEALED + LEN] ^= 1; /* message 5's tag */
        CHECK(k->run(k, v, &a, out, SEALED, back) == 1 &&
                  check_all_zero(back, sizeof back),
              "a bad tag was not refused, or plaintext was released");
        kernel_release(k, &a);
    }
}

int main(void)
{
    json_t *doc = vector_json("wycheproof_ascon_aead128_test.json");
    CASE("wycheproof_ascon_aead128_test.json is readable");
    CHECK(doc != NULL, "tests/vectors/wycheproof_ascon_aead128_test.json");
    for (const ascon_impl *impl = ascon_impls; impl->v.isa; impl++) {
        if (doc)
            test_wycheproof(impl, doc);
        if (impl != generic_row())
            test_vs_generic(impl);
        test_forgeries(impl);
        if (doc)
            test_x8_wycheproof(impl, doc);
        test_x8_vs_generic(impl);
    }
    test_registry();
    test_registry_x8();
    json_decref(doc);
    return check_finish();
}
