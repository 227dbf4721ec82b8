/* The Ascon-AEAD128 table, sealing and opening around its rows, and the
 * registry kernel `ascon-aead128`. */
#include "ascon.h"

#include <stdio.h>
#include <string.h>

#include "../kernel.h"

const uint8_t ascon_round_constants[12] = {
    0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87, 0x78, 0x69, 0x5a, 0x4b,
};

/* A vector row has a lanes form only (for ascon-aead128-x8); its
 * one-message functions are generic's. One state is five words whose
 * steps depend on each other: in a vector it would leave most elements
 * idle, where the scalar code already runs five words side by side. */
const ascon_impl ascon_impls[] = {
#if defined(__x86_64__)
    { { "avx512", CPU_AVX512 }, ascon_aead128_encrypt_generic,
      ascon_aead128_decrypt_generic, ascon_aead128_encrypt_x8_avx512,
      ascon_aead128_decrypt_x8_avx512, 8 },
    { { "avx2", CPU_AVX2 }, ascon_aead128_encrypt_generic,
      ascon_aead128_decrypt_generic, ascon_aead128_encrypt_x4_avx2,
      ascon_aead128_decrypt_x4_avx2, 4 },
#elif defined(__aarch64__)
    { { "neon", CPU_NEON }, ascon_aead128_encrypt_generic,
      ascon_aead128_decrypt_generic, ascon_aead128_encrypt_x2_neon,
      ascon_aead128_decrypt_x2_neon, 2 },
#endif
    { { "generic", 0 }, ascon_aead128_encrypt_generic,
      ascon_aead128_decrypt_generic, NULL, NULL, 1 },
    { { NULL, 0 }, NULL, NULL, NULL, NULL, 0 },
};

void ascon_aead128_seal(const ascon_impl *impl, const uint8_t *key,
                        const uint8_t *nonce, const uint8_t *ad,
                        size_t ad_len, uint8_t *out, const uint8_t *in,
                        size_t len)
{
    impl->encrypt(key, nonce, ad, ad_len, out, in, len, out + len);
}

/* Nonzero when the tags differ, without an early exit: the time does not
 * depend on where they differ. */
static unsigned tags_differ(const uint8_t *tag, const uint8_t *want)
{
    unsigned diff = 0;
    for (size_t i = 0; i < ASCON_TAG_BYTES; i++)
        diff |= tag[i] ^ want[i];
    return diff != 0;
}

int ascon_aead128_open(const ascon_impl *impl, const uint8_t *key,
                       const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
                       uint8_t *out, const uint8_t *in, size_t len)
{
    uint8_t tag[ASCON_TAG_BYTES], want[ASCON_TAG_BYTES];
    /* The tag first: in place, the plaintext overwrites what precedes it. */
    memcpy(tag, in + len, sizeof tag);
    impl->decrypt(key, nonce, ad, ad_len, out, in, len, want);
    unsigned diff = tags_differ(tag, want);
    explicit_bzero(want, sizeof want);
    if (diff) {
        explicit_bzero(out, len);
        return -1;
    }
    return 0;
}

/* Eight messages: through the row's lanes form, `lanes` at a time, or
 * one by one through its one-message function where it has none. */
static void run_x8(const ascon_batch *b, ascon_lanes_fn *lanes_fn,
                   size_t lanes, ascon_encrypt_fn *one)
{
    if (lanes_fn) {
        for (size_t j = 0; j < ASCON_X8; j += lanes)
            lanes_fn(b, j);
        return;
    }
    for (size_t j = 0; j < ASCON_X8; j++)
        one(b->key[j], b->nonce[j], b->ad[j], b->ad_len, b->out[j], b->in[j],
            b->len, b->tag[j]);
}

void ascon_aead128_encrypt_x8(const ascon_impl *impl, const ascon_batch *b)
{
    run_x8(b, impl->encrypt_lanes, impl->lanes, impl->encrypt);
}

void ascon_aead128_decrypt_x8(const ascon_impl *impl, const ascon_batch *b)
{
    run_x8(b, impl->decrypt_lanes, impl->lanes, impl->decrypt);
}

