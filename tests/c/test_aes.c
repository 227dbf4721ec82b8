/* AES: FIPS-197 and every Wycheproof vector (GCM, XTS, CBC under PKCS#5
 * padding, each CBC ciphertext decrypted as OpenSSL does) on every ISA;
 * differentials against OpenSSL's EVP ciphers over
 * random lengths with misaligned and in-place buffers and counters that
 * carry; and the registry kernels' contract: wrong tags rejected with no
 * plaintext released, known answers and self-tests of ours and of the
 * external kernels. */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/registry.h"
#include "../../kernels/aes/aes.h"
#include "../../kernels/aes/aes_internal.h"
#include "../../kernels/polyval/polyval.h"
#include "check.h"
#include "peers.h"
#include "vectors.h"
#include "wycheproof.h"

#define MAX_LEN 4096
#define TRIALS 120

#if defined(__x86_64__)
#include "emulated/emulated.h"

/* aes_vaes_avx512.c on stand-in intrinsics: four blocks per vector on four
 * xmm lanes (tests/c/emulated/emulated.h), its row built as aes.c builds
 * the table's. */
AES_DECLARE_ISA(vaes_avx512_emulated);
AES_DECLARE_GHASH(vaes_avx512_emulated);
AES_DECLARE_XCTR_POLYVAL(vaes_avx512_emulated);
static const aes_impl vaes_avx512_emulated =
    AES_ROW("vaes-avx512 (emulated zmm)", vaes_avx512_emulated,
            vaes_avx512_emulated, aes_xctr_polyval_vaes_avx512_emulated,
            EMULATED_CPU);
#endif

static int usable(const aes_impl *impl)
{
    if (cpu_supports(impl->v.required))
        return 1;
    SKIP("%s not supported by this CPU", impl->v.isa);
    return 0;
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* The registry kernel for a mode and key size, or NULL (AES-192 has none). */
static const kernel *gcm_kernel(size_t key_len)
{
    return key_len == 16 ? &kernel_aes128_gcm
           : key_len == 32 ? &kernel_aes256_gcm : NULL;
}

static const kernel *xts_kernel(size_t key_len)
{
    return key_len == 32 ? &kernel_aes128_xts
           : key_len == 64 ? &kernel_aes256_xts : NULL;
}

static const kernel *cbc_kernel(size_t key_len)
{
    return key_len == 16 ? &kernel_aes128_cbc
           : key_len == 32 ? &kernel_aes256_cbc : NULL;
}

/* FIPS-197 appendix C: key 00 01 02 ..., plaintext 00 11 22 ... ff; also as
 * 37 copies at once and in place, through every batch size. */
static void test_fips197(const aes_impl *impl)
{
    static const char *const want_hex[3] = {
        "69c4e0d86a7b0430d8cdb78070b4c55a", "dda97ca4864cdfe06eaf70a0ec0d7191",
        "8ea2b7ca516745bfeafc49904b496089",
    };
    CASE("FIPS-197 appendix C.1-C.3 (AES-128/192/256) @%s", impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < 3; i++) {
        uint8_t key[32], pt[16], got[16], many[37 * 16];
        size_t key_len = 16 + 8 * (size_t)i, n;
        uint8_t *want = hex_decode(want_hex[i], &n);
        aes_key k;
        for (int j = 0; j < 32; j++)
            key[j] = (uint8_t)j;
        for (int j = 0; j < 16; j++)
            pt[j] = (uint8_t)(0x11 * j);
        CHECK(aes_setup(impl, &k, key, key_len) == 0, "setup AES-%zu", 8 * key_len);
        impl->encrypt(&k, got, pt, 1);
        CHECK(memcmp(got, want, 16) == 0, "AES-%zu encrypt: %s", 8 * key_len,
              check_hex(got, 16));
        impl->decrypt(&k, got, want, 1);
        CHECK(memcmp(got, pt, 16) == 0, "AES-%zu decrypt", 8 * key_len);
        for (int j = 0; j < 37; j++)
            memcpy(many + 16 * j, pt, 16);
        impl->encrypt(&k, many, many, 37);
        for (int j = 0; j < 37; j++)
            CHECK(memcmp(many + 16 * j, want, 16) == 0,
                  "AES-%zu block %d of 37", 8 * key_len, j);
        impl->decrypt(&k, many, many, 37);
        for (int j = 0; j < 37; j++)
            CHECK(memcmp(many + 16 * j, pt, 16) == 0,
                  "AES-%zu decrypt block %d of 37", 8 * key_len, j);
        free(want);
    }
}

/* OpenSSL EVP, the independent implementation decryptions and the
 * differentials below are compared with. */

static int evp_crypt(const char *name, int enc, const uint8_t *key,
                     const uint8_t *iv, const uint8_t *in, size_t len,
                     uint8_t *out)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, NULL);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int n = 0, ok = c && ctx && EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL) &&
                    EVP_CIPHER_CTX_set_padding(ctx, 0) &&
                    (len == 0 || EVP_CipherUpdate(ctx, out, &n, in, (int)len));
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    return ok && (size_t)n == len;
}

static const char *evp_name(const char *mode, size_t key_len)
{
    static char name[32];
    snprintf(name, sizeof name, "AES-%zu-%s", 8 * key_len, mode);
    return name;
}

/* Wycheproof */

