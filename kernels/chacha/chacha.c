/* The ChaCha implementation table, the nonce layouts, and the registry
 * kernels chacha20/12/8 and xchacha20/12/8. */
#include <stdio.h>
#include <string.h>

#include "chacha.h"
#include "chacha_kernels.h"

const chacha_impl chacha_impls[] = {
    { { "avx512", CPU_AVX512 }, chacha_stream_xor_avx512, hchacha_generic },
    { { "avx2", CPU_AVX2 }, chacha_stream_xor_avx2, hchacha_generic },
    { { "ssse3", CPU_SSSE3 }, chacha_stream_xor_ssse3, hchacha_generic },
    { { "sse2", CPU_SSE2 }, chacha_stream_xor_sse2, hchacha_generic },
    { { "generic", 0 }, chacha_stream_xor_generic, hchacha_generic },
    { { NULL, 0 }, NULL, NULL },
};

static void store64_le(uint8_t p[8], uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void chacha_djb_xor(const chacha_impl *impl, uint8_t *out, const uint8_t *in,
                    size_t len, const uint8_t key[32], const uint8_t nonce[8],
                    uint64_t counter, unsigned rounds)
{
    uint8_t row3[16];
    store64_le(row3, counter);
    memcpy(row3 + 8, nonce, 8);
    impl->stream_xor(out, in, len, key, row3, rounds);
}

void chacha_ietf_xor(const chacha_impl *impl, uint8_t *out, const uint8_t *in,
                     size_t len, const uint8_t key[32], const uint8_t nonce[12],
                     uint32_t counter, unsigned rounds)
{
    /* Word 13 is nonce here: the kernels' carry into it never fires because
     * chacha_ietf_fits keeps the counter from wrapping. */
    uint8_t row3[16];
    for (int i = 0; i < 4; i++)
        row3[i] = (uint8_t)(counter >> (8 * i));
    memcpy(row3 + 4, nonce, 12);
    impl->stream_xor(out, in, len, key, row3, rounds);
}

static uint64_t blocks_in(size_t len)
{
    return len / CHACHA_BLOCK_BYTES + (len % CHACHA_BLOCK_BYTES != 0);
}

int chacha_ietf_fits(uint64_t counter, size_t len)
{
    return counter <= UINT32_MAX && blocks_in(len) <= (1ull << 32) - counter;
}

void xchacha_xor(const chacha_impl *impl, uint8_t *out, const uint8_t *in,
                 size_t len, const uint8_t key[32], const uint8_t nonce[24],
                 uint64_t counter, unsigned rounds)
{
    uint8_t subkey[CHACHA_KEY_BYTES];
    impl->hchacha(subkey, key, nonce, rounds);
    chacha_djb_xor(impl, out, in, len, subkey, nonce + 16, counter, rounds);
}

/* Registry kernels. */

static int check_key(const kernel *k, const kernel_args *a, char *err,
                     size_t errlen)
{
    if (!a->has_key) {
        snprintf(err, errlen, "%s needs --key of %d bytes", k->name,
                 CHACHA_KEY_BYTES);
        return -1;
    }
    if (a->key_len != CHACHA_KEY_BYTES) {
        snprintf(err, errlen, "%s needs --key of %d bytes (got %zu)", k->name,
                 CHACHA_KEY_BYTES, a->key_len);
        return -1;
    }
    return 0;
}

static int chacha_check(const kernel *k, const kernel_args *a, size_t len,
                        char *err, size_t errlen)
{
    if (check_key(k, a, err, errlen))
        return -1;
    if (!a->has_nonce) {
        snprintf(err, errlen, "%s needs --nonce of 8 bytes (DJB) or 12 bytes "
                 "(IETF)", k->name);
        return -1;
    }
    if (a->nonce_len != CHACHA_DJB_NONCE_BYTES &&
        a->nonce_len != CHACHA_IETF_NONCE_BYTES) {
        snprintf(err, errlen, "%s --nonce must be 8 bytes (DJB) or 12 bytes "
                 "(IETF), got %zu", k->name, a->nonce_len);
        return -1;
    }
    uint64_t counter = a->has_counter ? a->counter : 0;
    if (a->nonce_len == CHACHA_IETF_NONCE_BYTES) {
        if (counter > UINT32_MAX) {
            snprintf(err, errlen, "%s IETF counter %llu does not fit in 32 "
                     "bits: use a smaller --counter or the 8-byte DJB nonce",
                     k->name, (unsigned long long)counter);
            return -1;
        }
        if (!chacha_ietf_fits(counter, len)) {
            snprintf(err, errlen, "%s IETF counter %llu + %llu blocks wraps "
                     "the 32-bit counter: use a smaller --counter or the "
                     "8-byte DJB nonce", k->name, (unsigned long long)counter,
                     (unsigned long long)blocks_in(len));
            return -1;
        }
    }
    return 0;
}

static int xchacha_check(const kernel *k, const kernel_args *a, size_t len,
                         char *err, size_t errlen)
{
    (void)len;
    if (check_key(k, a, err, errlen))
        return -1;
    if (!a->has_nonce) {
        snprintf(err, errlen, "%s needs --nonce of %d bytes", k->name,
                 XCHACHA_NONCE_BYTES);
        return -1;
    }
    if (a->nonce_len != XCHACHA_NONCE_BYTES) {
        snprintf(err, errlen, "%s needs --nonce of %d bytes (got %zu)",
                 k->name, XCHACHA_NONCE_BYTES, a->nonce_len);
        return -1;
    }
    return 0;
}

static size_t chacha_out_len(const kernel *k, const kernel_args *a, size_t len)
{
    (void)k;
    (void)a;
    return len;
}

static int chacha_run(const kernel *k, const isa_variant *v,
                      const kernel_args *a, const uint8_t *in, size_t len,
                      uint8_t *out)
{
    const chacha_impl *impl = (const chacha_impl *)v;
    uint64_t counter = a->has_counter ? a->counter : 0;
    if (a->nonce_len == CHACHA_IETF_NONCE_BYTES)
        chacha_ietf_xor(impl, out, in, len, a->key, a->nonce,
                        (uint32_t)counter, k->param);
    else
        chacha_djb_xor(impl, out, in, len, a->key, a->nonce, counter,
                       k->param);
    return 0;
}

static int xchacha_run(const kernel *k, const isa_variant *v,
                       const kernel_args *a, const uint8_t *in, size_t len,
                       uint8_t *out)
{
    xchacha_xor((const chacha_impl *)v, out, in, len, a->key, a->nonce,
                a->has_counter ? a->counter : 0, k->param);
    return 0;
}

static const uint8_t bench_key[CHACHA_KEY_BYTES] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
    0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
    0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};
