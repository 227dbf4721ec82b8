/* AEGIS-128L, AEGIS-256 and the X2/X4 forms: every vector of the draft's
 * appendix A with both tags (those that must fail release only zeros) and
 * every Wycheproof vector, on every ISA; every ISA against generic on
 * random keys, nonces, AAD and tags at lengths up to 8 KiB around every
 * rate and unrolled-loop boundary, misaligned and in place, opened back;
 * any flipped bit of ciphertext, tag or AAD rejected; the AES round's own
 * vector; and the registry kernels' contract (self-tests, --tag-len, bad
 * tags, refused arguments). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/aegis/aegis.h"
#include "../../kernels/aes/aes.h"
#include "../../kernels/registry.h"
#include "check.h"
#include "vectors.h"
#include "wycheproof.h"

#define MAX_LEN 8192
#define MAX_AAD 1100 /* past the 128 family's 8-block loop at X4 */
#define FORGERIES 150

typedef struct aegis_kernel {
    const kernel *k;
    const aegis_impl *impls;
    size_t key_len; /* and nonce length */
    size_t rate;    /* bytes per update */
    size_t loop;    /* bytes per iteration of the x86 block loop */
    const char *wycheproof; /* NULL: Wycheproof has no vectors for it */
} aegis_kernel;

static const aegis_kernel kernels[] = {
    { &kernel_aegis128l, aegis128l_impls, 16, 32, 256,
      "wycheproof_aegis128L_test.json" },
    { &kernel_aegis256, aegis256_impls, 32, 16, 96,
      "wycheproof_aegis256_test.json" },
    { &kernel_aegis128x2, aegis128x2_impls, 16, 64, 512, NULL },
    { &kernel_aegis128x4, aegis128x4_impls, 16, 128, 1024, NULL },
    { &kernel_aegis256x2, aegis256x2_impls, 32, 32, 192, NULL },
    { &kernel_aegis256x4, aegis256x4_impls, 32, 64, 384, NULL },
};
#define N_KERNELS (sizeof kernels / sizeof kernels[0])

static const aegis_impl *generic_of(const aegis_kernel *ak)
{
    const aegis_impl *impl = ak->impls;
    while (impl[1].v.isa)
        impl++;
    return impl;
}

/* One AEAD case: seal msg and compare with ct || tag, then open ct || tag
 * into a buffer of 0xa5 (valid: to msg; invalid: rejected, with zeros in
 * place of the plaintext and nothing written past it). */
typedef struct aead_case {
    const uint8_t *key, *nonce, *ad, *msg, *ct, *tag;
    size_t key_len, ad_len, len, tag_len;
    int valid;
} aead_case;

static void check_case_at(const aegis_impl *impl, const aead_case *c,
                          const char *what)
{
    aegis_key key;
    uint8_t *sealed = malloc(c->len + AEGIS_MAX_TAG_BYTES),
            *opened = malloc(c->len + 1);
    aegis_setup(&key, c->key, c->key_len);
    if (c->valid) {
        aegis_encrypt(impl, &key, c->nonce, c->ad, c->ad_len, sealed, c->msg,
                      c->len, c->tag_len);
        CHECK(memcmp(sealed, c->ct, c->len) == 0 &&
                  memcmp(sealed + c->len, c->tag, c->tag_len) == 0,
              "%s: sealed to %s", what,
              check_hex(sealed, c->len + c->tag_len));
    }
    memcpy(sealed, c->ct, c->len);
    memcpy(sealed + c->len, c->tag, c->tag_len);
    memset(opened, 0xa5, c->len + 1);
    int rc = aegis_decrypt(impl, &key, c->nonce, c->ad, c->ad_len, opened,
                           sealed, c->len, c->tag_len);
    if (c->valid)
        CHECK(rc == 0 && memcmp(opened, c->msg, c->len) == 0,
              "%s: did not open", what);
    else
        CHECK(rc != 0 && check_all_zero(opened, c->len) &&
                  opened[c->len] == 0xa5,
              "%s: %s", what,
              rc == 0 ? "a vector that must fail opened"
                      : "the output is not zeros up to its length");
    free(sealed);
    free(opened);
}

