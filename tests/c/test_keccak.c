/* Keccak-p[1600] and its sponges (kernels/keccak/) at every row of
 * keccak_impls: SHA3-256 and SHAKE256 on the vectors over ptn(n) around
 * the 136-byte rate, TurboSHAKE128 and TurboSHAKE256 on RFC 9861's own
 * (domain bytes 0x06, 0x07 and 0x0B, messages up to 17^4 bytes, a
 * 10,032-byte output), KT128 and KT256 on RFC 9861's (customization
 * strings, the 8191- and 8192-byte messages either side of the first
 * leaf, ptn(17^4) over ten leaves); every row against generic on random
 * input across both rates and the leaves; the sponge fed and read in pieces
 * against one call, across both rates and both round counts; and OpenSSL's
 * and libgcrypt's SHA3-256 and SHAKE256 against ours. */
#include <stdlib.h>
#include <string.h>

#include "../../kernels/kernel.h"
#include "../../kernels/keccak/keccak.h"
#include "check.h"
#include "peers.h"
#include "vectors.h"

static int usable(const keccak_impl *impl)
{
    if (cpu_supports(impl->v.required))
        return 1;
    SKIP("%s not supported by this CPU", impl->v.isa);
    return 0;
}

/* ptn(n): 00 01 .. FA repeating (RFC 9861, Section 5). */
static uint8_t *ptn(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    for (size_t i = 0; p && i < n; i++)
        p[i] = (uint8_t)(i % 251);
    return p;
}

/* The message of a vector: message_hex, or ptn(message_len). */
static uint8_t *message_of(const json_t *t, size_t *len)
{
    const char *hex = vector_string(t, "message_hex");
    if (hex)
        return hex_decode(hex, len);
    *len = (size_t)json_integer_value(json_object_get(t, "message_len"));
    return ptn(*len);
}

static size_t integer(const json_t *t, const char *key, size_t otherwise)
{
    const json_t *v = json_object_get(t, key);
    return json_is_integer(v) ? (size_t)json_integer_value(v) : otherwise;
}

enum family { SHA3_256, SHAKE256, TURBOSHAKE128, TURBOSHAKE256, KT128, KT256 };

/* A vector's customization string (KT only): ptn(custom_len), or none. */
typedef struct {
    const uint8_t *bytes;
    size_t len;
} custom_string;

static void hash(const keccak_impl *impl, enum family f, unsigned domain,
                 custom_string c, uint8_t *out, size_t out_len,
                 const uint8_t *in, size_t len)
{
    switch (f) {
    case KT128: kangarootwelve(impl, 128, out, out_len, in, len, c.bytes, c.len); break;
    case KT256: kangarootwelve(impl, 256, out, out_len, in, len, c.bytes, c.len); break;
    case SHA3_256: sha3_256(impl, out, in, len); break;
    case SHAKE256: shake256(impl, out, out_len, in, len); break;
    case TURBOSHAKE128: turboshake(impl, 128, (uint8_t)domain, out, out_len, in, len); break;
    case TURBOSHAKE256: turboshake(impl, 256, (uint8_t)domain, out, out_len, in, len); break;
    }
}

static void test_file(const keccak_impl *impl, const json_t *doc,
                      const char *file, const char *key, enum family f,
                      size_t expected)
{
    const json_t *list = json_object_get(doc, key);
    size_t n = 0;
    CASE("%s %s @%s", key, file, impl->v.isa);
    if (!usable(impl) || !CHECK(json_is_array(list), "no '%s' in %s", key, file))
        return;
    for (size_t i = 0; i < json_array_size(list); i++, n++) {
        const json_t *t = json_array_get(list, i);
        size_t len, want_len, out_len = integer(t, "output_len", 32);
        size_t last = integer(t, "compare_last_bytes", out_len);
        unsigned domain = (unsigned)integer(t, "D", 0);
        uint8_t *msg = message_of(t, &len);
        uint8_t *want = hex_decode(vector_string(t, "output_hex"), &want_len);
        uint8_t *got = malloc(out_len);
        size_t custom_len = integer(t, "custom_len", 0);
        uint8_t *custom = ptn(custom_len);
        if (!CHECK(msg && got && custom && want_len == last && last <= out_len,
                   "vector %zu: %zu-byte output_hex for the last %zu of %zu",
                   i, want_len, last, out_len)) {
            free(msg), free(want), free(got), free(custom);
            continue;
        }
        hash(impl, f, domain, (custom_string){ custom, custom_len }, got,
             out_len, msg, len);
        CHECK(memcmp(got + out_len - last, want, last) == 0,
              "%zu-byte message, D %u, %zu-byte custom, %zu-byte output: "
              "got ..%s", len, domain, custom_len, out_len,
              check_hex(got + out_len - last, last));
        free(msg), free(want), free(got), free(custom);
    }
    CHECK(n == expected, "%zu vectors, expected %zu", n, expected);
}

