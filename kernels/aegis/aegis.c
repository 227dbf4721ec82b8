/* The AEGIS tables, what every ISA shares (the key's blocks, the tag
 * check), and the registry kernels aegis128l, aegis256, aegis128x2,
 * aegis128x4, aegis256x2 and aegis256x4. */
#include "aegis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernel.h"

const uint8_t aegis_c0[AEGIS_BLOCK_BYTES] = {
    0x00, 0x01, 0x01, 0x02, 0x03, 0x05, 0x08, 0x0d,
    0x15, 0x22, 0x37, 0x59, 0x90, 0xe9, 0x79, 0x62,
};
const uint8_t aegis_c1[AEGIS_BLOCK_BYTES] = {
    0xdb, 0x3d, 0x18, 0x55, 0x6d, 0xc2, 0x2f, 0xf1,
    0x20, 0x11, 0x31, 0x42, 0x73, 0xb5, 0x28, 0xdd,
};

/* AEGIS-128L and AEGIS-256 take one AES round per state word: AES-NI on
 * xmm, or without it the vector-permute round on SSSE3. Their X forms want
 * a vector of D lanes: X2 on ymm (vaes-avx2), X4 on zmm (vaes-avx512).
 * Rows this leaves out would only repeat another row's code at a wider
 * ISA, or split a lane vector over registers that run no more AES rounds
 * per cycle. */
#define AEGIS_ROW(kernel, name, isa, required)                                \
    { { name, required }, kernel##_encrypt_##isa, kernel##_decrypt_##isa },
#if defined(__x86_64__)
/* AEGIS-128L's and AEGIS-256's: AES-NI, then the constant-time software
 * round on SSSE3 (for CPUs without AES-NI). An X form's: its one VAES
 * row. */
#define VAES_AVX2 (CPU_AVX2 | CPU_AESNI | CPU_VAES)
#define VAES_AVX512 (CPU_AVX512 | CPU_AESNI | CPU_VAES)
#define AEGIS_ROWS(kernel)                                                    \
    AEGIS_ROW(kernel, "aesni", aesni, CPU_AESNI | CPU_SSE41)                  \
    AEGIS_ROW(kernel, "ssse3", ssse3, CPU_SSSE3)
#define AEGIS_X2_ROWS(kernel)                                                 \
    AEGIS_ROW(kernel, "vaes-avx2", vaes_avx2, VAES_AVX2)
#define AEGIS_X4_ROWS(kernel)                                                 \
    AEGIS_ROW(kernel, "vaes-avx512", vaes_avx512, VAES_AVX512)
#elif defined(__aarch64__)
/* AEGIS-128L's and AEGIS-256's: the AES instructions, then the
 * constant-time software round on NEON's TBL (for CPUs without them).
 * aarch64 has no vector wider than a block, and AEGIS-128L's eight
 * independent rounds an update already keep the AES pipes busy, so the X
 * forms are generic only. */
#define AEGIS_ROWS(kernel)                                                    \
    AEGIS_ROW(kernel, "ce", ce, CPU_ARM_AES)                                  \
    AEGIS_ROW(kernel, "neon", neon, CPU_NEON)
#define AEGIS_X2_ROWS(kernel)
#define AEGIS_X4_ROWS(kernel)
#endif
/* A table: this architecture's rows, then generic. */
#define AEGIS_TABLE(kernel, rows)                                             \
    const aegis_impl kernel##_impls[] = {                                     \
        rows(kernel)                                                          \
        AEGIS_ROW(kernel, "generic", generic, 0)                              \
        { { NULL, 0 }, NULL, NULL },                                          \
    }

AEGIS_TABLE(aegis128l, AEGIS_ROWS);
AEGIS_TABLE(aegis256, AEGIS_ROWS);
AEGIS_TABLE(aegis128x2, AEGIS_X2_ROWS);
AEGIS_TABLE(aegis256x2, AEGIS_X2_ROWS);
AEGIS_TABLE(aegis128x4, AEGIS_X4_ROWS);
AEGIS_TABLE(aegis256x4, AEGIS_X4_ROWS);

