/* The ChaCha implementation table, the nonce layouts, and the registry
 * kernels chacha20/12/8 and xchacha20/12/8. */
#include <stdio.h>
#include <string.h>

#include "chacha.h"
#include "../kernel.h"

const chacha_impl chacha_impls[] = {
#if defined(__x86_64__)
    { { "avx512", CPU_AVX512 }, chacha_stream_xor_avx512, hchacha_generic,
      chacha_stream_xor2_avx512 },
    { { "avx2", CPU_AVX2 }, chacha_stream_xor_avx2, hchacha_generic, NULL },
    { { "ssse3", CPU_SSSE3 }, chacha_stream_xor_ssse3, hchacha_generic, NULL },
    { { "sse2", CPU_SSE2 }, chacha_stream_xor_sse2, hchacha_generic, NULL },
#elif defined(__aarch64__)
#endif
    { { "generic", 0 }, chacha_stream_xor_generic, hchacha_generic, NULL },
    { { NULL, 0 }, NULL, NULL, NULL },
};

static void store64_le(uint8_t p[8], uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void djb_row3(uint8_t row3[16], const uint8_t nonce[8],
                     uint64_t counter)
{
    store64_le(row3, counter);
    memcpy(row3 + 8, nonce, 8);
}

void chacha_djb_xor(const chacha_impl *impl, uint8_t *out, const uint8_t *in,
                    size_t len, const uint8_t key[32], const uint8_t nonce[8],
                    uint64_t counter, unsigned rounds)
{
    uint8_t row3[16];
    djb_row3(row3, nonce, counter);
    impl->stream_xor(out, in, len, key, row3, rounds);
}

void chacha_stream_xor2(const chacha_impl *impl, uint8_t *const out[2],
                        const uint8_t *const in[2], size_t len,
                        const uint8_t *const key[2],
                        const uint8_t *const row3[2], unsigned rounds)
{
    if (impl->stream_xor2) {
        impl->stream_xor2(out, in, len, key, row3, rounds);
        return;
    }
    for (int j = 0; j < 2; j++)
        impl->stream_xor(out[j], in[j], len, key[j], row3[j], rounds);
}

void chacha_djb_xor2(const chacha_impl *impl, uint8_t *const out[2],
                     const uint8_t *const in[2], size_t len,
                     const uint8_t *const key[2],
                     const uint8_t *const nonce[2], uint64_t counter,
                     unsigned rounds)
{
    uint8_t row3[2][16];
    const uint8_t *r[2] = { row3[0], row3[1] };
    for (int j = 0; j < 2; j++)
        djb_row3(row3[j], nonce[j], counter);
    chacha_stream_xor2(impl, out, in, len, key, r, rounds);
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

/* What no table states: the IETF layout's 32-bit counter must not wrap
 * within the message. */
static int chacha_check(const kernel *k, const kernel_args *a, size_t len,
                        char *err, size_t errlen)
{
    uint64_t counter = a->counter.num;
    if (a->nonce.len != CHACHA_IETF_NONCE_BYTES ||
        chacha_ietf_fits(counter, len))
        return 0;
    if (counter > UINT32_MAX)
        snprintf(err, errlen, "%s IETF counter %llu does not fit in 32 bits: "
                 "use a smaller --counter or the 8-byte DJB nonce", k->name,
                 (unsigned long long)counter);
    else
        snprintf(err, errlen, "%s IETF counter %llu + %llu blocks wraps the "
                 "32-bit counter: use a smaller --counter or the 8-byte DJB "
                 "nonce", k->name, (unsigned long long)counter,
                 (unsigned long long)blocks_in(len));
    return -1;
}

static int chacha_run(const kernel *k, const isa_variant *v,
                      const kernel_args *a, const uint8_t *in, size_t len,
                      uint8_t *out)
{
    const chacha_impl *impl = (const chacha_impl *)v;
    uint64_t counter = a->counter.num;
    if (a->nonce.len == CHACHA_IETF_NONCE_BYTES)
        chacha_ietf_xor(impl, out, in, len, a->key.bytes, a->nonce.bytes,
                        (uint32_t)counter, k->param);
    else
        chacha_djb_xor(impl, out, in, len, a->key.bytes, a->nonce.bytes,
                       counter, k->param);
    return 0;
}

static int xchacha_run(const kernel *k, const isa_variant *v,
                       const kernel_args *a, const uint8_t *in, size_t len,
                       uint8_t *out)
{
    xchacha_xor((const chacha_impl *)v, out, in, len, a->key.bytes,
                a->nonce.bytes, a->counter.num, k->param);
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
        .key = KERNEL_BYTES(bench_key, sizeof bench_key),
        .nonce = KERNEL_BYTES(bench_nonce, nonce_len),
        .counter = KERNEL_NUMBER(0),
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

/* draft-strombergson-chacha-test-vectors-01, TC8 with a 256-bit key: the
 * first keystream block for 8, 12 and 20 rounds (DJB layout, counter 0). */
static const uint8_t tc8_key[CHACHA_KEY_BYTES] = {
    0xc4, 0x6e, 0xc1, 0xb1, 0x8c, 0xe8, 0xa8, 0x78, 0x72, 0x5a, 0x37, 0xe7,
    0x80, 0xdf, 0xb7, 0x35, 0x1f, 0x68, 0xed, 0x2e, 0x19, 0x4c, 0x79, 0xfb,
    0xc6, 0xae, 0xbe, 0xe1, 0xa6, 0x67, 0x97, 0x5d,
};
static const uint8_t tc8_nonce[CHACHA_DJB_NONCE_BYTES] = {
    0x1a, 0xda, 0x31, 0xd5, 0xcf, 0x68, 0x82, 0x21,
};
static const uint8_t tc8_keystream8[64] = {
    0x83, 0x87, 0x51, 0xb4, 0x2d, 0x8d, 0xdd, 0x8a, 0x3d, 0x77, 0xf4, 0x88,
    0x25, 0xa2, 0xba, 0x75, 0x2c, 0xf4, 0x04, 0x7c, 0xb3, 0x08, 0xa5, 0x97,
    0x8e, 0xf2, 0x74, 0x97, 0x3b, 0xe3, 0x74, 0xc9, 0x6a, 0xd8, 0x48, 0x06,
    0x58, 0x71, 0x41, 0x7b, 0x08, 0xf0, 0x34, 0xe6, 0x81, 0xfe, 0x46, 0xa9,
    0x3f, 0x7d, 0x5c, 0x61, 0xd1, 0x30, 0x66, 0x14, 0xd4, 0xaa, 0xf2, 0x57,
    0xa7, 0xcf, 0xf0, 0x8b,
};
static const uint8_t tc8_keystream12[64] = {
    0x14, 0x82, 0x07, 0x27, 0x84, 0xbc, 0x6d, 0x06, 0xb4, 0xe7, 0x3b, 0xdc,
    0x11, 0x8b, 0xc0, 0x10, 0x3c, 0x79, 0x76, 0x78, 0x6c, 0xa9, 0x18, 0xe0,
    0x69, 0x86, 0xaa, 0x25, 0x1f, 0x7e, 0x9c, 0xc1, 0xb2, 0x74, 0x9a, 0x0a,
    0x16, 0xee, 0x83, 0xb4, 0x24, 0x2d, 0x2e, 0x99, 0xb0, 0x8d, 0x7c, 0x20,
    0x09, 0x2b, 0x80, 0xbc, 0x46, 0x6c, 0x87, 0x28, 0x3b, 0x61, 0xb1, 0xb3,
    0x9d, 0x0f, 0xfb, 0xab,
};
static const uint8_t tc8_keystream20[64] = {
    0xf6, 0x3a, 0x89, 0xb7, 0x5c, 0x22, 0x71, 0xf9, 0x36, 0x88, 0x16, 0x54,
    0x2b, 0xa5, 0x2f, 0x06, 0xed, 0x49, 0x24, 0x17, 0x92, 0x30, 0x2b, 0x00,
    0xb5, 0xe8, 0xf8, 0x0a, 0xe9, 0xa4, 0x73, 0xaf, 0xc2, 0x5b, 0x21, 0x8f,
    0x51, 0x9a, 0xf0, 0xfd, 0xd4, 0x06, 0x36, 0x2e, 0x8d, 0x69, 0xde, 0x7f,
    0x54, 0xc6, 0x04, 0xa6, 0xe0, 0x0f, 0x35, 0x3f, 0x11, 0x0f, 0x77, 0x1b,
    0xdc, 0xa8, 0xab, 0x92,
};

static int chacha_known_answer(const kernel *k, const isa_variant *v,
                               char *err, size_t errlen)
{
    static const uint8_t zeros[64];
    const uint8_t *want = k->param == 8    ? tc8_keystream8
                          : k->param == 12 ? tc8_keystream12
                                           : tc8_keystream20;
    kernel_args a = {
        .key = KERNEL_BYTES(tc8_key, sizeof tc8_key),
        .nonce = KERNEL_BYTES(tc8_nonce, sizeof tc8_nonce),
    };
    return kernel_check_known_answer(k, v, &a, zeros, sizeof zeros, want, 64,
                                     "Strombergson TC8", err, errlen);
}

/* chacha20-x2: two DJB streams of len bytes under one key and nonce,
 * through the two-stream form (lioness-x4's S passes), message j from block
 * counter + j * ceil(len / 64): for whole blocks, one keystream's halves. */
static int chacha_x2_run(const kernel *k, const isa_variant *v,
                         const kernel_args *a, const uint8_t *in, size_t len,
                         uint8_t *out)
{
    uint8_t row3[2][16];
    const uint8_t *rows[2] = { row3[0], row3[1] };
    const uint8_t *key[2] = { a->key.bytes, a->key.bytes };
    const uint8_t *src[2] = { in, in + len };
    uint8_t *dst[2] = { out, out + len };
    for (int j = 0; j < 2; j++)
        djb_row3(row3[j], a->nonce.bytes, a->counter.num + j * blocks_in(len));
    chacha_stream_xor2((const chacha_impl *)v, dst, src, len, key, rows,
                       k->param);
    return 0;
}

/* RFC 8439 appendix A.1, test vectors 1 and 2: the keystream of the zero
 * key and nonce from block counter 0, then from 1, one per stream. */
static const char rfc8439_a1_keystream[] =
    "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
    "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
    "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
    "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f";

static int chacha_x2_known_answer(const kernel *k, const isa_variant *v,
                                  char *err, size_t errlen)
{
    static const uint8_t zeros[2 * CHACHA_BLOCK_BYTES];
    uint8_t want[2 * CHACHA_BLOCK_BYTES];
    kernel_args a = {
        .key = KERNEL_BYTES(zeros, CHACHA_KEY_BYTES),
        .nonce = KERNEL_BYTES(zeros, CHACHA_DJB_NONCE_BYTES),
    };
    kernel_hex_decode(rfc8439_a1_keystream, want, sizeof want);
    return kernel_check_known_answer(k, v, &a, zeros, CHACHA_BLOCK_BYTES,
                                     want, sizeof want, "RFC 8439 A.1 #1-2",
                                     err, errlen);
}

#define CHACHA_KERNEL(prim, nm, r, kat, nonce_arg, chk)                       \
    {                                                                         \
        .name = nm, .family = #prim, .table = &chacha_impls[0].v,             \
        .row_size = sizeof chacha_impls[0], .param = r,                       \
        .args = { { KARG_NEEDS(KEY, CHACHA_KEY_BYTES) }, nonce_arg,           \
                  { KARG_TAKES_ANY(COUNTER) } },                              \
        .check = chk, .run = prim##_run, .bench_args = prim##_bench_args,     \
        .known_answer = kat,                                                  \
    }
#define CHACHA_NONCE                                                          \
    { KARG_NEEDS(NONCE, CHACHA_DJB_NONCE_BYTES, CHACHA_IETF_NONCE_BYTES),     \
      .note = "8: DJB layout, 64-bit counter; 12: IETF, 32-bit counter" }
#define XCHACHA_NONCE { KARG_NEEDS(NONCE, XCHACHA_NONCE_BYTES) }

const kernel kernel_chacha20 = CHACHA_KERNEL(chacha, "chacha20", 20,
                                             chacha_known_answer,
                                             CHACHA_NONCE, chacha_check);
const kernel kernel_chacha12 = CHACHA_KERNEL(chacha, "chacha12", 12,
                                             chacha_known_answer,
                                             CHACHA_NONCE, chacha_check);
const kernel kernel_chacha8 = CHACHA_KERNEL(chacha, "chacha8", 8,
                                            chacha_known_answer,
                                            CHACHA_NONCE, chacha_check);
const kernel kernel_xchacha20 = CHACHA_KERNEL(xchacha, "xchacha20", 20, NULL,
                                              XCHACHA_NONCE, NULL);
const kernel kernel_xchacha12 = CHACHA_KERNEL(xchacha, "xchacha12", 12, NULL,
                                              XCHACHA_NONCE, NULL);
const kernel kernel_xchacha8 = CHACHA_KERNEL(xchacha, "xchacha8", 8, NULL,
                                             XCHACHA_NONCE, NULL);

const kernel kernel_chacha20_x2 = {
    .name = "chacha20-x2",
    .family = "chacha",
    .table = &chacha_impls[0].v,
    .row_size = sizeof chacha_impls[0],
    .param = 20,
    .args = { { KARG_NEEDS(KEY, CHACHA_KEY_BYTES) },
              { KARG_NEEDS(NONCE, CHACHA_DJB_NONCE_BYTES),
                .note = "DJB layout, 64-bit counter" },
              { KARG_TAKES_ANY(COUNTER) } },
    .run = chacha_x2_run,
    .bench_args = chacha_bench_args,
    .known_answer = chacha_x2_known_answer,
    .batch = 2,
};
