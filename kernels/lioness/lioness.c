/* LIONESS over the ChaCha and BLAKE2b tables, and its registry kernels. */
#include "lioness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/timer.h"
#include "../registry.h"

/* A LIONESS variant pairs the ChaCha and BLAKE2b implementations of one
 * ISA level, named here and looked up at key setup. Where a primitive has
 * no file of its own at a level (BLAKE2b has no sse2 or ssse3, ChaCha no
 * sse41), the row names the nearest lower one. */
const lioness_impl lioness_impls[] = {
#if defined(__x86_64__)
    { { "avx512", CPU_AVX512 }, "avx512", "avx512" },
    { { "avx2", CPU_AVX2 }, "avx2", "avx2" },
    { { "sse41", CPU_SSSE3 | CPU_SSE41 }, "ssse3", "sse41" },
    { { "ssse3", CPU_SSSE3 }, "ssse3", "generic" },
    { { "sse2", CPU_SSE2 }, "sse2", "generic" },
#elif defined(__aarch64__)
#endif
    { { "generic", 0 }, "generic", "generic" },
    { { NULL, 0 }, NULL, NULL },
};

const chacha_impl *lioness_chacha(const lioness_impl *impl)
{
    return (const chacha_impl *)isa_table_find(
        &chacha_impls[0].v, sizeof chacha_impls[0], impl->chacha_isa);
}

const blake2b_impl *lioness_blake2b(const lioness_impl *impl)
{
    return (const blake2b_impl *)isa_table_find(
        &blake2b_impls[0].v, sizeof blake2b_impls[0], impl->blake2b_isa);
}

const char *const lioness_stage_names[LIONESS_STAGES] = {
    "chacha S(L^K1)", "blake2b H(K2,R)", "chacha S(L^K3)", "blake2b H(K4,R)",
    "copy",
};

static void keyed_hash_state(blake2b_state *s, const blake2b_impl *impl,
                             const uint8_t key[LIONESS_HASH_KEY_BYTES])
{
    blake2b_init(s, impl, LIONESS_L_BYTES, key, LIONESS_HASH_KEY_BYTES);
    blake2b_absorb_key_block(s);
}

void lioness_setup(lioness_key *k, const lioness_impl *impl,
                   const uint8_t key[LIONESS_KEY_BYTES], unsigned rounds)
{
    k->chacha = lioness_chacha(impl);
    k->hash = lioness_blake2b(impl);
    k->rounds = rounds;
    memcpy(k->stream_key[0], key, LIONESS_L_BYTES);
    keyed_hash_state(&k->hash_state[0], k->hash, key + 40);
    memcpy(k->stream_key[1], key + 104, LIONESS_L_BYTES);
    keyed_hash_state(&k->hash_state[1], k->hash, key + 144);
}

/* S's key material, L ^ K1 in pass 0 and L ^ K3 in pass 1: its first 8
 * bytes are the ChaCha nonce, the other 32 the key. */
#define STREAM_NONCE(t) (t)
#define STREAM_KEY(t) ((t) + 8)
static void stream_input(const lioness_key *k, const uint8_t *block,
                         unsigned pass, uint8_t t[LIONESS_L_BYTES])
{
    for (size_t i = 0; i < LIONESS_L_BYTES; i++)
        t[i] = block[i] ^ k->stream_key[pass][i];
}

/* R ^= S(L ^ K1) in pass 0, S(L ^ K3) in pass 1. */
static void stream_round(const lioness_key *k, uint8_t *block, size_t len,
                         unsigned pass)
{
    uint8_t t[LIONESS_L_BYTES];
    stream_input(k, block, pass, t);
    chacha_djb_xor(k->chacha, block + LIONESS_L_BYTES,
                   block + LIONESS_L_BYTES, len - LIONESS_L_BYTES,
                   STREAM_KEY(t), STREAM_NONCE(t), 0, k->rounds);
}

static void xor_into_l(uint8_t *block, const uint8_t h[LIONESS_L_BYTES])
{
    for (size_t i = 0; i < LIONESS_L_BYTES; i++)
        block[i] ^= h[i];
}

/* L ^= H(K2, R) in pass 0, H(K4, R) in pass 1, from the keyed state. */
static void hash_round(const lioness_key *k, uint8_t *block, size_t len,
                       unsigned pass)
{
    blake2b_state s = k->hash_state[pass];
    uint8_t h[LIONESS_L_BYTES];
    blake2b_update(&s, block + LIONESS_L_BYTES, len - LIONESS_L_BYTES);
    blake2b_final(&s, h);
    xor_into_l(block, h);
}