void aegis_setup(aegis_key *k, const uint8_t *key, size_t key_len)
{
    memcpy(k->k[0], key, AEGIS_BLOCK_BYTES);
    memcpy(k->k[1], key_len == 32 ? key + AEGIS_BLOCK_BYTES : key,
           AEGIS_BLOCK_BYTES);
    for (int i = 0; i < AEGIS_BLOCK_BYTES; i++) {
        k->kc[0][i] = k->k[0][i] ^ aegis_c0[i];
        k->kc[1][i] = k->k[1][i] ^ aegis_c1[i];
    }
}

void aegis_encrypt(const aegis_impl *impl, const aegis_key *k,
                   const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
                   uint8_t *out, const uint8_t *in, size_t len,
                   size_t tag_len)
{
    impl->encrypt(k, nonce, ad, ad_len, out, in, len, out + len, tag_len);
}

/* No early exit: the time taken does not depend on where tags differ. */
static int tags_equal(const uint8_t *a, const uint8_t *b, size_t len)
{
    unsigned diff = 0;
    for (size_t i = 0; i < len; i++)
        diff |= a[i] ^ b[i];
    return diff == 0;
}

int aegis_decrypt(const aegis_impl *impl, const aegis_key *k,
                  const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
                  uint8_t *out, const uint8_t *in, size_t len,
                  size_t tag_len)
{
    uint8_t want[AEGIS_MAX_TAG_BYTES], tag[AEGIS_MAX_TAG_BYTES];
    /* The tag first: in place, the plaintext overwrites what precedes it,
     * and out may end where the tag starts. */
    memcpy(tag, in + len, tag_len);
    impl->decrypt(k, nonce, ad, ad_len, out, in, len, want, tag_len);
    int ok = tags_equal(want, tag, tag_len);
    if (!ok)
        explicit_bzero(out, len);
    explicit_bzero(want, sizeof want);
    return ok ? 0 : -1;
}

/* Registry kernels: param is the key's (and the nonce's) length. */

typedef struct aegis_prepared {
    const aegis_impl *impl;
    aegis_key key;
} aegis_prepared;

static void aegis_prepare(const kernel *k, const isa_variant *v,
                          kernel_args *a)
{
    (void)k;
    aegis_prepared *p = aligned_alloc(_Alignof(aegis_prepared), sizeof *p);
    if (p) {
        p->impl = (const aegis_impl *)v;
        aegis_setup(&p->key, a->key.bytes, a->key.len);
        kernel_add_secret(a, &p->key, sizeof p->key);
    }
    a->prepared = p;
}

static int aegis_run(const kernel *k, const isa_variant *v,
                     const kernel_args *a, const uint8_t *in, size_t len,
                     uint8_t *out)
{
    const aegis_impl *impl = (const aegis_impl *)v;
    const aegis_prepared *p = a->prepared;
    aegis_key local;
    const aegis_key *key = &local;
    size_t tag_len = kernel_tag_len(k, a);
    if (p && p->impl == impl)
        key = &p->key;
    else
        aegis_setup(&local, a->key.bytes, a->key.len);
    if (!a->decrypt.set) {
        aegis_encrypt(impl, key, a->nonce.bytes, a->aad.bytes, a->aad.len, out,
                      in, len, tag_len);
        return 0;
    }
    return aegis_decrypt(impl, key, a->nonce.bytes, a->aad.bytes, a->aad.len,
                         out, in, len - tag_len, tag_len) ? 1 : 0;
}

static const uint8_t bench_key[32] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a,
    0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
    0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};
static const uint8_t bench_nonce[32] = {
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a,
    0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25,
    0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
};

/* The message alone, no AAD, the default tag: timings are of the
 * payload. */
static void aegis_bench_args(const kernel *k, kernel_args *a)
{
    *a = (kernel_args){
        .key = KERNEL_BYTES(bench_key, k->param),
        .nonce = KERNEL_BYTES(bench_nonce, k->param),
    };
}

/* Known answers: the draft's appendix A, test vectors 3 (AEGIS-128L,
 * AEGIS-256: a whole block and AAD) and 2 (the X forms: 8 bytes of AAD,
 * 120 of message), each with both tags, sealed and opened. */