static void wycheproof_file(const char *file, const char *what,
                            const aes_impl *impl, wycheproof_check_fn *check,
                            size_t expected)
{
    json_t *doc;
    CASE("Wycheproof %s, every vector @%s", what, impl->v.isa);
    if (!usable(impl))
        return;
    doc = vector_json(file);
    if (!CHECK(doc != NULL, "cannot load %s", file))
        return;
    size_t n = wycheproof_walk(doc, check, (void *)impl);
    CHECK(n == expected, "%s: %zu tests, expected %zu", file, n, expected);
    json_decref(doc);
}

/* GCM through the registry kernel: in is ciphertext || tag. */
static int gcm_kernel_decrypt(const kernel *k, const aes_impl *impl,
                              const wycheproof_vector *v, uint8_t *out)
{
    kernel_args a = { .key = KERNEL_BYTES(v->key, v->key_len),
                      .iv = KERNEL_BYTES(v->iv, v->iv_len),
                      .aad = KERNEL_BYTES(v->aad, v->aad_len),
                      .decrypt = KERNEL_FLAG };
    size_t len = v->ct_len + v->tag_len;
    uint8_t *in = malloc(len + 1);
    char err[256];
    memcpy(in, v->ct, v->ct_len);
    memcpy(in + v->ct_len, v->tag, v->tag_len);
    int rc = kernel_check(k, &a, len, err, sizeof err) ? -1
             : k->run(k, &impl->v, &a, in, len, out);
    free(in);
    return rc;
}

static void gcm_vector(void *ctx, const wycheproof_vector *v)
{
    const aes_impl *impl = ctx;
    uint8_t *out = malloc(v->msg_len + v->ct_len + 1), tag[16];
    uint8_t *buf = malloc(v->ct_len + 1);
    const kernel *k = gcm_kernel(v->key_len);
    aes_gcm_key gk;
    if (v->iv_len == 0) {
        /* GCM needs an IV of at least one bit; the kernels take 12 bytes. */
        CHECK(v->invalid, "tc %d: a valid vector with an empty IV", v->id);
        if (k)
            CHECK(gcm_kernel_decrypt(k, impl, v, out) < 0,
                  "tc %d: %s accepted an empty IV", v->id, k->name);
        goto done;
    }
    CHECK(aes_gcm_setup(impl, &gk, v->key, v->key_len) == 0, "tc %d setup",
          v->id);
    if (!v->invalid) {
        aes_gcm_encrypt(impl, &gk, out, tag, v->msg, v->msg_len, v->iv,
                        v->iv_len, v->aad, v->aad_len);
        CHECK(memcmp(out, v->ct, v->ct_len) == 0 && v->tag_len == 16 &&
                  memcmp(tag, v->tag, 16) == 0,
              "tc %d encrypt: tag %s", v->id, check_hex(tag, 16));
    }
    memcpy(buf, v->ct, v->ct_len); /* decrypted in place */
    int rc = aes_gcm_decrypt(impl, &gk, buf, buf, v->ct_len, v->tag, v->iv,
                             v->iv_len, v->aad, v->aad_len);
    if (!v->invalid)
        CHECK(rc == 0 && memcmp(buf, v->msg, v->msg_len) == 0,
              "tc %d decrypt", v->id);
    else
        CHECK(rc != 0 && all_zero(buf, v->ct_len),
              "tc %d: invalid vector accepted, or plaintext released", v->id);
    if (k && v->iv_len == AES_GCM_IV_BYTES) {
        memset(out, 0xa5, v->ct_len);
        rc = gcm_kernel_decrypt(k, impl, v, out);
        if (!v->invalid)
            CHECK(rc == 0 && memcmp(out, v->msg, v->msg_len) == 0,
                  "tc %d: %s decrypt", v->id, k->name);
        else
            CHECK(rc == 1 && all_zero(out, v->ct_len),
                  "tc %d: %s accepted an invalid vector or released "
                  "plaintext", v->id, k->name);
    }
done:
    free(out);
    free(buf);
}

/* Wycheproof's XTS iv is the 8-byte data-unit number, little-endian: the
 * tweak is it zero-extended to 16 bytes, which is also --sector. */
static void xts_vector(void *ctx, const wycheproof_vector *v)
{
    const aes_impl *impl = ctx;
    uint8_t tweak[16] = { 0 }, *out = malloc(v->msg_len + 1);
    aes_xts_key xk;
    const kernel *k = xts_kernel(v->key_len);
    memcpy(tweak, v->iv, v->iv_len < 16 ? v->iv_len : 16);
    CHECK(!v->invalid, "tc %d: XTS vectors are all valid", v->id);
    CHECK(aes_xts_setup(impl, &xk, v->key, v->key_len) == 0, "tc %d setup",
          v->id);
    aes_xts_encrypt(impl, &xk, out, v->msg, v->msg_len, tweak);
    CHECK(v->ct_len == v->msg_len && memcmp(out, v->ct, v->ct_len) == 0,
          "tc %d encrypt (%zu bytes)", v->id, v->msg_len);
    aes_xts_decrypt(impl, &xk, out, out, v->ct_len, tweak);
    CHECK(memcmp(out, v->msg, v->msg_len) == 0, "tc %d decrypt in place",
          v->id);
    if (k && v->iv_len == 8) {
        uint64_t sector = 0;
        for (int i = 7; i >= 0; i--)
            sector = sector << 8 | v->iv[i];
        kernel_args a = { .key = KERNEL_BYTES(v->key, v->key_len),
                          .sector = KERNEL_NUMBER(sector) };
        k->run(k, &impl->v, &a, v->msg, v->msg_len, out);
        CHECK(memcmp(out, v->ct, v->ct_len) == 0, "tc %d: %s --sector=%llu",
              v->id, k->name, (unsigned long long)sector);
    }
    free(out);
}

