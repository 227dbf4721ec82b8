/* HCTR2: every vector of the HCTR2 authors' files (tests/vectors/
 * hctr2_aes{128,256}.json) on every ISA, both ways, decryption in place;
 * every ISA against generic on random keys, tweaks of 0-64 bytes and
 * lengths from 16 bytes to 8 KiB, around every XCTR and POLYVAL batch
 * boundary, misaligned and in place, with decryption inverting
 * encryption; one flipped bit changes every block of the output; each
 * row needs at least what its AES and POLYVAL rows need; and the registry
 * kernels' known answers, self-tests and prepared keys. */
#include <stdlib.h>
#include <string.h>

#include "../../kernels/hctr2/hctr2.h"
#include "../../kernels/registry.h"
#include "check.h"
#include "vectors.h"

#define MAX_LEN 8192
#define MAX_TWEAK 64
#define TRIALS 100

static int usable(const hctr2_impl *impl)
{
    if (cpu_supports(impl->v.required))
        return 1;
    SKIP("%s not supported by this CPU", impl->v.isa);
    return 0;
}

static const hctr2_impl *generic_row(void)
{
    const hctr2_impl *impl = hctr2_impls;
    while (impl[1].v.isa)
        impl++;
    return impl;
}

static uint8_t in_buf[MAX_LEN + 32], out_buf[MAX_LEN + 32], want[MAX_LEN],
    back[MAX_LEN];

static void test_vectors(const hctr2_impl *impl, const char *file,
                         size_t key_len, size_t expected)
{
    json_t *doc;
    CASE("HCTR2 %s, every vector, both ways (in place back) @%s", file,
         impl->v.isa);
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
        size_t klen, tlen, plen, clen;
        uint8_t *key = hex_decode(vector_string(in, "key_hex"), &klen),
                *tweak = hex_decode(vector_string(in, "tweak_hex"), &tlen),
                *pt = hex_decode(vector_string(t, "plaintext_hex"), &plen),
                *ct = hex_decode(vector_string(t, "ciphertext_hex"), &clen);
        hctr2_key hk;
        if (CHECK(klen == key_len && clen == plen && plen >= 16 &&
                      plen <= MAX_LEN,
                  "vector %zu: a %zu-byte key, 16 to %d bytes both ways", i,
                  key_len, MAX_LEN)) {
            CHECK(hctr2_setup(impl, &hk, key, klen) == 0, "vector %zu setup",
                  i);
            hctr2_encrypt(&hk, out_buf, pt, plen, tweak, tlen);
            CHECK(memcmp(out_buf, ct, clen) == 0,
                  "vector %zu (%zu bytes, %zu-byte tweak): %s", i, plen, tlen,
                  check_hex(out_buf, plen));
            hctr2_decrypt(&hk, out_buf, out_buf, clen, tweak, tlen);
            CHECK(memcmp(out_buf, pt, plen) == 0, "vector %zu back", i);
        }
        free(key), free(tweak), free(pt), free(ct);
    }
    CHECK(json_array_size(doc) == expected, "%s: %zu vectors, expected %zu",
          file, json_array_size(doc), expected);
    json_decref(doc);
}

/* Message lengths: 16 plus a rest of a whole number of blocks (1 to 32
 * blocks are XCTR's and POLYVAL's batches and their rests), one byte more
 * and one byte short of the next block, for the first EDGE_TRIALS trials;
 * then random lengths up to MAX_LEN. */
static const size_t edge_blocks[] = { 0,  1,  2,  3,  4,  5,   7,   8,   9,
                                      15, 16, 17, 31, 32, 33,  63,  64,  65,
                                      96, 97, 127, 128, 129, 255, 256, 257 };
#define EDGE_TRIALS (3 * sizeof edge_blocks / sizeof edge_blocks[0])

static size_t trial_len(size_t i, uint64_t *seed)
{
    static const size_t extra[3] = { 0, 1, 15 };
    if (i < EDGE_TRIALS)
        return 16 + 16 * edge_blocks[i / 3] + extra[i % 3];
    return 16 + check_random(seed) % (MAX_LEN - 15);
}

static void test_vs_generic(const hctr2_impl *impl)
{
    uint64_t seed = 80;
    CASE("HCTR2 == generic: random keys, tweaks 0-%d bytes, 16 to %d bytes, "
         "misaligned and in place, decryption inverts @%s", MAX_TWEAK, MAX_LEN,
         impl->v.isa);
    if (!usable(impl))
        return;
    for (size_t i = 0; i < 2 * EDGE_TRIALS + TRIALS; i++) {
        uint8_t key[32], tweak[MAX_TWEAK];
        size_t key_len = i % 2 ? 32 : 16,
               tweak_len = check_random(&seed) % (MAX_TWEAK + 1),
               len = trial_len(i / 2, &seed);
        int in_place = check_random(&seed) % 4 == 0;
        uint8_t *in = in_buf + check_random(&seed) % 16,
                *out = in_place ? in : out_buf + check_random(&seed) % 16;
        hctr2_key hk, hg;
        check_fill_random(key, key_len, &seed);
        check_fill_random(tweak, tweak_len, &seed);
        check_fill_random(in, len, &seed);
        memcpy(back, in, len);
        hctr2_setup(generic_row(), &hg, key, key_len);
        hctr2_setup(impl, &hk, key, key_len);
        hctr2_encrypt(&hg, want, in, len, tweak, tweak_len);
        hctr2_encrypt(&hk, out, in, len, tweak, tweak_len);
        CHECK(memcmp(out, want, len) == 0,
              "encrypt %zu bytes, %zu-byte tweak, in place %d", len,
              tweak_len, in_place);
        hctr2_decrypt(&hk, out, out, len, tweak, tweak_len);
        CHECK(memcmp(out, back, len) == 0,
              "decrypt in place %zu bytes, %zu-byte tweak", len, tweak_len);
    }
}

