/* HCTR2 over the AES and POLYVAL tables, and the registry kernels
 * aes128-hctr2 and aes256-hctr2.
 *
 * With the message P = M || N (M its first 16 bytes) and tweak T:
 *     MM = M ^ H(T, N)       UU = E(MM)      S = MM ^ UU ^ L
 *     V = N ^ XCTR(S)        U = UU ^ H(T, V)
 * and the ciphertext is U || V. H is POLYVAL under h of a block that
 * encodes T's length and whether N ends in a partial block, then T
 * zero-padded, then the message padded with 0x01 and zeros: both hashes of
 * a message start alike, so that prefix is hashed once. Decryption runs
 * the same steps backwards with D in place of E. */
#include "hctr2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernel.h"
#include "../registry.h"

/* Each row pairs the AES and POLYVAL rows of one level (aes.h), and needs
 * what both need (test_hctr2 checks that it asks for at least that). */
const hctr2_impl hctr2_impls[] = { AES_POLYVAL_PAIRS };

int hctr2_fused(const hctr2_impl *impl)
{
    return aes_polyval_fused(impl->aes_isa, impl->polyval_isa);
}

static void xor_block(uint8_t out[16], const uint8_t a[16],
                      const uint8_t b[16])
{
    for (int i = 0; i < HCTR2_BLOCK_BYTES; i++)
        out[i] = a[i] ^ b[i];
}

int hctr2_setup(const hctr2_impl *impl, hctr2_key *key, const uint8_t *k,
                size_t key_len)
{
    uint8_t block[HCTR2_BLOCK_BYTES] = { 0 }, h[HCTR2_BLOCK_BYTES];
    if (key_len != 16 && key_len != 32)
        return -1;
    key->aes_impl = (const aes_impl *)isa_table_find(
        &aes_impls[0].v, sizeof aes_impls[0], impl->aes_isa);
    key->polyval_impl = polyval_find(impl->polyval_isa);
    key->fused = hctr2_fused(impl);
    aes_setup(key->aes_impl, &key->aes, k, key_len);
    key->aes_impl->encrypt(&key->aes, h, block, 1);
    block[0] = 1;
    key->aes_impl->encrypt(&key->aes, key->l, block, 1);
    key->polyval_impl->init(&key->h, h);
    return 0;
}

/* Tweaks up to this long (Linux's are 32 bytes) are hashed together with
 * the block before them, in one POLYVAL call rather than three. */
#define SHORT_TWEAK_BYTES 64

/* acc = POLYVAL of the first block, bin(16 |T| + 2 + partial) (|T| in
 * bytes: twice its length in bits, plus 2, plus 1 when the message after
 * the first block ends in a partial block), and of T zero-padded. */
static void hash_tweak(const hctr2_key *key, uint8_t acc[16],
                       const uint8_t *tweak, size_t tweak_len, int partial)
{
    const polyval_impl *pv = key->polyval_impl;
    uint64_t code = 16 * (uint64_t)tweak_len + 2 + (partial ? 1 : 0);
    uint8_t head[HCTR2_BLOCK_BYTES + SHORT_TWEAK_BYTES] = { 0 };
    size_t in_head = tweak_len <= SHORT_TWEAK_BYTES ? tweak_len : 0;
    memcpy(head, &code, sizeof code); /* x86-64: little-endian */
    if (in_head)
        memcpy(head + HCTR2_BLOCK_BYTES, tweak, in_head);
    memset(acc, 0, HCTR2_BLOCK_BYTES);
    pv->update(&key->h, acc, head,
               1 + (in_head + HCTR2_BLOCK_BYTES - 1) / HCTR2_BLOCK_BYTES);
    if (tweak_len > in_head) {
        size_t whole = tweak_len / HCTR2_BLOCK_BYTES;
        pv->update(&key->h, acc, tweak, whole);
        polyval_finish(pv, &key->h, acc, tweak + HCTR2_BLOCK_BYTES * whole,
                       tweak_len % HCTR2_BLOCK_BYTES);
    }
}

/* acc continued over msg, a partial last block padded with 0x01, zeros. */
static void hash_message(const hctr2_key *key, uint8_t acc[16],
                         const uint8_t *msg, size_t len)
{
    size_t whole = len / HCTR2_BLOCK_BYTES, rest = len % HCTR2_BLOCK_BYTES;
    key->polyval_impl->update(&key->h, acc, msg, whole);
    if (rest) {
        uint8_t last[HCTR2_BLOCK_BYTES] = { 0 };
        memcpy(last, msg + HCTR2_BLOCK_BYTES * whole, rest);
        last[rest] = 0x01;
        key->polyval_impl->update(&key->h, acc, last, 1);
    }
}