/* PKCS#5: the padded length is a positive multiple of 16 and the last n
 * bytes all equal n, 1 <= n <= 16. Returns the unpadded length or -1. */
static long pkcs5_unpad(const uint8_t *p, size_t len)
{
    if (len == 0 || len % 16)
        return -1;
    uint8_t n = p[len - 1];
    if (n == 0 || n > 16)
        return -1;
    for (size_t i = len - n; i < len; i++)
        if (p[i] != n)
            return -1;
    return (long)(len - n);
}

/* Every vector's ciphertext, valid or not, must decrypt as OpenSSL's CBC
 * without padding does: most of the invalid vectors are bad padding, and
 * a wrong decryption has bad padding too. Then the padding decides. */
static void cbc_pkcs5_vector(void *ctx, const wycheproof_vector *v)
{
    const aes_impl *impl = ctx;
    size_t padded = v->msg_len / 16 * 16 + 16;
    uint8_t *in = malloc(padded), *out = malloc(padded + v->ct_len + 1);
    uint8_t *raw = malloc(v->ct_len + 1);
    const kernel *k = cbc_kernel(v->key_len);
    aes_key key;
    CHECK(aes_setup(impl, &key, v->key, v->key_len) == 0, "tc %d setup", v->id);
    if (!v->invalid) {
        memcpy(in, v->msg, v->msg_len);
        memset(in + v->msg_len, (int)(padded - v->msg_len), padded - v->msg_len);
        aes_cbc_cs2_encrypt(impl, &key, out, in, padded, v->iv);
        CHECK(padded == v->ct_len && memcmp(out, v->ct, padded) == 0,
              "tc %d encrypt", v->id);
    }
    long n = -1;
    int whole_blocks = v->ct_len >= 16 && v->ct_len % 16 == 0, evp_ok = 0;
    if (whole_blocks) {
        evp_ok = CHECK(evp_crypt(evp_name("CBC", v->key_len), 0, v->key, v->iv,
                                 v->ct, v->ct_len, raw),
                       "tc %d: EVP decryption failed", v->id);
        aes_cbc_cs2_decrypt(impl, &key, out, v->ct, v->ct_len, v->iv);
        CHECK(evp_ok && memcmp(out, raw, v->ct_len) == 0,
              "tc %d (%s): raw decryption differs from OpenSSL's", v->id,
              v->invalid ? "invalid" : "valid");
        n = pkcs5_unpad(out, v->ct_len);
    }
    if (!v->invalid)
        CHECK(n == (long)v->msg_len && memcmp(out, v->msg, v->msg_len) == 0,
              "tc %d decrypt", v->id);
    else
        CHECK(n < 0, "tc %d: bad padding accepted", v->id);
    if (k && whole_blocks) {
        kernel_args a = { .key = KERNEL_BYTES(v->key, v->key_len),
                          .iv = KERNEL_BYTES(v->iv, v->iv_len),
                          .decrypt = KERNEL_FLAG };
        memset(out, 0xa5, v->ct_len);
        k->run(k, &impl->v, &a, v->ct, v->ct_len, out);
        CHECK(evp_ok && memcmp(out, raw, v->ct_len) == 0,
              "tc %d (%s): %s --decrypt differs from OpenSSL's", v->id,
              v->invalid ? "invalid" : "valid", k->name);
    }
    free(in);
    free(out);
    free(raw);
}

/* Differentials against OpenSSL EVP */

/* AES-GCM with a 16-byte tag after the ciphertext. */
static int evp_gcm(int enc, size_t key_len, const uint8_t *key,
                   const uint8_t *iv, const uint8_t *aad, size_t aad_len,
                   const uint8_t *in, size_t len, uint8_t *out)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, key_len == 16 ? "AES-128-GCM"
                                                         : "AES-256-GCM", NULL);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int n = 0, ok = c && ctx && EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL);
    uint8_t tag[16];
    if (!enc) {
        len -= 16;
        memcpy(tag, in + len, 16);
        ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag);
    }
    ok = ok && (aad_len == 0 ||
                EVP_CipherUpdate(ctx, NULL, &n, aad, (int)aad_len)) &&
         (len == 0 || EVP_CipherUpdate(ctx, out, &n, in, (int)len)) &&
         EVP_CipherFinal_ex(ctx, out + len, &n) > 0 &&
         (!enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, out + len));
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    return ok;
}

typedef struct trial {
    uint8_t key[64], iv[16], aad[100];
    uint8_t *in, *out;
    size_t len, aad_len;
    int in_place;
} trial;

static uint8_t in_buf[MAX_LEN + 64], out_buf[MAX_LEN + 64], want[MAX_LEN + 32],
    back[MAX_LEN + 32];

static trial random_trial(uint64_t *seed, size_t min_len)
{
    trial t;
    check_fill_random(t.key, sizeof t.key, seed);
    check_fill_random(t.iv, sizeof t.iv, seed);
    t.aad_len = check_random(seed) % (sizeof t.aad + 1);
    check_fill_random(t.aad, t.aad_len, seed);
    t.len = min_len + check_random(seed) % (MAX_LEN + 1 - min_len);
    t.in_place = check_random(seed) % 4 == 0;
    t.in = in_buf + check_random(seed) % 16;
    t.out = t.in_place ? t.in : out_buf + check_random(seed) % 16;
    check_fill_random(t.in, t.len, seed);
    return t;
}

