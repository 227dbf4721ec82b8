/* AES-GCM-SIV: every Wycheproof vector (tests/vectors/
 * wycheproof_aes_gcm_siv_test.json, RFC 8452's appendix C among them) on
 * every row, sealed and opened, the invalid ones rejected with no
 * plaintext released; every row against generic on random keys, nonces,
 * AAD and lengths around every XCTR and POLYVAL batch, misaligned and in
 * place, opened back, with one flipped bit rejected; the counter mode and
 * the hash of what it writes against a block-at-a-time reference at
 * counters that wrap inside the message; each row needs what its AES and
 * POLYVAL rows need; the registry kernels' known answers, self-tests,
 * prepared keys, refused nonces and bad tags; libgcrypt's kernels against
 * ours. */
#include <stdlib.h>
#include <string.h>

#include "../../kernels/gcmsiv/gcmsiv.h"
#include "../../kernels/registry.h"
#include "check.h"
#include "peers.h"
#include "vectors.h"
#include "wycheproof.h"

#define FILE_NAME "wycheproof_aes_gcm_siv_test.json"
#define FILE_VECTORS 202
#define FILE_INVALID 66
#define MAX_LEN 4200 /* past a 256-block batch of every row */
#define MAX_AAD 300
#define TRIALS 150

static const gcmsiv_impl *generic_row(void)
{
    return (const gcmsiv_impl *)isa_table_find(
        &gcmsiv_impls[0].v, sizeof gcmsiv_impls[0], "generic");
}

/* Nonzero when all n bytes at p hold the marker. */
static int all_bytes(const uint8_t *p, size_t n, uint8_t marker)
{
    uint8_t diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= p[i] ^ marker;
    return diff == 0;
}

typedef struct wycheproof_run {
    const gcmsiv_impl *impl;
    size_t invalid;
} wycheproof_run;

/* A valid vector seals to ct || tag and opens back, in place too; an
 * invalid one is refused, its output zeroed and nothing past it written. */
static void check_vector(void *ctx, const wycheproof_vector *v)
{
    wycheproof_run *run = ctx;
    size_t len = v->msg_len;
    uint8_t *sealed, *opened;
    gcmsiv_key key;
    run->invalid += !v->valid;
    if (!CHECK((v->key_len == 16 || v->key_len == 32) &&
                   v->iv_len == GCMSIV_NONCE_BYTES && v->tag_len == 16 &&
                   v->ct_len == len,
               "tcId %d: malformed vector", v->id))
        return;
    sealed = malloc(len + 16);
    opened = malloc(len + 1);
    CHECK(gcmsiv_setup(run->impl, &key, v->key, v->key_len) == 0,
          "tcId %d: setup", v->id);
    memcpy(sealed, v->ct, len);
    memcpy(sealed + len, v->tag, 16);
    memset(opened, 0xa5, len + 1);
    int rc = gcmsiv_open(&key, opened, sealed, len, v->aad, v->aad_len,
                         v->iv);
    if (v->valid) {
        CHECK(rc == 0 && memcmp(opened, v->msg, len) == 0 &&
                  opened[len] == 0xa5,
              "tcId %d: valid vector did not open", v->id);
        CHECK(gcmsiv_open(&key, sealed, sealed, len, v->aad, v->aad_len,
                          v->iv) == 0 &&
                  memcmp(sealed, v->msg, len) == 0,
              "tcId %d: did not open in place", v->id);
        gcmsiv_seal(&key, sealed, v->msg, len, v->aad, v->aad_len, v->iv);
        CHECK(memcmp(sealed, v->ct, len) == 0 &&
                  memcmp(sealed + len, v->tag, 16) == 0,
              "tcId %d: sealed to %s", v->id, check_hex(sealed, len + 16));
    } else {
        CHECK(rc != 0 && check_all_zero(opened, len) && opened[len] == 0xa5,
              "tcId %d: invalid vector %s", v->id,
              rc == 0 ? "opened" : "left plaintext in the output");
    }
    free(sealed);
    free(opened);
}