/* Both directions, as the same steps: the input's first block plus H(T,
 * the input's rest) through the block cipher (E to encrypt, D to decrypt),
 * S from the two, XCTR from the input's rest to the output's, and the
 * output's first block from the cipher's output plus H(T, the output's
 * rest). out may equal in: in's first block is read before out's is
 * written, and XCTR reads each block before it writes it. */
static void hctr2_crypt(const hctr2_key *key, uint8_t *out, const uint8_t *in,
                        size_t len, const uint8_t *tweak, size_t tweak_len,
                        int decrypt)
{
    const aes_impl *aes = key->aes_impl;
    size_t rest = len - HCTR2_BLOCK_BYTES;
    uint8_t prefix[HCTR2_BLOCK_BYTES], h[HCTR2_BLOCK_BYTES],
        x[HCTR2_BLOCK_BYTES], y[HCTR2_BLOCK_BYTES], s[HCTR2_BLOCK_BYTES];
    hash_tweak(key, prefix, tweak, tweak_len, rest % HCTR2_BLOCK_BYTES != 0);
    memcpy(h, prefix, sizeof h);
    hash_message(key, h, in + HCTR2_BLOCK_BYTES, rest);
    xor_block(x, in, h); /* MM (encrypting) or UU */
    (decrypt ? aes->decrypt : aes->encrypt)(&key->aes, y, x, 1);
    xor_block(s, x, y);
    xor_block(s, s, key->l);
    memcpy(h, prefix, sizeof h);
    if (key->fused) {
        /* One pass: XCTR and the hash of its whole blocks, then of the
         * partial one with HCTR2's padding. */
        aes_xctr_polyval_xor(aes, &key->aes, &key->h, h,
                             out + HCTR2_BLOCK_BYTES, in + HCTR2_BLOCK_BYTES,
                             rest, s);
        hash_message(key, h, out + len - rest % HCTR2_BLOCK_BYTES,
                     rest % HCTR2_BLOCK_BYTES);
    } else {
        aes_xctr_xor(aes, &key->aes, out + HCTR2_BLOCK_BYTES,
                     in + HCTR2_BLOCK_BYTES, rest, s);
        hash_message(key, h, out + HCTR2_BLOCK_BYTES, rest);
    }
    xor_block(out, y, h);
}

void hctr2_encrypt(const hctr2_key *key, uint8_t *out, const uint8_t *in,
                   size_t len, const uint8_t *tweak, size_t tweak_len)
{
    hctr2_crypt(key, out, in, len, tweak, tweak_len, 0);
}

void hctr2_decrypt(const hctr2_key *key, uint8_t *out, const uint8_t *in,
                   size_t len, const uint8_t *tweak, size_t tweak_len)
{
    hctr2_crypt(key, out, in, len, tweak, tweak_len, 1);
}

/* The registry kernels. prepare() expands the key outside the timed loop. */

typedef struct hctr2_prepared {
    const hctr2_impl *impl;
    hctr2_key key;
} hctr2_prepared;

static void hctr2_prepare(const kernel *k, const isa_variant *v,
                          kernel_args *a)
{
    hctr2_prepared *p = aligned_alloc(_Alignof(hctr2_prepared), sizeof *p);
    (void)k;
    if (p) {
        p->impl = (const hctr2_impl *)v;
        hctr2_setup(p->impl, &p->key, a->key.bytes, a->key.len);
        aes_add_secret_key(a, &p->key.aes);
        kernel_add_secret(a, &p->key.h, sizeof p->key.h);
        kernel_add_secret(a, p->key.l, sizeof p->key.l);
    }
    a->prepared = p;
}

static int hctr2_run(const kernel *k, const isa_variant *v,
                     const kernel_args *a, const uint8_t *in, size_t len,
                     uint8_t *out)
{
    const hctr2_impl *impl = (const hctr2_impl *)v;
    const hctr2_prepared *p = a->prepared;
    hctr2_prepared local;
    (void)k;
    if (!p || p->impl != impl) {
        hctr2_setup(impl, &local.key, a->key.bytes, a->key.len);
        p = &local;
    }
    if (a->decrypt.set)
        hctr2_decrypt(&p->key, out, in, len, a->tweak.bytes, a->tweak.len);
    else
        hctr2_encrypt(&p->key, out, in, len, a->tweak.bytes, a->tweak.len);
    return 0;
}

/* Timing: a fixed key sliced to length, and a 32-byte tweak as Linux's
 * fscrypt uses. */
static const uint8_t bench_key[32] = {
    0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae,
    0xf0, 0x85, 0x7d, 0x77, 0x81, 0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61,
    0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4,
};
static const uint8_t bench_tweak[32] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a,
    0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
    0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};

static void hctr2_bench_args(const kernel *k, kernel_args *a)
{
    *a = (kernel_args){ .key = KERNEL_BYTES(bench_key, k->param),
                        .tweak = KERNEL_BYTES(bench_tweak,
                                              sizeof bench_tweak) };
}

