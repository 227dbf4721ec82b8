/* The NH implementation table, the key in pairing order, the padding of
 * a last partial unit, the same for every ISA, and the registry kernel
 * nh: NH as Adiantum hashes a message, timed alone. */
#include "nh.h"

#include <stdlib.h>
#include <string.h>

#include "../kernel.h"
#include "nh_known_answers.h"

const nh_impl nh_impls[] = {
#if defined(__x86_64__)
    { { "avx512", CPU_AVX512 }, nh_sums_avx512 },
    { { "avx2", CPU_AVX2 }, nh_sums_avx2 },
    { { "sse2", CPU_SSE2 }, nh_sums_sse2 },
#elif defined(__aarch64__)
#endif
    { { "generic", 0 }, nh_sums_generic },
    { { NULL, 0 }, NULL },
};

void nh_setup(nh_key *k, const uint8_t bytes[NH_KEY_BYTES])
{
    static const unsigned pairing[4] = { 0, 2, 1, 3 };
    /* x86-64 is little-endian, as NH's words are. */
    for (size_t i = 0; i < NH_KEY_WORDS; i++)
        memcpy(&k->w[i], bytes + 4 * (i - i % 4 + pairing[i % 4]), 4);
}

void nh_hash(const nh_impl *impl, const nh_key *k, const uint8_t *msg,
             size_t len, uint8_t hash[NH_HASH_BYTES])
{
    uint64_t sums[NH_PASSES] = { 0 };
    size_t full = len - len % NH_UNIT_BYTES;
    if (full)
        impl->sums(k->w, msg, full, sums);
    if (full < len) {
        uint8_t last[NH_UNIT_BYTES] = { 0 };
        memcpy(last, msg + full, len - full);
        impl->sums(k->w + full / 4, last, sizeof last, sums);
    }
    for (int p = 0; p < NH_PASSES; p++)
        for (int i = 0; i < 8; i++)
            hash[8 * p + i] = (uint8_t)(sums[p] >> (8 * i));
}

/* The registry kernel: NH(L) as Adiantum's message hash computes it (its
 * part at --isa=auto), each NH_MESSAGE_BYTES piece of the message hashed
 * on its own, a last partial unit zero-padded, the pieces' 32-byte hashes
 * concatenated. Adiantum then hashes these with Poly1305; the nh kernel
 * stops before that. prepare() puts the key in pairing order outside the
 * timed loop, as Adiantum's key setup does. */

static size_t nh_pieces(size_t len)
{
    return (len + NH_MESSAGE_BYTES - 1) / NH_MESSAGE_BYTES;
}

static void nh_prepare(const kernel *k, const isa_variant *v, kernel_args *a)
{
    nh_key *key = aligned_alloc(_Alignof(nh_key), sizeof *key);
    (void)k, (void)v;
    if (key) {
        nh_setup(key, a->key.bytes);
        kernel_add_secret(a, key, sizeof *key);
    }
    a->prepared = key;
}

static void nh_release(const kernel *k, kernel_args *a)
{
    (void)k;
    free(a->prepared);
}

static int nh_run(const kernel *k, const isa_variant *v, const kernel_args *a,
                  const uint8_t *in, size_t len, uint8_t *out)
{
    const nh_key *key = a->prepared;
    nh_key local;
    (void)k;
    if (!key) {
        nh_setup(&local, a->key.bytes);
        key = &local;
    }
    for (size_t i = 0; i < nh_pieces(len); i++) {
        size_t at = i * NH_MESSAGE_BYTES, rest = len - at;
        nh_hash((const nh_impl *)v, key, in + at,
                rest < NH_MESSAGE_BYTES ? rest : NH_MESSAGE_BYTES,
                out + i * NH_HASH_BYTES);
    }
    return 0;
}

static size_t nh_out_len(const kernel *k, const kernel_args *a, size_t len)
{
    (void)k, (void)a;
    return nh_pieces(len) * NH_HASH_BYTES;
}

static uint8_t bench_key[NH_KEY_BYTES];

static void nh_bench_args(const kernel *k, kernel_args *a)
{
    (void)k;
    nh_known_fill(bench_key, sizeof bench_key, NH_KNOWN_KEY_SEED);
    *a = (kernel_args){ .key = KERNEL_BYTES(bench_key, sizeof bench_key) };
}

static int nh_known_answer(const kernel *k, const isa_variant *v, char *err,
                           size_t errlen)
{
    static uint8_t key[NH_KEY_BYTES], msg[NH_KNOWN_LEN_MAX];
    uint8_t want[2 * NH_HASH_BYTES];
    kernel_args a = { .key = KERNEL_BYTES(key, sizeof key) };
    nh_known_fill(key, sizeof key, NH_KNOWN_KEY_SEED);
    nh_known_fill(msg, sizeof msg, NH_KNOWN_MESSAGE_SEED);
    for (size_t i = 0; i < sizeof nh_known / sizeof nh_known[0]; i++) {
        long n = kernel_hex_decode(nh_known[i].hash, want, sizeof want);
        if (kernel_check_known_answer(k, v, &a, msg, nh_known[i].len, want,
                                      (size_t)n,
                                      "NH from its definition "
                                      "(nh_known_answers.h)",
                                      err, errlen))
            return -1;
    }
    return 0;
}

const kernel kernel_nh = {
    .name = "nh",
    .family = "nh",
    .table = &nh_impls[0].v,
    .row_size = sizeof nh_impls[0],
    .args = { { KARG_NEEDS(KEY, NH_KEY_BYTES),
                .note = "K_N, Adiantum's NH key" } },
    .out_len = nh_out_len,
    .run = nh_run,
    .bench_args = nh_bench_args,
    .known_answer = nh_known_answer,
    .prepare = nh_prepare,
    .release = nh_release,
};