/* Counter blocks whose low 64 bits, or all 128, wrap within the message in
 * some trials. */
static void carrying_iv(uint8_t iv[16], uint64_t r, size_t len)
{
    if (r % 3 == 0)
        return;
    memset(iv + (r % 3 == 1 ? 8 : 0), 0xff, r % 3 == 1 ? 7 : 15);
    iv[15] = (uint8_t)(0xff - (r >> 8) % (len / 16 + 2));
}

static void test_ctr_vs_openssl(const aes_impl *impl, size_t key_len)
{
    uint64_t seed = 10 + key_len;
    CASE("AES-%zu-CTR vs OpenSSL EVP, counters that carry @%s", 8 * key_len,
         impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        trial t = random_trial(&seed, 0);
        aes_key k;
        carrying_iv(t.iv, check_random(&seed), t.len);
        aes_setup(impl, &k, t.key, key_len);
        if (!CHECK(evp_crypt(evp_name("CTR", key_len), 1, t.key, t.iv, t.in,
                             t.len, want), "EVP failed"))
            continue;
        aes_ctr_xor(impl, &k, t.out, t.in, t.len, t.iv);
        CHECK(memcmp(t.out, want, t.len) == 0, "len %zu iv %s in_place %d",
              t.len, check_hex(t.iv, 16), t.in_place);
    }
}

/* OpenSSL's CTS defaults to CS1, which differs from CS2 only when the last
 * block is partial: then CS1 ends with the cut block and the full one, CS2
 * with the full one and the cut block. */
static void cs1_to_cs2(uint8_t *p, size_t len)
{
    size_t d = len % 16;
    uint8_t tail[32];
    if (d == 0)
        return;
    memcpy(tail, p + len - 16, 16);
    memcpy(tail + 16, p + len - 16 - d, d);
    memcpy(p + len - 16 - d, tail, 16 + d);
}

static void test_cbc_vs_openssl(const aes_impl *impl, size_t key_len)
{
    uint64_t seed = 20 + key_len;
    CASE("AES-%zu-CBC (CS2) vs OpenSSL EVP CBC and CBC-CTS (CS1, mapped) "
         "@%s", 8 * key_len, impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        trial t = random_trial(&seed, 16);
        const char *mode = t.len % 16 ? "CBC-CTS" : "CBC";
        aes_key k;
        aes_setup(impl, &k, t.key, key_len);
        if (!CHECK(evp_crypt(evp_name(mode, key_len), 1, t.key, t.iv, t.in,
                             t.len, want), "EVP %s failed", mode))
            continue;
        cs1_to_cs2(want, t.len);
        memcpy(back, t.in, t.len);
        aes_cbc_cs2_encrypt(impl, &k, t.out, t.in, t.len, t.iv);
        CHECK(memcmp(t.out, want, t.len) == 0, "encrypt len %zu in_place %d",
              t.len, t.in_place);
        aes_cbc_cs2_decrypt(impl, &k, t.out, t.out, t.len, t.iv);
        CHECK(memcmp(t.out, back, t.len) == 0, "decrypt in place len %zu",
              t.len);
    }
}

static void test_xts_vs_openssl(const aes_impl *impl, size_t key_len)
{
    uint64_t seed = 30 + key_len;
    CASE("AES-%zu-XTS vs OpenSSL EVP, ciphertext stealing @%s", 8 * key_len,
         impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        trial t = random_trial(&seed, 16);
        aes_xts_key xk;
        aes_xts_setup(impl, &xk, t.key, 2 * key_len);
        if (!CHECK(evp_crypt(evp_name("XTS", key_len), 1, t.key, t.iv, t.in,
                             t.len, want), "EVP failed"))
            continue;
        memcpy(back, t.in, t.len);
        aes_xts_encrypt(impl, &xk, t.out, t.in, t.len, t.iv);
        CHECK(memcmp(t.out, want, t.len) == 0, "encrypt len %zu in_place %d",
              t.len, t.in_place);
        if (!CHECK(evp_crypt(evp_name("XTS", key_len), 0, t.key, t.iv, want,
                             t.len, want), "EVP decrypt failed"))
            continue;
        aes_xts_decrypt(impl, &xk, t.out, t.out, t.len, t.iv);
        CHECK(memcmp(t.out, back, t.len) == 0 && memcmp(want, back, t.len) == 0,
              "decrypt in place len %zu", t.len);
    }
}

