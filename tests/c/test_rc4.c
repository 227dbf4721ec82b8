/* RC4 (broken, for comparison only): RFC 6229 keystreams at several key
 * lengths and offsets, and a differential against OpenSSL's legacy
 * provider. Also the FreeBSD GELI table's other disk ciphers through
 * OpenSSL (3DES, Blowfish, Camellia in CBC): their published known
 * answers, round trips, and the arguments they refuse. */
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/registry.h"
#include "../../kernels/rc4/rc4.h"
#include "check.h"
#include "peers.h"
#include "vectors.h"

#define STREAM_BYTES 4112 /* RFC 6229's last offset, 4096, plus 16 */
#define MAX_LEN 4096
#define TRIALS 200

static void test_rfc6229(const rc4_impl *impl)
{
    static uint8_t stream[STREAM_BYTES];
    size_t n;
    kv_record *recs = kv_load(vector_path("rc4_kat.txt"), &n);
    CASE("rc4 RFC 6229 keystreams, 40- to 256-bit keys @%s", impl->v.isa);
    if (!CHECK(recs && n == 72, "rc4_kat.txt: %zu records", n))
        goto done;
    for (size_t i = 0; i < n; i++) {
        size_t key_len, want_len;
        uint8_t *key = hex_decode(kv_get(&recs[i], "key"), &key_len);
        uint8_t *want = hex_decode(kv_get(&recs[i], "keystream"), &want_len);
        size_t offset = strtoul(kv_get(&recs[i], "offset"), NULL, 10);
        memset(stream, 0, sizeof stream);
        impl->xor_stream(stream, stream, sizeof stream, key, key_len);
        CHECK(offset + want_len <= sizeof stream &&
                  memcmp(stream + offset, want, want_len) == 0,
              "%s: got %s", kv_get(&recs[i], "name"),
              check_hex(stream + offset, 16));
        free(key);
        free(want);
    }
done:
    if (recs)
        kv_free(recs, n);
}

static int openssl_rc4(uint8_t *out, const uint8_t *in, size_t len,
                       const uint8_t *key, size_t key_len)
{
    EVP_CIPHER *rc4 = EVP_CIPHER_fetch(NULL, "RC4", NULL);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int n, ok = rc4 && ctx &&
                EVP_EncryptInit_ex2(ctx, rc4, NULL, NULL, NULL) &&
                EVP_CIPHER_CTX_set_key_length(ctx, (int)key_len) &&
                EVP_EncryptInit_ex2(ctx, NULL, key, NULL, NULL) &&
                EVP_EncryptUpdate(ctx, out, &n, in, (int)len);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(rc4);
    return ok;
}

static void test_vs_openssl(const rc4_impl *impl, const kernel *ossl_rc4)
{
    static uint8_t in_buf[MAX_LEN + 16], out_buf[MAX_LEN + 16],
        want[MAX_LEN];
    uint64_t seed = 41;
    CASE("rc4 vs OpenSSL's legacy RC4, keys of 1-256 bytes, misaligned, "
         "in place @%s", impl->v.isa);
    if (!CHECK(ossl_rc4, "openssl:rc4 is not registered") ||
        !check_runs_here(ossl_rc4, kernel_variant_at(ossl_rc4, 0)))
        return;
    for (int i = 0; i < TRIALS; i++) {
        uint8_t key[RC4_MAX_KEY_BYTES];
        size_t key_len = i < 2 ? (i ? 256 : 1) : 1 + check_random(&seed) % 256;
        size_t len = check_random(&seed) % (MAX_LEN + 1);
        uint8_t *in = in_buf + check_random(&seed) % 16;
        uint8_t *out = check_random(&seed) % 4 == 0
                           ? in : out_buf + check_random(&seed) % 16;
        check_fill_random(key, key_len, &seed);
        check_fill_random(in, len, &seed);
        if (!CHECK(openssl_rc4(want, in, len, key, key_len), "EVP failed"))
            continue;
        impl->xor_stream(out, in, len, key, key_len);
        CHECK(memcmp(out, want, len) == 0, "key %zu bytes, len %zu", key_len,
              len);
    }
}

/* The registry's gate for each kernel: known answers where it has them,
 * then agreement with its reference (or, without one, with itself). */
