/* The registry kernels aes{128,256}-{ctr,cbc,xts,gcm,xctr}: argument checks,
 * per-key setup outside the timed loop, and known answers that gate the
 * benchmarks. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aes.h"
#include "../kernel.h"

enum aes_mode { MODE_CTR, MODE_CBC, MODE_XTS, MODE_GCM, MODE_XCTR };

/* A kernel's param: its mode, and the bytes of --key it takes. */
#define AES_PARAM(mode, key_bytes) ((unsigned)(mode) << 8 | (key_bytes))
#define MODE_OF(k) ((enum aes_mode)((k)->param >> 8))
#define KEY_BYTES(k) ((size_t)((k)->param & 0xff))

/* Expanded keys of one ISA; run() uses them only if they are that ISA's. */
typedef struct aes_prepared {
    const aes_impl *impl;
    union {
        aes_key key;
        aes_xts_key xts;
        aes_gcm_key gcm;
    } u;
} aes_prepared;

static void setup_keys(const kernel *k, const aes_impl *impl,
                       const kernel_args *a, aes_prepared *p)
{
    p->impl = impl;
    switch (MODE_OF(k)) {
    case MODE_XTS:
        aes_xts_setup(impl, &p->u.xts, a->key.bytes, a->key.len);
        break;
    case MODE_GCM:
        aes_gcm_setup(impl, &p->u.gcm, a->key.bytes, a->key.len);
        break;
    default:
        aes_setup(impl, &p->u.key, a->key.bytes, a->key.len);
    }
}

void aes_add_secret_key(kernel_args *a, const aes_key *key)
{
    /* enc then dec, up to the public round count. */
    kernel_add_secret(a, key->enc, offsetof(aes_key, rounds));
}

static void add_secrets(const kernel *k, kernel_args *a, const aes_prepared *p)
{
    switch (MODE_OF(k)) {
    case MODE_XTS:
        aes_add_secret_key(a, &p->u.xts.data);
        aes_add_secret_key(a, &p->u.xts.tweak);
        break;
    case MODE_GCM:
        aes_add_secret_key(a, &p->u.gcm.aes);
        kernel_add_secret(a, &p->u.gcm.ghash, sizeof p->u.gcm.ghash);
        break;
    default:
        aes_add_secret_key(a, &p->u.key);
    }
}

static void aes_prepare(const kernel *k, const isa_variant *v, kernel_args *a)
{
    aes_prepared *p = aligned_alloc(_Alignof(aes_prepared), sizeof *p);
    if (p) {
        setup_keys(k, (const aes_impl *)v, a, p);
        add_secrets(k, a, p);
    }
    a->prepared = p;
}

static const aes_prepared *keys_for(const kernel *k, const aes_impl *impl,
                                    const kernel_args *a, aes_prepared *local)
{
    const aes_prepared *p = a->prepared;
    if (p && p->impl == impl)
        return p;
    setup_keys(k, impl, a, local);
    return local;
}

/* Checks: what kernel_check does not (lengths are in the descriptors). */

static int xts_check(const kernel *k, const kernel_args *a, size_t len,
                     char *err, size_t errlen)
{
    (void)len;
    if (a->tweak.set != a->sector.set)
        return 0;
    snprintf(err, errlen, "%s needs exactly one of --tweak=HEX (16 bytes) "
             "or --sector=N", k->name);
    return -1;
}

static int gcm_check(const kernel *k, const kernel_args *a, size_t len,
                     char *err, size_t errlen)
{
    if (len - (a->decrypt.set ? AES_GCM_TAG_BYTES : 0) <= AES_GCM_MAX_BYTES)
        return 0;
    snprintf(err, errlen, "%s takes at most 2^36 - 32 bytes of plaintext "
             "(got %zu): split the message", k->name, len);
    return -1;
}

/* Runs */

static int ctr_run(const kernel *k, const isa_variant *v, const kernel_args *a,
                   const uint8_t *in, size_t len, uint8_t *out)
{
    const aes_impl *impl = (const aes_impl *)v;
    aes_prepared local;
    const aes_prepared *p = keys_for(k, impl, a, &local);
    aes_ctr_xor(impl, &p->u.key, out, in, len, a->iv.bytes);
    return 0;
}

static int xctr_run(const kernel *k, const isa_variant *v,
                    const kernel_args *a, const uint8_t *in, size_t len,
                    uint8_t *out)
{
    const aes_impl *impl = (const aes_impl *)v;
    aes_prepared local;
    const aes_prepared *p = keys_for(k, impl, a, &local);
    aes_xctr_xor(impl, &p->u.key, out, in, len, a->iv.bytes);
    return 0;
}

