/* AES-GCM-SIV over the AES and POLYVAL tables, and the registry kernels
 * aes128-gcm-siv and aes256-gcm-siv. */
#include "gcmsiv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../block16.h"
#include "../kernel.h"
#include "../registry.h"

/* Each row pairs the AES and POLYVAL rows of one level (aes.h), and needs
 * what both need (test_gcm_siv checks that it asks for at least that):
 * HCTR2's pairs, for the same reasons. */
const gcmsiv_impl gcmsiv_impls[] = { AES_POLYVAL_PAIRS };

int gcmsiv_fused(const gcmsiv_impl *impl)
{
    return aes_polyval_fused(impl->aes_isa, impl->polyval_isa);
}

int gcmsiv_setup(const gcmsiv_impl *impl, gcmsiv_key *key, const uint8_t *k,
                 size_t key_len)
{
    if (key_len != 16 && key_len != 32)
        return -1;
    key->aes_impl = (const aes_impl *)isa_table_find(
        &aes_impls[0].v, sizeof aes_impls[0], impl->aes_isa);
    key->polyval_impl = polyval_find(impl->polyval_isa);
    key->fused = gcmsiv_fused(impl);
    return aes_setup(key->aes_impl, &key->aes, k, key_len);
}

static uint64_t load64_le(const uint8_t p[8])
{
    uint64_t v;
    memcpy(&v, p, 8); /* block16.h: a little-endian host */
    return v;
}

static uint32_t load32_le(const uint8_t p[4])
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void xor_bytes(uint8_t *out, const uint8_t *a, const uint8_t *b,
                      size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = a[i] ^ b[i];
}

/* The per-nonce blocks below are made in registers and stored whole
 * (block16.h), so that the AES and POLYVAL rows' loads of them need not
 * wait. */

size_t gcmsiv_hash_blocks(size_t aad_len, size_t len)
{
    size_t a = (aad_len + 15) / 16, m = (len + 15) / 16;
    return a > m ? a : m > 1 ? m : 1;
}

/* RFC 8452 section 4: block i = E(LE32(i) || nonce) for i = 0..3 (5 for
 * AES-256); the first halves of blocks 0-1 are the POLYVAL key, of the
 * rest the AES key. All of them in one call of the row's ECB. The POLYVAL
 * key's powers only as far as the message's updates reach: a short
 * message needs few, and the powers are most of a short message's time. */
void gcmsiv_derive(const gcmsiv_key *key, gcmsiv_message_keys *mk,
                   const uint8_t nonce[GCMSIV_NONCE_BYTES], size_t hash_blocks)
{
    _Alignas(64) uint8_t in[6][16], out[6][16];
    uint8_t h[16], enc[32];
    size_t enc_len = key->aes.rounds == 14 ? 32 : 16,
           blocks = 2 + enc_len / 8;
    block16 first = { (uint64_t)load32_le(nonce) << 32, load64_le(nonce + 4) };
    for (size_t i = 0; i < blocks; i++)
        block16_store(in[i], first + (block16){ i, 0 });
    key->aes_impl->encrypt(&key->aes, out[0], in[0], blocks);
    block16_store(h, (block16){ block16_load(out[0])[0],
                                block16_load(out[1])[0] });
    for (size_t i = 2; i < blocks; i += 2)
        block16_store(enc + 8 * (i - 2), (block16){ block16_load(out[i])[0],
                                                    block16_load(out[i + 1])[0] });
    polyval_init_upto(key->polyval_impl, &mk->h, h, hash_blocks);
    aes_setup_encrypt(key->aes_impl, &mk->enc, enc, enc_len);
    explicit_bzero(out, sizeof out);
    explicit_bzero(h, sizeof h);
    explicit_bzero(enc, sizeof enc);
}

void gcmsiv_wipe(const gcmsiv_key *key, gcmsiv_message_keys *mk,
                 size_t hash_blocks)
{
    polyval_wipe_upto(key->polyval_impl, &mk->h, hash_blocks);
    aes_wipe_encrypt(&mk->enc);
}