unsigned ascon_aead128_open_x8(const ascon_impl *impl, const ascon_batch *b,
                               const uint8_t *const received[ASCON_X8])
{
    uint8_t tag[ASCON_X8][ASCON_TAG_BYTES], want[ASCON_X8][ASCON_TAG_BYTES];
    ascon_batch d = *b;
    unsigned refused = 0;
    for (size_t j = 0; j < ASCON_X8; j++) {
        /* Copied first, as ascon_aead128_open does. */
        memcpy(tag[j], received[j], ASCON_TAG_BYTES);
        d.tag[j] = want[j];
    }
    ascon_aead128_decrypt_x8(impl, &d);
    for (size_t j = 0; j < ASCON_X8; j++)
        refused |= tags_differ(tag[j], want[j]) << j;
    explicit_bzero(want, sizeof want);
    for (size_t j = 0; j < ASCON_X8; j++)
        if (refused >> j & 1)
            explicit_bzero(b->out[j], b->len);
    return refused;
}

/* The registry kernels: ascon-aead128, one message a call, and
 * ascon-aead128-x8, eight. */

static int ascon_run(const kernel *k, const isa_variant *v,
                     const kernel_args *a, const uint8_t *in, size_t len,
                     uint8_t *out)
{
    const ascon_impl *impl = (const ascon_impl *)v;
    (void)k;
    if (!a->decrypt.set) {
        ascon_aead128_seal(impl, a->key.bytes, a->nonce.bytes, a->aad.bytes,
                           a->aad.len, out, in, len);
        return 0;
    }
    return ascon_aead128_open(impl, a->key.bytes, a->nonce.bytes,
                              a->aad.bytes, a->aad.len, out, in,
                              len - ASCON_TAG_BYTES)
               ? 1
               : 0;
}

/* Eight messages of len bytes back to back at in, under one key and AAD,
 * message j under the j-th 16 bytes of --nonce; each sealed to its
 * ciphertext and tag, back to back at out. With --decrypt each of the
 * eight is ciphertext || tag, and one bad tag refuses the call: every
 * output byte zeroed, as the kernel contract has no partial success. */
static int ascon_x8_run(const kernel *k, const isa_variant *v,
                        const kernel_args *a, const uint8_t *in, size_t len,
                        uint8_t *out)
{
    const ascon_impl *impl = (const ascon_impl *)v;
    int decrypt = a->decrypt.set;
    size_t msg_len = decrypt ? len - ASCON_TAG_BYTES : len;
    ascon_batch b = { .ad_len = a->aad.len, .len = msg_len };
    const uint8_t *received[ASCON_X8];
    (void)k;
    for (size_t j = 0; j < ASCON_X8; j++) {
        b.key[j] = a->key.bytes;
        b.nonce[j] = a->nonce.bytes + j * ASCON_NONCE_BYTES;
        b.ad[j] = a->aad.bytes;
        b.in[j] = in + j * len;
        b.out[j] = out + j * (decrypt ? msg_len : len + ASCON_TAG_BYTES);
        b.tag[j] = b.out[j] + msg_len;
        received[j] = b.in[j] + msg_len;
    }
    if (!decrypt) {
        ascon_aead128_encrypt_x8(impl, &b);
        return 0;
    }
    if (ascon_aead128_open_x8(impl, &b, received)) {
        explicit_bzero(out, msg_len * ASCON_X8);
        return 1;
    }
    return 0;
}

static const uint8_t bench_key[ASCON_KEY_BYTES] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
    0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
};
/* ascon-aead128's nonce, then seven more for ascon-aead128-x8's other
 * messages: the first with its last byte xored with 1, 2, ... 7. */
#define BENCH_NONCE(j)                                                       \
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b,  \
        0x1c, 0x1d, 0x1e, 0x1f ^ (j)
static const uint8_t bench_nonces[ASCON_X8 * ASCON_NONCE_BYTES] = {
    BENCH_NONCE(0), BENCH_NONCE(1), BENCH_NONCE(2), BENCH_NONCE(3),
    BENCH_NONCE(4), BENCH_NONCE(5), BENCH_NONCE(6), BENCH_NONCE(7),
};

/* The message alone, no AAD: timings are of the payload. */
static void ascon_bench_args(const kernel *k, kernel_args *a)
{
    *a = (kernel_args){
        .key = KERNEL_BYTES(bench_key, sizeof bench_key),
        .nonce = KERNEL_BYTES(bench_nonces,
                              kernel_batch(k) * ASCON_NONCE_BYTES),
    };
}

/* Known answers from Wycheproof's Ascon-AEAD128 file
 * (tests/vectors/wycheproof_ascon_aead128_test.json): tcId 1, the ascon-c
 * reference's empty case, and tcId 208, 17 bytes of data and 17 of
 * message (a whole block and one byte of each), sealed and opened. */
typedef struct known_vector {
    const char *name, *key, *nonce, *ad, *msg, *sealed;
} known_vector;