/* A.1: the round every variant is built on. */
static void test_aes_round(const kv_record *recs, size_t n)
{
    CASE("AES round, draft A.1 (aes_round_generic)");
    for (size_t i = 0; i < n; i++) {
        const char *section = kv_get(&recs[i], "section");
        if (!section || strcmp(section, "A.1") != 0)
            continue;
        size_t in_len, rk_len, want_len;
        uint8_t *in = hex_decode(kv_get(&recs[i], "in"), &in_len),
                *rk = hex_decode(kv_get(&recs[i], "rk"), &rk_len),
                *want = hex_decode(kv_get(&recs[i], "out"), &want_len),
                got[16];
        aes_round_generic(got, in, rk);
        CHECK(in_len == 16 && rk_len == 16 && want_len == 16 &&
                  memcmp(got, want, 16) == 0,
              "got %s", check_hex(got, 16));
        free(in);
        free(rk);
        free(want);
    }
}

static void test_draft(const aegis_kernel *ak, const aegis_impl *impl,
                       const kv_record *recs, size_t n)
{
    size_t vectors = 0;
    CASE("%s draft-irtf-cfrg-aegis-aead appendix A, both tags @%s",
         ak->k->name, impl->v.isa);
    if (!check_usable(&impl->v))
        return;
    for (size_t i = 0; i < n; i++) {
        const char *kernel_name = kv_get(&recs[i], "kernel");
        if (!kernel_name || strcmp(kernel_name, ak->k->name) != 0)
            continue;
        const char *section = kv_get(&recs[i], "section"),
                   *msg_hex = kv_get(&recs[i], "msg");
        size_t key_len, nonce_len, ad_len, ct_len, msg_len = 0, tag_len[2];
        uint8_t *key = hex_decode(kv_get(&recs[i], "key"), &key_len),
                *nonce = hex_decode(kv_get(&recs[i], "nonce"), &nonce_len),
                *ad = hex_decode(kv_get(&recs[i], "ad"), &ad_len),
                *ct = hex_decode(kv_get(&recs[i], "ct"), &ct_len),
                *msg = msg_hex ? hex_decode(msg_hex, &msg_len) : NULL,
                *tags[2] = {
                    hex_decode(kv_get(&recs[i], "tag128"), &tag_len[0]),
                    hex_decode(kv_get(&recs[i], "tag256"), &tag_len[1]),
                };
        int valid = strcmp(kv_get(&recs[i], "valid"), "1") == 0;
        if (CHECK(key_len == ak->key_len && nonce_len == ak->key_len &&
                      (!valid || msg_len == ct_len),
                  "%s: malformed record", section))
            for (int t = 0; t < 2; t++) {
                char what[64];
                aead_case c = { key, nonce, ad, msg, ct, tags[t], key_len,
                                ad_len, ct_len, tag_len[t], valid };
                snprintf(what, sizeof what, "%s, %zu-byte tag", section,
                         tag_len[t]);
                check_case_at(impl, &c, what);
            }
        vectors++;
        free(key); free(nonce); free(ad); free(ct); free(msg);
        free(tags[0]); free(tags[1]);
    }
    CHECK(vectors >= 2, "%zu vectors of %s in aegis_kat.txt", vectors,
          ak->k->name);
}

typedef struct wycheproof_run {
    const aegis_kernel *ak;
    const aegis_impl *impl;
    size_t invalid; /* "invalid" and "acceptable" alike */
} wycheproof_run;