static const uint8_t bench_nonce[XCHACHA_NONCE_BYTES] = {
    0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
    0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f,
    0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57,
};

static void bench_args_with_nonce(kernel_args *a, size_t nonce_len)
{
    *a = (kernel_args){
        .key = bench_key, .key_len = sizeof bench_key, .has_key = 1,
        .nonce = bench_nonce, .nonce_len = nonce_len, .has_nonce = 1,
        .counter = 0, .has_counter = 1,
    };
}

static void chacha_bench_args(const kernel *k, kernel_args *a)
{
    (void)k;
    bench_args_with_nonce(a, CHACHA_DJB_NONCE_BYTES);
}

static void xchacha_bench_args(const kernel *k, kernel_args *a)
{
    (void)k;
    bench_args_with_nonce(a, XCHACHA_NONCE_BYTES);
}

#define CHACHA_KERNEL(prim, nm, r)                                            \
    {                                                                         \
        .name = nm, .primitive = #prim, .table = &chacha_impls[0].v,          \
        .row_size = sizeof chacha_impls[0], .param = r,                       \
        .check = prim##_check, .out_len = chacha_out_len, .run = prim##_run,  \
        .bench_args = prim##_bench_args,                                      \
        .options = KOPT_KEY | KOPT_NONCE | KOPT_COUNTER,                      \
    }

const kernel kernel_chacha20 = CHACHA_KERNEL(chacha, "chacha20", 20);
const kernel kernel_chacha12 = CHACHA_KERNEL(chacha, "chacha12", 12);
const kernel kernel_chacha8 = CHACHA_KERNEL(chacha, "chacha8", 8);
const kernel kernel_xchacha20 = CHACHA_KERNEL(xchacha, "xchacha20", 20);
const kernel kernel_xchacha12 = CHACHA_KERNEL(xchacha, "xchacha12", 12);
const kernel kernel_xchacha8 = CHACHA_KERNEL(xchacha, "xchacha8", 8);