/* Adds the ticks since *last to ticks[stage]; a no-op when not staged. */
static inline void stamp(uint64_t *ticks, enum lioness_stage stage,
                         uint64_t *last)
{
    if (!ticks)
        return;
    uint64_t now = timer_start();
    ticks[stage] += now - *last;
    *last = now;
}

static void encrypt_block(const lioness_key *k, uint8_t *out,
                          const uint8_t *in, size_t len, uint64_t *ticks)
{
    uint64_t last = ticks ? timer_start() : 0;
    if (out != in)
        memcpy(out, in, len);
    stamp(ticks, LIONESS_STAGE_COPY, &last);
    stream_round(k, out, len, 0);
    stamp(ticks, LIONESS_STAGE_S1, &last);
    hash_round(k, out, len, 0);
    stamp(ticks, LIONESS_STAGE_H1, &last);
    stream_round(k, out, len, 1);
    stamp(ticks, LIONESS_STAGE_S2, &last);
    hash_round(k, out, len, 1);
    stamp(ticks, LIONESS_STAGE_H2, &last);
}

void lioness_encrypt(const lioness_key *k, uint8_t *out, const uint8_t *in,
                     size_t len)
{
    encrypt_block(k, out, in, len, NULL);
}

void lioness_encrypt_staged(const lioness_key *k, uint8_t *out,
                            const uint8_t *in, size_t len,
                            uint64_t ticks[LIONESS_STAGES])
{
    encrypt_block(k, out, in, len, ticks);
}

void lioness_decrypt(const lioness_key *k, uint8_t *out, const uint8_t *in,
                     size_t len)
{
    if (out != in)
        memcpy(out, in, len);
    hash_round(k, out, len, 1);
    stream_round(k, out, len, 1);
    hash_round(k, out, len, 0);
    stream_round(k, out, len, 0);
}

/* Four cells. The S passes go two cells at a time through ChaCha's
 * two-stream form (where the row has one: sixteen lanes hold two cells'
 * eight keystream blocks; elsewhere one cell already fills the lanes, and
 * chacha_djb_xor2 runs the two one after the other); the H passes go four
 * cells at a time. */

static void stream_round_x2(const lioness_key *const k[2],
                            uint8_t *const cell[2], size_t len, unsigned pass)
{
    uint8_t t[2][LIONESS_L_BYTES];
    uint8_t *r[2];
    const uint8_t *key[2], *nonce[2];
    for (unsigned j = 0; j < 2; j++) {
        stream_input(k[j], cell[j], pass, t[j]);
        r[j] = cell[j] + LIONESS_L_BYTES;
        key[j] = STREAM_KEY(t[j]);
        nonce[j] = STREAM_NONCE(t[j]);
    }
    chacha_djb_xor2(k[0]->chacha, r, (const uint8_t *const *)r,
                    len - LIONESS_L_BYTES, key, nonce, 0, k[0]->rounds);
}

static void stream_round_x4(const lioness_key *const k[LIONESS_X4],
                            uint8_t *const cell[LIONESS_X4], size_t len,
                            unsigned pass)
{
    for (unsigned j = 0; j < LIONESS_X4; j += 2)
        stream_round_x2(k + j, cell + j, len, pass);
}

static void hash_round_x4(const lioness_key *const k[LIONESS_X4],
                          uint8_t *const cell[LIONESS_X4], size_t len,
                          unsigned pass)
{
    uint8_t h[LIONESS_X4][LIONESS_L_BYTES];
    const blake2b_state *start[LIONESS_X4];
    const uint8_t *r[LIONESS_X4];
    uint8_t *out[LIONESS_X4];
    for (unsigned j = 0; j < LIONESS_X4; j++) {
        start[j] = &k[j]->hash_state[pass];
        r[j] = cell[j] + LIONESS_L_BYTES;
        out[j] = h[j];
    }
    blake2b_x4(k[0]->hash, start, r, len - LIONESS_L_BYTES, out);
    for (unsigned j = 0; j < LIONESS_X4; j++)
        xor_into_l(cell[j], h[j]);
}