static void wycheproof_vector_check(void *ctx, const wycheproof_vector *v)
{
    wycheproof_run *run = ctx;
    char what[32];
    snprintf(what, sizeof what, "tcId %d", v->id);
    run->invalid += !v->valid;
    if (CHECK(v->key_len == run->ak->key_len &&
                  v->iv_len == run->ak->key_len && v->tag_len == 16 &&
                  v->ct_len == v->msg_len,
              "%s: a vector of another shape", what)) {
        aead_case c = { v->key, v->iv, v->aad, v->msg, v->ct, v->tag,
                        v->key_len, v->aad_len, v->ct_len, v->tag_len,
                        v->valid };
        check_case_at(run->impl, &c, what);
    }
}

static void test_wycheproof(const aegis_kernel *ak, const aegis_impl *impl,
                            const json_t *doc)
{
    wycheproof_run run = { ak, impl, 0 };
    CASE("%s Wycheproof (%s) @%s", ak->k->name, ak->wycheproof, impl->v.isa);
    if (!check_usable(&impl->v))
        return;
    size_t n = wycheproof_walk(doc, wycheproof_vector_check, &run);
    CHECK(n > 400 && run.invalid > 100, "%zu vectors, %zu invalid (%s)", n,
          run.invalid, ak->wycheproof);
}

/* Lengths 0-600 one by one (every rate and the 128 family's 8-block loop
 * at AEGIS-128L, the 256 family's 6-block one), then each side of every
 * multiple of 64 up to 8 KiB: the 32/64/128/256-byte boundaries and the
 * X forms' loops (96, 192, 384, 512, 1024 bytes). */
static size_t trial_lengths(size_t *lengths)
{
    size_t n = 0;
    for (size_t len = 0; len <= 600; len++)
        lengths[n++] = len;
    for (size_t m = 640; m <= MAX_LEN; m += 64) {
        lengths[n++] = m - 1;
        lengths[n++] = m;
        if (m < MAX_LEN)
            lengths[n++] = m + 1;
    }
    return n;
}
#define MAX_TRIAL_LENGTHS (601 + 3 * (MAX_LEN / 64))

static uint8_t in_buf[MAX_LEN + AEGIS_MAX_TAG_BYTES + 64],
    out_buf[MAX_LEN + AEGIS_MAX_TAG_BYTES + 64],
    want[MAX_LEN + AEGIS_MAX_TAG_BYTES], plain[MAX_LEN], back[MAX_LEN + 1],
    aad[MAX_AAD];

/* An AAD length: none, up to a few rates (a partial last block, whole
 * blocks), or up to MAX_AAD. */
static size_t random_aad_len(const aegis_kernel *ak, uint64_t *seed)
{
    uint64_t r = check_random(seed);
    switch (r % 4) {
    case 0: return 0;
    case 1: return (size_t)(r >> 8) % (3 * ak->rate + 2);
    case 2: return ak->rate * ((r >> 8) % 4);
    default: return (size_t)(r >> 8) % (MAX_AAD + 1);
    }
}