static void test_self_tests(void)
{
    static const char *const names[] = {
        "rc4", "openssl:rc4", "openssl:chacha20", "openssl:des-ede3-cbc",
        "openssl:bf-cbc", "openssl:camellia-128-cbc",
        "openssl:camellia-256-cbc",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const kernel *k = kernel_find(names[i]);
        const isa_variant *v = k ? kernel_variant_at(k, 0) : NULL;
        char err[256];
        CASE("%s passes kernel_self_test", names[i]);
        if (!CHECK(v, "kernel_find(\"%s\") is NULL", names[i]) ||
            !check_runs_here(k, v))
            continue;
        CHECK(kernel_self_test(k, v, err, sizeof err) == 0, "%s", err);
    }
}

/* A CBC kernel's round trip over many blocks, in place, prepared per key,
 * and what its check() refuses. */
static void test_cbc(const char *name, size_t key_bytes, size_t block)
{
    const kernel *k = kernel_find(name);
    const isa_variant *v = k ? kernel_variant_at(k, 0) : NULL;
    uint8_t msg[4096], buf[4096], first[4096];
    char err[256];
    kernel_args a;
    uint64_t seed = 51;
    CASE("%s round trip, in place, and its refusals", name);
    if (!CHECK(v, "kernel_find(\"%s\") is NULL", name) ||
        !check_runs_here(k, v))
        return;
    kernel_bench_args(k, &a);
    check_fill_random(msg, sizeof msg, &seed);
    CHECK(kernel_check(k, &a, sizeof msg, err, sizeof err) == 0, "%s", err);
    k->run(k, v, &a, msg, sizeof msg, first);
    memcpy(buf, msg, sizeof buf);
    k->run(k, v, &a, buf, sizeof buf, buf);
    CHECK(memcmp(buf, first, sizeof buf) == 0, "in place differs");
    CHECK(memcmp(first, msg, sizeof msg) != 0, "encryption changed nothing");
    /* CBC: changing block 0 changes every later block. */
    msg[0] ^= 1;
    k->run(k, v, &a, msg, sizeof msg, buf);
    CHECK(memcmp(buf + sizeof buf - block, first + sizeof buf - block,
                 block) != 0, "not chained");
    msg[0] ^= 1;
    a.decrypt = KERNEL_FLAG;
    k->run(k, v, &a, first, sizeof first, buf);
    CHECK(memcmp(buf, msg, sizeof msg) == 0, "decryption differs");
    /* Prepared once per key, as the benchmarks do: the same, twice over
     * (the IV is taken afresh per message). */
    for (int dir = 0; dir < 2; dir++) {
        a.decrypt.set = dir;
        kernel_prepare(k, v, &a);
        for (int twice = 0; twice < 2; twice++) {
            k->run(k, v, &a, dir ? first : msg, sizeof msg, buf);
            CHECK(a.prepared && memcmp(buf, dir ? msg : first, sizeof buf) == 0,
                  "prepared %s differs", dir ? "decryption" : "encryption");
        }
        kernel_release(k, &a);
    }
    CHECK(kernel_check(k, &a, block + 1, err, sizeof err) != 0,
          "a partial block was accepted");
    a.key.len = key_bytes - 1;
    CHECK(kernel_check(k, &a, block, err, sizeof err) != 0,
          "a short key was accepted");
    a.key.len = key_bytes;
    a.iv.len = block + 1;
    CHECK(kernel_check(k, &a, block, err, sizeof err) != 0,
          "a long IV was accepted");
    a.iv.set = 0;
    CHECK(kernel_check(k, &a, block, err, sizeof err) != 0,
          "a missing IV was accepted");
}

int main(void)
{
    /* Loading the legacy provider first must not cost the default one its
     * automatic loading: openssl:chacha20's self-test below checks that. */
    const kernel *ossl_rc4 = kernel_find("openssl:rc4");
    if (ossl_rc4)
        (void)ossl_rc4->unavailable(ossl_rc4);
    for (const rc4_impl *impl = rc4_impls; impl->v.isa; impl++) {
        test_rfc6229(impl);
        test_vs_openssl(impl, ossl_rc4);
    }
    test_self_tests();
    test_cbc("openssl:des-ede3-cbc", 24, 8);
    test_cbc("openssl:bf-cbc", 16, 8);
    test_cbc("openssl:camellia-128-cbc", 16, 16);
    test_cbc("openssl:camellia-256-cbc", 32, 16);
    test_cbc("gcrypt:camellia-128-cbc", 16, 16);
    test_cbc("gcrypt:camellia-256-cbc", 32, 16);
    check_gcrypt_peer("gcrypt:camellia-128-cbc", 300, 100);
    check_gcrypt_peer("gcrypt:camellia-256-cbc", 300, 101);
    return check_finish();
}
