/* The AES implementation table, and the parts of every mode that are the
 * same for every ISA: ciphertext stealing (CBC-CS2, XTS), GCM's J0, AAD,
 * lengths block and tag, and partial last blocks. The ISA functions they
 * call only ever see whole blocks, and are not called for none: an x86
 * function sets up its frame and vectors before it looks at the count,
 * which measured as a large share of a short message's ticks
 * (docs/kernels.md, "The code's choices", AES on x86). */
#include <string.h>

#include "aes_internal.h"

/* The VAES rows also need AES-NI and PCLMULQDQ: single blocks and GHASH
 * reduction use the 128-bit forms. Every CPU with VAES has both. The
 * ssse3 row is the constant-time software AES, with the portable GHASH;
 * generic, with its T-tables, is the one that leaks. */
const aes_impl aes_impls[] = {
#if defined(__x86_64__)
    AES_ROW("vaes-avx512", vaes_avx512, vaes_avx512,
            aes_xctr_polyval_vaes_avx512,
            CPU_VAES | CPU_VPCLMULQDQ | CPU_AVX512 | CPU_AESNI | CPU_PCLMUL),
    AES_ROW("vaes-avx2", vaes_avx2, vaes_avx2, aes_xctr_polyval_vaes_avx2,
            CPU_VAES | CPU_VPCLMULQDQ | CPU_AVX2 | CPU_AESNI | CPU_PCLMUL),
    AES_ROW("aesni", aesni, aesni, aes_xctr_polyval_aesni,
            CPU_AESNI | CPU_PCLMUL | CPU_SSE41),
    AES_ROW("ssse3", ssse3, generic, NULL, CPU_SSSE3),
#elif defined(__aarch64__)
    /* The AES and PMULL instructions, which Linux reports apart. */
    AES_ROW("ce", ce, ce, aes_xctr_polyval_ce, CPU_ARM_AES | CPU_ARM_PMULL),
    /* Constant-time software AES on TBL, for CPUs without the AES
     * instructions, with the portable GHASH. */
    AES_ROW("neon", neon, generic, NULL, CPU_NEON),
#endif
    AES_ROW("generic", generic, generic, NULL, 0),
    { { NULL, 0 }, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
      NULL, NULL, NULL, NULL },
};

static int expand_checked(const aes_impl *impl, aes_key *k,
                          const uint8_t *key, size_t key_len, int decrypt)
{
    if (key_len != 16 && key_len != 24 && key_len != 32)
        return -1;
    impl->expand(k, key, key_len, decrypt);
    return 0;
}

int aes_setup(const aes_impl *impl, aes_key *k, const uint8_t *key,
              size_t key_len)
{
    return expand_checked(impl, k, key, key_len, 1);
}

int aes_setup_encrypt(const aes_impl *impl, aes_key *k, const uint8_t *key,
                      size_t key_len)
{
    return expand_checked(impl, k, key, key_len, 0);
}

void aes_wipe_encrypt(aes_key *k)
{
    explicit_bzero(k->enc, AES_BLOCK_BYTES * (k->rounds + 1));
    k->rounds = 0;
}

void aes_ctr_xor(const aes_impl *impl, const aes_key *k, uint8_t *out,
                 const uint8_t *in, size_t len, const uint8_t iv[16])
{
    uint8_t ctr[16], ks[16];
    size_t full = len / 16, tail = len % 16;
    memcpy(ctr, iv, 16);
    if (full)
        impl->ctr(k, ctr, out, in, full);
    if (tail) {
        impl->encrypt(k, ks, ctr, 1);
        aes_xor_bytes(out + 16 * full, in + 16 * full, ks, tail);
    }
}

/* A partial last block's keystream is one block of ECB on nonce ^ n: no
 * call of the ISA's XCTR (and its vector setup) for one block. */
static void xctr_tail(const aes_impl *impl, const aes_key *k, uint8_t *out,
                      const uint8_t *in, size_t tail, const uint8_t nonce[16],
                      uint64_t n)
{
    uint8_t block[16], ks[16];
    memcpy(block, nonce, 16);
    aes_store64_le(block, aes_load64_le(nonce) ^ n);
    impl->encrypt(k, ks, block, 1);
    aes_xor_bytes(out, in, ks, tail);
}