static const known_vector known_vectors[] = {
    { "Wycheproof Ascon-AEAD128 tcId 1", "000102030405060708090a0b0c0d0e0f",
      "101112131415161718191a1b1c1d1e1f", "", "",
      "4f9c278211bec9316bf68f46ee8b2ec6" },
    { "Wycheproof Ascon-AEAD128 tcId 208", "000102030405060708090a0b0c0d0e0f",
      "101112131415161718191a1b1c1d1e1f",
      "303132333435363738393a3b3c3d3e3f40",
      "808182838485868788898a8b8c8d8e8f90",
      "1fd767bb9d49516513d24f879aa8483be2"
      "19d9ba6915aa84688884fc9a4aee77ba" },
};

#define KA_MAX 64

static size_t unhex(uint8_t *out, const char *hex)
{
    return (size_t)kernel_hex_decode(hex, out, strlen(hex) / 2);
}

/* n copies of the len bytes at p, back to back at p. */
static void repeat(uint8_t *p, size_t len, size_t n)
{
    for (size_t j = 1; j < n; j++)
        memcpy(p + j * len, p, len);
}

/* Each vector in every message of a call (one for ascon-aead128, eight
 * for ascon-aead128-x8), so that every lane is checked. */
static int ascon_known_answer(const kernel *k, const isa_variant *v,
                              char *err, size_t errlen)
{
    size_t n = kernel_batch(k);
    for (size_t i = 0; i < sizeof known_vectors / sizeof *known_vectors;
         i++) {
        const known_vector *kv = &known_vectors[i];
        uint8_t key[16], nonce[ASCON_X8 * 16], ad[KA_MAX],
            msg[ASCON_X8 * KA_MAX], sealed[ASCON_X8 * KA_MAX];
        size_t msg_len = unhex(msg, kv->msg),
               sealed_len = unhex(sealed, kv->sealed),
               nonce_len = unhex(nonce, kv->nonce);
        repeat(msg, msg_len, n);
        repeat(sealed, sealed_len, n);
        repeat(nonce, nonce_len, n);
        kernel_args a = {
            .key = KERNEL_BYTES(key, unhex(key, kv->key)),
            .nonce = KERNEL_BYTES(nonce, nonce_len * n),
            .aad = KERNEL_BYTES(ad, unhex(ad, kv->ad)),
        };
        if (kernel_check_known_answer(k, v, &a, msg, msg_len, sealed,
                                      sealed_len * n, kv->name, err, errlen))
            return -1;
        a.decrypt = KERNEL_FLAG;
        if (kernel_check_known_answer(k, v, &a, sealed, sealed_len, msg,
                                      msg_len * n, kv->name, err, errlen))
            return -1;
    }
    return 0;
}

/* A row whose one-message code is its own: generic only, since the
 * vector rows' one-message functions are generic's. */
static int ascon_one_message_row(const isa_variant *row)
{
    const ascon_impl *impl = (const ascon_impl *)row;
    return impl->encrypt != ascon_aead128_encrypt_generic ||
           impl->encrypt_lanes == NULL;
}

/* What both kernels' descriptors hold besides their nonce and run. */
#define ASCON_KERNEL(kname)                                                  \
    .name = kname, .family = "ascon", .table = &ascon_impls[0].v,            \
    .row_size = sizeof ascon_impls[0], .tag_len = ASCON_TAG_BYTES,           \
    .bench_args = ascon_bench_args, .known_answer = ascon_known_answer

#define ASCON_ARGS(...)                                                      \
    { { KARG_NEEDS(KEY, ASCON_KEY_BYTES) }, __VA_ARGS__,                     \
      { KARG_TAKES_ANY(AAD) }, { KARG_TAKES_ANY(DECRYPT) } }

const kernel kernel_ascon_aead128 = {
    ASCON_KERNEL("ascon-aead128"),
    .lists_row = ascon_one_message_row,
    .args = ASCON_ARGS({ KARG_NEEDS(NONCE, ASCON_NONCE_BYTES) }),
    .run = ascon_run,
};

/* Eight independent messages of len bytes a call, each with its own nonce
 * (ascon_x8_run): a server sealing many small messages at once. Sizes
 * are of one message; bytes per second count all eight. */
const kernel kernel_ascon_aead128_x8 = {
    ASCON_KERNEL("ascon-aead128-x8"),
    .args = ASCON_ARGS({ KARG_NEEDS(NONCE, ASCON_X8 * ASCON_NONCE_BYTES),
                         .note = "one 16-byte nonce per message, back to "
                                 "back" }),
    .run = ascon_x8_run,
    .batch = ASCON_X8,
};