static void test_gcm_vs_openssl(const aes_impl *impl, size_t key_len)
{
    uint64_t seed = 40 + key_len;
    CASE("AES-%zu-GCM vs OpenSSL EVP, random AAD, tampering rejected @%s",
         8 * key_len, impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        trial t = random_trial(&seed, 0);
        aes_gcm_key gk;
        uint8_t tag[16];
        aes_gcm_setup(impl, &gk, t.key, key_len);
        if (!CHECK(evp_gcm(1, key_len, t.key, t.iv, t.aad, t.aad_len, t.in,
                           t.len, want), "EVP encrypt failed"))
            continue;
        memcpy(back, t.in, t.len);
        aes_gcm_encrypt(impl, &gk, t.out, tag, t.in, t.len, t.iv, 12, t.aad,
                        t.aad_len);
        CHECK(memcmp(t.out, want, t.len) == 0 && memcmp(tag, want + t.len, 16) == 0,
              "encrypt len %zu aad %zu in_place %d", t.len, t.aad_len,
              t.in_place);
        CHECK(aes_gcm_decrypt(impl, &gk, t.out, t.out, t.len, tag, t.iv, 12,
                              t.aad, t.aad_len) == 0 &&
                  memcmp(t.out, back, t.len) == 0,
              "decrypt in place len %zu", t.len);
        /* One flipped bit anywhere: in the ciphertext, the tag or the AAD. */
        size_t where = check_random(&seed) % (t.len + 16 + t.aad_len);
        uint8_t bit = (uint8_t)(1u << check_random(&seed) % 8);
        uint8_t *flip = where < t.len ? want + where
                        : where < t.len + 16 ? want + where
                                             : t.aad + (where - t.len - 16);
        *flip ^= bit;
        CHECK(aes_gcm_decrypt(impl, &gk, t.out, want, t.len, want + t.len, t.iv,
                              12, t.aad, t.aad_len) == -1 &&
                  all_zero(t.out, t.len),
              "a flipped bit at %zu of len %zu aad %zu was accepted", where,
              t.len, t.aad_len);
    }
}

/* Every ISA against generic where the counter's low 32 bits wrap inside a
 * batch: GCM's inc32 must not carry into the IV. */
/* The table's last row, the portable reference. */
static const aes_impl *generic_impl(void)
{
    const aes_impl *generic = &aes_impls[0];
    while (generic[1].v.isa)
        generic++;
    return generic;
}

static void test_gcm_counter_wrap(const aes_impl *impl)
{
    const aes_impl *generic = generic_impl();
    uint64_t seed = 50;
    CASE("GCM inc32 wraps inside a batch, == generic @%s", impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < 40; i++) {
        uint8_t key[32], ctr[16], ctr_want[16], y[16], y_want[16];
        size_t nblocks = 1 + check_random(&seed) % 100;
        aes_key k, k_want; /* each in its row's own form */
        ghash_key g, g_want;
        check_fill_random(key, sizeof key, &seed);
        check_fill_random(ctr, sizeof ctr, &seed);
        check_fill_random(y, sizeof y, &seed);
        check_fill_random(in_buf, 16 * nblocks, &seed);
        memset(ctr + 12, 0xff, 4);
        ctr[15] = (uint8_t)(0xff - check_random(&seed) % 40);
        memcpy(ctr_want, ctr, 16);
        memcpy(y_want, y, 16);
        aes_setup(impl, &k, key, 16 + 16 * (i % 2));
        aes_setup(generic, &k_want, key, 16 + 16 * (i % 2));
        impl->ghash_init(&g, key);
        generic->ghash_init(&g_want, key);
        generic->gcm_encrypt(&k_want, &g_want, ctr_want, y_want, want, in_buf,
                             nblocks);
        impl->gcm_encrypt(&k, &g, ctr, y, out_buf, in_buf, nblocks);
        CHECK(memcmp(out_buf, want, 16 * nblocks) == 0 &&
                  memcmp(ctr, ctr_want, 16) == 0 && memcmp(y, y_want, 16) == 0,
              "%zu blocks from counter %s", nblocks, check_hex(ctr_want, 16));
    }
}

/* XCTR: every vector of the HCTR2 authors' file, both ways (the second in
 * place). */
static void test_xctr_vectors(const aes_impl *impl, const char *file,
                              size_t expected)
{
    json_t *doc;
    CASE("XCTR %s, every vector, in place @%s", file, impl->v.isa);
    if (!usable(impl))
        return;
    doc = vector_json(file);
    if (!CHECK(doc && json_is_array(doc), "cannot load %s", file)) {
        json_decref(doc);
        return;
    }
    for (size_t i = 0; i < json_array_size(doc); i++) {
        const json_t *t = json_array_get(doc, i),
                     *in = json_object_get(t, "input");
        size_t key_len, nonce_len, pt_len, ct_len;
        uint8_t *key = hex_decode(vector_string(in, "key_hex"), &key_len),
                *nonce = hex_decode(vector_string(in, "nonce_hex"), &nonce_len),
                *pt = hex_decode(vector_string(t, "plaintext_hex"), &pt_len),
                *ct = hex_decode(vector_string(t, "ciphertext_hex"), &ct_len);
        aes_key k;
        CHECK(nonce_len == 16 && ct_len == pt_len && pt_len <= MAX_LEN,
              "vector %zu: a 16-byte nonce, ciphertext as long as plaintext",
              i);
        CHECK(aes_setup(impl, &k, key, key_len) == 0, "vector %zu setup", i);
        aes_xctr_xor(impl, &k, out_buf, pt, pt_len, nonce);
        CHECK(memcmp(out_buf, ct, ct_len) == 0, "vector %zu (%zu bytes): %s",
              i, pt_len, check_hex(out_buf, pt_len));
        aes_xctr_xor(impl, &k, out_buf, out_buf, ct_len, nonce);
        CHECK(memcmp(out_buf, pt, pt_len) == 0, "vector %zu back, in place", i);
        free(key), free(nonce), free(pt), free(ct);
    }
    CHECK(json_array_size(doc) == expected, "%s: %zu vectors, expected %zu",
          file, json_array_size(doc), expected);
    json_decref(doc);
}