void lioness_encrypt_x4(const lioness_key *const k[LIONESS_X4],
                        uint8_t *const cell[LIONESS_X4], size_t len,
                        uint64_t *ticks)
{
    uint64_t last = ticks ? timer_start() : 0;
    stream_round_x4(k, cell, len, 0);
    stamp(ticks, LIONESS_STAGE_S1, &last);
    hash_round_x4(k, cell, len, 0);
    stamp(ticks, LIONESS_STAGE_H1, &last);
    stream_round_x4(k, cell, len, 1);
    stamp(ticks, LIONESS_STAGE_S2, &last);
    hash_round_x4(k, cell, len, 1);
    stamp(ticks, LIONESS_STAGE_H2, &last);
}

void lioness_decrypt_x4(const lioness_key *const k[LIONESS_X4],
                        uint8_t *const cell[LIONESS_X4], size_t len)
{
    hash_round_x4(k, cell, len, 1);
    stream_round_x4(k, cell, len, 1);
    hash_round_x4(k, cell, len, 0);
    stream_round_x4(k, cell, len, 0);
}

/* Registry kernels. */

static void lioness_setup_from_args(const kernel *k, const isa_variant *v,
                                    const kernel_args *a, lioness_key *lk)
{
    lioness_setup(lk, (const lioness_impl *)v, a->key.bytes,
                  a->rounds.set ? (unsigned)a->rounds.num : k->param);
}

static void lioness_prepare(const kernel *k, const isa_variant *v,
                            kernel_args *a)
{
    lioness_key *lk = malloc(sizeof *lk);
    if (lk) {
        lioness_setup_from_args(k, v, a, lk);
        kernel_add_secret(a, lk->stream_key, sizeof lk->stream_key);
        /* Each keyed state's chaining value and buffered key block; its
         * counters and lengths are public. */
        for (size_t i = 0; i < LIONESS_PASSES; i++) {
            kernel_add_secret(a, lk->hash_state[i].h,
                              sizeof lk->hash_state[i].h);
            kernel_add_secret(a, lk->hash_state[i].buf,
                              sizeof lk->hash_state[i].buf);
        }
    }
    a->prepared = lk;
}

static void lioness_release(const kernel *k, kernel_args *a)
{
    (void)k;
    free(a->prepared);
}

/* The prepared key, or one set up in *local when there is none. */
static const lioness_key *key_for(const kernel *k, const isa_variant *v,
                                  const kernel_args *a, lioness_key *local)
{
    if (a->prepared)
        return a->prepared;
    lioness_setup_from_args(k, v, a, local);
    return local;
}

static int lioness_run_staged(const kernel *k, const isa_variant *v,
                              const kernel_args *a, const uint8_t *in,
                              size_t len, uint8_t *out, uint64_t *ticks)
{
    lioness_key local;
    const lioness_key *lk = key_for(k, v, a, &local);
    if (a->decrypt.set)
        lioness_decrypt(lk, out, in, len);
    else if (ticks)
        lioness_encrypt_staged(lk, out, in, len, ticks);
    else
        lioness_encrypt(lk, out, in, len);
    return 0;
}

static int lioness_run(const kernel *k, const isa_variant *v,
                       const kernel_args *a, const uint8_t *in, size_t len,
                       uint8_t *out)
{
    return lioness_run_staged(k, v, a, in, len, out, NULL);
}

/* Any fixed key serves for timing; the rest of it is zero. */
static const uint8_t bench_key[LIONESS_KEY_BYTES] = {
    0x4c, 0x49, 0x4f, 0x4e, 0x45, 0x53, 0x53, 0x20, 0x62, 0x65, 0x6e, 0x63,
    0x68, 0x20, 0x6b, 0x65, 0x79, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd,
};

static void lioness_bench_args(const kernel *k, kernel_args *a)
{
    *a = (kernel_args){
        .key = KERNEL_BYTES(bench_key, sizeof bench_key),
        .rounds = KERNEL_NUMBER(k->param),
    };
}

/* The first vector of tests/vectors/lioness_compat.txt (go-lioness, byte
 * compatible with the C implementation's 2016 key layout): an all-zero key,
 * ChaCha20, a 128-byte block. */
