/* Adiantum and NH: every google/adiantum vector (XChaCha8, 12 and 20 with
 * AES-256) on every ISA, both ways and in place; every ISA against generic
 * on random keys, tweaks of 0-64 bytes and lengths of 16 bytes to 8 KiB,
 * around every NH unit, piece and batch boundary and ChaCha batch,
 * misaligned and in place, with decryption undoing encryption; NH alone
 * against generic up to the key's last word; the table's pairings; and
 * the registry's gate and argument checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/adiantum/adiantum.h"
#include "../../kernels/registry.h"
#include "check.h"
#include "json.h"
#include "vectors.h"

#define MAX_LEN 8192
#define MAX_TWEAK 64
#define TRIALS 300

static int usable(const isa_variant *v)
{
    if (cpu_supports(v->required))
        return 1;
    SKIP("%s not supported by this CPU", v->isa);
    return 0;
}

static const adiantum_impl *generic_impl(void)
{
    const adiantum_impl *impl = adiantum_impls;
    while (impl[1].v.isa)
        impl++;
    return impl;
}

/* A row runs only where every primitive it pairs can, and its AES is the
 * best the CPU has from the row it names down. */
static void test_table(void)
{
    CASE("adiantum rows name existing ChaCha, NH and Poly1305 rows they can "
         "run, and an AES row this CPU runs");
    for (const adiantum_impl *impl = adiantum_impls; impl->v.isa; impl++) {
        adiantum_parts p = adiantum_parts_of(impl);
        if (!CHECK(p.chacha && p.nh && p.poly1305 && p.aes,
                   "%s names a missing row", impl->v.isa))
            continue;
        uint32_t need = p.chacha->v.required | p.nh->v.required |
                        p.poly1305->v.required;
        CHECK((impl->v.required & need) == need,
              "%s requires less than chacha@%s, nh@%s and poly1305@%s",
              impl->v.isa, p.chacha->v.isa, p.nh->v.isa, p.poly1305->v.isa);
        CHECK(cpu_supports(p.aes->v.required), "%s: aes@%s cannot run here",
              impl->v.isa, p.aes->v.isa);
        /* The first row this CPU runs, from aes_from (or the top) down. */
        const aes_impl *want = aes_impls;
        while (impl->aes_from && want->v.isa &&
               strcmp(want->v.isa, impl->aes_from) != 0)
            want++;
        while (want->v.isa && !cpu_supports(want->v.required))
            want++;
        CHECK(p.aes == want, "%s pairs with aes@%s", impl->v.isa,
              p.aes->v.isa);
    }
}

typedef struct vector {
    uint8_t *key, *tweak, *pt, *ct;
    size_t key_len, tweak_len, pt_len, ct_len;
} vector;

static vector decode(const json *t)
{
    const json *input = json_get(t, "input");
    vector v;
    v.key = hex_decode(json_get_string(input, "key_hex"), &v.key_len);
    v.tweak = hex_decode(json_get_string(input, "tweak_hex"), &v.tweak_len);
    v.pt = hex_decode(json_get_string(t, "plaintext_hex"), &v.pt_len);
    v.ct = hex_decode(json_get_string(t, "ciphertext_hex"), &v.ct_len);
    return v;
}

static void release(vector *v)
{
    free(v->key); free(v->tweak); free(v->pt); free(v->ct);
}