/* acc continued over data zero-padded to whole blocks. */
static void hash_padded(const polyval_impl *pv, const polyval_key *h,
                        uint8_t acc[16], const uint8_t *data, size_t len)
{
    size_t whole = len / POLYVAL_BLOCK_BYTES;
    if (!len)
        return; /* data may be NULL (no AAD) */
    pv->update(h, acc, data, whole);
    polyval_finish(pv, h, acc, data + POLYVAL_BLOCK_BYTES * whole,
                   len % POLYVAL_BLOCK_BYTES);
}

/* The tag from acc, POLYVAL over everything but the length block: that
 * block (the two lengths in bits, little-endian), then S ^ nonce with the
 * top bit of its last byte cleared, through the message's AES key. */
static void make_tag(const gcmsiv_key *key, const gcmsiv_message_keys *mk,
                     uint8_t acc[16], size_t aad_len, size_t len,
                     const uint8_t nonce[GCMSIV_NONCE_BYTES],
                     uint8_t tag[GCMSIV_TAG_BYTES])
{
    uint8_t lengths[16];
    block16_store(lengths, (block16){ 8 * (uint64_t)aad_len, 8 * (uint64_t)len });
    key->polyval_impl->update(&mk->h, acc, lengths, 1);
    block16 s = block16_load(acc) ^
                (block16){ load64_le(nonce), load32_le(nonce + 8) };
    block16_store(acc, s & (block16){ ~0ull, ~0ull >> 1 });
    key->aes_impl->encrypt(&mk->enc, tag, acc, 1);
}

/* RFC 8452's counter mode: block j's counter block is the tag with the
 * top bit of its last byte set and its first four bytes, a little-endian
 * word, plus j modulo 2^32. XCTR's block i is E(nonce ^ i), i little-
 * endian: with that word cleared in the nonce, i = word + j is the same
 * block while it stays below 2^32, so the AES row's XCTR (or its XCTR
 * with POLYVAL, hashing what it writes, when acc is given) runs it as is,
 * one call up to the wrap and one after it from i = 0. A partial last
 * block goes through one block of ECB and is left out of acc. */
static void siv_ctr(const gcmsiv_key *key, const gcmsiv_message_keys *mk,
                    const uint8_t tag[GCMSIV_TAG_BYTES], uint8_t *out,
                    const uint8_t *in, size_t len, uint8_t *acc)
{
    const aes_impl *aes = key->aes_impl;
    uint8_t nonce[16], block[16], ks[16];
    block16 t = block16_load(tag);
    uint32_t word = (uint32_t)t[0];
    size_t blocks = len / 16, tail = len % 16;
    block16_store(nonce, (t & (block16){ ~0ull << 32, ~0ull }) |
                             (block16){ 0, 1ull << 63 });
    while (blocks) {
        uint64_t to_wrap = ((uint64_t)1 << 32) - word;
        size_t n = blocks < to_wrap ? blocks : (size_t)to_wrap;
        if (acc)
            aes->xctr_polyval(&mk->enc, &mk->h, nonce, word, acc, out, in, n);
        else
            aes->xctr(&mk->enc, nonce, word, out, in, n);
        out += 16 * n, in += 16 * n, blocks -= n;
        word = (uint32_t)(word + n);
    }
    if (tail) {
        block16_store(block, block16_load(nonce) | (block16){ word, 0 });
        aes->encrypt(&mk->enc, ks, block, 1);
        xor_bytes(out, in, ks, tail);
        explicit_bzero(ks, sizeof ks);
    }
}

void gcmsiv_ctr_hash(const gcmsiv_key *key, const gcmsiv_message_keys *mk,
                     const uint8_t tag[GCMSIV_TAG_BYTES], uint8_t *out,
                     const uint8_t *in, size_t len, uint8_t acc[16])
{
    size_t whole = len - len % 16;
    if (!len)
        return; /* out and in may be NULL */
    if (!acc) {
        siv_ctr(key, mk, tag, out, in, len, NULL);
    } else if (key->fused) {
        siv_ctr(key, mk, tag, out, in, len, acc);
        polyval_finish(key->polyval_impl, &mk->h, acc, out + whole,
                       len - whole);
    } else {
        siv_ctr(key, mk, tag, out, in, len, NULL);
        hash_padded(key->polyval_impl, &mk->h, acc, out, len);
    }
}