void aes_xctr_xor(const aes_impl *impl, const aes_key *k, uint8_t *out,
                  const uint8_t *in, size_t len, const uint8_t nonce[16])
{
    size_t full = len / 16, tail = len % 16;
    if (full)
        impl->xctr(k, nonce, 1, out, in, full);
    if (tail)
        xctr_tail(impl, k, out + 16 * full, in + 16 * full, tail, nonce,
                  full + 1);
}

int aes_polyval_fused(const char *aes_isa, const char *polyval_isa)
{
    static const struct {
        isa_variant v;
        const char *aes_isa, *polyval_isa;
    } pairs[] = { AES_POLYVAL_PAIRS };
    const aes_impl *aes = (const aes_impl *)isa_table_find(
        &aes_impls[0].v, sizeof aes_impls[0], aes_isa);
    if (!aes || !aes->xctr_polyval)
        return 0;
    for (size_t i = 0; pairs[i].v.isa; i++)
        if (!strcmp(pairs[i].aes_isa, aes_isa) &&
            !strcmp(pairs[i].polyval_isa, polyval_isa))
            return 1;
    return 0;
}

void aes_xctr_polyval_xor(const aes_impl *impl, const aes_key *k,
                          const polyval_key *pk, uint8_t acc[16],
                          uint8_t *out, const uint8_t *in, size_t len,
                          const uint8_t nonce[16])
{
    size_t full = len / 16, tail = len % 16;
    if (full)
        impl->xctr_polyval(k, pk, nonce, 1, acc, out, in, full);
    if (tail)
        xctr_tail(impl, k, out + 16 * full, in + 16 * full, tail, nonce,
                  full + 1);
}

/* Ciphertext stealing hands the ISA functions blocks it has just put
 * together. Put together byte by byte, a block's 16-byte load cannot take
 * its data from the narrower stores, and waits until they and every store
 * before them, all of the message's output, have left the core: the
 * stealing's two blocks, already a chain, then wait for the whole message.
 * So a block is put together in a register and stored once
 * (kernels/block16.h); byte copies measured much slower
 * (docs/kernels.md, "The code's choices", AES on x86).
 *
 * merge_block: dst = its first d bytes (0 < d < 16), then the rest of
 * rest's. */
static void merge_block(uint8_t dst[16], const uint8_t rest[16], size_t d)
{
    uint64_t lo = d >= 8 ? ~0ull : (1ull << 8 * d) - 1,
             hi = d > 8 ? (1ull << 8 * (d - 8)) - 1 : 0;
    block16 mask = { lo, hi };
    block16_store(dst, (block16_load(dst) & mask) |
                           (block16_load(rest) & ~mask));
}

/* CS2 (SP 800-38A addendum): with a partial last block P* of d bytes, the
 * last full block's ciphertext C_n is cut to d bytes and sent last, after
 * C_n+1 = E(C_n ^ (P* || 0)). Everything read from the tail is copied first,
 * so out may equal in. */
void aes_cbc_cs2_encrypt(const aes_impl *impl, const aes_key *k, uint8_t *out,
                         const uint8_t *in, size_t len, const uint8_t iv[16])
{
    uint8_t cn[16], last[16] = { 0 };
    size_t full = len / 16, d = len % 16;
    if (d == 0) {
        impl->cbc_encrypt(k, iv, out, in, full);
        return;
    }
    memcpy(last, in + 16 * full, d);
    impl->cbc_encrypt(k, iv, out, in, full);
    memcpy(cn, out + 16 * (full - 1), 16);
    impl->cbc_encrypt(k, cn, out + 16 * (full - 1), last, 1);
    memcpy(out + 16 * full, cn, d);
}

/* D(C_n+1) = C_n ^ (P* || 0) gives P* and the rest of C_n; then P_n =
 * D(C_n) ^ C_n-1 as in plain CBC. */
