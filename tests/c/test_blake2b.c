/* BLAKE2b: the 512 reference known answers on every ISA, and a differential
 * against libsodium's crypto_generichash over random keys, lengths, digest
 * lengths and update splits. */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/blake2b/blake2b.h"
#include "check.h"
#include "peers.h"
#include "vectors.h"

#define MAX_LEN 4096
#define TRIALS 300

static int usable(const blake2b_impl *impl)
{
    if (cpu_supports(impl->v.required))
        return 1;
    SKIP("%s not supported by this CPU", impl->v.isa);
    return 0;
}

static void check_vector(const blake2b_impl *impl, const json_t *vec,
                         size_t index)
{
    size_t in_len, key_len, want_len;
    uint8_t *in = hex_decode(vector_string(vec, "in"), &in_len);
    uint8_t *key = hex_decode(vector_string(vec, "key"), &key_len);
    uint8_t *want = hex_decode(vector_string(vec, "out"), &want_len);
    uint8_t got[BLAKE2B_OUT_BYTES];
    blake2b(impl, got, want_len, in, in_len, key, key_len);
    CHECK(want_len == BLAKE2B_OUT_BYTES && memcmp(got, want, want_len) == 0,
          "vector %zu (in %zu bytes, key %zu bytes): got %s", index, in_len,
          key_len, check_hex(got, want_len));
    free(in);
    free(key);
    free(want);
}

static void test_known_answers(const blake2b_impl *impl, const json_t *kat)
{
    size_t n = 0;
    CASE("blake2b 512 reference known answers @%s", impl->v.isa);
    if (!usable(impl) ||
        !CHECK(kat && json_is_array(kat), "blake2b_kat.json unreadable"))
        return;
    for (size_t i = 0; i < json_array_size(kat); i++) {
        const char *hash = vector_string(json_array_get(kat, i), "hash");
        if (hash && strcmp(hash, "blake2b") == 0) {
            check_vector(impl, json_array_get(kat, i), i);
            n++;
        }
    }
    CHECK(n == 512, "expected 512 blake2b vectors, found %zu", n);
}

/* Hash in pieces at random split points; the first split is often 0, 128 or
 * 129 bytes, where buffering has its edge cases. */
static void hash_in_pieces(const blake2b_impl *impl, uint8_t *out,
                           size_t outlen, const uint8_t *in, size_t len,
                           const uint8_t *key, size_t keylen, uint64_t *seed)
{
    static const size_t edges[] = { 0, 1, 127, 128, 129, 256 };
    blake2b_state s;
    blake2b_init(&s, impl, outlen, key, keylen);
    size_t done = 0;
    size_t step = edges[check_random(seed) % 6];
    while (done < len) {
        if (step > len - done)
            step = len - done;
        blake2b_update(&s, in + done, step);
        done += step;
        step = check_random(seed) % 300;
    }
    blake2b_final(&s, out);
}

static void test_vs_libsodium(const blake2b_impl *impl)
{
    static uint8_t in_buf[MAX_LEN + 16];
    uint64_t seed = 7;
    CASE("blake2b vs libsodium crypto_generichash, every outlen, splits @%s",
         impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < TRIALS; i++) {
        uint8_t key[BLAKE2B_KEY_BYTES], want[64], one_shot[64], pieces[64];
        size_t keylen = check_random(&seed) % (BLAKE2B_KEY_BYTES + 1);
        size_t outlen = 1 + (size_t)i % BLAKE2B_OUT_BYTES;
        size_t len = check_random(&seed) % (MAX_LEN + 1);
        uint8_t *in = in_buf + check_random(&seed) % 16;
        check_fill_random(key, keylen, &seed);
        check_fill_random(in, len, &seed);
        crypto_generichash(want, outlen, in, len, keylen ? key : NULL, keylen);
        blake2b(impl, one_shot, outlen, in, len, key, keylen);
        hash_in_pieces(impl, pieces, outlen, in, len, key, keylen, &seed);
        CHECK(memcmp(one_shot, want, outlen) == 0,
              "one-shot: len %zu key %zu outlen %zu", len, keylen, outlen);
        CHECK(memcmp(pieces, want, outlen) == 0,
              "init/update/final: len %zu key %zu outlen %zu", len, keylen,
              outlen);
    }
}

/* blake2b_x4 against four libsodium hashes with four different keys, from
 * keyed states (as LIONESS keeps them) and from fresh unkeyed ones, at
 * every length around the block boundaries. */
static void test_x4(const blake2b_impl *impl)
{
    enum { MAX = 600 };
    static uint8_t msg[4][MAX], key[4][BLAKE2B_KEY_BYTES];
    uint64_t seed = 4;
    CASE("blake2b_x4 == four crypto_generichash, lengths 1-%d, keyed and not @%s%s",
         MAX, impl->v.isa, impl->compress_x4 ? "" : " (one by one)");
    if (!usable(impl))
        return;
    check_fill_random(&msg[0][0], sizeof msg, &seed);
    check_fill_random(&key[0][0], sizeof key, &seed);
    for (size_t keylen = 0; keylen <= BLAKE2B_KEY_BYTES; keylen += 64) {
        size_t outlen = keylen ? 40 : 64;
        blake2b_state st[4];
        const blake2b_state *start[4];
        const uint8_t *in[4];
        uint8_t got[4][BLAKE2B_OUT_BYTES], want[BLAKE2B_OUT_BYTES];
        uint8_t *out[4];
        for (unsigned j = 0; j < 4; j++) {
            blake2b_init(&st[j], impl, outlen, keylen ? key[j] : NULL, keylen);
            if (keylen)
                blake2b_absorb_key_block(&st[j]);
            start[j] = &st[j];
            in[j] = msg[j];
            out[j] = got[j];
        }
        for (size_t len = 1; len <= MAX; len++) {
            blake2b_x4(impl, start, in, len, out);
            for (unsigned j = 0; j < 4; j++) {
                crypto_generichash(want, outlen, msg[j], len,
                                   keylen ? key[j] : NULL, keylen);
                if (!CHECK(memcmp(got[j], want, outlen) == 0,
                           "len %zu lane %u key %zu", len, j, keylen))
                    return;
            }
        }
    }
}

int main(void)
{
    json_t *kat = vector_json("blake2b_kat.json");
    if (sodium_init() < 0)
        return 1;
    for (const blake2b_impl *impl = blake2b_impls; impl->v.isa; impl++) {
        test_known_answers(impl, kat);
        test_vs_libsodium(impl);
        test_x4(impl);
    }
    json_decref(kat);
    check_gcrypt_peer("gcrypt:blake2b512", 300, 90);
    return check_finish();
}
