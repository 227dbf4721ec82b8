/* The Ascon-AEAD128 table, sealing and opening around its rows, and the
 * registry kernel `ascon-aead128`. */
#include "ascon.h"

#include <stdio.h>
#include <string.h>

#include "../kernel.h"

/* Only generic so far: a vector row gains only by taking several messages
 * at once (lanes of independent states, as lioness-x4 does), which is a
 * kernel of its own. */
const ascon_impl ascon_impls[] = {
    { { "generic", 0 }, ascon_aead128_encrypt_generic,
      ascon_aead128_decrypt_generic },
    { { NULL, 0 }, NULL, NULL },
};

void ascon_aead128_seal(const ascon_impl *impl, const uint8_t *key,
                        const uint8_t *nonce, const uint8_t *ad,
                        size_t ad_len, uint8_t *out, const uint8_t *in,
                        size_t len)
{
    impl->encrypt(key, nonce, ad, ad_len, out, in, len, out + len);
}

int ascon_aead128_open(const ascon_impl *impl, const uint8_t *key,
                       const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
                       uint8_t *out, const uint8_t *in, size_t len)
{
    uint8_t tag[ASCON_TAG_BYTES], want[ASCON_TAG_BYTES];
    unsigned diff = 0;
    /* The tag first: in place, the plaintext overwrites what precedes it. */
    memcpy(tag, in + len, sizeof tag);
    impl->decrypt(key, nonce, ad, ad_len, out, in, len, want);
    /* No early exit: the time does not depend on where the tags differ. */
    for (size_t i = 0; i < sizeof tag; i++)
        diff |= tag[i] ^ want[i];
    explicit_bzero(want, sizeof want);
    if (diff) {
        explicit_bzero(out, len);
        return -1;
    }
    return 0;
}

/* The registry kernel */

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

static const uint8_t bench_key[ASCON_KEY_BYTES] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
    0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
};
static const uint8_t bench_nonce[ASCON_NONCE_BYTES] = {
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
    0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};

/* The message alone, no AAD: timings are of the payload. */
static void ascon_bench_args(const kernel *k, kernel_args *a)
{
    (void)k;
    *a = (kernel_args){
        .key = KERNEL_BYTES(bench_key, sizeof bench_key),
        .nonce = KERNEL_BYTES(bench_nonce, sizeof bench_nonce),
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

static int ascon_known_answer(const kernel *k, const isa_variant *v,
                              char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof known_vectors / sizeof *known_vectors;
         i++) {
        const known_vector *kv = &known_vectors[i];
        uint8_t key[16], nonce[16], ad[KA_MAX], msg[KA_MAX], sealed[KA_MAX];
        size_t msg_len = unhex(msg, kv->msg),
               sealed_len = unhex(sealed, kv->sealed);
        kernel_args a = {
            .key = KERNEL_BYTES(key, unhex(key, kv->key)),
            .nonce = KERNEL_BYTES(nonce, unhex(nonce, kv->nonce)),
            .aad = KERNEL_BYTES(ad, unhex(ad, kv->ad)),
        };
        if (kernel_check_known_answer(k, v, &a, msg, msg_len, sealed,
                                      sealed_len, kv->name, err, errlen))
            return -1;
        a.decrypt = KERNEL_FLAG;
        if (kernel_check_known_answer(k, v, &a, sealed, sealed_len, msg,
                                      msg_len, kv->name, err, errlen))
            return -1;
    }
    return 0;
}

const kernel kernel_ascon_aead128 = {
    .name = "ascon-aead128",
    .family = "ascon",
    .table = &ascon_impls[0].v,
    .row_size = sizeof ascon_impls[0],
    .args = { { KARG_NEEDS(KEY, ASCON_KEY_BYTES) },
              { KARG_NEEDS(NONCE, ASCON_NONCE_BYTES) },
              { KARG_TAKES_ANY(AAD) },
              { KARG_TAKES_ANY(DECRYPT) } },
    .tag_len = ASCON_TAG_BYTES,
    .run = ascon_run,
    .bench_args = ascon_bench_args,
    .known_answer = ascon_known_answer,
};