static int cbc_run(const kernel *k, const isa_variant *v, const kernel_args *a,
                   const uint8_t *in, size_t len, uint8_t *out)
{
    const aes_impl *impl = (const aes_impl *)v;
    aes_prepared local;
    const aes_prepared *p = keys_for(k, impl, a, &local);
    if (a->decrypt.set)
        aes_cbc_cs2_decrypt(impl, &p->u.key, out, in, len, a->iv.bytes);
    else
        aes_cbc_cs2_encrypt(impl, &p->u.key, out, in, len, a->iv.bytes);
    return 0;
}

static int xts_run(const kernel *k, const isa_variant *v, const kernel_args *a,
                   const uint8_t *in, size_t len, uint8_t *out)
{
    const aes_impl *impl = (const aes_impl *)v;
    aes_prepared local;
    const aes_prepared *p = keys_for(k, impl, a, &local);
    uint8_t tweak[16];
    if (a->sector.set)
        aes_xts_sector_tweak(tweak, a->sector.num);
    else
        memcpy(tweak, a->tweak.bytes, 16);
    if (a->decrypt.set)
        aes_xts_decrypt(impl, &p->u.xts, out, in, len, tweak);
    else
        aes_xts_encrypt(impl, &p->u.xts, out, in, len, tweak);
    return 0;
}

static int gcm_run(const kernel *k, const isa_variant *v, const kernel_args *a,
                   const uint8_t *in, size_t len, uint8_t *out)
{
    const aes_impl *impl = (const aes_impl *)v;
    aes_prepared local;
    const aes_prepared *p = keys_for(k, impl, a, &local);
    if (!a->decrypt.set) {
        aes_gcm_encrypt(impl, &p->u.gcm, out, out + len, in, len, a->iv.bytes,
                        a->iv.len, a->aad.bytes, a->aad.len);
        return 0;
    }
    len -= AES_GCM_TAG_BYTES;
    return aes_gcm_decrypt(impl, &p->u.gcm, out, in, len, in + len,
                           a->iv.bytes, a->iv.len, a->aad.bytes,
                           a->aad.len) ? 1 : 0;
}

/* Fixed arguments for timing and self-tests; the key is sliced to length. */
static const uint8_t bench_key[64] = {
    0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0,
    0x85, 0x7d, 0x77, 0x81, 0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61, 0x08, 0xd7,
    0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4, 0x27, 0x18, 0x28, 0x18,
    0x28, 0x45, 0x90, 0x45, 0x23, 0x53, 0x60, 0x28, 0x74, 0x71, 0x35, 0x26,
    0x62, 0x49, 0x77, 0x57, 0x24, 0x70, 0x93, 0x69, 0x99, 0x59, 0x57, 0x49,
    0x66, 0x96, 0x76, 0x27,
};
static const uint8_t bench_iv[16] = {
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
    0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
};

static void aes_bench_args(const kernel *k, kernel_args *a)
{
    *a = (kernel_args){ .key = KERNEL_BYTES(bench_key, KEY_BYTES(k)) };
    if (MODE_OF(k) == MODE_XTS)
        a->tweak = KERNEL_BYTES(bench_iv, sizeof bench_iv);
    else
        a->iv = KERNEL_BYTES(bench_iv, MODE_OF(k) == MODE_GCM
                                           ? AES_GCM_IV_BYTES
                                           : sizeof bench_iv);
}

/* Known answers: FIPS-197 appendix C for the block cipher, then one
 * published vector of the kernel's mode, both ways where it has two. */

typedef struct known_vector {
    unsigned param;
    const char *name, *key, *iv, *plaintext, *ciphertext;
} known_vector;