/* One vector both ways, into another buffer and in place. */
static void check_vector(const adiantum_impl *impl, unsigned rounds,
                         const vector *v, size_t i)
{
    adiantum_key k;
    uint8_t *buf = malloc(v->pt_len + 1);
    adiantum_setup(&k, impl, v->key, rounds);
    adiantum_encrypt(&k, buf, v->pt, v->pt_len, v->tweak, v->tweak_len);
    CHECK(memcmp(buf, v->ct, v->ct_len) == 0, "vector %zu (%zu bytes, "
          "%zu-byte tweak) encrypts to %s", i, v->pt_len, v->tweak_len,
          check_hex(buf, v->pt_len));
    adiantum_decrypt(&k, buf, v->ct, v->ct_len, v->tweak, v->tweak_len);
    CHECK(memcmp(buf, v->pt, v->pt_len) == 0, "vector %zu decrypts to %s", i,
          check_hex(buf, v->pt_len));
    memcpy(buf, v->pt, v->pt_len);
    adiantum_encrypt(&k, buf, buf, v->pt_len, v->tweak, v->tweak_len);
    CHECK(memcmp(buf, v->ct, v->ct_len) == 0, "vector %zu in place", i);
    adiantum_decrypt(&k, buf, buf, v->ct_len, v->tweak, v->tweak_len);
    CHECK(memcmp(buf, v->pt, v->pt_len) == 0, "vector %zu in place back", i);
    free(buf);
}

static void test_vectors(const adiantum_impl *impl, unsigned rounds)
{
    char file[64];
    snprintf(file, sizeof file, "adiantum_xchacha%u_aes256.json", rounds);
    json *doc = json_load(vector_path(file));
    size_t n = 0, long_ones = 0, odd_tweaks = 0;
    CASE("adiantum XChaCha%u vectors (%s) @%s", rounds, file, impl->v.isa);
    if (!usable(&impl->v) ||
        !CHECK(doc && doc->type == JSON_ARRAY, "%s unreadable", file))
        goto done;
    for (size_t i = 0; i < doc->n; i++) {
        const json *t = &doc->items[i];
        const json *sc = json_get(json_get(json_get(t, "cipher"),
                                           "streamcipher"), "rounds");
        vector v = decode(t);
        if (CHECK(sc && (unsigned)sc->number == rounds &&
                      v.key_len == ADIANTUM_KEY_BYTES &&
                      v.pt_len == v.ct_len && v.pt_len >= 16,
                  "vector %zu malformed", i)) {
            check_vector(impl, rounds, &v, i);
            n++;
            long_ones += v.pt_len > NH_MESSAGE_BYTES + 16;
            odd_tweaks += v.tweak_len % 16 != 0;
        }
        release(&v);
    }
    /* Their lengths cross an NH piece and their tweaks a Poly1305 block. */
    CHECK(n == 60 && long_ones >= 6 && odd_tweaks >= 20,
          "%zu vectors, %zu past one NH piece, %zu odd tweaks", n, long_ones,
          odd_tweaks);
done:
    json_free(doc);
}

/* Message lengths around every boundary the variants have: 16-byte NH
 * units (and the pairs and quads of avx2, avx512), 1024-byte NH pieces,
 * NH_BATCH pieces per Poly1305 call, and ChaCha's 64-byte blocks and
 * batches up to 1 KiB; each plus the 16-byte AES block. */
static size_t boundary_length(uint64_t *seed)
{
    static const size_t bulk[] = { 0, 16, 32, 48, 64, 128, 192, 256, 512,
                                   1008, 1024, 1040, 2048, 3072, 4080, 4096,
                                   8176 };
    size_t b = bulk[check_random(seed) % (sizeof bulk / sizeof bulk[0])];
    size_t len = 16 + b + check_random(seed) % 3 - 1; /* -1, 0 or +1 */
    return len < 16 ? 16 : len > MAX_LEN ? MAX_LEN : len;
}

static uint8_t in_buf[MAX_LEN + 64], out_buf[MAX_LEN + 64], want[MAX_LEN],
    back[MAX_LEN + 64], plain[MAX_LEN];

