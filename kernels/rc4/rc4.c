/* The RC4 table and its registry kernel. RC4 is broken and is here for
 * comparison only (see rc4.h). */
#include <stdio.h>

#include "rc4.h"
#include "../kernel.h"

const rc4_impl rc4_impls[] = {
    { { "generic", 0 }, rc4_xor_generic },
    { { NULL, 0 }, NULL },
};

static int rc4_run(const kernel *k, const isa_variant *v,
                   const kernel_args *a, const uint8_t *in, size_t len,
                   uint8_t *out)
{
    (void)k;
    ((const rc4_impl *)v)->xor_stream(out, in, len, a->key.bytes, a->key.len);
    return 0;
}

/* A 128-bit key, as RC4 was mostly used. */
static const uint8_t bench_key[16] = {
    0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
    0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
};

static void rc4_bench_args(const kernel *k, kernel_args *a)
{
    (void)k;
    *a = (kernel_args){
        .key = KERNEL_BYTES(bench_key, sizeof bench_key),
    };
}

const kernel kernel_rc4 = {
    .name = "rc4",
    .family = "rc4",
    .table = &rc4_impls[0].v,
    .row_size = sizeof rc4_impls[0],
    .args = { { KARG_NEEDS_RANGE(KEY, 1, RC4_MAX_KEY_BYTES) } },
    .run = rc4_run,
    .bench_args = rc4_bench_args,
};