void gcmsiv_seal(const gcmsiv_key *key, uint8_t *out, const uint8_t *in,
                 size_t len, const uint8_t *aad, size_t aad_len,
                 const uint8_t nonce[GCMSIV_NONCE_BYTES])
{
    gcmsiv_message_keys mk;
    uint8_t acc[16] = { 0 }, tag[GCMSIV_TAG_BYTES];
    size_t hash_blocks = gcmsiv_hash_blocks(aad_len, len);
    gcmsiv_derive(key, &mk, nonce, hash_blocks);
    hash_padded(key->polyval_impl, &mk.h, acc, aad, aad_len);
    hash_padded(key->polyval_impl, &mk.h, acc, in, len);
    make_tag(key, &mk, acc, aad_len, len, nonce, tag);
    /* The tag goes out with the ciphertext; the counter mode branches on
     * its first word (where the counter wraps). */
    kernel_declassify(tag, sizeof tag);
    gcmsiv_ctr_hash(key, &mk, tag, out, in, len, NULL);
    memcpy(out + len, tag, GCMSIV_TAG_BYTES);
    gcmsiv_wipe(key, &mk, hash_blocks);
}

/* No early exit: the time taken does not depend on where tags differ. */
static int tags_equal(const uint8_t a[GCMSIV_TAG_BYTES],
                      const uint8_t b[GCMSIV_TAG_BYTES])
{
    unsigned diff = 0;
    for (int i = 0; i < GCMSIV_TAG_BYTES; i++)
        diff |= a[i] ^ b[i];
    return diff == 0;
}

int gcmsiv_open(const gcmsiv_key *key, uint8_t *out, const uint8_t *in,
                size_t len, const uint8_t *aad, size_t aad_len,
                const uint8_t nonce[GCMSIV_NONCE_BYTES])
{
    gcmsiv_message_keys mk;
    uint8_t acc[16] = { 0 }, tag[GCMSIV_TAG_BYTES], want[GCMSIV_TAG_BYTES];
    size_t hash_blocks = gcmsiv_hash_blocks(aad_len, len);
    int ok;
    /* Read before any output is written, which may overlap it. */
    memcpy(tag, in + len, GCMSIV_TAG_BYTES);
    gcmsiv_derive(key, &mk, nonce, hash_blocks);
    hash_padded(key->polyval_impl, &mk.h, acc, aad, aad_len);
    gcmsiv_ctr_hash(key, &mk, tag, out, in, len, acc);
    make_tag(key, &mk, acc, aad_len, len, nonce, want);
    ok = tags_equal(tag, want);
    /* Whether the tag matched is what the caller is told. */
    kernel_declassify(&ok, sizeof ok);
    if (!ok && len) /* out may be NULL when len is 0 */
        memset(out, 0, len);
    gcmsiv_wipe(key, &mk, hash_blocks);
    return ok ? 0 : -1;
}

/* The registry kernels. prepare() expands the master key outside the
 * timed loop; the per-nonce keys are part of every message, as RFC 8452
 * defines them. */

typedef struct gcmsiv_prepared {
    const gcmsiv_impl *impl;
    gcmsiv_key key;
} gcmsiv_prepared;

static void gcmsiv_prepare(const kernel *k, const isa_variant *v,
                           kernel_args *a)
{
    gcmsiv_prepared *p = aligned_alloc(_Alignof(gcmsiv_prepared), sizeof *p);
    (void)k;
    if (p) {
        p->impl = (const gcmsiv_impl *)v;
        gcmsiv_setup(p->impl, &p->key, a->key.bytes, a->key.len);
        aes_add_secret_key(a, &p->key.aes);
    }
    a->prepared = p;
}

