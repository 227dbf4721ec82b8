/* The BLAKE2b implementation table, the portable hashing layer on top of a
 * compression function, and the registry kernel. */
#include <stdio.h>
#include <string.h>

#include "blake2b.h"
#include "blake2b_consts.h"
#include "../kernel.h"

const blake2b_impl blake2b_impls[] = {
#if defined(__x86_64__)
    { { "avx512", CPU_AVX512 }, blake2b_compress_avx512,
      blake2b_compress_x4_avx512 },
    { { "avx2", CPU_AVX2 }, blake2b_compress_avx2, blake2b_compress_x4_avx2 },
    { { "sse41", CPU_SSE41 }, blake2b_compress_sse41, NULL },
#elif defined(__aarch64__)
#endif
    { { "generic", 0 }, blake2b_compress_generic, NULL },
    { { NULL, 0 }, NULL, NULL },
};

static void blake2b_store64(uint8_t *p, uint64_t x)
{
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(x >> (8 * i));
}

void blake2b_init(blake2b_state *s, const blake2b_impl *impl, size_t outlen,
                  const uint8_t *key, size_t keylen)
{
    memcpy(s->h, blake2b_iv, sizeof s->h);
    /* Parameter block word 0: digest length, key length, fanout 1, depth 1.
     * Its other words (leaf length, node offset, salt, personalisation)
     * are all zero here. */
    s->h[0] ^= 0x01010000u ^ (uint64_t)keylen << 8 ^ outlen;
    s->t[0] = s->t[1] = 0;
    s->outlen = outlen;
    s->compress = impl->compress;
    s->buflen = 0;
    if (keylen) {
        memcpy(s->buf, key, keylen);
        memset(s->buf + keylen, 0, BLAKE2B_BLOCK_BYTES - keylen);
        s->buflen = BLAKE2B_BLOCK_BYTES;
    }
}

void blake2b_absorb_key_block(blake2b_state *s)
{
    s->compress(s->h, s->t, s->buf, 1, BLAKE2B_BLOCK_BYTES, 0);
    /* Copies of this state would otherwise carry the key around. */
    explicit_bzero(s->buf, sizeof s->buf);
    s->buflen = 0;
}

/* The final block must be compressed with the last-block flag, and a block
 * cannot be known to be the last until more input arrives, so the buffer
 * always keeps 1..128 bytes back once anything was added. */
void blake2b_update(blake2b_state *s, const uint8_t *in, size_t len)
{
    size_t fill = BLAKE2B_BLOCK_BYTES - s->buflen;
    if (len == 0)
        return; /* in may be NULL then, which memcpy must not see */
    if (len > fill) {
        if (s->buflen) {
            memcpy(s->buf + s->buflen, in, fill);
            s->compress(s->h, s->t, s->buf, 1, BLAKE2B_BLOCK_BYTES, 0);
            s->buflen = 0;
            in += fill;
            len -= fill;
        }
        if (len > BLAKE2B_BLOCK_BYTES) {
            size_t n = (len - 1) / BLAKE2B_BLOCK_BYTES;
            s->compress(s->h, s->t, in, n, BLAKE2B_BLOCK_BYTES, 0);
            in += n * BLAKE2B_BLOCK_BYTES;
            len -= n * BLAKE2B_BLOCK_BYTES;
        }
    }
    memcpy(s->buf + s->buflen, in, len);
    s->buflen += len;
}

void blake2b_final(blake2b_state *s, uint8_t *out)
{
    memset(s->buf + s->buflen, 0, BLAKE2B_BLOCK_BYTES - s->buflen);
    s->compress(s->h, s->t, s->buf, 1, s->buflen, ~(uint64_t)0);
    for (unsigned i = 0; i < 8; i++)
        blake2b_store64(s->buf + 8 * i, s->h[i]);
    memcpy(out, s->buf, s->outlen);
    /* The chaining value of a keyed hash is as good as the key for
     * extending messages, and buf now holds the untruncated digest. */
    explicit_bzero(s, sizeof *s);
}