static void test_vs_generic(const adiantum_impl *impl, unsigned rounds)
{
    const adiantum_impl *gen = generic_impl();
    uint64_t seed = 0xad1a + rounds;
    CASE("adiantum XChaCha%u @%s == @%s: random keys, tweaks 0-%d bytes, "
         "lengths 16-%d around every boundary, misaligned, in place, "
         "decrypted back", rounds, impl->v.isa, gen->v.isa, MAX_TWEAK,
         MAX_LEN);
    if (!usable(&impl->v))
        return;
    for (int i = 0; i < TRIALS; i++) {
        uint8_t key[ADIANTUM_KEY_BYTES], tweak[MAX_TWEAK];
        size_t tweak_len = check_random(&seed) % (MAX_TWEAK + 1);
        size_t len = i % 2 ? boundary_length(&seed)
                           : 16 + check_random(&seed) % (MAX_LEN - 15);
        int in_place = check_random(&seed) % 4 == 0;
        uint8_t *in = in_buf + check_random(&seed) % 16;
        uint8_t *out = in_place ? in : out_buf + check_random(&seed) % 16;
        adiantum_key kg, kv;
        check_fill_random(key, sizeof key, &seed);
        check_fill_random(tweak, tweak_len, &seed);
        check_fill_random(in, len, &seed);
        memcpy(plain, in, len);
        adiantum_setup(&kg, gen, key, rounds);
        adiantum_setup(&kv, impl, key, rounds);
        adiantum_encrypt(&kg, want, in, len, tweak, tweak_len);
        adiantum_encrypt(&kv, out, in, len, tweak, tweak_len);
        if (!CHECK(memcmp(out, want, len) == 0, "len %zu tweak %zu in_place "
                   "%d: differs from generic", len, tweak_len, in_place))
            continue;
        uint8_t *dst = in_place ? out : back + check_random(&seed) % 16;
        adiantum_decrypt(&kv, dst, out, len, tweak, tweak_len);
        CHECK(memcmp(dst, plain, len) == 0, "len %zu tweak %zu: decrypted "
              "to another plaintext", len, tweak_len);
    }
}

/* A changed bit anywhere, or a changed tweak, changes the whole output:
 * the property that sets a wide-block mode apart from XTS. */
static void test_wide_block(void)
{
    const adiantum_impl *impl = adiantum_impls;
    uint64_t seed = 77;
    uint8_t key[ADIANTUM_KEY_BYTES], tweak[32], a[4096], b[4096];
    adiantum_key k;
    while (!cpu_supports(impl->v.required))
        impl++;
    CASE("adiantum @%s: one flipped plaintext or tweak bit changes every "
         "16-byte block of a 4096-byte sector", impl->v.isa);
    check_fill_random(key, sizeof key, &seed);
    check_fill_random(tweak, sizeof tweak, &seed);
    adiantum_setup(&k, impl, key, 12);
    for (int i = 0; i < 40; i++) {
        size_t bit = check_random(&seed) % (8 * (sizeof a + sizeof tweak));
        int in_tweak = bit >= 8 * sizeof a;
        size_t unchanged = 0;
        check_fill_random(a, sizeof a, &seed);
        memcpy(b, a, sizeof a);
        adiantum_encrypt(&k, a, a, sizeof a, tweak, sizeof tweak);
        if (in_tweak)
            tweak[bit / 8 - sizeof a] ^= (uint8_t)(1u << bit % 8);
        else
            b[bit / 8] ^= (uint8_t)(1u << bit % 8);
        adiantum_encrypt(&k, b, b, sizeof b, tweak, sizeof tweak);
        for (size_t j = 0; j < sizeof a; j += 16)
            unchanged += memcmp(a + j, b + j, 16) == 0;
        CHECK(unchanged == 0, "%zu blocks unchanged after flipping %s bit %zu",
              unchanged, in_tweak ? "tweak" : "message", bit);
    }
}

/* NH alone: every length of whole and partial units up to a piece, the
 * full piece reading the key to its last word (under the sanitizers, any
 * read past it fails). */