/* Lengths around each rate's blocks, a lane's bytes and the output. */
static const size_t lengths[] = { 0,   1,   7,   8,   9,   135, 136, 137,
                                  167, 168, 169, 271, 272, 273, 335, 336,
                                  337, 1000, 1361 };

/* A random piece of 1 to max bytes, at most left. */
static size_t piece(uint64_t *seed, size_t max, size_t left)
{
    uint8_t r;
    check_fill_random(&r, 1, seed);
    size_t step = r % max + 1;
    return step > left ? left : step;
}

static void test_pieces(const keccak_impl *impl)
{
    static const struct {
        size_t rate;
        unsigned rounds;
    } sponges[] = { { KECCAK_RATE_256, KECCAK_ROUNDS },
                    { KECCAK_RATE_128, TURBOSHAKE_ROUNDS },
                    { KECCAK_RATE_256, TURBOSHAKE_ROUNDS } };
    uint64_t seed = 0x6b656363616bull;
    CASE("keccak sponge @%s: fed and read in random pieces == in one call, "
         "both rates, 24 and 12 rounds", impl->v.isa);
    if (!usable(impl))
        return;
    for (size_t s = 0; s < sizeof sponges / sizeof sponges[0]; s++) {
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
            size_t len = lengths[l], out_len = lengths[(l + 5) %
                                  (sizeof lengths / sizeof lengths[0])] + 1;
            uint8_t in[1361], whole[1362], parts[1362];
            check_fill_random(in, len, &seed);
            keccak_sponge a, b;
            keccak_init(&a, impl, sponges[s].rate, sponges[s].rounds);
            keccak_absorb(&a, in, len);
            keccak_finish(&a, 0x1f);
            keccak_squeeze(&a, whole, out_len);
            keccak_init(&b, impl, sponges[s].rate, sponges[s].rounds);
            for (size_t at = 0, step; at < len; at += step) {
                step = piece(&seed, 40, len - at);
                keccak_absorb(&b, in + at, step);
            }
            keccak_finish(&b, 0x1f);
            for (size_t at = 0, step; at < out_len; at += step) {
                step = piece(&seed, 50, out_len - at);
                keccak_squeeze(&b, parts + at, step);
            }
            if (!CHECK(memcmp(whole, parts, out_len) == 0,
                       "rate %zu, %u rounds, %zu bytes in, %zu out",
                       sponges[s].rate, sponges[s].rounds, len, out_len))
                return;
        }
    }
}

/* Every family on random messages, outputs, domain bytes and
 * customization strings, at row impl and at generic: lengths across both
 * rates, and around KangarooTwelve's 8192-byte leaves: the first leaf's
 * end, where S stops fitting one node, and the ends of up to ten leaves
 * after it, so that every multi-state form (up to eight leaves at once)
 * runs with leaves left over for the one-state path. */
#define RANDOM_MAX_LEAVES 11
#define RANDOM_MAX_LEN (RANDOM_MAX_LEAVES * KT_LEAF_BYTES + 200)

static size_t random_length(uint64_t *seed)
{
    uint64_t r = check_random(seed);
    size_t leaves = 1 + (size_t)(r >> 32) % RANDOM_MAX_LEAVES;
    switch (r % 4) {
    case 0: return (size_t)(r >> 8) % (3 * KECCAK_RATE_128 + 1);
    case 1: return KT_LEAF_BYTES - 200 + (size_t)(r >> 8) % 400;
    case 2: return leaves * KT_LEAF_BYTES - 200 + (size_t)(r >> 8) % 400;
    default: return (size_t)(r >> 8) % (RANDOM_MAX_LEN + 1);
    }
}

