/* Adiantum over the ChaCha, NH, Poly1305 and AES tables, and its registry
 * kernels adiantum (XChaCha12), adiantum20 and adiantum8. */
#include "adiantum.h"

#include <stdlib.h>
#include <string.h>

#include "../kernel.h"
#include "../registry.h"
#include "adiantum_known_answers.h"

/* Each row pairs the ChaCha, NH and Poly1305 rows of one ISA level.
 * Poly1305 has no sse2 row, so sse2 takes the generic one: its calls here
 * are short (32 bytes of NH output per KiB of message), too short for the
 * vector rows' loops below messages of 12 KiB anyway.
 *
 * The AES-256 block, one per message, is the best AES row this CPU has,
 * whatever the level of the rest (aes_from NULL). The generic row takes
 * the best AES row from ssse3 down: the constant-time vector-permute AES
 * where SSSE3 exists, which every x86-64 CPU since 2006 has, and the
 * table-driven generic AES, which leaks (aes.h), only where it does not.
 * adiantum@generic is then portable C but for that one block: a CPU
 * without AES instructions is what Adiantum is for, and its block must not
 * be the one part that leaks the key. The rows need what their
 * Poly1305 row needs. Neither the ChaCha nor the Poly1305 avx512 row is
 * zmm code alone: ChaCha runs a message's last eight or fewer blocks
 * through its ymm code (chacha_avx512.c) and Poly1305 hands mid-length
 * calls to the avx2 loop, so a profile of adiantum@avx512 holds both
 * widths. NH's vector rows keep their tails at their own width.
 *
 * On aarch64 the generic row takes the best AES row from neon down: the
 * constant-time TBL AES, which every aarch64 CPU can run, so there the
 * table-driven generic AES is never Adiantum's block. */
#if defined(__x86_64__)
#define ADIANTUM_GENERIC_AES_FROM "ssse3"
#elif defined(__aarch64__)
#define ADIANTUM_GENERIC_AES_FROM "neon"
#endif
const adiantum_impl adiantum_impls[] = {
#if defined(__x86_64__)
    { { "avx512", CPU_AVX512 | CPU_AVX2 }, "avx512", "avx512", "avx512",
      NULL },
    { { "avx2", CPU_AVX2 }, "avx2", "avx2", "avx2", NULL },
    { { "sse2", CPU_SSE2 }, "sse2", "sse2", "generic", NULL },
#elif defined(__aarch64__)
    { { "neon", CPU_NEON }, "neon", "neon", "neon", NULL },
#endif
    { { "generic", 0 }, "generic", "generic", "generic",
      ADIANTUM_GENERIC_AES_FROM },
    { { NULL, 0 }, NULL, NULL, NULL, NULL },
};

#define FIND_ROW(table, isa)                                                 \
    isa_table_find(&(table)[0].v, sizeof(table)[0], isa)

/* NULL when the table has no row named from. */
static const aes_impl *first_supported_aes(const char *from)
{
    const aes_impl *row =
        from ? (const aes_impl *)FIND_ROW(aes_impls, from) : aes_impls;
    /* The generic row, last, runs anywhere. */
    while (row && !cpu_supports(row->v.required))
        row++;
    return row;
}

adiantum_parts adiantum_parts_of(const adiantum_impl *impl)
{
    return (adiantum_parts){
        (const chacha_impl *)FIND_ROW(chacha_impls, impl->chacha_isa),
        (const nh_impl *)FIND_ROW(nh_impls, impl->nh_isa),
        (const poly1305_impl *)FIND_ROW(poly1305_impls, impl->poly1305_isa),
        first_supported_aes(impl->aes_from),
    };
}

/* 128-bit little-endian integers, as x86-64 stores them. */
typedef unsigned __int128 u128;