static void blake2b_one_by_one(const blake2b_state *const start[4],
                               const uint8_t *const in[4], size_t len,
                               uint8_t *const out[4])
{
    for (unsigned j = 0; j < 4; j++) {
        blake2b_state s = *start[j];
        blake2b_update(&s, in[j], len);
        blake2b_final(&s, out[j]);
    }
}

void blake2b_x4(const blake2b_impl *impl, const blake2b_state *const start[4],
                const uint8_t *const in[4], size_t len, uint8_t *const out[4])
{
    if (!impl->compress_x4) {
        blake2b_one_by_one(start, in, len, out);
        return;
    }
    uint64_t h[8][4], t[2] = { start[0]->t[0], start[0]->t[1] };
    uint8_t last[4][BLAKE2B_BLOCK_BYTES];
    for (unsigned j = 0; j < 4; j++)
        for (unsigned i = 0; i < 8; i++)
            h[i][j] = start[j]->h[i];

    /* As in blake2b_update: the last block, full or not, goes alone with
     * the flag set. */
    size_t full = (len - 1) / BLAKE2B_BLOCK_BYTES;
    size_t rem = len - full * BLAKE2B_BLOCK_BYTES;
    impl->compress_x4(h, t, in, full, BLAKE2B_BLOCK_BYTES, 0);
    const uint8_t *tail[4];
    for (unsigned j = 0; j < 4; j++) {
        memcpy(last[j], in[j] + full * BLAKE2B_BLOCK_BYTES, rem);
        memset(last[j] + rem, 0, BLAKE2B_BLOCK_BYTES - rem);
        tail[j] = last[j];
    }
    impl->compress_x4(h, t, tail, 1, rem, ~(uint64_t)0);

    uint8_t digest[BLAKE2B_OUT_BYTES];
    size_t words = (start[0]->outlen + 7) / 8;
    for (unsigned j = 0; j < 4; j++) {
        for (unsigned i = 0; i < words; i++)
            blake2b_store64(digest + 8 * i, h[i][j]);
        memcpy(out[j], digest, start[j]->outlen);
    }
    /* As in blake2b_final: keyed chaining values are as good as keys. The
     * tail blocks hold only message bytes, which the caller has anyway. */
    explicit_bzero(h, sizeof h);
    explicit_bzero(digest, sizeof digest);
}

void blake2b(const blake2b_impl *impl, uint8_t *out, size_t outlen,
             const uint8_t *in, size_t inlen, const uint8_t *key,
             size_t keylen)
{
    blake2b_state s;
    blake2b_init(&s, impl, outlen, key, keylen);
    blake2b_update(&s, in, inlen);
    blake2b_final(&s, out);
}

static size_t blake2b_out_len(const kernel *k, const kernel_args *a,
                              size_t len)
{
    (void)k;
    (void)len;
    return a->outlen.set ? (size_t)a->outlen.num : BLAKE2B_OUT_BYTES;
}

static int blake2b_run(const kernel *k, const isa_variant *v,
                       const kernel_args *a, const uint8_t *in, size_t len,
                       uint8_t *out)
{
    blake2b((const blake2b_impl *)v, out, blake2b_out_len(k, a, len), in, len,
            a->key.bytes, a->key.len);
    return 0;
}

/* The plain 64-byte hash: what OpenSSL's blake2b512 and libsodium's
 * crypto_generichash compute by default. */
static void blake2b_bench_args(const kernel *k, kernel_args *a)
{
    (void)k;
    *a = (kernel_args){ .outlen = KERNEL_NUMBER(BLAKE2B_OUT_BYTES) };
}