static void test_vs_generic(const aegis_kernel *ak, const aegis_impl *impl)
{
    const aegis_impl *ref = generic_of(ak);
    static size_t lengths[MAX_TRIAL_LENGTHS];
    size_t n = trial_lengths(lengths);
    uint64_t seed = 0xae9150 + ak->key_len + ak->rate;
    CASE("%s@%s against generic: random key, nonce, AAD and tag, lengths "
         "0-%d, misaligned and in place, opened back", ak->k->name,
         impl->v.isa, MAX_LEN);
    if (!check_usable(&impl->v))
        return;
    for (size_t i = 0; i < n; i++) {
        uint8_t key_bytes[32], nonce[32];
        aegis_key key;
        size_t len = lengths[i], aad_len = random_aad_len(ak, &seed),
               tag_len = check_random(&seed) % 2 ? 32 : 16;
        int in_place = check_random(&seed) % 4 == 0;
        uint8_t *in = in_buf + check_random(&seed) % 16,
                *out = in_place ? in : out_buf + check_random(&seed) % 16;
        check_fill_random(key_bytes, sizeof key_bytes, &seed);
        check_fill_random(nonce, sizeof nonce, &seed);
        check_fill_random(aad, aad_len, &seed);
        check_fill_random(in, len, &seed);
        memcpy(plain, in, len);
        aegis_setup(&key, key_bytes, ak->key_len);
        aegis_encrypt(ref, &key, nonce, aad, aad_len, want, plain, len,
                      tag_len);
        aegis_encrypt(impl, &key, nonce, aad, aad_len, out, in, len, tag_len);
        if (!CHECK(memcmp(out, want, len + tag_len) == 0,
                   "sealing differs: len %zu aad %zu tag %zu in_place %d",
                   len, aad_len, tag_len, in_place))
            continue;
        /* Open generic's output: in place over it, or into back. */
        uint8_t *dst = in_place ? out : back;
        int rc = aegis_decrypt(impl, &key, nonce, aad, aad_len, dst, out, len,
                               tag_len);
        CHECK(rc == 0 && memcmp(dst, plain, len) == 0,
              "opening differs: len %zu aad %zu tag %zu in_place %d", len,
              aad_len, tag_len, in_place);
    }
}

/* Any one bit flipped in the ciphertext, the tag or the AAD is refused, and
 * the output is zeros. */
static void test_forgeries(const aegis_kernel *ak, const aegis_impl *impl)
{
    uint64_t seed = 0xf0f9e + ak->rate;
    CASE("%s@%s rejects a flipped bit of ciphertext, tag or AAD, both tags",
         ak->k->name, impl->v.isa);
    if (!check_usable(&impl->v))
        return;
    for (int i = 0; i < FORGERIES; i++) {
        uint8_t key_bytes[32], nonce[32];
        aegis_key key;
        size_t len = check_random(&seed) % 600,
               aad_len = 1 + check_random(&seed) % 100,
               tag_len = i % 2 ? 32 : 16;
        check_fill_random(key_bytes, sizeof key_bytes, &seed);
        check_fill_random(nonce, sizeof nonce, &seed);
        check_fill_random(aad, aad_len, &seed);
        check_fill_random(plain, len, &seed);
        aegis_setup(&key, key_bytes, ak->key_len);
        aegis_encrypt(impl, &key, nonce, aad, aad_len, want, plain, len,
                      tag_len);
        uint64_t r = check_random(&seed);
        int where = (int)(r % 3); /* 0 ciphertext, 1 tag, 2 AAD */
        if (where == 0 && len == 0)
            where = 1;
        size_t at = where == 0   ? (r >> 8) % len
                    : where == 1 ? len + (r >> 8) % tag_len
                                 : (r >> 8) % aad_len;
        uint8_t *target = where == 2 ? aad : want;
        target[at] ^= (uint8_t)(1u << ((r >> 40) % 8));
        memset(back, 0xa5, len + 1);
        int rc = aegis_decrypt(impl, &key, nonce, aad, aad_len, back, want,
                               len, tag_len);
        CHECK(rc != 0 && check_all_zero(back, len) && back[len] == 0xa5,
              "a flipped bit in %s byte %zu (len %zu, %zu-byte tag) %s",
              where == 2 ? "AAD" : "sealed", at, len, tag_len,
              rc == 0 ? "was accepted" : "left plaintext in the output");
    }
}