typedef struct known_vector {
    const char *kernel, *name, *key, *nonce, *ad, *msg, *ct, *tag128, *tag256;
} known_vector;

/* The X forms' message: 04 05 06 07, thirty times. */
#define X_MSG4 "04050607"
#define X_MSG20 X_MSG4 X_MSG4 X_MSG4 X_MSG4 X_MSG4
#define X_MSG X_MSG20 X_MSG20 X_MSG20 X_MSG20 X_MSG20 X_MSG20
#define KEY128 "000102030405060708090a0b0c0d0e0f"
#define NONCE128 "101112131415161718191a1b1c1d1e1f"
#define KEY256 KEY128 NONCE128
#define NONCE256 NONCE128 "202122232425262728292a2b2c2d2e2f"

static const known_vector known_vectors[] = {
    { "aegis128l", "draft-irtf-cfrg-aegis-aead A.2.4",
      "10010000000000000000000000000000", "10000200000000000000000000000000",
      "0001020304050607",
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "79d94593d8c2119d7e8fd9b8fc77845c5c077a05b2528b6ac54b563aed8efe84",
      "cc6f3372f6aa1bb82388d695c3962d9a",
      "022cb796fe7e0ae1197525ff67e309484cfbab6528ddef89f17d74ef8ecd82b3" },
    { "aegis256", "draft-irtf-cfrg-aegis-aead A.3.4",
      "1001000000000000000000000000000000000000000000000000000000000000",
      "1000020000000000000000000000000000000000000000000000000000000000",
      "0001020304050607",
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "f373079ed84b2709faee373584585d60accd191db310ef5d8b11833df9dec711",
      "8d86f91ee606e9ff26a01b64ccbdd91d",
      "b7d28d0c3c0ebd409fd22b44160503073a547412da0854bfb9723020dab8da1a" },
    { "aegis128x2", "draft-irtf-cfrg-aegis-aead A.4.3", KEY128, NONCE128,
      "0102030401020304", X_MSG,
      "5795544301997f93621b278809d6331b3bfa6f18e90db12c4aa35965b5e98c5f"
      "c6fb4e54bcb6111842c20637252eff747cb3a8f85b37de80919a589fe0f24872"
      "bc926360696739e05520647e390989e1eb5fd42f99678a0276a498f8c454761c"
      "9d6aacb647ad56be62b29c22cd4b5761b38f43d5a5ee062f",
      "1aebc200804f405cab637f2adebb6d77",
      "c471876f9b4978c44f2ae1ce770cdb11a094ee3feca64e7afcd48bfe52c60eca" },
    { "aegis128x4", "draft-irtf-cfrg-aegis-aead A.5.3", KEY128, NONCE128,
      "0102030401020304", X_MSG,
      "e836118562f4479c9d35c17356a833114c21f9aa39e4dda5e5c87f4152a00fce"
      "9a7c38f832eafe8b1c12f8a7cf12a81a1ad8a9c24ba9dedfbdaa586ffea67ddc"
      "801ea97d9ab4a872f42d0e352e2713dacd609f9442c17517c5a29daf3e2a3fac"
      "4ff6b1380c4e46df7b086af6ce6bc1ed594b8dd64aed2a7e",
      "0e56ab94e2e85db80f9d54010caabfb4",
      "69abf0f64a137dd6e122478d777e98bc422823006cf57f5ee822dd78397230b2" },
    { "aegis256x2", "draft-irtf-cfrg-aegis-aead A.6.3", KEY256, NONCE256,
      "0102030401020304", X_MSG,
      "72120c2ea8236180d67859001f4729077b7064c414384fe3a7b52f1571f4f8a7"
      "d0f01e18db4f3bc0adb150702e5d147a8d36522132761b994c1bd395589e2ccf"
      "0790dfe2a3d12d61cd666b2859827739db4037dd3124c78424459376f6cac08e"
      "1a7223a2a43e398ce6385cd654a19f481cba3b8f25910b42",
      "635d391828520bf1512763f0c8f5cdbd",
      "b5668d3317159e9cc5d46e4803c3a76ad63bb42b3f47956d94f30db8cb366ad7" },
    { "aegis256x4", "draft-irtf-cfrg-aegis-aead A.7.3", KEY256, NONCE256,
      "0102030401020304", X_MSG,
      "bfc2085b7e8017da99b0b6d646ae4d01f4ba8f2e7dfca1d759ae48a135139b9a"
      "aac6b4f5db810d426be1fdaff4e1454153a34b11da78ed7e418ee2ee9853042e"
      "95536aecbb694cea1b16a478eb0d4d1bf6509b1ce652a45af58e0e46ffccfa2d"
      "0426e702391d2ff5813808b81748a490dd656465fed61f09",
      "b63b611b13975e2f3dc3cb6c2397bfcd",
      "7847eace74409ee56c8f4cf63a9c2841ce7c8bd567d7c0ca514c879a190b978c" },
};