static int gcmsiv_check(const kernel *k, const kernel_args *a, size_t len,
                        char *err, size_t errlen)
{
    size_t msg_len = len - (a->decrypt.set ? GCMSIV_TAG_BYTES : 0);
    if (msg_len <= GCMSIV_MAX_BYTES && a->aad.len <= GCMSIV_MAX_BYTES)
        return 0;
    snprintf(err, errlen, "%s takes at most 2^36 bytes of plaintext and of "
             "AAD (got %zu and %zu): split the message", k->name, msg_len,
             a->aad.len);
    return -1;
}

static int gcmsiv_run(const kernel *k, const isa_variant *v,
                      const kernel_args *a, const uint8_t *in, size_t len,
                      uint8_t *out)
{
    const gcmsiv_impl *impl = (const gcmsiv_impl *)v;
    const gcmsiv_prepared *p = a->prepared;
    gcmsiv_prepared local;
    (void)k;
    if (!p || p->impl != impl) {
        gcmsiv_setup(impl, &local.key, a->key.bytes, a->key.len);
        p = &local;
    }
    if (!a->decrypt.set) {
        gcmsiv_seal(&p->key, out, in, len, a->aad.bytes, a->aad.len,
                    a->nonce.bytes);
        return 0;
    }
    return gcmsiv_open(&p->key, out, in, len - GCMSIV_TAG_BYTES, a->aad.bytes,
                       a->aad.len, a->nonce.bytes) != 0;
}

static const uint8_t bench_key[32] = {
    0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a,
    0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95,
    0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
};
static const uint8_t bench_nonce[GCMSIV_NONCE_BYTES] = {
    0x07, 0x00, 0x00, 0x00, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
};

/* The message alone, no AAD, as for the other AEADs. */
static void gcmsiv_bench_args(const kernel *k, kernel_args *a)
{
    *a = (kernel_args){ .key = KERNEL_BYTES(bench_key, k->param),
                        .nonce = KERNEL_BYTES(bench_nonce,
                                              sizeof bench_nonce) };
}

/* Known answers from tests/vectors/wycheproof_aes_gcm_siv_test.json: RFC
 * 8452 appendix C's last vector of each key size (AAD and message both
 * ending in a partial block), and Wycheproof's counter-wrap vector whose
 * tag, all ones, starts the counter at 2^32 - 1, so that the second block
 * must wrap to 0; both ways. */
typedef struct gcmsiv_vector {
    size_t key_len;
    const char *name, *key, *nonce, *aad, *plaintext, *sealed;
} gcmsiv_vector;

static const gcmsiv_vector known_vectors[] = {
    { 16, "RFC 8452 C.1, last vector (Wycheproof tcId 24)",
      "f901cfe8a69615a93fdf7a98cad48179", "6245709fb18853f68d833640",
      "7576f7028ec6eb5ea7e298342a94d4b202b370ef9768ec6561c4fe6b7e7296fa859c21",
      "e42a3c02c25b64869e146d7b233987bddfc240871d",
      "391cc328d484a4f46406181bcd62efd9b3ee197d05"
      "2d15506c84a9edd65e13e9d24a2a6e70" },
    { 16, "Wycheproof AES-GCM-SIV tcId 64 (the counter wraps)",
      "00112233445566778899aabbccddeeff", "000000000000000000000000",
      "616b2dff4d665e5f7ab890723dd981b1",
      "f012c6a7eb0e8af5bc45e015e7680a693dc709b95383f6a94babec1bc36e4be3"
      "cf4f55a31a94f11c6c3f90eed99682bc",
      "000000000000000000000000000000000000000000000000000000000000000000"
      "000000000000000000000000000000ffffffffffffffffffffffffffffffff" },
    { 32, "RFC 8452 C.2, last vector (Wycheproof tcId 123)",
      "3c535de192eaed3822a2fbbe2ca9dfc88255e14a661b8aa82cc54236093bbc23",
      "688089e55540db1872504e1c",
      "734320ccc9d9bbbb19cb81b2af4ecbc3e72834321f7aa0f70b7282b4f33df23f167541",
      "ced532ce4159b035277d4dfbb7db62968b13cd4eec",
      "626660c26ea6612fb17ad91e8e767639edd6c9faee"
      "9d6c7029675b89eaf4ba1ded1a286594" },
    { 32, "Wycheproof AES-GCM-SIV tcId 165 (the counter wraps)",
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "000000000000000000000000", "2cc3a1973e0560f7224a394e52fa8488",
      "d04846a01f472262e60a1cb4cfcbdcb05c3f819628a3a49395c5dae96c434b24"
      "17ce071699afa74a60c32c0bafd9c01a",
      "000000000000000000000000000000000000000000000000000000000000000000"
      "000000000000000000000000000000ffffffffffffffffffffffffffffffff" },
};