/* The registry kernel as kat and the benchmarks call it. */
static void test_registry(const aegis_kernel *ak)
{
    const kernel *k = kernel_find(ak->k->name);
    const isa_variant *v;
    char err[256];
    CASE("%s is registered, takes --tag-len 16 or 32 and refuses bad input",
         ak->k->name);
    if (!CHECK(k == ak->k, "kernel_find(\"%s\")", ak->k->name))
        return;
    kernel_args a;
    uint8_t short_key[8] = { 0 };
    kernel_bench_args(k, &a);
    CHECK(kernel_check(k, &a, 100, err, sizeof err) == 0, "%s", err);
    a.tag_len = KERNEL_NUMBER(24);
    CHECK(kernel_check(k, &a, 100, err, sizeof err) != 0 &&
              strstr(err, "--tag-len of 16 or 32 (got 24)"),
          "--tag-len=24: %s", err);
    a.tag_len = KERNEL_NUMBER(32);
    CHECK(kernel_check(k, &a, 100, err, sizeof err) == 0 &&
              kernel_out_len(k, &a, 100) == 132,
          "--tag-len=32 takes 100 bytes to 132");
    a.decrypt = KERNEL_FLAG;
    CHECK(kernel_check(k, &a, 31, err, sizeof err) != 0 &&
              strstr(err, "32-byte tag"),
          "--decrypt of 31 bytes with --tag-len=32: %s", err);
    CHECK(kernel_check(k, &a, 32, err, sizeof err) == 0 &&
              kernel_out_len(k, &a, 32) == 0,
          "--decrypt of a bare 32-byte tag");
    kernel_bench_args(k, &a);
    a.key = KERNEL_BYTES(short_key, sizeof short_key);
    CHECK(kernel_check(k, &a, 100, err, sizeof err) != 0, "an 8-byte key");
    kernel_bench_args(k, &a);
    a.nonce = KERNEL_BYTES(short_key, sizeof short_key);
    CHECK(kernel_check(k, &a, 100, err, sizeof err) != 0, "an 8-byte nonce");

    for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
        CASE("%s@%s self-test, both tags through run(), a bad tag refused",
             k->name, v->isa);
        if (!kernel_variant_usable(k, v)) {
            SKIP("%s not supported by this CPU", v->isa);
            continue;
        }
        CHECK(kernel_self_test(k, v, err, sizeof err) == 0, "%s", err);
        for (uint64_t tag = 16; tag <= 32; tag += 16) {
            uint8_t msg[100] = { 1, 2, 3 }, sealed[132], opened[100];
            size_t sealed_len = sizeof msg + tag;
            kernel_bench_args(k, &a);
            a.tag_len = KERNEL_NUMBER(tag);
            kernel_prepare(k, v, &a);
            CHECK(k->run(k, v, &a, msg, sizeof msg, sealed) == 0, "sealing");
            a.decrypt = KERNEL_FLAG;
            CHECK(k->run(k, v, &a, sealed, sealed_len, opened) == 0 &&
                      memcmp(opened, msg, sizeof msg) == 0,
                  "%" PRIu64 "-byte tag: does not open its own output", tag);
            sealed[sealed_len - 1] ^= 1;
            CHECK(k->run(k, v, &a, sealed, sealed_len, opened) == 1 &&
                      check_all_zero(opened, sizeof opened),
                  "%" PRIu64 "-byte tag: a bad tag was not refused, or "
                  "plaintext was released", tag);
            kernel_release(k, &a);
        }
    }
}

int main(void)
{
    size_t n_recs = 0;
    kv_record *recs = kv_load(vector_path("aegis_kat.txt"), &n_recs);
    CASE("aegis_kat.txt is readable");
    CHECK(recs && n_recs > 20, "%zu records", n_recs);
    test_aes_round(recs, n_recs);
    for (size_t i = 0; i < N_KERNELS; i++) {
        const aegis_kernel *ak = &kernels[i];
        json_t *doc = ak->wycheproof ? vector_json(ak->wycheproof) : NULL;
        for (const aegis_impl *impl = ak->impls; impl->v.isa; impl++) {
            test_draft(ak, impl, recs, n_recs);
            if (ak->wycheproof)
                test_wycheproof(ak, impl, doc);
            if (impl != generic_of(ak))
                test_vs_generic(ak, impl);
            test_forgeries(ak, impl);
        }
        test_registry(ak);
        if (doc)
            json_decref(doc);
    }
    kv_free(recs, n_recs);
    return check_finish();
}