static void test_nh(const nh_impl *impl)
{
    const nh_impl *gen = &nh_impls[0];
    uint64_t seed = 1234;
    uint8_t raw[NH_KEY_BYTES], msg[NH_MESSAGE_BYTES + 16];
    nh_key *key = aligned_alloc(_Alignof(nh_key), sizeof *key);
    while (gen[1].v.isa)
        gen++;
    CASE("nh@%s == nh@%s at every length 1-%d, misaligned", impl->v.isa,
         gen->v.isa, NH_MESSAGE_BYTES);
    if (!usable(&impl->v) || !CHECK(key, "out of memory"))
        goto done;
    check_fill_random(raw, sizeof raw, &seed);
    nh_setup(key, raw);
    for (size_t len = 1; len <= NH_MESSAGE_BYTES; len++) {
        uint8_t *m = msg + len % 16;
        uint8_t h_want[NH_HASH_BYTES], h_got[NH_HASH_BYTES];
        check_fill_random(m, len, &seed);
        nh_hash(gen, key, m, len, h_want);
        nh_hash(impl, key, m, len, h_got);
        if (!CHECK(memcmp(h_want, h_got, sizeof h_got) == 0, "len %zu", len))
            break;
    }
done:
    free(key);
}

/* The registry's gate (known answers, then every ISA against generic),
 * and its checks on what kat would pass. */
#if defined(__x86_64__)
static const char *const adiantum_isas[] = { "generic", "sse2", "avx2",
                                             "avx512" };
#elif defined(__aarch64__)
static const char *const adiantum_isas[] = { "generic" };
#endif
static void test_registry(void)
{
    static const char *const names[] = { "adiantum", "adiantum20",
                                         "adiantum8" };
    static const uint8_t key31[31], key32[32];
    char err[256];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const kernel *k = kernel_find(names[i]);
        const isa_variant *v;
        CASE("%s is in the registry with every ISA of this architecture",
             names[i]);
        if (!CHECK(k, "%s missing", names[i]))
            continue;
        for (size_t j = 0; j < sizeof adiantum_isas / sizeof *adiantum_isas;
             j++)
            CHECK(kernel_variant_find(k, adiantum_isas[j]), "no %s row",
                  adiantum_isas[j]);
        for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
            CASE("%s@%s passes kernel_self_test", names[i], v->isa);
            if (usable(v))
                CHECK(kernel_self_test(k, v, err, sizeof err) == 0, "%s",
                      err);
        }
        CASE("%s refuses a 15-byte message and a 31-byte key, and takes no "
             "tweak or any", names[i]);
        kernel_args a = { .key = KERNEL_BYTES(key32, 32) };
        CHECK(kernel_check(k, &a, 16, err, sizeof err) == 0, "%s", err);
        CHECK(kernel_check(k, &a, 15, err, sizeof err) != 0 &&
                  strstr(err, "at least 16 bytes"),
              "15 bytes: %s", err);
        a.tweak = KERNEL_BYTES(key32, 0);
        CHECK(kernel_check(k, &a, 16, err, sizeof err) == 0, "empty tweak");
        a.tweak = KERNEL_BYTES(key32, 17);
        CHECK(kernel_check(k, &a, 16, err, sizeof err) == 0, "17-byte tweak");
        a.key = KERNEL_BYTES(key31, 31);
        CHECK(kernel_check(k, &a, 16, err, sizeof err) != 0 &&
                  strstr(err, "--key of 32 bytes"),
              "31-byte key: %s", err);
    }
}

int main(void)
{
    static const unsigned rounds[] = { 12, 20, 8 };
    test_table();
    for (const adiantum_impl *impl = adiantum_impls; impl->v.isa; impl++)
        for (size_t r = 0; r < 3; r++)
            test_vectors(impl, rounds[r]);
    for (const adiantum_impl *impl = adiantum_impls; impl[1].v.isa; impl++)
        for (size_t r = 0; r < 3; r++)
            test_vs_generic(impl, rounds[r]);
    for (const nh_impl *impl = nh_impls; impl[1].v.isa; impl++)
        test_nh(impl);
    test_wide_block();
    test_registry();
    return check_finish();
}