static const known_vector known_vectors[] = {
    { AES_PARAM(MODE_CTR, 16), "SP 800-38A F.5.1",
      "2b7e151628aed2a6abf7158809cf4f3c", "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
      "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
      "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
      "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
      "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee" },
    { AES_PARAM(MODE_CTR, 32), "SP 800-38A F.5.5",
      "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
      "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
      "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
      "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
      "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
      "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6" },
    { AES_PARAM(MODE_CBC, 16), "SP 800-38A F.2.1",
      "2b7e151628aed2a6abf7158809cf4f3c", "000102030405060708090a0b0c0d0e0f",
      "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
      "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
      "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
      "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7" },
    { AES_PARAM(MODE_CBC, 32), "SP 800-38A F.2.5",
      "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
      "000102030405060708090a0b0c0d0e0f",
      "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
      "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
      "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
      "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b" },
    { AES_PARAM(MODE_XTS, 32), "IEEE 1619 XTS-AES-128 vector 1",
      "0000000000000000000000000000000000000000000000000000000000000000",
      "00000000000000000000000000000000",
      "0000000000000000000000000000000000000000000000000000000000000000",
      "917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e" },
    /* McGrew and Viega's GCM test cases 2 and 14: ciphertext || tag. */
    { AES_PARAM(MODE_GCM, 16), "GCM test case 2",
      "00000000000000000000000000000000", "000000000000000000000000",
      "00000000000000000000000000000000",
      "0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf" },
    { AES_PARAM(MODE_GCM, 32), "GCM test case 14",
      "0000000000000000000000000000000000000000000000000000000000000000",
      "000000000000000000000000", "00000000000000000000000000000000",
      "cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919" },
    /* google/hctr2's XCTR vectors (test_vectors/ours/XCTR), "Random ( 1)"
     * of 31 bytes: two blocks, the second partial. */
    { AES_PARAM(MODE_XCTR, 16), "the HCTR2 authors' XCTR-AES-128 vector 1",
      "4403bf4c30f0a7d6bd54bb668ea60e8a", "e6f726df8c3caa88cec1bd433b0962ad",
      "3ce346b98f9d3f8deff253ab24e22908f87e1da66d867d60976393297194b4",
      "d4a3c6b8c16f701a520ced4caf5156234845071034c5ba71e5f81ed8cba6e7" },
    { AES_PARAM(MODE_XCTR, 32), "the HCTR2 authors' XCTR-AES-256 vector 1",
      "775cc0739a6497912feee020c204592e97d2a770b3b0216b8fbfb851a8ea0f62",
      "318e1fcdfd23eb7f8a1f1b23532744e5",
      "cdff8c9b945a513f409356936639631fbfe6a4fabe799303f5667416fce4ce",
      "8bd3c3ce66f8664cadd6f50fd8995a75a13cab0b213657728829e9ea4a8de9" },
};

/* The vectors above are well-formed and fit their buffers. */
static size_t unhex(uint8_t *out, const char *hex)
{
    return (size_t)kernel_hex_decode(hex, out, strlen(hex) / 2);
}

static int block_known_answer(const kernel *k, const aes_impl *impl,
                              char *err, size_t errlen)
{
    /* FIPS-197 C.1 and C.3: key 00 01 02 ..., plaintext 00 11 22 ... ff. */
    static const char *const want[] = {
        [16] = "69c4e0d86a7b0430d8cdb78070b4c55a",
        [32] = "8ea2b7ca516745bfeafc49904b496089",
    };
    size_t key_len = MODE_OF(k) == MODE_XTS ? KEY_BYTES(k) / 2 : KEY_BYTES(k);
    uint8_t key[32], pt[16], ct[16], got[16];
    aes_key ks;
    for (size_t i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    for (int i = 0; i < 16; i++)
        pt[i] = (uint8_t)(0x11 * i);
    unhex(ct, want[key_len]);
    aes_setup(impl, &ks, key, key_len);
    impl->encrypt(&ks, got, pt, 1);
    if (memcmp(got, ct, 16) == 0) {
        impl->decrypt(&ks, got, ct, 1);
        if (memcmp(got, pt, 16) == 0)
            return 0;
    }
    snprintf(err, errlen, "%s@%s fails FIPS-197 appendix C (AES-%zu)", k->name,
             impl->v.isa, 8 * key_len);
    return -1;
}

static int mode_known_answer(const kernel *k, const aes_impl *impl,
                             const known_vector *kv, char *err, size_t errlen)
{
    uint8_t key[64], iv[16], pt[64], ct[80], got[80];
    kernel_value iv_value = KERNEL_BYTES(iv, unhex(iv, kv->iv));
    kernel_args a = { .key = KERNEL_BYTES(key, unhex(key, kv->key)) };
    size_t pt_len = unhex(pt, kv->plaintext), ct_len = unhex(ct, kv->ciphertext);
    if (MODE_OF(k) == MODE_XTS)
        a.tweak = iv_value;
    else
        a.iv = iv_value;
    int ok = k->run(k, &impl->v, &a, pt, pt_len, got) == 0 &&
             memcmp(got, ct, ct_len) == 0;
    a.decrypt = KERNEL_FLAG;
    ok = ok && k->run(k, &impl->v, &a, ct, ct_len, got) == 0 &&
         memcmp(got, pt, pt_len) == 0;
    if (ok)
        return 0;
    snprintf(err, errlen, "%s@%s fails %s", k->name, impl->v.isa, kv->name);
    return -1;
}

static int aes_known_answer(const kernel *k, const isa_variant *v, char *err,
                            size_t errlen)
{
    const aes_impl *impl = (const aes_impl *)v;
    if (block_known_answer(k, impl, err, errlen))
        return -1;
    for (size_t i = 0; i < sizeof known_vectors / sizeof known_vectors[0]; i++)
        if (known_vectors[i].param == k->param)
            return mode_known_answer(k, impl, &known_vectors[i], err, errlen);
    return 0;
}

#define AES_KERNEL(var, kname, mode, key_bytes, chk, runfn, mode_args, min,  \
                   tag)                                                       \
    const kernel var = {                                                      \
        .name = kname,                                                        \
        .family = "aes",                                                      \
        .table = &aes_impls[0].v,                                             \
        .row_size = sizeof aes_impls[0],                                      \
        .param = AES_PARAM(mode, key_bytes),                                  \
        .args = mode_args(key_bytes),                                         \
        .min_len = min,                                                       \
        .min_len_why = min ? "ciphertext stealing needs one whole block"      \
                           : NULL,                                            \
        .tag_len = tag,                                                       \
        .check = chk,                                                         \
        .run = runfn,                                                         \
        .bench_args = aes_bench_args,                                         \
        .known_answer = aes_known_answer,                                     \
        .prepare = aes_prepare,                                               \
    }