static const uint8_t compat_block[128] = {
    0x76, 0xb8, 0xe0, 0xad, 0xa0, 0xf1, 0x3d, 0x90, 0x40, 0x5d, 0x6a, 0xe5,
    0x53, 0x86, 0xbd, 0x28, 0xbd, 0xd2, 0x19, 0xb8, 0xa0, 0x8d, 0xed, 0x1a,
    0xa8, 0x36, 0xef, 0xcc, 0x8b, 0x77, 0x0d, 0xc7, 0xda, 0x41, 0x59, 0x7c,
    0x51, 0x57, 0x48, 0x8d, 0x77, 0x24, 0xe0, 0x3f, 0xb8, 0xd8, 0x4a, 0x37,
    0x6a, 0x43, 0xb8, 0xf4, 0x15, 0x18, 0xa1, 0x1c, 0xc3, 0x87, 0xb6, 0x69,
    0xb2, 0xee, 0x65, 0x86, 0x9f, 0x07, 0xe7, 0xbe, 0x55, 0x51, 0x38, 0x7a,
    0x98, 0xba, 0x97, 0x7c, 0x73, 0x2d, 0x08, 0x0d, 0xcb, 0x0f, 0x29, 0xa0,
    0x48, 0xe3, 0x65, 0x69, 0x12, 0xc6, 0x53, 0x3e, 0x32, 0xee, 0x7a, 0xed,
    0x29, 0xb7, 0x21, 0x76, 0x9c, 0xe6, 0x4e, 0x43, 0xd5, 0x71, 0x33, 0xb0,
    0x74, 0xd8, 0x39, 0xd5, 0x31, 0xed, 0x1f, 0x28, 0x51, 0x0a, 0xfb, 0x45,
    0xac, 0xe1, 0x0a, 0x1f, 0x4b, 0x79, 0x4d, 0x6f,
};
static const uint8_t compat_ciphertext[128] = {
    0x9b, 0xad, 0x42, 0xcf, 0x81, 0x92, 0xb4, 0x09, 0x64, 0x78, 0xf7, 0x81,
    0x30, 0x1c, 0x92, 0x0a, 0x12, 0xfa, 0x2a, 0x59, 0x56, 0x44, 0x47, 0x05,
    0xc0, 0xce, 0xd5, 0x03, 0x9e, 0x89, 0xed, 0x52, 0x7a, 0xfa, 0x62, 0xc5,
    0x08, 0x40, 0x67, 0xf2, 0x50, 0x84, 0x5a, 0xf6, 0x54, 0xfa, 0x56, 0x28,
    0xc7, 0x5a, 0x58, 0xac, 0xe4, 0x1d, 0xcc, 0x17, 0x04, 0x71, 0x06, 0x11,
    0x5d, 0x37, 0xbb, 0xa2, 0x67, 0xd8, 0xa7, 0x93, 0xde, 0x66, 0x93, 0x95,
    0x65, 0x84, 0x93, 0x2f, 0x0a, 0xfb, 0x52, 0x71, 0xf9, 0x7a, 0x89, 0xe4,
    0x4f, 0x6f, 0x90, 0xac, 0x1f, 0x48, 0xf0, 0xab, 0x65, 0xb3, 0xd0, 0xd9,
    0x6f, 0x18, 0xc7, 0x74, 0x24, 0xaf, 0x7d, 0xa5, 0x24, 0xca, 0x82, 0x69,
    0x2a, 0xb6, 0x26, 0xde, 0x10, 0x78, 0x98, 0x20, 0xad, 0x14, 0x65, 0x10,
    0x12, 0xa7, 0x85, 0x6a, 0xe4, 0xd6, 0x28, 0x4f,
};

/* The vector in each of the kernel's cells (one for lioness, four for
 * lioness-x4), so that every lane of a batch is checked. */
static int lioness_known_answer(const kernel *k, const isa_variant *v,
                                char *err, size_t errlen)
{
    static const uint8_t zero_key[LIONESS_KEY_BYTES];
    uint8_t in[LIONESS_X4][sizeof compat_block];
    uint8_t want[LIONESS_X4][sizeof compat_ciphertext];
    size_t cells = kernel_batch(k);
    kernel_args a = {
        .key = KERNEL_BYTES(zero_key, sizeof zero_key),
        .rounds = KERNEL_NUMBER(20),
    };
    for (size_t j = 0; j < cells; j++) {
        memcpy(in[j], compat_block, sizeof compat_block);
        memcpy(want[j], compat_ciphertext, sizeof compat_ciphertext);
    }
    return kernel_check_known_answer(k, v, &a, in[0], sizeof compat_block,
                                     want[0], cells * sizeof want[0],
                                     "go-lioness vector 0", err, errlen);
}