static void test_wycheproof(const gcmsiv_impl *impl, const json_t *doc)
{
    wycheproof_run run = { impl, 0 };
    CASE("AES-GCM-SIV Wycheproof (%s), sealed, opened, in place @%s",
         FILE_NAME, impl->v.isa);
    if (!check_usable(&impl->v))
        return;
    size_t n = wycheproof_walk(doc, check_vector, &run);
    CHECK(n == FILE_VECTORS && run.invalid == FILE_INVALID,
          "%zu vectors, %zu invalid; want %d, %d", n, run.invalid,
          FILE_VECTORS, FILE_INVALID);
}

/* Lengths in blocks around every batch (XCTR's and POLYVAL's: 4 to 32
 * blocks at a time, their multiples and rests), then a byte more and a
 * byte short, for the first EDGE_TRIALS trials; then random lengths. */
static const size_t edge_blocks[] = { 0,  1,  2,  3,  4,  5,   7,   8,   9,
                                      15, 16, 17, 31, 32, 33,  63,  64,  65,
                                      96, 97, 127, 128, 129, 255, 256, 257 };
#define EDGE_TRIALS (3 * sizeof edge_blocks / sizeof edge_blocks[0])

static size_t trial_len(size_t i, uint64_t *seed)
{
    static const size_t extra[3] = { 0, 1, 15 };
    if (i < EDGE_TRIALS)
        return 16 * edge_blocks[i / 3] + extra[i % 3];
    return check_random(seed) % (MAX_LEN + 1);
}

static uint8_t in_buf[MAX_LEN + 64], out_buf[MAX_LEN + 64],
    want[MAX_LEN + 16], back[MAX_LEN + 16], plain[MAX_LEN];

static void test_vs_generic(const gcmsiv_impl *impl)
{
    uint64_t seed = 41;
    CASE("AES-GCM-SIV == generic: random keys, nonces, AAD 0-%d bytes, 0 to "
         "%d bytes, misaligned and in place, opened back, a flipped bit "
         "refused @%s", MAX_AAD, MAX_LEN, impl->v.isa);
    if (!check_usable(&impl->v))
        return;
    for (size_t i = 0; i < 2 * EDGE_TRIALS + TRIALS; i++) {
        uint8_t k[32], nonce[12], aad[MAX_AAD];
        size_t key_len = i % 2 ? 32 : 16, len = trial_len(i / 2, &seed),
               aad_len = check_random(&seed) % (MAX_AAD + 1);
        int in_place = check_random(&seed) % 4 == 0;
        uint8_t *in = in_buf + check_random(&seed) % 16,
                *out = in_place ? in : out_buf + check_random(&seed) % 16;
        gcmsiv_key key, gen;
        check_fill_random(k, key_len, &seed);
        check_fill_random(nonce, sizeof nonce, &seed);
        check_fill_random(aad, aad_len, &seed);
        check_fill_random(in, len, &seed);
        memcpy(plain, in, len);
        gcmsiv_setup(generic_row(), &gen, k, key_len);
        gcmsiv_setup(impl, &key, k, key_len);
        gcmsiv_seal(&gen, want, in, len, aad, aad_len, nonce);
        gcmsiv_seal(&key, out, in, len, aad, aad_len, nonce);
        if (!CHECK(memcmp(out, want, len + 16) == 0,
                   "seal %zu bytes, %zu of AAD, %d-byte key, in place %d",
                   len, aad_len, (int)key_len, in_place))
            continue;
        uint8_t *dst = in_place ? out : back;
        CHECK(gcmsiv_open(&key, dst, out, len, aad, aad_len, nonce) == 0 &&
                  memcmp(dst, plain, len) == 0,
              "open %zu bytes, %zu of AAD, in place %d", len, aad_len,
              in_place);
        /* One bit of the ciphertext, the tag or the AAD flipped. */
        uint64_t r = check_random(&seed);
        size_t span = len + 16 + aad_len, at = (r >> 3) % span;
        uint8_t *target = at < len + 16 ? want + at : aad + (at - len - 16);
        *target ^= (uint8_t)(1u << (r % 8));
        memset(back, 0xa5, len + 1);
        CHECK(gcmsiv_open(&key, back, want, len, aad, aad_len, nonce) != 0 &&
                  check_all_zero(back, len) && back[len] == 0xa5,
              "bit %d of byte %zu of %s flipped (%zu bytes): accepted, or "
              "plaintext left", (int)(r % 8), at,
              at < len + 16 ? "the sealed message" : "the AAD", len);
    }
}