#define CTR_ARGS(key_bytes)                                                   \
    { { KARG_NEEDS(KEY, key_bytes) },                                         \
      { KARG_NEEDS(IV, AES_BLOCK_BYTES), .note = "the initial counter block" } }
#define XCTR_ARGS(key_bytes)                                                  \
    { { KARG_NEEDS(KEY, key_bytes) },                                         \
      { KARG_NEEDS(IV, AES_BLOCK_BYTES), .note = "the nonce" } }
#define CBC_ARGS(key_bytes)                                                   \
    { { KARG_NEEDS(KEY, key_bytes) }, { KARG_NEEDS(IV, AES_BLOCK_BYTES) },    \
      { KARG_TAKES_ANY(DECRYPT) } }
#define XTS_ARGS(key_bytes)                                                   \
    { { KARG_NEEDS(KEY, key_bytes),                                           \
        .note = "the data key then the tweak key" },                          \
      { KARG_TAKES(TWEAK, AES_BLOCK_BYTES) }, { KARG_TAKES_ANY(SECTOR) },     \
      { KARG_TAKES_ANY(DECRYPT) } }
#define GCM_ARGS(key_bytes)                                                   \
    { { KARG_NEEDS(KEY, key_bytes) }, { KARG_NEEDS(IV, AES_GCM_IV_BYTES) },   \
      { KARG_TAKES_ANY(AAD) }, { KARG_TAKES_ANY(DECRYPT) } }

AES_KERNEL(kernel_aes128_ctr, "aes128-ctr", MODE_CTR, 16, NULL, ctr_run,
           CTR_ARGS, 0, 0);
AES_KERNEL(kernel_aes256_ctr, "aes256-ctr", MODE_CTR, 32, NULL, ctr_run,
           CTR_ARGS, 0, 0);
AES_KERNEL(kernel_aes128_cbc, "aes128-cbc", MODE_CBC, 16, NULL, cbc_run,
           CBC_ARGS, 16, 0);
AES_KERNEL(kernel_aes256_cbc, "aes256-cbc", MODE_CBC, 32, NULL, cbc_run,
           CBC_ARGS, 16, 0);
AES_KERNEL(kernel_aes128_xts, "aes128-xts", MODE_XTS, 32, xts_check, xts_run,
           XTS_ARGS, 16, 0);
AES_KERNEL(kernel_aes256_xts, "aes256-xts", MODE_XTS, 64, xts_check, xts_run,
           XTS_ARGS, 16, 0);
AES_KERNEL(kernel_aes128_xctr, "aes128-xctr", MODE_XCTR, 16, NULL, xctr_run,
           XCTR_ARGS, 0, 0);
AES_KERNEL(kernel_aes256_xctr, "aes256-xctr", MODE_XCTR, 32, NULL, xctr_run,
           XCTR_ARGS, 0, 0);
AES_KERNEL(kernel_aes128_gcm, "aes128-gcm", MODE_GCM, 16, gcm_check, gcm_run,
           GCM_ARGS, 0, AES_GCM_TAG_BYTES);
AES_KERNEL(kernel_aes256_gcm, "aes256-gcm", MODE_GCM, 32, gcm_check, gcm_run,
           GCM_ARGS, 0, AES_GCM_TAG_BYTES);