static u128 load_u128(const uint8_t p[16])
{
    u128 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static void store_u128(uint8_t p[16], u128 v)
{
    memcpy(p, &v, sizeof v);
}

/* The key stream's first bytes: K_E, K_T, K_M, K_N. */
#define AES256_KEY_BYTES 32
#define HASH_R_BYTES 16
#define DERIVED_BYTES (AES256_KEY_BYTES + 2 * HASH_R_BYTES + NH_KEY_BYTES)

static void poly1305_key_from_r(uint8_t key[POLY1305_KEY_BYTES],
                                const uint8_t r[HASH_R_BYTES])
{
    memcpy(key, r, HASH_R_BYTES);
    memset(key + HASH_R_BYTES, 0, POLY1305_KEY_BYTES - HASH_R_BYTES);
}

void adiantum_setup(adiantum_key *k, const adiantum_impl *impl,
                    const uint8_t key[ADIANTUM_KEY_BYTES], unsigned rounds)
{
    static const uint8_t zeros[DERIVED_BYTES];
    static const uint8_t nonce[XCHACHA_NONCE_BYTES] = { 1 };
    uint8_t derived[DERIVED_BYTES];
    k->impl = impl;
    k->parts = adiantum_parts_of(impl);
    k->rounds = rounds;
    memcpy(k->stream_key, key, ADIANTUM_KEY_BYTES);
    xchacha_xor(k->parts.chacha, derived, zeros, sizeof derived, key, nonce,
                0, rounds);
    aes_setup(k->parts.aes, &k->block_key, derived, AES256_KEY_BYTES);
    poly1305_key_from_r(k->tweak_hash_key, derived + AES256_KEY_BYTES);
    poly1305_key_from_r(k->message_hash_key,
                        derived + AES256_KEY_BYTES + HASH_R_BYTES);
    nh_setup(&k->nh_key, derived + AES256_KEY_BYTES + 2 * HASH_R_BYTES);
    explicit_bzero(derived, sizeof derived);
}

static u128 poly1305_sum(poly1305_state *st)
{
    uint8_t h[POLY1305_TAG_BYTES];
    poly1305_finish(st, h); /* s is zero: h mod p, mod 2^128 */
    return load_u128(h);
}

/* Poly1305_KT(bin128(8 bulk_len) | T). */
static u128 tweak_hash(const adiantum_key *k, size_t bulk_len,
                       const uint8_t *tweak, size_t tweak_len)
{
    poly1305_state st;
    uint8_t bits[POLY1305_BLOCK_BYTES];
    store_u128(bits, (u128)bulk_len * 8);
    poly1305_init(&st, k->tweak_hash_key);
    k->parts.poly1305->blocks(&st, bits, sizeof bits, 1);
    poly1305_update_last(k->parts.poly1305, &st, tweak, tweak_len);
    return poly1305_sum(&st);
}

/* NH hashes per Poly1305 call: 512 bytes of them, enough for the vector
 * Poly1305 rows to take their wide loops (POLY1305_SCALAR_BELOW). */
#define NH_BATCH 16

/* Poly1305_KM(NH(L)), NH over each 1024-byte piece of L. */
static u128 message_hash(const adiantum_key *k, const uint8_t *bulk,
                         size_t len)
{
    poly1305_state st;
    uint8_t nh[NH_BATCH][NH_HASH_BYTES];
    poly1305_init(&st, k->message_hash_key);
    while (len) {
        size_t n = 0;
        for (; n < NH_BATCH && len; n++) {
            size_t piece = len < NH_MESSAGE_BYTES ? len : NH_MESSAGE_BYTES;
            nh_hash(k->parts.nh, &k->nh_key, bulk, piece, nh[n]);
            bulk += piece;
            len -= piece;
        }
        k->parts.poly1305->blocks(&st, nh[0], n * NH_HASH_BYTES, 1);
    }
    return poly1305_sum(&st);
}

/* out = in ^ XChaCha(K_S, nonce C_M | 1 | 0...). */
static void stream_xor(const adiantum_key *k, uint8_t *out, const uint8_t *in,
                       size_t len, const uint8_t c_m[ADIANTUM_BLOCK_BYTES])
{
    uint8_t nonce[XCHACHA_NONCE_BYTES] = { 0 };
    memcpy(nonce, c_m, ADIANTUM_BLOCK_BYTES);
    nonce[ADIANTUM_BLOCK_BYTES] = 1;
    xchacha_xor(k->parts.chacha, out, in, len, k->stream_key, nonce, 0,
                k->rounds);
}

/* Both directions are one sequence: the right part plus the input's hash
 * gives m (P_M encrypting, C_M decrypting), the stream's nonce is C_M
 * either way, so AES comes before it to encrypt and after it to decrypt,
 * and the output's right part is m less the output's hash. P_R is read
 * before anything is written, so out may equal in. */
static void adiantum_crypt(const adiantum_key *k, uint8_t *out,
                           const uint8_t *in, size_t len,
                           const uint8_t *tweak, size_t tweak_len,
                           int decrypt)
{
    size_t bulk = len - ADIANTUM_BLOCK_BYTES;
    const aes_impl *aes = k->parts.aes;
    u128 h_t = tweak_hash(k, bulk, tweak, tweak_len);
    uint8_t m[ADIANTUM_BLOCK_BYTES];
    store_u128(m, load_u128(in + bulk) + h_t + message_hash(k, in, bulk));
    if (!decrypt)
        aes->encrypt(&k->block_key, m, m, 1);
    stream_xor(k, out, in, bulk, m);
    if (decrypt)
        aes->decrypt(&k->block_key, m, m, 1);
    store_u128(out + bulk, load_u128(m) - h_t - message_hash(k, out, bulk));
}

void adiantum_encrypt(const adiantum_key *k, uint8_t *out, const uint8_t *in,
                      size_t len, const uint8_t *tweak, size_t tweak_len)
{
    adiantum_crypt(k, out, in, len, tweak, tweak_len, 0);
}

void adiantum_decrypt(const adiantum_key *k, uint8_t *out, const uint8_t *in,
                      size_t len, const uint8_t *tweak, size_t tweak_len)
{
    adiantum_crypt(k, out, in, len, tweak, tweak_len, 1);
}

/* Registry kernels: param is the XChaCha round count. */

static void adiantum_prepare(const kernel *k, const isa_variant *v,
                             kernel_args *a)
{
    adiantum_key *ak = aligned_alloc(_Alignof(adiantum_key), sizeof *ak);
    if (ak) {
        adiantum_setup(ak, (const adiantum_impl *)v, a->key.bytes, k->param);
        kernel_add_secret(a, ak->stream_key, sizeof ak->stream_key);
        aes_add_secret_key(a, &ak->block_key);
        kernel_add_secret(a, ak->tweak_hash_key, sizeof ak->tweak_hash_key);
        kernel_add_secret(a, ak->message_hash_key,
                          sizeof ak->message_hash_key);
        kernel_add_secret(a, &ak->nh_key, sizeof ak->nh_key);
    }
    a->prepared = ak;
}

static int adiantum_run(const kernel *k, const isa_variant *v,
                        const kernel_args *a, const uint8_t *in, size_t len,
                        uint8_t *out)
{
    adiantum_key local;
    const adiantum_key *ak = a->prepared;
    if (!ak || ak->impl != (const adiantum_impl *)v) {
        adiantum_setup(&local, (const adiantum_impl *)v, a->key.bytes,
                       k->param);
        ak = &local;
    }
    (a->decrypt.set ? adiantum_decrypt : adiantum_encrypt)(
        ak, out, in, len, a->tweak.bytes, a->tweak.len);
    return 0;
}

static const uint8_t bench_key[ADIANTUM_KEY_BYTES] = {
    0xad, 0x1a, 0x47, 0x0e, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
    0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11,
    0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b,
};
/* 32 bytes, the tweak Linux gives it (a sector or file block number and
 * zeros). */
static const uint8_t bench_tweak[32] = { 0x2a };

static void adiantum_bench_args(const kernel *k, kernel_args *a)
{
    (void)k;
    *a = (kernel_args){
        .key = KERNEL_BYTES(bench_key, sizeof bench_key),
        .tweak = KERNEL_BYTES(bench_tweak, sizeof bench_tweak),
    };
}

/* The vectors are well-formed and fit their buffers. */
static size_t unhex(uint8_t *out, const char *hex)
{
    return (size_t)kernel_hex_decode(hex, out, strlen(hex) / 2);
}

/* One vector both ways. */
static int vector_known_answer(const kernel *k, const isa_variant *v,
                               const known_vector *kv, char *err,
                               size_t errlen)
{
    uint8_t key[ADIANTUM_KEY_BYTES], tweak[ADIANTUM_KNOWN_TWEAK_MAX];
    uint8_t pt[ADIANTUM_KNOWN_LEN_MAX], ct[ADIANTUM_KNOWN_LEN_MAX];
    size_t key_len = unhex(key, kv->key), len = unhex(pt, kv->plaintext);
    kernel_args a = {
        .key = KERNEL_BYTES(key, key_len),
        .tweak = KERNEL_BYTES(tweak, unhex(tweak, kv->tweak)),
    };
    unhex(ct, kv->ciphertext);
    if (kernel_check_known_answer(k, v, &a, pt, len, ct, len, kv->name, err,
                                  errlen))
        return -1;
    a.decrypt = KERNEL_FLAG;
    return kernel_check_known_answer(k, v, &a, ct, len, pt, len, kv->name,
                                     err, errlen);
}

static int adiantum_known_answer(const kernel *k, const isa_variant *v,
                                 char *err, size_t errlen)
{
    for (size_t i = 0; i < KNOWN_VECTORS; i++)
        if (known_vectors[i].rounds == k->param &&
            vector_known_answer(k, v, &known_vectors[i], err,
                                errlen))
            return -1;
    return 0;
}

/* An auto row: the XChaCha, NH and Poly1305 rows measured fastest here,
 * and the AES row measured fastest unless that is the table-driven
 * generic one, which leaks the key: then the AES adiantum@generic takes,
 * the best from ADIANTUM_GENERIC_AES_FROM down (on x86-64 the
 * constant-time AES wherever SSSE3 exists),
 * so that auto never runs a leaking block where no row of the table
 * would. The block is one per message, so little speed is given up. */
static void adiantum_compose(const kernel *k, const isa_variant *const part[],
                             isa_variant *row)
{
    adiantum_impl *impl = (adiantum_impl *)row;
    const adiantum_impl *generic =
        (const adiantum_impl *)kernel_generic_variant(k);
    impl->chacha_isa = part[0]->isa;
    impl->nh_isa = part[1]->isa;
    impl->poly1305_isa = part[2]->isa;
    impl->aes_from = part[3] == kernel_generic_variant(&kernel_aes256_ctr)
                         ? generic->aes_from
                         : part[3]->isa;
}

/* The parts are what a message's work calls: XChaCha at the kernel's round
 * count, NH as Adiantum's message hash runs it (the nh kernel), Poly1305,
 * and AES-256 (aes256-ctr, one block: no kernel times a bare block). Each
 * is timed at the length it sees in a message of len bytes: the stream and
 * NH the bulk, all but the last 16 bytes; Poly1305 one call of the message
 * hash, 32 bytes of NH output per KiB of bulk, at most NH_BATCH of them;
 * AES one block. */
static size_t adiantum_part_len(size_t i, size_t len)
{
    size_t bulk = len > ADIANTUM_BLOCK_BYTES ? len - ADIANTUM_BLOCK_BYTES : 0,
           pieces = (bulk + NH_MESSAGE_BYTES - 1) / NH_MESSAGE_BYTES;
    switch (i) {
    case 2:
        return NH_HASH_BYTES * (pieces < NH_BATCH ? pieces : NH_BATCH);
    case 3:
        return ADIANTUM_BLOCK_BYTES;
    default:
        return bulk;
    }
}

#define ADIANTUM_KERNEL(var, kname, r, xchacha)                               \
    const kernel var = {                                                      \
        .name = kname,                                                        \
        .family = "adiantum",                                                 \
        .table = &adiantum_impls[0].v,                                        \
        .row_size = sizeof adiantum_impls[0],                                 \
        .param = r,                                                           \
        .args = { { KARG_NEEDS(KEY, ADIANTUM_KEY_BYTES) },                    \
                  { KARG_TAKES_ANY(TWEAK) }, { KARG_TAKES_ANY(DECRYPT) } },   \
        .min_len = ADIANTUM_MIN_BYTES,                                        \
        .min_len_why = "its last 16 bytes are the AES block",                 \
        .run = adiantum_run,                                                  \
        .bench_args = adiantum_bench_args,                                    \
        .known_answer = adiantum_known_answer,                                \
        .prepare = adiantum_prepare,                                          \
        .parts = { &kernel_##xchacha, &kernel_nh, &kernel_poly1305,           \
                   &kernel_aes256_ctr },                                      \
        .compose = adiantum_compose,                                          \
        .part_len = adiantum_part_len,                                        \
    }

ADIANTUM_KERNEL(kernel_adiantum, "adiantum", 12, xchacha12);
ADIANTUM_KERNEL(kernel_adiantum20, "adiantum20", 20, xchacha20);
ADIANTUM_KERNEL(kernel_adiantum8, "adiantum8", 8, xchacha8);
