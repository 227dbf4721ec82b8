/* ChaCha20-Poly1305 and XChaCha20-Poly1305: every Wycheproof vector on
 * every ISA (invalid ones rejected with no plaintext released), tampering,
 * differentials against libsodium and OpenSSL over random lengths that
 * cross the sealing chunks, misaligned and in place, and the registry's
 * self-test for ours and the external kernels. */
#include <openssl/evp.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/aead/aead.h"
#include "../../kernels/registry.h"
#include "check.h"
#include "peers.h"
#include "vectors.h"
#include "wycheproof.h"

#define MAX_LEN 9000 /* past two 4 KiB sealing chunks */
#define MAX_AAD 100
#define TRIALS 200

static int usable(const aead_impl *impl)
{
    if (cpu_supports(impl->v.required))
        return 1;
    SKIP("%s not supported by this CPU", impl->v.isa);
    return 0;
}

typedef struct aead_ops {
    const char *name;
    size_t nonce_len;
    const char *file;
    size_t vectors, invalid; /* the file's test count, and its invalid ones */
    void (*seal)(const aead_pair *, uint8_t *, const uint8_t *, size_t,
                 const uint8_t *, size_t, const uint8_t *, const uint8_t *);
    int (*open)(const aead_pair *, uint8_t *, const uint8_t *, size_t,
                const uint8_t *, size_t, const uint8_t *, const uint8_t *);
    int (*sodium_seal)(unsigned char *, unsigned long long *,
                       const unsigned char *, unsigned long long,
                       const unsigned char *, unsigned long long,
                       const unsigned char *, const unsigned char *,
                       const unsigned char *);
} aead_ops;

static const aead_ops chacha = {
    "chacha20-poly1305", AEAD_NONCE_BYTES,
    "wycheproof_chacha20_poly1305_test.json", 325, 69, chacha20_poly1305_seal,
    chacha20_poly1305_open, crypto_aead_chacha20poly1305_ietf_encrypt,
};
static const aead_ops xchacha = {
    "xchacha20-poly1305", XAEAD_NONCE_BYTES,
    "wycheproof_xchacha20_poly1305_test.json", 315, 69, xchacha20_poly1305_seal,
    xchacha20_poly1305_open, crypto_aead_xchacha20poly1305_ietf_encrypt,
};

/* Nonzero when all n bytes at p still hold the marker (or, for a wiped
 * output, zero): nothing of a plaintext is there. */
static int all_bytes(const uint8_t *p, size_t n, uint8_t marker)
{
    uint8_t diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= p[i] ^ marker;
    return diff == 0;
}

/* A nonce of another size cannot reach the AEAD functions: the registry
 * kernel's check() is what refuses it, as kat would. */
static void check_refused_nonce(const aead_ops *ops,
                                const wycheproof_vector *v, int id)
{
    const kernel *k = kernel_find(ops->name);
    char err[256];
    kernel_args a = {
        .key = KERNEL_BYTES(v->key, v->key_len),
        .nonce = KERNEL_BYTES(v->iv, v->iv_len),
        .aad = KERNEL_BYTES(v->aad, v->aad_len), .decrypt = KERNEL_FLAG,
    };
    CHECK(k && kernel_check(k, &a, v->ct_len + v->tag_len, err, sizeof err) != 0,
          "tcId %d: a %zu-byte nonce was accepted", id, v->iv_len);
}

/* Opens ct||tag into a buffer filled with a marker; an invalid vector must
 * fail and leave every byte of the marker in place. */
static void check_vector(const aead_ops *ops, const aead_pair *pair,
                         const wycheproof_vector *v, int id, int valid)
{
    size_t len = v->ct_len;
    uint8_t *sealed = malloc(len + 16), *opened = malloc(len + 1);
    memcpy(sealed, v->ct, len);
    memcpy(sealed + len, v->tag, 16);
    memset(opened, 0xa5, len + 1);
    int rc = ops->open(pair, opened, sealed, len, v->aad, v->aad_len, v->key,
                       v->iv);
    if (valid) {
        CHECK(rc == 0 && memcmp(opened, v->msg, len) == 0,
              "tcId %d: valid vector did not open", id);
        ops->seal(pair, sealed, v->msg, v->msg_len, v->aad, v->aad_len,
                  v->key, v->iv);
        CHECK(memcmp(sealed, v->ct, len) == 0 &&
                  memcmp(sealed + len, v->tag, 16) == 0,
              "tcId %d: sealed to %s", id, check_hex(sealed, len + 16));
    } else {
        CHECK(rc != 0 && all_bytes(opened, len + 1, 0xa5),
              "tcId %d: invalid vector %s", id,
              rc == 0 ? "opened" : "wrote to the output");
    }
    free(sealed);
    free(opened);
}

