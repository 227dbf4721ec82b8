/* ChaCha20-Poly1305 and XChaCha20-Poly1305 over the ChaCha and Poly1305
 * tables, and their registry kernels. */
#include "aead.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../registry.h"

/* Each row pairs the two primitives at one ISA level; avx512ifma, which
 * ChaCha has no use for, pairs ChaCha avx512 with Poly1305 avx512ifma. The
 * rows need what their Poly1305 row needs (avx2 code for short calls). */
const aead_impl aead_impls[] = {
#if defined(__x86_64__)
    { { "avx512ifma", CPU_AVX512 | CPU_AVX512IFMA | CPU_AVX2 }, "avx512",
      "avx512ifma" },
    { { "avx512", CPU_AVX512 | CPU_AVX2 }, "avx512", "avx512" },
    { { "avx2", CPU_AVX2 }, "avx2", "avx2" },
#elif defined(__aarch64__)
#endif
    { { "generic", 0 }, "generic", "generic" },
    { { NULL, 0 }, NULL, NULL },
};

aead_pair aead_pair_of(const aead_impl *impl)
{
    return (aead_pair){
        (const chacha_impl *)isa_table_find(
            &chacha_impls[0].v, sizeof chacha_impls[0], impl->chacha_isa),
        (const poly1305_impl *)isa_table_find(&poly1305_impls[0].v,
                                              sizeof poly1305_impls[0],
                                              impl->poly1305_isa),
    };
}

int aead_fits(size_t len)
{
    return chacha_ietf_fits(1, len);
}

/* Sealing encrypts and MACs this much at a time: a multiple of every ChaCha
 * batch (up to 1 KiB), and small enough that the ciphertext, with the
 * plaintext it came from, is still in L1 when Poly1305 reads it back. */
#define CHUNK_BYTES 8192