/* XCTR against generic on random lengths, misaligned and in place; and the
 * row function from a counter far from 1 (the low quadword near its top,
 * where nothing may carry into the nonce's high half). */
static void test_xctr_vs_generic(const aes_impl *impl, size_t key_len)
{
    const aes_impl *generic = generic_impl();
    uint64_t seed = 70 + key_len;
    CASE("AES-%zu-XCTR == generic, random lengths, far counters @%s",
         8 * key_len, impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        trial t = random_trial(&seed, 0);
        aes_key k, kg;
        size_t nblocks = t.len / 16;
        uint64_t first = i % 2 ? UINT64_MAX - check_random(&seed) % 300
                               : check_random(&seed);
        aes_setup(impl, &k, t.key, key_len);
        aes_setup(generic, &kg, t.key, key_len);
        aes_xctr_xor(generic, &kg, want, t.in, t.len, t.iv);
        aes_xctr_xor(impl, &k, t.out, t.in, t.len, t.iv);
        CHECK(memcmp(t.out, want, t.len) == 0, "len %zu in_place %d", t.len,
              t.in_place);
        generic->xctr(&kg, t.iv, first, want, t.in, nblocks);
        impl->xctr(&k, t.iv, first, t.out, t.in, nblocks);
        CHECK(memcmp(t.out, want, 16 * nblocks) == 0,
              "%zu blocks from counter %llu", nblocks,
              (unsigned long long)first);
    }
}

/* XCTR with POLYVAL in one pass (HCTR2's), where a row has it: the same
 * output as its XCTR, and the same hash as POLYVAL generic of that output,
 * from a random accumulator, over 0 to 256 blocks (every batch and rest
 * of every row), misaligned and in place. */
static void test_xctr_polyval(const aes_impl *impl)
{
    /* The row's key comes from its architecture's POLYVAL row with every
     * power set up (the x86 rows share pclmul's layout). */
#if defined(__aarch64__)
    const polyval_impl *pv = polyval_find("ce"),
#else
    const polyval_impl *pv = polyval_find("pclmul"),
#endif
                       *pv_generic = polyval_find("generic");
    uint64_t seed = 75;
    CASE("XCTR with POLYVAL == XCTR, then POLYVAL generic of its output @%s",
         impl->v.isa);
    if (!impl->xctr_polyval) {
        SKIP("%s has no XCTR with POLYVAL (HCTR2 runs two passes)",
             impl->v.isa);
        return;
    }
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        trial t = random_trial(&seed, 0);
        size_t nblocks = check_random(&seed) % (MAX_LEN / 16 + 1);
        uint64_t first = check_random(&seed);
        uint8_t h[16], acc[16], acc_want[16];
        aes_key k;
        polyval_key pk, pk_generic;
        check_fill_random(h, 16, &seed);
        check_fill_random(acc, 16, &seed);
        check_fill_random(t.in, 16 * nblocks, &seed);
        memcpy(acc_want, acc, 16);
        aes_setup(impl, &k, t.key, 16 + 16 * (size_t)(i % 2));
        pv->init(&pk, h);
        pv_generic->init(&pk_generic, h);
        impl->xctr(&k, t.iv, first, want, t.in, nblocks);
        pv_generic->update(&pk_generic, acc_want, want, nblocks);
        impl->xctr_polyval(&k, &pk, t.iv, first, acc, t.out, t.in, nblocks);
        CHECK(memcmp(t.out, want, 16 * nblocks) == 0 &&
                  memcmp(acc, acc_want, 16) == 0,
              "%zu blocks, in place %d: output %s, hash %s", nblocks,
              t.in_place,
              memcmp(t.out, want, 16 * nblocks) ? "differs" : "agrees",
              check_hex(acc, 16));
    }
}

/* The single rounds other primitives build on (AEGIS): FIPS-197 appendix
 * B's first round, then random states against each other and against
 * AESENC where the CPU has it. */
#if defined(__x86_64__)
#if defined(__clang__) /* the sanitized build's compiler */
#pragma clang attribute push(__attribute__((target("ssse3,aes"))), \
                             apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("ssse3,aes")
#endif
#include <wmmintrin.h>

#include "../../kernels/aes/aes_round_ssse3.h"

static void round_ssse3(uint8_t out[16], const uint8_t in[16],
                        const uint8_t rk[16])
{
    _mm_storeu_si128((__m128i *)out,
                     aes_round_ssse3(_mm_loadu_si128((const __m128i *)in),
                                     _mm_loadu_si128((const __m128i *)rk)));
}

static void round_aesni(uint8_t out[16], const uint8_t in[16],
                        const uint8_t rk[16])
{
    _mm_storeu_si128((__m128i *)out,
                     _mm_aesenc_si128(_mm_loadu_si128((const __m128i *)in),
                                      _mm_loadu_si128((const __m128i *)rk)));
}
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#elif defined(__aarch64__)
#include <arm_neon.h>

#include "../../kernels/aes/aes_round_neon.h"

static void round_neon(uint8_t out[16], const uint8_t in[16],
                       const uint8_t rk[16])
{
    vst1q_u8(out, aes_round_neon(vld1q_u8(in), vld1q_u8(rk)));
}
#endif

typedef void round_fn(uint8_t out[16], const uint8_t in[16],
                      const uint8_t rk[16]);