/* A wide-block cipher: one flipped bit of the message or of the tweak
 * changes every 16-byte block of the output (each with probability 1 -
 * 2^-128), where XTS would change one. */
static void test_whole_block_changes(const hctr2_impl *impl)
{
    uint64_t seed = 90;
    CASE("HCTR2: one flipped bit of the message or the tweak changes every "
         "block of a 4096-byte sector @%s", impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < 40; i++) {
        uint8_t key[32], tweak[32];
        size_t len = 4096, changed = 0,
               where = check_random(&seed) % (8 * (len + sizeof tweak));
        hctr2_key hk;
        check_fill_random(key, sizeof key, &seed);
        check_fill_random(tweak, sizeof tweak, &seed);
        check_fill_random(in_buf, len, &seed);
        hctr2_setup(impl, &hk, key, 32);
        hctr2_encrypt(&hk, want, in_buf, len, tweak, sizeof tweak);
        if (where < 8 * len)
            in_buf[where / 8] ^= (uint8_t)(1u << where % 8);
        else
            tweak[where / 8 - len] ^= (uint8_t)(1u << where % 8);
        hctr2_encrypt(&hk, out_buf, in_buf, len, tweak, sizeof tweak);
        for (size_t b = 0; b < len; b += 16)
            changed += memcmp(out_buf + b, want + b, 16) != 0;
        CHECK(changed == len / 16, "bit %zu flipped: %zu of %zu blocks changed",
              where, changed, len / 16);
    }
}

/* A row runs its AES and POLYVAL rows, so it must ask for what they do. */
static void test_requirements(void)
{
    CASE("every HCTR2 row needs what its AES and POLYVAL rows need");
    for (const hctr2_impl *impl = hctr2_impls; impl->v.isa; impl++) {
        const isa_variant *aes = isa_table_find(
            &aes_impls[0].v, sizeof aes_impls[0], impl->aes_isa);
        const polyval_impl *pv = polyval_find(impl->polyval_isa);
        if (!CHECK(aes && pv, "%s: no rows %s and %s", impl->v.isa,
                   impl->aes_isa, impl->polyval_isa))
            continue;
        unsigned need = aes->required | pv->v.required;
        CHECK((impl->v.required & need) == need,
              "%s needs %#x, asks for %#x", impl->v.isa, need,
              impl->v.required);
    }
}

static const kernel *const hctr2_kernels[] = { &kernel_aes128_hctr2,
                                               &kernel_aes256_hctr2 };

/* Known answers and the bench's gate, and prepared keys against keys set
 * up per call, both ways. */
static void test_kernels(void)
{
    for (size_t i = 0; i < 2; i++) {
        const kernel *k = hctr2_kernels[i];
        const isa_variant *v;
        for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
            char err[256] = "";
            CASE("%s@%s known answers, self-test, prepared keys == per call "
                 "both ways", k->name, v->isa);
            if (!kernel_variant_usable(k, v)) {
                SKIP("unsupported on this CPU");
                continue;
            }
            CHECK(kernel_self_test(k, v, err, sizeof err) == 0, "%s", err);
            for (int dir = 0; dir < 2; dir++) {
                kernel_args a;
                size_t len = 1000;
                kernel_bench_args(k, &a);
                a.decrypt.set = dir;
                for (size_t b = 0; b < len; b++)
                    in_buf[b] = (uint8_t)(b * 13);
                k->run(k, v, &a, in_buf, len, want);
                kernel_prepare(k, v, &a);
                CHECK(a.prepared != NULL, "prepare gave nothing");
                k->run(k, v, &a, in_buf, len, back);
                CHECK(memcmp(want, back, len) == 0, "%s differs",
                      dir ? "decrypt" : "encrypt");
                kernel_release(k, &a);
            }
        }
    }
}

int main(void)
{
    for (const hctr2_impl *impl = hctr2_impls; impl->v.isa; impl++) {
        test_vectors(impl, "hctr2_aes128.json", 16, 100);
        test_vectors(impl, "hctr2_aes256.json", 32, 175);
        test_vs_generic(impl);
        test_whole_block_changes(impl);
    }
    test_requirements();
    test_kernels();
    return check_finish();
}