static void store64_le(uint8_t p[8], uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* data, then zeros up to a multiple of 16 bytes. */
static void mac_padded(const poly1305_impl *p, poly1305_state *st,
                       const uint8_t *data, size_t len)
{
    size_t full = len - len % POLY1305_BLOCK_BYTES;
    if (full > 0)
        p->blocks(st, data, full, 1);
    if (full < len) {
        uint8_t last[POLY1305_BLOCK_BYTES] = { 0 };
        memcpy(last, data + full, len - full);
        p->blocks(st, last, sizeof last, 1);
    }
}

/* Keystream block 0 gives the Poly1305 key and blocks 1 on encrypt. A
 * vector ChaCha takes as long for one block as for the several it computes
 * side by side (a chain of twenty dependent rounds), so a message of up to
 * HEAD_BYTES gets its keystream from the same call as the key. */
#define HEAD_BYTES (1024 - CHACHA_BLOCK_BYTES)

/* Poly1305 keyed, the padded AAD MACed, and ks = keystream blocks 0 on:
 * len bytes of it after the key block when len <= HEAD_BYTES (returns
 * len), else the key block alone (returns 0). */
static size_t mac_start(const aead_pair *impl, poly1305_state *st,
                        const uint8_t *aad, size_t aad_len, const uint8_t *key,
                        const uint8_t *nonce, size_t len,
                        uint8_t ks[CHACHA_BLOCK_BYTES + HEAD_BYTES])
{
    static const uint8_t zeros[CHACHA_BLOCK_BYTES + HEAD_BYTES];
    size_t head = len <= HEAD_BYTES ? len : 0;
    chacha_ietf_xor(impl->chacha, ks, zeros, CHACHA_BLOCK_BYTES + head, key,
                    nonce, 0, 20);
    poly1305_init(st, ks);
    mac_padded(impl->poly1305, st, aad, aad_len);
    return head;
}

static void xor_bytes(uint8_t *out, const uint8_t *in, const uint8_t *ks,
                      size_t len)
{
    for (size_t i = 0; i < len; i++)
        out[i] = in[i] ^ ks[i];
}

static void mac_finish(const aead_pair *impl, poly1305_state *st,
                       size_t aad_len, size_t len,
                       uint8_t tag[AEAD_TAG_BYTES])
{
    uint8_t lengths[POLY1305_BLOCK_BYTES];
    store64_le(lengths, aad_len);
    store64_le(lengths + 8, len);
    impl->poly1305->blocks(st, lengths, sizeof lengths, 1);
    poly1305_finish(st, tag);
}

void chacha20_poly1305_seal(const aead_pair *impl, uint8_t *out,
                            const uint8_t *in, size_t len, const uint8_t *aad,
                            size_t aad_len, const uint8_t key[AEAD_KEY_BYTES],
                            const uint8_t nonce[AEAD_NONCE_BYTES])
{
    poly1305_state st;
    uint8_t ks[CHACHA_BLOCK_BYTES + HEAD_BYTES];
    size_t head = mac_start(impl, &st, aad, aad_len, key, nonce, len, ks);
    if (head == len) {
        xor_bytes(out, in, ks + CHACHA_BLOCK_BYTES, len);
        mac_padded(impl->poly1305, &st, out, len);
    }
    for (size_t done = head, n; done < len; done += n) {
        n = len - done < CHUNK_BYTES ? len - done : CHUNK_BYTES;
        chacha_ietf_xor(impl->chacha, out + done, in + done, n, key, nonce,
                        (uint32_t)(1 + done / CHACHA_BLOCK_BYTES), 20);
        mac_padded(impl->poly1305, &st, out + done, n);
    }
    mac_finish(impl, &st, aad_len, len, out + len);
    explicit_bzero(ks, CHACHA_BLOCK_BYTES + head);
}

/* No early exit: the time taken does not depend on where tags differ. */
static int tags_equal(const uint8_t a[AEAD_TAG_BYTES],
                      const uint8_t b[AEAD_TAG_BYTES])
{
    unsigned diff = 0;
    for (int i = 0; i < AEAD_TAG_BYTES; i++)
        diff |= a[i] ^ b[i];
    return diff == 0;
}

int chacha20_poly1305_open(const aead_pair *impl, uint8_t *out,
                           const uint8_t *in, size_t len, const uint8_t *aad,
                           size_t aad_len, const uint8_t key[AEAD_KEY_BYTES],
                           const uint8_t nonce[AEAD_NONCE_BYTES])
{
    poly1305_state st;
    uint8_t tag[AEAD_TAG_BYTES], ks[CHACHA_BLOCK_BYTES + HEAD_BYTES];
    size_t head = mac_start(impl, &st, aad, aad_len, key, nonce, len, ks);
    int ok;
    mac_padded(impl->poly1305, &st, in, len);
    mac_finish(impl, &st, aad_len, len, tag);
    ok = tags_equal(tag, in + len);
    if (ok && head == len)
        xor_bytes(out, in, ks + CHACHA_BLOCK_BYTES, len);
    else if (ok)
        chacha_ietf_xor(impl->chacha, out, in, len, key, nonce, 1, 20);
    explicit_bzero(ks, CHACHA_BLOCK_BYTES + head);
    return ok ? 0 : -1;
}

static void xchacha_subkey(const aead_pair *impl,
                           uint8_t subkey[AEAD_KEY_BYTES],
                           uint8_t nonce12[AEAD_NONCE_BYTES],
                           const uint8_t key[AEAD_KEY_BYTES],
                           const uint8_t nonce[XAEAD_NONCE_BYTES])
{
    impl->chacha->hchacha(subkey, key, nonce, 20);
    memset(nonce12, 0, 4);
    memcpy(nonce12 + 4, nonce + 16, 8);
}

void xchacha20_poly1305_seal(const aead_pair *impl, uint8_t *out,
                             const uint8_t *in, size_t len,
                             const uint8_t *aad, size_t aad_len,
                             const uint8_t key[AEAD_KEY_BYTES],
                             const uint8_t nonce[XAEAD_NONCE_BYTES])
{
    uint8_t subkey[AEAD_KEY_BYTES], nonce12[AEAD_NONCE_BYTES];
    xchacha_subkey(impl, subkey, nonce12, key, nonce);
    chacha20_poly1305_seal(impl, out, in, len, aad, aad_len, subkey, nonce12);
}

int xchacha20_poly1305_open(const aead_pair *impl, uint8_t *out,
                            const uint8_t *in, size_t len, const uint8_t *aad,
                            size_t aad_len, const uint8_t key[AEAD_KEY_BYTES],
                            const uint8_t nonce[XAEAD_NONCE_BYTES])
{
    uint8_t subkey[AEAD_KEY_BYTES], nonce12[AEAD_NONCE_BYTES];
    xchacha_subkey(impl, subkey, nonce12, key, nonce);
    return chacha20_poly1305_open(impl, out, in, len, aad, aad_len, subkey,
                                  nonce12);
}

/* Registry kernels: param is the nonce length, which picks the AEAD. */

static int aead_check(const kernel *k, const kernel_args *a, size_t len,
                      char *err, size_t errlen)
{
    if (aead_fits(a->decrypt.set ? len - AEAD_TAG_BYTES : len))
        return 0;
    snprintf(err, errlen, "%s message of %zu bytes exceeds the 32-bit block "
             "counter: split it", k->name, len);
    return -1;
}

static void aead_prepare(const kernel *k, const isa_variant *v,
                         kernel_args *a)
{
    (void)k;
    aead_pair *pair = malloc(sizeof *pair);
    if (pair)
        *pair = aead_pair_of((const aead_impl *)v);
    a->prepared = pair;
}

static void aead_release(const kernel *k, kernel_args *a)
{
    (void)k;
    free(a->prepared);
}

static int aead_run(const kernel *k, const isa_variant *v,
                    const kernel_args *a, const uint8_t *in, size_t len,
                    uint8_t *out)
{
    aead_pair local;
    const aead_pair *pair = a->prepared;
    const uint8_t *aad = a->aad.bytes;
    size_t aad_len = a->aad.len;
    int xchacha = k->param == XAEAD_NONCE_BYTES;
    if (!pair) {
        local = aead_pair_of((const aead_impl *)v);
        pair = &local;
    }
    if (!a->decrypt.set) {
        (xchacha ? xchacha20_poly1305_seal : chacha20_poly1305_seal)(
            pair, out, in, len, aad, aad_len, a->key.bytes, a->nonce.bytes);
        return 0;
    }
    len -= AEAD_TAG_BYTES;
    return (xchacha ? xchacha20_poly1305_open : chacha20_poly1305_open)(
               pair, out, in, len, aad, aad_len, a->key.bytes,
               a->nonce.bytes) != 0;
}

static const uint8_t bench_key[AEAD_KEY_BYTES] = {
    0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a,
    0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95,
    0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
};
static const uint8_t bench_nonce[XAEAD_NONCE_BYTES] = {
    0x07, 0x00, 0x00, 0x00, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
    0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0x51, 0x52, 0x53,
};

/* The message alone, no AAD: timings are of the payload. */
static void aead_bench_args(const kernel *k, kernel_args *a)
{
    *a = (kernel_args){
        .key = KERNEL_BYTES(bench_key, sizeof bench_key),
        .nonce = KERNEL_BYTES(bench_nonce, k->param),
    };
}

/* An auto row: the ChaCha and Poly1305 rows measured fastest here. */
static void aead_compose(const kernel *k, const isa_variant *const part[],
                         isa_variant *row)
{
    aead_impl *impl = (aead_impl *)row;
    (void)k;
    impl->chacha_isa = part[0]->isa;
    impl->poly1305_isa = part[1]->isa;
}

/* The bulk of both AEADs is IETF ChaCha20 (XChaCha's HChaCha is the
 * generic one in every row) and Poly1305. */
#define AEAD_KERNEL(var, kname, nonce_bytes)                                  \
    const kernel var = {                                                      \
        .name = kname,                                                        \
        .family = "chacha20-poly1305",                                        \
        .table = &aead_impls[0].v,                                            \
        .row_size = sizeof aead_impls[0],                                     \
        .param = nonce_bytes,                                                 \
        .args = { { KARG_NEEDS(KEY, AEAD_KEY_BYTES) },                        \
                  { KARG_NEEDS(NONCE, nonce_bytes) },                         \
                  { KARG_TAKES_ANY(AAD) }, { KARG_TAKES_ANY(DECRYPT) } },     \
        .tag_len = AEAD_TAG_BYTES,                                            \
        .check = aead_check,                                                  \
        .run = aead_run,                                                      \
        .bench_args = aead_bench_args,                                        \
        .prepare = aead_prepare,                                              \
        .release = aead_release,                                              \
        .parts = { &kernel_chacha20, &kernel_poly1305 },                      \
        .compose = aead_compose,                                              \
    }

AEAD_KERNEL(kernel_chacha20_poly1305, "chacha20-poly1305", AEAD_NONCE_BYTES);
AEAD_KERNEL(kernel_xchacha20_poly1305, "xchacha20-poly1305",
            XAEAD_NONCE_BYTES);