static void test_single_round(const char *name, round_fn *round,
                              unsigned required)
{
    size_t n;
    uint8_t *in = hex_decode("193de3bea0f4e22b9ac68d2ae9f84808", &n),
            *rk = hex_decode("a0fafe1788542cb123a339392a6c7605", &n),
            *want = hex_decode("a49c7ff2689f352b6b5bea43026a5049", &n);
    uint8_t got[16], ref[16], state[16], key[16];
    uint64_t seed = 60;
    CASE("%s: FIPS-197 appendix B round 1, == aes_round_generic on random "
         "states, in place", name);
    if (!cpu_supports(required)) {
        SKIP("%s not supported by this CPU", name);
    } else {
        round(got, in, rk);
        CHECK(memcmp(got, want, 16) == 0, "round 1: %s", check_hex(got, 16));
        for (int i = 0; i < 1000; i++) {
            check_fill_random(state, 16, &seed);
            check_fill_random(key, 16, &seed);
            aes_round_generic(ref, state, key);
            round(state, state, key);
            CHECK(memcmp(state, ref, 16) == 0, "random state %d", i);
        }
    }
    free(in);
    free(rk);
    free(want);
}

/* The registry kernels */

static void test_gcm_kernel_rejects(const kernel *k)
{
    static const uint8_t key[32] = { 1, 2, 3 }, iv[12] = { 4, 5, 6 },
                         aad[5] = { 7, 8, 9 };
    kernel_args a;
    const isa_variant *v;
    uint8_t msg[100], sealed[116], opened[116];
    char err[256];
    kernel_bench_args(k, &a); /* for the key length */
    a = (kernel_args){ .key = KERNEL_BYTES(key, a.key.len),
                       .iv = KERNEL_BYTES(iv, 12),
                       .aad = KERNEL_BYTES(aad, sizeof aad) };
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)i;
    for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
        CASE("%s@%s: --decrypt opens what it seals, refuses a wrong tag with "
             "nothing released, refuses short input", k->name, v->isa);
        if (!check_runs_here(k, v))
            continue;
        CHECK(kernel_check(k, &a, sizeof msg, err, sizeof err) == 0, "%s", err);
        CHECK(kernel_out_len(k, &a, sizeof msg) == sizeof sealed, "out_len");
        CHECK(k->run(k, v, &a, msg, sizeof msg, sealed) == 0, "seal");
        a.decrypt = KERNEL_FLAG;
        CHECK(kernel_out_len(k, &a, sizeof sealed) == sizeof msg, "out_len decrypt");
        CHECK(k->run(k, v, &a, sealed, sizeof sealed, opened) == 0 &&
                  memcmp(opened, msg, sizeof msg) == 0, "open");
        sealed[sizeof sealed - 1] ^= 1;
        memset(opened, 0xa5, sizeof opened);
        CHECK(k->run(k, v, &a, sealed, sizeof sealed, opened) == 1 &&
                  all_zero(opened, sizeof msg), "wrong tag accepted or "
                  "plaintext released");
        CHECK(kernel_check(k, &a, 15, err, sizeof err) != 0,
              "15 bytes accepted for --decrypt");
        a.decrypt = (kernel_value){ 0 };
    }
}

/* libgcrypt and OpenSSL refuse an XTS data unit over 2^20 blocks, which
 * ours takes: their check() says so before anything runs. */
static void test_xts_data_unit_limit(const kernel *k)
{
    kernel_args a;
    char err[256];
    CASE("%s: a data unit of 2^20 blocks is taken, one more block refused",
         k->name);
    kernel_bench_args(k, &a);
    CHECK(kernel_check(k, &a, 16u << 20, err, sizeof err) == 0, "%s", err);
    CHECK(kernel_check(k, &a, (16u << 20) + 16, err, sizeof err) != 0 &&
              strstr(err, "2^20 blocks"), "accepted, or said: %s", err);
}

static int is_aes_kernel(const kernel *k)
{
    return strcmp(k->family, "aes") == 0;
}

/* Known answers and the bench's gate (every variant against generic at
 * awkward lengths), for ours and the external kernels. */
static void test_self_tests(void)
{
    for (size_t i = 0; kernel_registry[i]; i++) {
        const kernel *k = kernel_registry[i];
        const isa_variant *v;
        if (!is_aes_kernel(k))
            continue;
        for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
            char err[256] = "";
            CASE("%s@%s known answers and self-test", k->name, v->isa);
            if (!check_runs_here(k, v))
                continue;
            CHECK(kernel_self_test(k, v, err, sizeof err) == 0, "%s", err);
        }
    }
}

/* Prepared keys must give what run() computes for itself, in both
 * directions. */
static void test_prepared(void)
{
    for (size_t i = 0; kernel_registry[i]; i++) {
        const kernel *k = kernel_registry[i];
        const isa_variant *v;
        if (!is_aes_kernel(k))
            continue;
        for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
            CASE("%s@%s prepared keys == unprepared, both directions", k->name,
                 v->isa);
            if (!check_runs_here(k, v))
                continue;
            for (int dir = 0; dir < 1 + !!kernel_spec_find(k, KOPT_DECRYPT); dir++) {
                kernel_args a;
                size_t len = 1000;
                kernel_bench_args(k, &a);
                for (size_t b = 0; b < len; b++)
                    in_buf[b] = (uint8_t)(b * 13);
                if (dir && kernel_spec_find(k, KOPT_AAD)) /* a sealed input */
                    k->run(k, v, &a, in_buf, len - 16, in_buf);
                a.decrypt.set = dir;
                int rc = k->run(k, v, &a, in_buf, len, want);
                kernel_prepare(k, v, &a);
                CHECK(a.prepared != NULL, "prepare gave nothing");
                CHECK(k->run(k, v, &a, in_buf, len, back) == rc &&
                          memcmp(want, back, kernel_out_len(k, &a, len)) == 0,
                      "%s differs", dir ? "decrypt" : "encrypt");
                kernel_release(k, &a);
            }
        }
    }
}