/* lioness-x4: four cells of len bytes back to back, under one key (a
 * relay's cells of one circuit; lioness_encrypt_x4 itself takes a key per
 * cell). */
static int lioness_x4_run_staged(const kernel *k, const isa_variant *v,
                                 const kernel_args *a, const uint8_t *in,
                                 size_t len, uint8_t *out, uint64_t *ticks)
{
    lioness_key local;
    const lioness_key *lk = key_for(k, v, a, &local);
    const lioness_key *keys[LIONESS_X4] = { lk, lk, lk, lk };
    uint8_t *cells[LIONESS_X4];
    uint64_t last = ticks ? timer_start() : 0;
    if (out != in)
        memcpy(out, in, len * LIONESS_X4);
    stamp(ticks, LIONESS_STAGE_COPY, &last);
    for (unsigned j = 0; j < LIONESS_X4; j++)
        cells[j] = out + j * len;
    if (a->decrypt.set)
        lioness_decrypt_x4(keys, cells, len);
    else
        lioness_encrypt_x4(keys, cells, len, ticks);
    return 0;
}

static int lioness_x4_run(const kernel *k, const isa_variant *v,
                          const kernel_args *a, const uint8_t *in, size_t len,
                          uint8_t *out)
{
    return lioness_x4_run_staged(k, v, a, in, len, out, NULL);
}

/* Both parts see R, the block less its first LIONESS_L_BYTES: the stream
 * encrypts it and the hash reads it. */
static size_t lioness_part_len(size_t i, size_t len)
{
    (void)i;
    return len > LIONESS_L_BYTES ? len - LIONESS_L_BYTES : 0;
}

/* An auto row: the ChaCha and BLAKE2b rows measured fastest here. */
static void lioness_compose(const kernel *k, const isa_variant *const part[],
                            isa_variant *row)
{
    lioness_impl *impl = (lioness_impl *)row;
    (void)k;
    impl->chacha_isa = part[0]->isa;
    impl->blake2b_isa = part[1]->isa;
}

#define LIONESS_ARGS                                                          \
    { { KARG_NEEDS(KEY, LIONESS_KEY_BYTES), .note = "K1|K2|K3|K4" },          \
      { KARG_TAKES(ROUNDS, 8, 12, 20) }, { KARG_TAKES_ANY(DECRYPT) } }
#define LIONESS_MIN_WHY "pad the message"

#define LIONESS_KERNEL(var, kname, r, run_fn, staged_fn, cells, stream, hash) \
    const kernel var = {                                                      \
        .name = kname,                                                        \
        .family = "lioness",                                                  \
        .table = &lioness_impls[0].v,                                         \
        .row_size = sizeof lioness_impls[0],                                  \
        .param = r,                                                           \
        .args = LIONESS_ARGS,                                                 \
        .run = run_fn,                                                        \
        .bench_args = lioness_bench_args,                                     \
        .prepare = lioness_prepare,                                           \
        .release = lioness_release,                                           \
        .run_staged = staged_fn,                                              \
        .known_answer = lioness_known_answer,                                 \
        .stage_names = lioness_stage_names,                                   \
        .n_stages = LIONESS_STAGES,                                           \
        .min_len = LIONESS_MIN_BLOCK,                                         \
        .min_len_why = LIONESS_MIN_WHY,                                       \
        .batch = cells,                                                       \
        .parts = { &kernel_##stream, &kernel_##hash },                        \
        .compose = lioness_compose,                                           \
        .part_len = lioness_part_len,                                         \
    }

/* Each one's parts are what it calls: ChaCha at its round count, and
 * lioness-x4 the two-stream ChaCha and four-lane BLAKE2b forms. */
LIONESS_KERNEL(kernel_lioness, "lioness", 20, lioness_run, lioness_run_staged,
               1, chacha20, blake2b);
LIONESS_KERNEL(kernel_lioness12, "lioness12", 12, lioness_run,
               lioness_run_staged, 1, chacha12, blake2b);
LIONESS_KERNEL(kernel_lioness8, "lioness8", 8, lioness_run,
               lioness_run_staged, 1, chacha8, blake2b);
LIONESS_KERNEL(kernel_lioness_x4, "lioness-x4", 20, lioness_x4_run,
               lioness_x4_run_staged, LIONESS_X4, chacha20_x2, blake2b_x4);