/* The vectors above are well-formed and fit their buffers. */
static size_t unhex(uint8_t *out, const char *hex)
{
    return (size_t)kernel_hex_decode(hex, out, strlen(hex) / 2);
}

#define KA_MAX_MSG 128

/* One vector with one of its tags: sealed to ct || tag, and opened back. */
static int check_vector(const kernel *k, const isa_variant *v,
                        const known_vector *kv, const char *tag_hex,
                        char *err, size_t errlen)
{
    uint8_t key[32], nonce[32], ad[16], msg[KA_MAX_MSG],
        sealed[KA_MAX_MSG + AEGIS_MAX_TAG_BYTES];
    size_t msg_len = unhex(msg, kv->msg), ct_len = unhex(sealed, kv->ct),
           tag_len = unhex(sealed + ct_len, tag_hex);
    kernel_args a = {
        .key = KERNEL_BYTES(key, unhex(key, kv->key)),
        .nonce = KERNEL_BYTES(nonce, unhex(nonce, kv->nonce)),
        .aad = KERNEL_BYTES(ad, unhex(ad, kv->ad)),
        .tag_len = KERNEL_NUMBER(tag_len),
    };
    char source[96];
    snprintf(source, sizeof source, "%s, %zu-byte tag", kv->name, tag_len);
    if (kernel_check_known_answer(k, v, &a, msg, msg_len, sealed,
                                  ct_len + tag_len, source, err, errlen))
        return -1;
    a.decrypt = KERNEL_FLAG;
    return kernel_check_known_answer(k, v, &a, sealed, ct_len + tag_len, msg,
                                     msg_len, source, err, errlen);
}

static int aegis_known_answer(const kernel *k, const isa_variant *v,
                              char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof known_vectors / sizeof *known_vectors; i++) {
        const known_vector *kv = &known_vectors[i];
        if (strcmp(kv->kernel, k->name) != 0)
            continue;
        if (check_vector(k, v, kv, kv->tag128, err, errlen) ||
            check_vector(k, v, kv, kv->tag256, err, errlen))
            return -1;
    }
    return 0;
}

#define AEGIS_KERNEL(id, key_bytes)                                           \
    const kernel kernel_##id = {                                              \
        .name = #id,                                                          \
        .family = "aegis",                                                    \
        .table = &id##_impls[0].v,                                            \
        .row_size = sizeof id##_impls[0],                                     \
        .param = key_bytes,                                                   \
        .args = { { KARG_NEEDS(KEY, key_bytes) },                             \
                  { KARG_NEEDS(NONCE, key_bytes) },                           \
                  { KARG_TAKES_ANY(AAD) },                                    \
                  { KARG_TAKES(TAG_LEN, 16, 32) },                            \
                  { KARG_TAKES_ANY(DECRYPT) } },                              \
        .tag_len = AEGIS_TAG_BYTES,                                           \
        .run = aegis_run,                                                     \
        .bench_args = aegis_bench_args,                                       \
        .known_answer = aegis_known_answer,                                   \
        .prepare = aegis_prepare,                                             \
    }

AEGIS_KERNEL(aegis128l, 16);
AEGIS_KERNEL(aegis256, 32);
AEGIS_KERNEL(aegis128x2, 16);
AEGIS_KERNEL(aegis128x4, 16);
AEGIS_KERNEL(aegis256x2, 32);
AEGIS_KERNEL(aegis256x4, 32);