/* RFC 8452's counter mode written out block by block on the generic AES,
 * and POLYVAL's generic row over what it writes: the reference for the
 * counters no random tag reaches, first words just below 2^32. */
static void reference_ctr_hash(const gcmsiv_key *gen,
                               const gcmsiv_message_keys *mk,
                               const uint8_t tag[16], uint8_t *out,
                               const uint8_t *in, size_t len,
                               uint8_t acc[16])
{
    uint8_t block[16], ks[16];
    memcpy(block, tag, 16);
    block[15] |= 0x80;
    for (size_t at = 0; at < len; at += 16) {
        size_t n = len - at < 16 ? len - at : 16;
        uint32_t word = (uint32_t)block[0] | (uint32_t)block[1] << 8 |
                        (uint32_t)block[2] << 16 | (uint32_t)block[3] << 24;
        gen->aes_impl->encrypt(&mk->enc, ks, block, 1);
        for (size_t j = 0; j < n; j++)
            out[at + j] = in[at + j] ^ ks[j];
        word++;
        for (int b = 0; b < 4; b++)
            block[b] = (uint8_t)(word >> (8 * b));
    }
    for (size_t at = 0; at < len; at += 16) {
        uint8_t padded[16] = { 0 };
        memcpy(padded, out + at, len - at < 16 ? len - at : 16);
        gen->polyval_impl->update(&mk->h, acc, padded, 1);
    }
}

static void test_counter_wrap(const gcmsiv_impl *impl)
{
    uint64_t seed = 51;
    CASE("AES-GCM-SIV counter mode, and the hash of its output, == block by "
         "block where the counter wraps inside the message (first word "
         "2^32 - 1 to 2^32 - 300), misaligned and in place @%s", impl->v.isa);
    if (!check_usable(&impl->v))
        return;
    for (int i = 0; i < 200; i++) {
        uint8_t k[32], nonce[12], tag[16], acc[16] = { 0 }, racc[16] = { 0 };
        size_t key_len = i % 2 ? 32 : 16,
               len = check_random(&seed) % (MAX_LEN + 1);
        uint32_t below = 1 + (uint32_t)(check_random(&seed) % 300);
        int in_place = check_random(&seed) % 4 == 0, hash = i % 3 != 0;
        uint8_t *in = in_buf + check_random(&seed) % 16,
                *out = in_place ? in : out_buf + check_random(&seed) % 16;
        gcmsiv_key key, gen;
        gcmsiv_message_keys mk, gmk;
        check_fill_random(k, key_len, &seed);
        check_fill_random(nonce, sizeof nonce, &seed);
        check_fill_random(tag, sizeof tag, &seed);
        check_fill_random(in, len, &seed);
        for (int b = 0; b < 4; b++)
            tag[b] = (uint8_t)((0u - below) >> (8 * b));
        gcmsiv_setup(generic_row(), &gen, k, key_len);
        gcmsiv_setup(impl, &key, k, key_len);
        gcmsiv_derive(&gen, &gmk, nonce, POLYVAL_POWERS);
        gcmsiv_derive(&key, &mk, nonce, gcmsiv_hash_blocks(0, len));
        reference_ctr_hash(&gen, &gmk, tag, want, in, len, racc);
        gcmsiv_ctr_hash(&key, &mk, tag, out, in, len, hash ? acc : NULL);
        CHECK(memcmp(out, want, len) == 0 &&
                  (!hash || memcmp(acc, racc, 16) == 0),
              "%zu bytes from word 2^32 - %u, %s, in place %d: the %s "
              "differs", len, below, hash ? "hashed" : "not hashed",
              in_place, memcmp(out, want, len) ? "output" : "hash");
    }
}