/* The vectors above are well-formed and fit their buffers. */
static kernel_value unhex(uint8_t *out, size_t cap, const char *hex)
{
    return KERNEL_BYTES(out, (size_t)kernel_hex_decode(hex, out, cap));
}

static int gcmsiv_known_answer(const kernel *k, const isa_variant *v,
                               char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof known_vectors / sizeof known_vectors[0];
         i++) {
        const gcmsiv_vector *kv = &known_vectors[i];
        uint8_t key[32], nonce[12], aad[48], pt[48], sealed[64];
        kernel_args a;
        if (kv->key_len != k->param)
            continue;
        a = (kernel_args){ .key = unhex(key, sizeof key, kv->key),
                           .nonce = unhex(nonce, sizeof nonce, kv->nonce),
                           .aad = unhex(aad, sizeof aad, kv->aad) };
        kernel_value p = unhex(pt, sizeof pt, kv->plaintext),
                     s = unhex(sealed, sizeof sealed, kv->sealed);
        if (kernel_check_known_answer(k, v, &a, p.bytes, p.len, s.bytes,
                                      s.len, kv->name, err, errlen))
            return -1;
        a.decrypt = KERNEL_FLAG;
        if (kernel_check_known_answer(k, v, &a, s.bytes, s.len, p.bytes,
                                      p.len, kv->name, err, errlen))
            return -1;
    }
    return 0;
}

/* An auto row: the XCTR and POLYVAL rows measured fastest here. */
static void gcmsiv_compose(const kernel *k, const isa_variant *const part[],
                           isa_variant *row)
{
    gcmsiv_impl *impl = (gcmsiv_impl *)row;
    (void)k;
    impl->aes_isa = part[0]->isa;
    impl->polyval_isa = part[1]->isa;
}

/* The parts are XCTR at the kernel's key size (the counter mode, and the
 * key derivation's and the tag's blocks on the same AES row) and
 * POLYVAL. */
#define GCMSIV_KERNEL(var, kname, key_bytes, xctr)                            \
    const kernel var = {                                                      \
        .name = kname,                                                        \
        .family = "aes-gcm-siv",                                              \
        .table = &gcmsiv_impls[0].v,                                          \
        .row_size = sizeof gcmsiv_impls[0],                                   \
        .param = key_bytes,                                                   \
        .args = { { KARG_NEEDS(KEY, key_bytes) },                             \
                  { KARG_NEEDS(NONCE, GCMSIV_NONCE_BYTES) },                  \
                  { KARG_TAKES_ANY(AAD) }, { KARG_TAKES_ANY(DECRYPT) } },     \
        .tag_len = GCMSIV_TAG_BYTES,                                          \
        .check = gcmsiv_check,                                                \
        .run = gcmsiv_run,                                                    \
        .bench_args = gcmsiv_bench_args,                                      \
        .known_answer = gcmsiv_known_answer,                                  \
        .prepare = gcmsiv_prepare,                                            \
        .parts = { &kernel_##xctr, &kernel_polyval },                         \
        .compose = gcmsiv_compose,                                            \
    }

GCMSIV_KERNEL(kernel_aes128_gcm_siv, "aes128-gcm-siv", 16, aes128_xctr);
GCMSIV_KERNEL(kernel_aes256_gcm_siv, "aes256-gcm-siv", 32, aes256_xctr);