void aes_cbc_cs2_decrypt(const aes_impl *impl, const aes_key *k, uint8_t *out,
                         const uint8_t *in, size_t len, const uint8_t iv[16])
{
    uint8_t chain[16], cnext[16], cn[16] = { 0 }, z[16];
    size_t full = len / 16, d = len % 16;
    memcpy(chain, iv, 16);
    if (d == 0) {
        impl->cbc_decrypt(k, chain, out, in, full);
        return;
    }
    memcpy(cnext, in + 16 * (full - 1), 16);
    memcpy(cn, in + 16 * full, d);
    if (full > 1)
        impl->cbc_decrypt(k, chain, out, in, full - 1);
    impl->decrypt(k, z, cnext, 1);
    merge_block(cn, z, d);
    aes_xor_bytes(out + 16 * full, z, cn, d);
    impl->cbc_decrypt(k, chain, out + 16 * (full - 1), cn, 1);
}

int aes_xts_setup(const aes_impl *impl, aes_xts_key *xk, const uint8_t *key,
                  size_t key_len)
{
    if (key_len % 2 || aes_setup(impl, &xk->data, key, key_len / 2) ||
        aes_setup(impl, &xk->tweak, key + key_len / 2, key_len / 2))
        return -1;
    return 0;
}

void aes_xts_sector_tweak(uint8_t tweak[16], uint64_t sector)
{
    memset(tweak, 0, 16);
    for (int i = 0; i < 8; i++)
        tweak[i] = (uint8_t)(sector >> (8 * i));
}

/* IEEE 1619 5.3.2 ciphertext stealing: the last full block is encrypted
 * with its own tweak T_m-1; its first d bytes become the partial last
 * ciphertext, and the partial plaintext padded with the rest of it is
 * encrypted with T_m in its place. */
void aes_xts_encrypt(const aes_impl *impl, const aes_xts_key *xk, uint8_t *out,
                     const uint8_t *in, size_t len, const uint8_t tweak[16])
{
    uint8_t t[16], cc[16], pp[16] = { 0 };
    size_t full = len / 16, d = len % 16;
    impl->encrypt(&xk->tweak, t, tweak, 1);
    if (d == 0) {
        impl->xts_encrypt(&xk->data, t, out, in, full);
        return;
    }
    memcpy(pp, in + 16 * full, d);
    impl->xts_encrypt(&xk->data, t, out, in, full);
    memcpy(cc, out + 16 * (full - 1), 16);
    merge_block(pp, cc, d);
    impl->xts_encrypt(&xk->data, t, out + 16 * (full - 1), pp, 1);
    memcpy(out + 16 * full, cc, d);
}

/* The reverse of the above: the stolen block is decrypted with T_m first,
 * then the last full block with T_m-1. */
void aes_xts_decrypt(const aes_impl *impl, const aes_xts_key *xk, uint8_t *out,
                     const uint8_t *in, size_t len, const uint8_t tweak[16])
{
    uint8_t t[16], tm[16], cc[16] = { 0 }, pp[16];
    size_t full = len / 16, d = len % 16;
    impl->encrypt(&xk->tweak, t, tweak, 1);
    if (d == 0) {
        impl->xts_decrypt(&xk->data, t, out, in, full);
        return;
    }
    memcpy(cc, in + 16 * full, d);
    memcpy(pp, in + 16 * (full - 1), 16);
    if (full > 1)
        impl->xts_decrypt(&xk->data, t, out, in, full - 1);
    aes_xts_mulx(tm, t);
    impl->xts_decrypt(&xk->data, tm, pp, pp, 1);
    merge_block(cc, pp, d);
    impl->xts_decrypt(&xk->data, t, out + 16 * (full - 1), cc, 1);
    memcpy(out + 16 * full, pp, d);
}

int aes_gcm_setup(const aes_impl *impl, aes_gcm_key *gk, const uint8_t *key,
                  size_t key_len)
{
    static const uint8_t zero[16];
    uint8_t h[16];
    if (aes_setup(impl, &gk->aes, key, key_len))
        return -1;
    impl->encrypt(&gk->aes, h, zero, 1);
    impl->ghash_init(&gk->ghash, h);
    return 0;
}

/* GHASH over len bytes, the last block padded with zeros. */
static void ghash_padded(const aes_impl *impl, const ghash_key *g,
                         uint8_t y[16], const uint8_t *p, size_t len)
{
    uint8_t last[16] = { 0 };
    if (len / 16)
        impl->ghash(g, y, p, len / 16);
    if (len % 16) {
        memcpy(last, p + len / 16 * 16, len % 16);
        impl->ghash(g, y, last, 1);
    }
}