/* A row runs its AES and POLYVAL rows, so it must ask for what they do. */
static void test_requirements(void)
{
    CASE("every AES-GCM-SIV row needs what its AES and POLYVAL rows need");
    for (const gcmsiv_impl *impl = gcmsiv_impls; impl->v.isa; impl++) {
        const isa_variant *aes = isa_table_find(
            &aes_impls[0].v, sizeof aes_impls[0], impl->aes_isa);
        const polyval_impl *pv = polyval_find(impl->polyval_isa);
        if (!CHECK(aes && pv, "%s: no rows %s and %s", impl->v.isa,
                   impl->aes_isa, impl->polyval_isa))
            continue;
        unsigned need = aes->required | pv->v.required;
        CHECK((impl->v.required & need) == need, "%s needs %#x, asks for %#x",
              impl->v.isa, need, impl->v.required);
    }
}

/* Through the registry, as kat and the benchmarks call them: the
 * self-test gate, prepared keys against keys set up per call, a bad tag
 * making run() return 1 with the output zeroed, and nonces other than 12
 * bytes refused by the checker. */
static void test_kernels(void)
{
    static const kernel *const kernels[] = { &kernel_aes128_gcm_siv,
                                             &kernel_aes256_gcm_siv };
    for (size_t i = 0; i < 2; i++) {
        const kernel *k = kernels[i];
        const isa_variant *v;
        for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
            char err[256] = "";
            uint8_t msg[1000], sealed[1016], opened[1016];
            kernel_args a;
            CASE("%s@%s known answers, self-test, prepared keys == per call, "
                 "a bad tag refused", k->name, v->isa);
            if (!kernel_variant_usable(k, v)) {
                SKIP("unsupported on this CPU");
                continue;
            }
            CHECK(kernel_self_test(k, v, err, sizeof err) == 0, "%s", err);
            for (size_t b = 0; b < sizeof msg; b++)
                msg[b] = (uint8_t)(b * 13);
            kernel_bench_args(k, &a);
            k->run(k, v, &a, msg, sizeof msg, sealed);
            kernel_prepare(k, v, &a);
            CHECK(a.prepared != NULL, "prepare gave nothing");
            k->run(k, v, &a, msg, sizeof msg, opened);
            CHECK(memcmp(sealed, opened, sizeof sealed) == 0,
                  "prepared key seals otherwise");
            a.decrypt = KERNEL_FLAG;
            CHECK(k->run(k, v, &a, sealed, sizeof sealed, opened) == 0 &&
                      memcmp(opened, msg, sizeof msg) == 0,
                  "does not open its own output");
            sealed[sizeof sealed - 1] ^= 1;
            memset(opened, 0xa5, sizeof opened);
            CHECK(k->run(k, v, &a, sealed, sizeof sealed, opened) == 1 &&
                      check_all_zero(opened, sizeof msg) &&
                      all_bytes(opened + sizeof msg, 16, 0xa5),
                  "a bad tag was not refused, or plaintext was left");
            kernel_release(k, &a);
        }
        CASE("%s refuses nonces other than 12 bytes", k->name);
        for (size_t n = 0; n <= 16; n++) {
            uint8_t nonce[16] = { 0 };
            char err[256] = "";
            kernel_args a;
            kernel_bench_args(k, &a);
            a.nonce = KERNEL_BYTES(nonce, n);
            int rc = kernel_check(k, &a, 64, err, sizeof err);
            CHECK((rc == 0) == (n == GCMSIV_NONCE_BYTES),
                  "a %zu-byte nonce: %s", n, rc ? err : "accepted");
        }
    }
}

int main(void)
{
    json_t *doc = vector_json(FILE_NAME);
    for (const gcmsiv_impl *impl = gcmsiv_impls; impl->v.isa; impl++) {
        test_wycheproof(impl, doc);
        test_vs_generic(impl);
        test_counter_wrap(impl);
    }
    if (doc)
        json_decref(doc);
    test_requirements();
    test_kernels();
    check_gcrypt_peer("gcrypt:aes-128-gcm-siv", 300, 90);
    check_gcrypt_peer("gcrypt:aes-256-gcm-siv", 300, 91);
    return check_finish();
}