typedef struct wycheproof_run {
    const aead_ops *ops;
    aead_pair pair;
    size_t invalid; /* "invalid" and "acceptable" alike */
} wycheproof_run;

static void wycheproof_vector_check(void *ctx, const wycheproof_vector *v)
{
    wycheproof_run *run = ctx;
    const aead_ops *ops = run->ops;
    run->invalid += !v->valid;
    if (v->iv_len != ops->nonce_len) {
        CHECK(!v->valid, "tcId %d: valid with a %zu-byte nonce", v->id,
              v->iv_len);
        check_refused_nonce(ops, v, v->id);
    } else if (CHECK(v->key_len == 32 && v->tag_len == 16 &&
                         v->ct_len == v->msg_len,
                     "tcId %d: malformed vector", v->id)) {
        check_vector(ops, &run->pair, v, v->id, v->valid);
    }
}

static void test_wycheproof(const aead_ops *ops, const aead_impl *impl,
                            const json_t *doc)
{
    wycheproof_run run = { ops, aead_pair_of(impl), 0 };
    CASE("%s Wycheproof (%s) @%s", ops->name, ops->file, impl->v.isa);
    if (!usable(impl))
        return;
    size_t n = wycheproof_walk(doc, wycheproof_vector_check, &run);
    CHECK(n == ops->vectors && run.invalid == ops->invalid,
          "%zu vectors, %zu invalid; want %zu, %zu (%s)", n, run.invalid,
          ops->vectors, ops->invalid, ops->file);
}

/* A random trial: key, nonce, AAD and message, misaligned by a random
 * offset, sometimes in place. */
typedef struct trial {
    uint8_t key[32], nonce[24], aad[MAX_AAD];
    size_t len, aad_len;
    uint8_t *in, *out;
    int in_place;
} trial;

static uint8_t in_buf[MAX_LEN + 64], out_buf[MAX_LEN + 64],
    want[MAX_LEN + 16], back[MAX_LEN + 16], plain[MAX_LEN];

static trial random_trial(uint64_t *seed)
{
    trial t;
    check_fill_random(t.key, sizeof t.key, seed);
    check_fill_random(t.nonce, sizeof t.nonce, seed);
    t.aad_len = check_random(seed) % 3 == 0 ? 0
                                             : check_random(seed) % MAX_AAD;
    check_fill_random(t.aad, t.aad_len, seed);
    t.len = check_random(seed) % (MAX_LEN + 1);
    t.in_place = check_random(seed) % 4 == 0;
    t.in = in_buf + check_random(seed) % 16;
    t.out = t.in_place ? t.in : out_buf + check_random(seed) % 16;
    check_fill_random(t.in, t.len, seed);
    return t;
}

static void test_vs_libsodium(const aead_ops *ops, const aead_impl *impl)
{
    aead_pair pair = aead_pair_of(impl);
    uint64_t seed = 11 + ops->nonce_len;
    CASE("%s vs libsodium, random lengths and AAD, misaligned, in place, "
         "then opened @%s", ops->name, impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        trial t = random_trial(&seed);
        memcpy(plain, t.in, t.len);
        ops->sodium_seal(want, NULL, t.in, t.len, t.aad, t.aad_len, NULL,
                         t.nonce, t.key);
        ops->seal(&pair, t.out, t.in, t.len, t.aad, t.aad_len, t.key,
                  t.nonce);
        if (!CHECK(memcmp(t.out, want, t.len + 16) == 0,
                   "len %zu aad %zu in_place %d", t.len, t.aad_len,
                   t.in_place))
            continue;
        uint8_t *dst = t.in_place ? t.out : back;
        if (CHECK(ops->open(&pair, dst, t.out, t.len, t.aad, t.aad_len,
                            t.key, t.nonce) == 0,
                  "len %zu: our own seal does not open", t.len))
            CHECK(memcmp(dst, plain, t.len) == 0,
                  "len %zu: opened to another plaintext", t.len);
    }
}

/* Any bit flipped in the ciphertext, the tag or the AAD is caught. */
static void test_tampering(const aead_ops *ops, const aead_impl *impl)
{
    aead_pair pair = aead_pair_of(impl);
    uint64_t seed = 21 + ops->nonce_len;
    CASE("%s rejects any flipped bit of ciphertext, tag or AAD @%s",
         ops->name, impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        trial t = random_trial(&seed);
        if (t.aad_len == 0)
            t.aad_len = 1;
        ops->seal(&pair, want, t.in, t.len, t.aad, t.aad_len, t.key, t.nonce);
        uint64_t r = check_random(&seed);
        int in_aad = r % 4 == 0;
        uint8_t *target = in_aad ? t.aad : want;
        size_t at = (r >> 2) % (in_aad ? t.aad_len : t.len + 16);
        target[at] ^= (uint8_t)(1u << ((r >> 32) % 8));
        memset(back, 0xa5, t.len + 1);
        CHECK(ops->open(&pair, back, want, t.len, t.aad, t.aad_len, t.key,
                        t.nonce) != 0 &&
                  all_bytes(back, t.len + 1, 0xa5),
              "flip in %s byte %zu of len %zu accepted, or the output "
              "written", in_aad ? "aad" : "sealed", at, t.len);
    }
}