static void ghash_lengths(const aes_impl *impl, const ghash_key *g,
                          uint8_t y[16], uint64_t a_bytes, uint64_t c_bytes)
{
    uint8_t block[16];
    aes_store64_be(block, a_bytes * 8);
    aes_store64_be(block + 8, c_bytes * 8);
    impl->ghash(g, y, block, 1);
}

/* J0 (SP 800-38D 7.1): IV || 0^31 || 1 for a 96-bit IV, else GHASH of the
 * IV and its length. */
static void gcm_j0(const aes_impl *impl, const aes_gcm_key *gk, uint8_t j0[16],
                   const uint8_t *iv, size_t iv_len)
{
    memset(j0, 0, 16);
    if (iv_len == AES_GCM_IV_BYTES) {
        memcpy(j0, iv, iv_len);
        j0[15] = 1;
        return;
    }
    ghash_padded(impl, &gk->ghash, j0, iv, iv_len);
    ghash_lengths(impl, &gk->ghash, j0, 0, iv_len);
}

/* CTR from inc32(J0) over len bytes and GHASH of the ciphertext into y; a
 * partial last block is done here with one keystream block. */
static void gcm_crypt(const aes_impl *impl, const aes_gcm_key *gk,
                      uint8_t y[16], uint8_t *out, const uint8_t *in,
                      size_t len, const uint8_t j0[16], int decrypt)
{
    uint8_t ctr[16], ks[16], last[16] = { 0 };
    size_t full = len / 16, d = len % 16;
    memcpy(ctr, j0, 16);
    aes_gcm_inc32(ctr);
    if (full)
        (decrypt ? impl->gcm_decrypt : impl->gcm_encrypt)(
            &gk->aes, &gk->ghash, ctr, y, out, in, full);
    if (d) {
        if (decrypt)
            memcpy(last, in + 16 * full, d);
        impl->encrypt(&gk->aes, ks, ctr, 1);
        aes_xor_bytes(out + 16 * full, in + 16 * full, ks, d);
        if (!decrypt)
            memcpy(last, out + 16 * full, d);
        impl->ghash(&gk->ghash, y, last, 1);
    }
}

/* The tag before it is compared or written: E(J0) ^ GHASH(A, C). */
static void gcm_tag(const aes_impl *impl, const aes_gcm_key *gk,
                    uint8_t tag[16], uint8_t y[16], const uint8_t j0[16],
                    size_t aad_len, size_t len)
{
    uint8_t mask[16];
    ghash_lengths(impl, &gk->ghash, y, aad_len, len);
    impl->encrypt(&gk->aes, mask, j0, 1);
    aes_xor_bytes(tag, y, mask, 16);
}

void aes_gcm_encrypt(const aes_impl *impl, const aes_gcm_key *gk,
                     uint8_t *out, uint8_t tag[16], const uint8_t *in,
                     size_t len, const uint8_t *iv, size_t iv_len,
                     const uint8_t *aad, size_t aad_len)
{
    uint8_t j0[16], y[16] = { 0 };
    gcm_j0(impl, gk, j0, iv, iv_len);
    ghash_padded(impl, &gk->ghash, y, aad, aad_len);
    gcm_crypt(impl, gk, y, out, in, len, j0, 0);
    gcm_tag(impl, gk, tag, y, j0, aad_len, len);
}

int aes_gcm_decrypt(const aes_impl *impl, const aes_gcm_key *gk, uint8_t *out,
                    const uint8_t *in, size_t len, const uint8_t tag[16],
                    const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                    size_t aad_len)
{
    uint8_t j0[16], y[16] = { 0 }, want[16], given[16], diff = 0;
    memcpy(given, tag, 16); /* in place, out may run up to the tag */
    gcm_j0(impl, gk, j0, iv, iv_len);
    ghash_padded(impl, &gk->ghash, y, aad, aad_len);
    gcm_crypt(impl, gk, y, out, in, len, j0, 1);
    gcm_tag(impl, gk, want, y, j0, aad_len, len);
    for (int i = 0; i < 16; i++)
        diff |= want[i] ^ given[i];
    if (diff) {
        memset(out, 0, len);
        return -1;
    }
    return 0;
}
