/* The nh kernel: NH computed here again from its definition (nh.h), with
 * no pairing order and no code of the kernels, gives the known answers
 * the kernel is gated by (nh_known_answers.h) and every row's output on
 * random keys and messages of every length through three pieces,
 * misaligned; every row passes its self-test; kat's checker refuses a key
 * of the wrong length. (tests/c/test_adiantum.c compares the rows' nh_hash
 * with generic's within one piece.) */
#include <stdlib.h>
#include <string.h>

#include "../../kernels/nh/nh.h"
#include "../../kernels/nh/nh_known_answers.h"
#include "../../kernels/registry.h"
#include "check.h"

static uint32_t word_le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* One piece of at most NH_MESSAGE_BYTES, from the definition: for each
 * pass p the sum over units u of (m0 + k[4(u+p)])(m2 + k[4(u+p)+2]) +
 * (m1 + k[4(u+p)+1])(m3 + k[4(u+p)+3]), words of the zero-padded message
 * and of the key bytes as given. */
static void reference_piece(const uint8_t key[NH_KEY_BYTES],
                            const uint8_t *msg, size_t len,
                            uint8_t hash[NH_HASH_BYTES])
{
    uint8_t padded[NH_MESSAGE_BYTES] = { 0 };
    size_t units = (len + NH_UNIT_BYTES - 1) / NH_UNIT_BYTES;
    memcpy(padded, msg, len);
    for (size_t p = 0; p < NH_PASSES; p++) {
        uint64_t sum = 0;
        for (size_t u = 0; u < units; u++) {
            uint32_t m[4], k[4];
            for (size_t j = 0; j < 4; j++) {
                m[j] = word_le(padded + 16 * u + 4 * j);
                k[j] = word_le(key + 16 * (u + p) + 4 * j);
            }
            sum += (uint64_t)(uint32_t)(m[0] + k[0]) * (uint32_t)(m[2] + k[2]) +
                   (uint64_t)(uint32_t)(m[1] + k[1]) * (uint32_t)(m[3] + k[3]);
        }
        for (size_t i = 0; i < 8; i++)
            hash[8 * p + i] = (uint8_t)(sum >> (8 * i));
    }
}

/* The whole message: each piece's hash in turn. Returns the bytes written. */
static size_t reference_nh(const uint8_t key[NH_KEY_BYTES], const uint8_t *msg,
                           size_t len, uint8_t *out)
{
    size_t written = 0;
    for (size_t at = 0; at < len; at += NH_MESSAGE_BYTES) {
        size_t piece = len - at < NH_MESSAGE_BYTES ? len - at : NH_MESSAGE_BYTES;
        reference_piece(key, msg + at, piece, out + written);
        written += NH_HASH_BYTES;
    }
    return written;
}

static void test_known_answers_from_definition(void)
{
    static uint8_t key[NH_KEY_BYTES], msg[NH_KNOWN_LEN_MAX];
    uint8_t want[2 * NH_HASH_BYTES], got[2 * NH_HASH_BYTES];
    nh_known_fill(key, sizeof key, NH_KNOWN_KEY_SEED);
    nh_known_fill(msg, sizeof msg, NH_KNOWN_MESSAGE_SEED);
    for (size_t i = 0; i < sizeof nh_known / sizeof nh_known[0]; i++) {
        CASE("nh's known answer for %zu bytes is NH by its definition",
             nh_known[i].len);
        long n = kernel_hex_decode(nh_known[i].hash, want, sizeof want);
        size_t got_len = reference_nh(key, msg, nh_known[i].len, got);
        CHECK(n > 0 && (size_t)n == got_len && memcmp(want, got, got_len) == 0,
              "the definition gives %s", check_hex(got, got_len));
    }
}

static void test_rows(void)
{
    const isa_variant *v;
    char err[256];
    for (size_t i = 0; (v = kernel_variant_at(&kernel_nh, i)); i++) {
        CASE("nh@%s passes its self-test (the known answers, then generic)",
             v->isa);
        if (check_usable(v))
            CHECK(kernel_self_test(&kernel_nh, v, err, sizeof err) == 0, "%s",
                  err);
    }
}

#define MAX_LEN (3 * NH_MESSAGE_BYTES)

/* Every length through three pieces, each from its own random key and an
 * offset cycling through 0-15, and each row's output by kat's path. */
static void test_vs_definition(const isa_variant *v)
{
    static uint8_t key[NH_KEY_BYTES], buf[MAX_LEN + 16];
    uint8_t want[3 * NH_HASH_BYTES], got[3 * NH_HASH_BYTES];
    uint64_t seed = 0x4e48;
    CASE("nh@%s == NH by its definition at every length 0-%d, random keys, "
         "misaligned", v->isa, MAX_LEN);
    if (!check_usable(v))
        return;
    for (size_t len = 0; len <= MAX_LEN; len++) {
        uint8_t *msg = buf + len % 16;
        kernel_args a = { .key = KERNEL_BYTES(key, sizeof key) };
        check_fill_random(key, sizeof key, &seed);
        check_fill_random(msg, len, &seed);
        size_t want_len = reference_nh(key, msg, len, want);
        size_t out_len = kernel_out_len(&kernel_nh, &a, len);
        memset(got, 0xa5, sizeof got);
        kernel_prepare(&kernel_nh, v, &a);
        int rc = kernel_nh.run(&kernel_nh, v, &a, msg, len, got);
        kernel_release(&kernel_nh, &a);
        if (!CHECK(rc == 0 && out_len == want_len &&
                       memcmp(got, want, want_len) == 0,
                   "len %zu: out_len %zu (want %zu), got %s", len, out_len,
                   want_len, check_hex(got, out_len)))
            return;
    }
}

static void test_refusals(void)
{
    static const uint8_t key[NH_KEY_BYTES + 1];
    char err[256];
    kernel_args a = { .key = KERNEL_BYTES(key, NH_KEY_BYTES) };
    CASE("nh takes a %d-byte key and refuses any other, naming the length",
         NH_KEY_BYTES);
    CHECK(kernel_check(&kernel_nh, &a, 100, err, sizeof err) == 0, "%s", err);
    a.key = KERNEL_BYTES(key, NH_KEY_BYTES - 16);
    CHECK(kernel_check(&kernel_nh, &a, 100, err, sizeof err) != 0 &&
              strstr(err, "--key of 1072 bytes"),
          "a 1056-byte key: %s", err);
    a = (kernel_args){ 0 };
    CHECK(kernel_check(&kernel_nh, &a, 100, err, sizeof err) != 0 &&
              strstr(err, "--key"),
          "no key: %s", err);
}

int main(void)
{
    const isa_variant *v;
    test_known_answers_from_definition();
    test_rows();
    for (size_t i = 0; (v = kernel_variant_at(&kernel_nh, i)); i++)
        test_vs_definition(v);
    test_refusals();
    return check_finish();
}