/* RFC 7693 appendix A: BLAKE2b-512("abc"). */
static const uint8_t rfc7693_abc[BLAKE2B_OUT_BYTES] = {
    0xba, 0x80, 0xa5, 0x3f, 0x98, 0x1c, 0x4d, 0x0d, 0x6a, 0x27, 0x97, 0xb6,
    0x9f, 0x12, 0xf6, 0xe9, 0x4c, 0x21, 0x2f, 0x14, 0x68, 0x5a, 0xc4, 0xb7,
    0x4b, 0x12, 0xbb, 0x6f, 0xdb, 0xff, 0xa2, 0xd1, 0x7d, 0x87, 0xc5, 0x39,
    0x2a, 0xab, 0x79, 0x2d, 0xc2, 0x52, 0xd5, 0xde, 0x45, 0x33, 0xcc, 0x95,
    0x18, 0xd3, 0x8a, 0xa8, 0xdb, 0xf1, 0x92, 0x5a, 0xb9, 0x23, 0x86, 0xed,
    0xd4, 0x00, 0x99, 0x23,
};

static int blake2b_known_answer(const kernel *k, const isa_variant *v,
                                char *err, size_t errlen)
{
    kernel_args a = { 0 };
    return kernel_check_known_answer(k, v, &a, (const uint8_t *)"abc", 3,
                                     rfc7693_abc, sizeof rfc7693_abc,
                                     "RFC 7693 appendix A", err, errlen);
}

/* blake2b-x4: four messages of len bytes hashed side by side through the
 * four-lane form (lioness-x4's H passes), keyed or not, each digest written
 * after the one before. */
static int blake2b_x4_run(const kernel *k, const isa_variant *v,
                          const kernel_args *a, const uint8_t *in, size_t len,
                          uint8_t *out)
{
    const blake2b_impl *impl = (const blake2b_impl *)v;
    size_t outlen = blake2b_out_len(k, a, len);
    blake2b_state s;
    const blake2b_state *start[4] = { &s, &s, &s, &s };
    const uint8_t *msg[4];
    uint8_t *digest[4];
    blake2b_init(&s, impl, outlen, a->key.bytes, a->key.len);
    if (a->key.len)
        blake2b_absorb_key_block(&s);
    for (unsigned j = 0; j < 4; j++) {
        msg[j] = in + j * len;
        digest[j] = out + j * outlen;
    }
    blake2b_x4(impl, start, msg, len, digest);
    explicit_bzero(&s, sizeof s);
    return 0;
}

/* RFC 7693's "abc" in each lane. */
static int blake2b_x4_known_answer(const kernel *k, const isa_variant *v,
                                   char *err, size_t errlen)
{
    uint8_t want[4][BLAKE2B_OUT_BYTES];
    kernel_args a = { 0 };
    for (unsigned j = 0; j < 4; j++)
        memcpy(want[j], rfc7693_abc, sizeof rfc7693_abc);
    return kernel_check_known_answer(k, v, &a, (const uint8_t *)"abcabcabcabc",
                                     3, want[0], sizeof want,
                                     "RFC 7693 appendix A", err, errlen);
}

#define BLAKE2B_ARGS                                                          \
    { { KARG_TAKES_RANGE(KEY, 0, BLAKE2B_KEY_BYTES) },                        \
      { KARG_TAKES_RANGE(OUTLEN, 1, BLAKE2B_OUT_BYTES) } }

const kernel kernel_blake2b = {
    .name = "blake2b",
    .family = "blake2b",
    .table = &blake2b_impls[0].v,
    .row_size = sizeof blake2b_impls[0],
    .args = BLAKE2B_ARGS,
    .out_len = blake2b_out_len,
    .run = blake2b_run,
    .bench_args = blake2b_bench_args,
    .known_answer = blake2b_known_answer,
};

const kernel kernel_blake2b_x4 = {
    .name = "blake2b-x4",
    .family = "blake2b",
    .table = &blake2b_impls[0].v,
    .row_size = sizeof blake2b_impls[0],
    .args = BLAKE2B_ARGS,
    /* blake2b_x4 hashes from states with nothing buffered. */
    .min_len = 1,
    .min_len_why = "the four-lane form hashes one byte or more",
    .out_len = blake2b_out_len,
    .run = blake2b_x4_run,
    .bench_args = blake2b_bench_args,
    .known_answer = blake2b_x4_known_answer,
    .batch = 4,
};
