/* The POLYVAL implementation table, the any-length helpers every row
 * shares, and the registry kernel `polyval`: the hash of a message
 * zero-padded to whole blocks, under --key=H. */
#include "polyval.h"

#include <stdlib.h>
#include <string.h>

#include "../kernel.h"

#define POLYVAL_ROW(name, isa, required, init_upto)                           \
    { { name, required }, polyval_init_##isa, polyval_update_##isa,           \
      polyval_mul_##isa, init_upto }

/* pclmul's tail and the reductions of the wider rows use the 128-bit
 * PCLMULQDQ, which every CPU with VPCLMULQDQ has; SSE4.1 for the lane
 * extracts. */
const polyval_impl polyval_impls[] = {
#if defined(__x86_64__)
    POLYVAL_ROW("vpclmul-avx512", vpclmul_avx512,
                CPU_VPCLMULQDQ | CPU_AVX512 | CPU_PCLMUL | CPU_SSE41,
                polyval_init_upto_vpclmul_avx512),
    POLYVAL_ROW("vpclmul-avx2", vpclmul_avx2,
                CPU_VPCLMULQDQ | CPU_AVX2 | CPU_PCLMUL | CPU_SSE41,
                polyval_init_upto_vpclmul_avx2),
    POLYVAL_ROW("pclmul", pclmul, CPU_PCLMUL | CPU_SSE41,
                polyval_init_upto_pclmul),
#elif defined(__aarch64__)
    POLYVAL_ROW("ce", ce, CPU_ARM_PMULL, NULL),
#endif
    POLYVAL_ROW("generic", generic, 0, NULL),
    { { NULL, 0 }, NULL, NULL, NULL, NULL },
};

const polyval_impl *polyval_find(const char *isa)
{
    return (const polyval_impl *)isa_table_find(
        &polyval_impls[0].v, sizeof polyval_impls[0], isa);
}

const polyval_impl *polyval_best(void)
{
    const polyval_impl *impl = polyval_impls;
    while (impl[1].v.isa && !cpu_supports(impl->v.required))
        impl++;
    return impl;
}

void polyval_init_upto(const polyval_impl *impl, polyval_key *k,
                       const uint8_t h[16], size_t blocks)
{
    if (impl->init_upto)
        impl->init_upto(k, h, blocks);
    else
        impl->init(k, h);
}

/* What init_upto may write: the x86 rows double from their lanes (1, 2
 * or 4 powers) until they have `blocks`, so at most the first power of two
 * at or above both (test_polyval's test_wipe_upto holds them to it). A
 * row without init_upto writes whatever its init does. */
static size_t upto_powers(const polyval_impl *impl, size_t blocks)
{
    size_t n = 4;
    if (!impl->init_upto)
        return POLYVAL_POWERS;
    while (n < blocks && n < POLYVAL_POWERS)
        n *= 2;
    return n;
}

void polyval_wipe_upto(const polyval_impl *impl, polyval_key *k,
                       size_t blocks)
{
    size_t n = upto_powers(impl, blocks);
    explicit_bzero(k->pow[POLYVAL_POWERS - n], POLYVAL_BLOCK_BYTES * n);
    explicit_bzero(k->kpow[POLYVAL_POWERS - n], POLYVAL_BLOCK_BYTES * n);
}

void polyval_finish(const polyval_impl *impl, const polyval_key *k,
                    uint8_t acc[16], const uint8_t *tail, size_t len)
{
    uint8_t last[16] = { 0 };
    if (!len)
        return;
    memcpy(last, tail, len);
    impl->update(k, acc, last, 1);
}

/* The hash of msg under a set-up key, into tag only at the end: tag may
 * be msg's own first bytes. */
static void hash_with(const polyval_impl *impl, const polyval_key *k,
                      uint8_t tag[16], const uint8_t *msg, size_t len)
{
    uint8_t acc[16] = { 0 };
    size_t whole = len / POLYVAL_BLOCK_BYTES;
    impl->update(k, acc, msg, whole);
    polyval_finish(impl, k, acc, msg + POLYVAL_BLOCK_BYTES * whole,
                   len % POLYVAL_BLOCK_BYTES);
    memcpy(tag, acc, 16);
}

void polyval_hash(const polyval_impl *impl, uint8_t tag[16],
                  const uint8_t h[16], const uint8_t *msg, size_t len)
{
    polyval_key k;
    impl->init(&k, h);
    hash_with(impl, &k, tag, msg, len);
}

/* The registry kernel. The key's powers are set up by prepare, outside the
 * timed loop, as a caller hashing many messages under one key would. */

typedef struct polyval_prepared {
    polyval_key key;
    const polyval_impl *impl;
} polyval_prepared;

static void polyval_prepare(const kernel *k, const isa_variant *v,
                            kernel_args *a)
{
    polyval_prepared *p = aligned_alloc(64, sizeof *p);
    (void)k;
    if (p) {
        p->impl = (const polyval_impl *)v;
        p->impl->init(&p->key, a->key.bytes);
        kernel_add_secret(a, &p->key, sizeof p->key);
    }
    a->prepared = p;
}

static int polyval_run(const kernel *k, const isa_variant *v,
                       const kernel_args *a, const uint8_t *in, size_t len,
                       uint8_t *out)
{
    const polyval_impl *impl = (const polyval_impl *)v;
    const polyval_prepared *p = a->prepared;
    (void)k;
    if (p && p->impl == impl)
        hash_with(impl, &p->key, out, in, len);
    else
        polyval_hash(impl, out, a->key.bytes, in, len);
    return 0;
}

static size_t polyval_out_len(const kernel *k, const kernel_args *a,
                              size_t len)
{
    (void)k, (void)a, (void)len;
    return POLYVAL_BLOCK_BYTES;
}

static const uint8_t bench_key[POLYVAL_KEY_BYTES] = "cyclebench H key";

static void polyval_bench_args(const kernel *k, kernel_args *a)
{
    (void)k;
    *a = (kernel_args){ .key = KERNEL_BYTES(bench_key, sizeof bench_key) };
}

/* RFC 8452 appendix A's POLYVAL(H, X_1, X_2), and the first 256-byte
 * vector of tests/vectors/polyval.json (google/hctr2's "Random ( 1)"),
 * which takes whole and partial batches on every row. */
static const struct {
    const char *source, *key, *message, *hash;
} known[] = {
    { "RFC 8452 appendix A", "25629347589242761d31f826ba4b757b",
      "4f4f95668c83dfb6401762bb2d01a262d1a24ddd2721d006bbe45f20d3c9f362",
      "f7a3b47b846119fae5b7866cf5e5b77e" },
    { "google/hctr2 Polyval.json, 256 bytes, Random ( 1)",
      "37be681650b94eb047dee2bddee44809",
      "87fc689ffff24a1e823b738fc1b21b7a6c4f81bc889b6ca39cc2a5bc14704c9b"
      "0c9f5992164b913d18552268128c63b251cb854bd2ae0b1c5d289d1db1c8f077"
      "e9b5074e06c8eef81bed722a557d16c9f254e7e9e0445b33b149eeff43fb82cd"
      "4a707881a43436e84c2854a66cc36b78e7c05dc65d81ab700886a1fdf47755fd"
      "a3e9e21bdf99b780f90a4f724ad3afbbb33beb08580f79cea599051234d4f486"
      "37231dc849c092aea6ac9b3155ed15c60517378d9042e487896288691c6afde3"
      "002b471a73c151c2c062746a9eb2e521be90b5b050ca8868e19d7adf6cb7b998"
      "ee2862618bd147f9047a0b5dcd2b65f512a3fe1aaa2c7842b8be7d74eb59baba",
      "ae11d4602a5f9e428904c2348d55940a" },
};

static int polyval_known_answer(const kernel *k, const isa_variant *v,
                                char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        uint8_t key[16], msg[256], want[16];
        long msg_len = kernel_hex_decode(known[i].message, msg, sizeof msg);
        kernel_hex_decode(known[i].key, key, sizeof key);
        kernel_hex_decode(known[i].hash, want, sizeof want);
        kernel_args a = { .key = KERNEL_BYTES(key, sizeof key) };
        if (kernel_check_known_answer(k, v, &a, msg, (size_t)msg_len, want,
                                      sizeof want, known[i].source, err,
                                      errlen))
            return -1;
    }
    return 0;
}

const kernel kernel_polyval = {
    .name = "polyval",
    .family = "polyval",
    .table = &polyval_impls[0].v,
    .row_size = sizeof polyval_impls[0],
    .args = { { KARG_NEEDS(KEY, POLYVAL_KEY_BYTES), .note = "the hash key H" } },
    .out_len = polyval_out_len,
    .run = polyval_run,
    .bench_args = polyval_bench_args,
    .known_answer = polyval_known_answer,
    .prepare = polyval_prepare,
};