/* Known answers: the HCTR2 authors' vectors (google/hctr2,
 * test_vectors/ours/HCTR2), "Random ( 1)" with a 32-byte tweak and 31
 * bytes, so that XCTR ends in a partial block; both ways. */
typedef struct hctr2_vector {
    size_t key_len;
    const char *name, *key, *tweak, *plaintext, *ciphertext;
} hctr2_vector;

static const hctr2_vector known_vectors[] = {
    { 16, "the HCTR2 authors' HCTR2-AES-128 vector 1 (31 bytes, 32-byte tweak)",
      "e7d17748760bcd342a2de774ca119cae",
      "711c4962d95b505e6887bcf689ffed30e4e5bdb6104f9f6628065af42735cde5",
      "87038f06a86154da0145d401ef4a22cf78159fbd64bd2cb9401d72ae5363a5",
      "4ea10527b845e4a1bb30b4a6127463d617c9cc2f1864e0060aa0ff72107b22" },
    { 32, "the HCTR2 authors' HCTR2-AES-256 vector 1 (31 bytes, 32-byte tweak)",
      "362b5797f85dcd995f1a5a441d920f27cc16d72b856399d3ba96a1dbd26068da",
      "ef5869b12c5e9a4724c1b169e112938f433d6d00db5ed8d9129afed9ff2daac4",
      "5ea8681985981223260accdb0a04b9df4db3487bb0e3c819435a4606942df2",
      "dbfdc803d0ecc1febd6437b88243624e7e54a3e224a727e8a4d5b36cb226b4" },
};

/* The vectors above are well-formed and fit their buffers. */
static kernel_value unhex(uint8_t *out, size_t cap, const char *hex)
{
    return KERNEL_BYTES(out, (size_t)kernel_hex_decode(hex, out, cap));
}

static int hctr2_known_answer(const kernel *k, const isa_variant *v,
                              char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof known_vectors / sizeof known_vectors[0];
         i++) {
        const hctr2_vector *kv = &known_vectors[i];
        uint8_t key[32], tweak[32], pt[32], ct[32];
        kernel_args a;
        if (kv->key_len != k->param)
            continue;
        a = (kernel_args){ .key = unhex(key, sizeof key, kv->key),
                           .tweak = unhex(tweak, sizeof tweak, kv->tweak) };
        kernel_value p = unhex(pt, sizeof pt, kv->plaintext),
                     c = unhex(ct, sizeof ct, kv->ciphertext);
        if (kernel_check_known_answer(k, v, &a, p.bytes, p.len, c.bytes,
                                      c.len, kv->name, err, errlen))
            return -1;
        a.decrypt = KERNEL_FLAG;
        return kernel_check_known_answer(k, v, &a, c.bytes, c.len, p.bytes,
                                         p.len, kv->name, err, errlen);
    }
    return 0;
}

/* An auto row: the XCTR and POLYVAL rows measured fastest here, in one
 * pass where both are one level's that has it (hctr2_fused), else in two:
 * XCTR, then POLYVAL over what it wrote. */
static void hctr2_compose(const kernel *k, const isa_variant *const part[],
                          isa_variant *row)
{
    hctr2_impl *impl = (hctr2_impl *)row;
    (void)k;
    impl->aes_isa = part[0]->isa;
    impl->polyval_isa = part[1]->isa;
}

/* The parts are XCTR at the kernel's key size (its one block at E and D
 * is the same AES row's) and POLYVAL. */
#define HCTR2_KERNEL(var, kname, key_bytes, xctr)                             \
    const kernel var = {                                                      \
        .name = kname,                                                        \
        .family = "hctr2",                                                    \
        .table = &hctr2_impls[0].v,                                           \
        .row_size = sizeof hctr2_impls[0],                                    \
        .param = key_bytes,                                                   \
        .args = { { KARG_NEEDS(KEY, key_bytes) },                             \
                  { KARG_TAKES_ANY(TWEAK) },                                  \
                  { KARG_TAKES_ANY(DECRYPT) } },                              \
        .min_len = HCTR2_BLOCK_BYTES,                                         \
        .min_len_why = "HCTR2 enciphers at least one whole block",            \
        .run = hctr2_run,                                                     \
        .bench_args = hctr2_bench_args,                                       \
        .known_answer = hctr2_known_answer,                                   \
        .prepare = hctr2_prepare,                                             \
        .parts = { &kernel_##xctr, &kernel_polyval },                         \
        .compose = hctr2_compose,                                             \
    }

HCTR2_KERNEL(kernel_aes128_hctr2, "aes128-hctr2", 16, aes128_xctr);
HCTR2_KERNEL(kernel_aes256_hctr2, "aes256-hctr2", 32, aes256_xctr);