static int openssl_seal(uint8_t *out, const uint8_t *in, size_t len,
                        const uint8_t *aad, size_t aad_len,
                        const uint8_t *key, const uint8_t *nonce)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int n, ok = ctx &&
                EVP_EncryptInit_ex(ctx, EVP_chacha20_poly1305(), NULL, key,
                                   nonce) &&
                (aad_len == 0 ||
                 EVP_EncryptUpdate(ctx, NULL, &n, aad, (int)aad_len)) &&
                EVP_EncryptUpdate(ctx, out, &n, in, (int)len) &&
                EVP_EncryptFinal_ex(ctx, out + len, &n) &&
                EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16,
                                    out + len);
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

static void test_vs_openssl(const aead_impl *impl)
{
    aead_pair pair = aead_pair_of(impl);
    uint64_t seed = 31;
    CASE("chacha20-poly1305 vs OpenSSL EVP_chacha20_poly1305 @%s",
         impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        trial t = random_trial(&seed);
        if (!CHECK(openssl_seal(want, t.in, t.len, t.aad, t.aad_len, t.key,
                                t.nonce),
                   "EVP failed"))
            continue;
        chacha20_poly1305_seal(&pair, t.out, t.in, t.len, t.aad, t.aad_len,
                               t.key, t.nonce);
        CHECK(memcmp(t.out, want, t.len + 16) == 0, "len %zu aad %zu",
              t.len, t.aad_len);
    }
}

/* Through the registry, as kat and the benchmarks call them: the self-test
 * gate, and a bad tag making run() return 1 for ours and the libraries'. */
static void test_registry(void)
{
    static const char *const names[] = {
        "chacha20-poly1305", "xchacha20-poly1305",
        "openssl:chacha20-poly1305", "sodium:chacha20poly1305-ietf",
        "sodium:xchacha20poly1305",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const kernel *k = kernel_find(names[i]);
        const isa_variant *v;
        char err[256];
        if (!k) {
            CASE("%s is registered", names[i]);
            CHECK(0, "kernel_find(\"%s\") is NULL", names[i]);
            continue;
        }
        for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
            CASE("%s@%s self-test, and run() refuses a bad tag", names[i],
                 v->isa);
            if (!check_runs_here(k, v))
                continue;
            CHECK(kernel_self_test(k, v, err, sizeof err) == 0, "%s", err);
            kernel_args a;
            uint8_t msg[100], sealed[116], opened[100];
            for (size_t b = 0; b < sizeof msg; b++)
                msg[b] = (uint8_t)(1 + b);
            kernel_bench_args(k, &a);
            k->run(k, v, &a, msg, sizeof msg, sealed);
            a.decrypt = KERNEL_FLAG;
            CHECK(k->run(k, v, &a, sealed, sizeof sealed, opened) == 0 &&
                      memcmp(opened, msg, sizeof msg) == 0,
                  "does not open its own output");
            /* Refused, the output is left as it was or wiped. */
            sealed[sizeof sealed - 1] ^= 1;
            memset(opened, 0xa5, sizeof opened);
            CHECK(k->run(k, v, &a, sealed, sizeof sealed, opened) == 1 &&
                      (all_bytes(opened, sizeof opened, 0xa5) ||
                       all_bytes(opened, sizeof opened, 0)),
                  "a bad tag was not refused, or plaintext was released");
        }
    }
}

int main(void)
{
    const aead_ops *const all[] = { &chacha, &xchacha };
    if (sodium_init() < 0)
        return 1;
    for (int o = 0; o < 2; o++) {
        json_t *doc = vector_json(all[o]->file);
        for (const aead_impl *impl = aead_impls; impl->v.isa; impl++) {
            test_wycheproof(all[o], impl, doc);
            test_vs_libsodium(all[o], impl);
            test_tampering(all[o], impl);
            if (all[o] == &chacha)
                test_vs_openssl(impl);
        }
        if (doc)
            json_decref(doc);
    }
    test_registry();
    check_gcrypt_peer("gcrypt:chacha20-poly1305", 300, 80);
    return check_finish();
}