static void test_against_generic(const keccak_impl *impl,
                                 const keccak_impl *generic)
{
    static uint8_t in[RANDOM_MAX_LEN], want[400], got[400];
    uint8_t custom[24];
    uint64_t seed = 0x6b7431323821ull;
    CASE("keccak @%s == @generic: every family, random lengths across the "
         "136/168-byte rates and the 8 KiB leaves", impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < 600; i++) {
        enum family f = (enum family)(check_random(&seed) % 6);
        size_t len = random_length(&seed);
        size_t out_len = 1 + (size_t)(check_random(&seed) % sizeof want);
        unsigned domain = 1 + (unsigned)(check_random(&seed) % 0x7f);
        custom_string c = { custom, 0 };
        if (f == KT128 || f == KT256)
            c.len = (size_t)(check_random(&seed) % sizeof custom);
        check_fill_random(in, len, &seed);
        check_fill_random(custom, sizeof custom, &seed);
        hash(generic, f, domain, c, want, out_len, in, len);
        hash(impl, f, domain, c, got, out_len, in, len);
        if (!CHECK(memcmp(got, want, out_len) == 0,
                   "family %d, %zu bytes, D %u, %zu-byte custom, %zu out",
                   (int)f, len, domain, c.len, out_len))
            return;
    }
}

#if defined(__x86_64__)
/* Every test above on a copy of impl with another permutation and absorb:
 * the avx512 row's two one-state layouts, which the row chooses between
 * by the core, each tested on any AVX-512 CPU. */
static void test_layout(const keccak_impl *impl, const char *name,
                        keccak_permute_fn *permute,
                        keccak_absorb_blocks_fn *absorb,
                        const keccak_impl *generic, json_t *sha3, json_t *rfc)
{
    keccak_impl l = *impl;
    l.v.isa = name;
    l.permute = permute;
    l.absorb_blocks = absorb;
    test_against_generic(&l, generic);
    test_file(&l, sha3, "sha3_shake_vectors.json", "sha3_256", SHA3_256, 12);
    test_file(&l, sha3, "sha3_shake_vectors.json", "shake256", SHAKE256, 6);
    test_file(&l, rfc, "rfc9861_turboshake_kt.json", "turboshake128",
              TURBOSHAKE128, 13);
    test_file(&l, rfc, "rfc9861_turboshake_kt.json", "turboshake256",
              TURBOSHAKE256, 4);
    test_pieces(&l);
}
#endif

static const void *permutation_of(const isa_variant *row)
{
    return (const void *)((const keccak_impl *)row)->permute;
}

int main(void)
{
    json_t *sha3 = vector_json("sha3_shake_vectors.json"),
           *rfc = vector_json("rfc9861_turboshake_kt.json");
    const keccak_impl *generic = keccak_impls;
    while (generic[1].v.isa)
        generic++;
    for (const keccak_impl *impl = keccak_impls; impl->v.isa; impl++) {
        if (impl != generic)
            test_against_generic(impl, generic);
        test_file(impl, sha3, "sha3_shake_vectors.json", "sha3_256",
                  SHA3_256, 12);
        test_file(impl, sha3, "sha3_shake_vectors.json", "shake256",
                  SHAKE256, 6);
        test_file(impl, rfc, "rfc9861_turboshake_kt.json", "turboshake128",
                  TURBOSHAKE128, 13);
        test_file(impl, rfc, "rfc9861_turboshake_kt.json", "turboshake256",
                  TURBOSHAKE256, 4);
        test_file(impl, rfc, "rfc9861_turboshake_kt.json", "kt128", KT128, 11);
        test_file(impl, rfc, "rfc9861_turboshake_kt.json", "kt256", KT256, 4);
        test_pieces(impl);
    }
#if defined(__x86_64__)
    const keccak_impl *avx512 = (const keccak_impl *)isa_table_find(
        &keccak_impls[0].v, sizeof keccak_impls[0], "avx512");
    test_layout(avx512, "avx512 (five zmm rows)", keccak_permute_avx512_rows,
                keccak_absorb_blocks_avx512_rows, generic, sha3, rfc);
    test_layout(avx512, "avx512 (a lane per xmm)",
                keccak_permute_avx512_lanes,
                keccak_absorb_blocks_avx512_lanes, generic, sha3, rfc);
#endif
    /* The one-state kernels: no row that borrows generic's permutation. */
    static const char *const one_state[] = { "sha3-256", "shake256",
                                             "turboshake128", "turboshake256" };
    for (size_t i = 0; i < sizeof one_state / sizeof *one_state; i++)
        check_rows_own_code(kernel_find(one_state[i]), permutation_of);
    check_peer("openssl:sha3-256", 300, 32);
    check_peer("openssl:shake256", 300, 33);
    check_gcrypt_peer("gcrypt:sha3-256", 300, 34);
    check_gcrypt_peer("gcrypt:shake256", 300, 35);
    if (sha3)
        json_decref(sha3);
    if (rfc)
        json_decref(rfc);
    return check_finish();
}
