/* The Poly1305 implementation table, what every ISA shares (key setup, the
 * final reduction, padding a message), and the registry kernel poly1305. */
#include <stdio.h>
#include <string.h>

#include "poly1305.h"
#include "../kernel.h"
#include "poly1305_scalar.h"

const poly1305_impl poly1305_impls[] = {
#if defined(__x86_64__)
    /* avx512ifma and avx512 hand mid-length calls to the avx2 row's
     * function. */
    { { "avx512ifma", CPU_AVX512 | CPU_AVX512IFMA | CPU_AVX2 },
      poly1305_blocks_avx512ifma },
    { { "avx512", CPU_AVX512 | CPU_AVX2 }, poly1305_blocks_avx512 },
    { { "avx2", CPU_AVX2 }, poly1305_blocks_avx2 },
#elif defined(__aarch64__)
#endif
    { { "generic", 0 }, poly1305_blocks_generic },
    { { NULL, 0 }, NULL },
};

void poly1305_init(poly1305_state *st, const uint8_t key[POLY1305_KEY_BYTES])
{
    st->h[0] = st->h[1] = st->h[2] = 0;
    st->r[0] = poly1305_load64(key) & 0x0ffffffc0fffffffull;
    st->r[1] = poly1305_load64(key + 8) & 0x0ffffffc0ffffffcull;
    st->s[0] = poly1305_load64(key + 16);
    st->s[1] = poly1305_load64(key + 24);
    st->powers_layout = 0;
}

void poly1305_finish(poly1305_state *st, uint8_t tag[POLY1305_TAG_BYTES])
{
    poly1305_freeze(st->h);
    poly1305_u128 t = (poly1305_u128)st->h[0] + st->s[0];
    uint64_t lo = (uint64_t)t;
    uint64_t hi = st->h[1] + st->s[1] + (uint64_t)(t >> 64);
    memcpy(tag, &lo, 8);
    memcpy(tag + 8, &hi, 8);
}

void poly1305_update_last(const poly1305_impl *impl, poly1305_state *st,
                          const uint8_t *in, size_t len)
{
    size_t full = len - len % POLY1305_BLOCK_BYTES;
    impl->blocks(st, in, full, 1);
    if (full < len) {
        uint8_t last[POLY1305_BLOCK_BYTES] = { 0 };
        memcpy(last, in + full, len - full);
        last[len - full] = 1;
        impl->blocks(st, last, sizeof last, 0);
    }
}

void poly1305_auth(const poly1305_impl *impl, uint8_t tag[POLY1305_TAG_BYTES],
                   const uint8_t *in, size_t len,
                   const uint8_t key[POLY1305_KEY_BYTES])
{
    poly1305_state st;
    poly1305_init(&st, key);
    poly1305_update_last(impl, &st, in, len);
    poly1305_finish(&st, tag);
}

/* Registry kernel: `kat poly1305 --key=HEX(32)` writes the tag. */

static size_t poly1305_out_len(const kernel *k, const kernel_args *a,
                               size_t len)
{
    (void)k;
    (void)a;
    (void)len;
    return POLY1305_TAG_BYTES;
}

static int poly1305_run(const kernel *k, const isa_variant *v,
                        const kernel_args *a, const uint8_t *in, size_t len,
                        uint8_t *out)
{
    (void)k;
    poly1305_auth((const poly1305_impl *)v, out, in, len, a->key.bytes);
    return 0;
}

/* Any fixed key serves for timing; this one is RFC 8439's, section 2.5.2. */
static const uint8_t bench_key[POLY1305_KEY_BYTES] = {
    0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52,
    0xfe, 0x42, 0xd5, 0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d,
    0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b,
};

static void poly1305_bench_args(const kernel *k, kernel_args *a)
{
    (void)k;
    *a = (kernel_args){
        .key = KERNEL_BYTES(bench_key, sizeof bench_key),
    };
}

const kernel kernel_poly1305 = {
    .name = "poly1305",
    .family = "poly1305",
    .table = &poly1305_impls[0].v,
    .row_size = sizeof poly1305_impls[0],
    .args = { { KARG_NEEDS(KEY, POLY1305_KEY_BYTES), .note = "r then s" } },
    .out_len = poly1305_out_len,
    .run = poly1305_run,
    .bench_args = poly1305_bench_args,
};