/* aes_setup_encrypt makes the encryption schedule aes_setup makes and
 * writes nothing of the inverse cipher's; aes_wipe_encrypt zeroes the
 * schedule it wrote. */
static void test_setup_encrypt(const aes_impl *impl)
{
    CASE("AES-128/192/256 @%s: the encrypt-only schedule is aes_setup's, "
         "leaves dec as it was, and is wiped whole", impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < 3; i++) {
        size_t key_len = 16 + 8 * (size_t)i;
        uint64_t seed = 0xe5c ^ key_len;
        uint8_t key[32], pattern[sizeof(aes_key)];
        aes_key full, enc;
        check_fill_random(key, sizeof key, &seed);
        memset(pattern, 0x5a, sizeof pattern);
        memcpy(&enc, pattern, sizeof enc);
        aes_setup(impl, &full, key, key_len);
        CHECK(aes_setup_encrypt(impl, &enc, key, key_len) == 0 &&
                  enc.rounds == full.rounds &&
                  memcmp(enc.enc, full.enc, 16 * (full.rounds + 1)) == 0,
              "AES-%zu: the schedules differ", 8 * key_len);
        CHECK(memcmp(enc.dec, ((const aes_key *)(const void *)pattern)->dec,
                     sizeof enc.dec) == 0,
              "AES-%zu: dec written", 8 * key_len);
        aes_wipe_encrypt(&enc);
        CHECK(check_all_zero(enc.enc[0], 16 * (full.rounds + 1)) &&
                  enc.rounds == 0,
              "AES-%zu: the schedule not wiped", 8 * key_len);
    }
}

int main(void)
{
    static const size_t key_lens[] = { 16, 32 };
    const aes_impl *impls[8];
    size_t n = 0;
    for (const aes_impl *impl = aes_impls; impl->v.isa; impl++)
        impls[n++] = impl;
#if defined(__x86_64__)
    impls[n++] = &vaes_avx512_emulated;
#endif
    for (size_t i = 0; i < n; i++) {
        const aes_impl *impl = impls[i];
        test_fips197(impl);
        test_setup_encrypt(impl);
        wycheproof_file("wycheproof_aes_gcm_test.json", "AES-GCM (all IV sizes)",
                        impl, gcm_vector, 316);
        wycheproof_file("wycheproof_aes_xts_test.json", "AES-XTS", impl,
                        xts_vector, 123);
        wycheproof_file("wycheproof_aes_cbc_pkcs5_test.json",
                        "AES-CBC-PKCS5 (raw decryption == OpenSSL's, "
                        "padding in the test)", impl,
                        cbc_pkcs5_vector, 216);
        for (size_t j = 0; j < 2; j++) {
            test_ctr_vs_openssl(impl, key_lens[j]);
            test_cbc_vs_openssl(impl, key_lens[j]);
            test_xts_vs_openssl(impl, key_lens[j]);
            test_gcm_vs_openssl(impl, key_lens[j]);
        }
        test_gcm_counter_wrap(impl);
        test_xctr_vectors(impl, "xctr_aes128.json", 25);
        test_xctr_vectors(impl, "xctr_aes256.json", 45);
        test_xctr_vs_generic(impl, 16);
        test_xctr_vs_generic(impl, 32);
        test_xctr_polyval(impl);
    }
    test_single_round("aes_round_generic", aes_round_generic, 0);
#if defined(__x86_64__)
    test_single_round("aes_round_ssse3", round_ssse3, CPU_SSSE3);
    test_single_round("AESENC", round_aesni, CPU_AESNI);
#elif defined(__aarch64__)
    test_single_round("aes_round_neon", round_neon, CPU_NEON);
#endif
    test_gcm_kernel_rejects(&kernel_aes128_gcm);
    test_gcm_kernel_rejects(&kernel_aes256_gcm);
    test_gcm_kernel_rejects(&kernel_openssl_aes128_gcm);
    test_gcm_kernel_rejects(&kernel_openssl_aes256_gcm);
    test_gcm_kernel_rejects(&kernel_sodium_aes256gcm);
    test_gcm_kernel_rejects(&kernel_gcrypt_aes128_gcm);
    test_gcm_kernel_rejects(&kernel_gcrypt_aes256_gcm);
    static const char *const gcrypt[] = {
        "gcrypt:aes-128-ctr", "gcrypt:aes-256-ctr", "gcrypt:aes-128-cbc",
        "gcrypt:aes-256-cbc", "gcrypt:aes-128-xts", "gcrypt:aes-256-xts",
        "gcrypt:aes-128-gcm", "gcrypt:aes-256-gcm",
    };
    for (size_t i = 0; i < sizeof gcrypt / sizeof gcrypt[0]; i++)
        check_gcrypt_peer(gcrypt[i], 300, 50 + i);
    test_xts_data_unit_limit(&kernel_gcrypt_aes128_xts);
    test_xts_data_unit_limit(&kernel_openssl_aes256_xts);
    test_self_tests();
    test_prepared();
    return check_finish();
}
