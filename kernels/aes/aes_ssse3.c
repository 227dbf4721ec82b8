/* Constant-time software AES on SSSE3: the vector-permute technique
 * (Hamburg, CHES 2009; aes_round_ssse3.h and aes_ssse3_tables.py), for
 * CPUs without AES instructions. The S-box is computed with PSHUFB over
 * nibbles in registers: no memory is indexed by the key or the data and
 * nothing branches on them, key expansion included.
 *
 * Between rounds the state stays in the tower basis of the tables and
 * ShiftRows is never applied: round r's MixColumns rotations are the
 * column rotations as the bytes are placed after r ShiftRows
 * (enc_rot1[r % 4]), and its round key is converted and placed to match
 * (aes_expand_ssse3), so that the round keys in k->enc and k->dec are this
 * row's own form, not FIPS-197's. One shuffle at the end puts the bytes
 * back (none for AES-192).
 *
 * A round is a chain of dependent shuffles, so one block at a time leaves
 * most of the core idle: blocks go through in batches of AES_SSSE3_NVEC,
 * every round across the whole batch. CBC encryption, one chain, cannot.
 * Six is the batch that went fastest of those tried (with sixteen xmm
 * registers larger batches spill more; the figures are in
 * docs/kernels.md, "The code's choices", AES on x86).
 *
 * GHASH is the portable constant-time one (ghash_update_generic): SSSE3
 * has no carry-less multiply, and a 4-bit table GHASH would index memory
 * by the data. GCM here is two passes, CTR then GHASH. */
#include <string.h>
#include <tmmintrin.h>

#include "aes_internal.h"
#include "aes_round_ssse3.h"
#include "../unroll.h"

#define AES_SSSE3_NVEC 6
#define AES_SSSE3_UNROLL CB_UNROLL(8)

typedef __m128i blk;

/* Runs STEP(n) on whole batches of AES_SSSE3_NVEC blocks, then on 4, 2, 1;
 * STEP advances the pointers and leaves nblocks at 0. */
#define AES_SSSE3_BATCHES(nblocks, STEP)                                      \
    do {                                                                      \
        for (; (nblocks) >= AES_SSSE3_NVEC; (nblocks) -= AES_SSSE3_NVEC)      \
            STEP(AES_SSSE3_NVEC);                                             \
        if (AES_SSSE3_NVEC > 4 && (nblocks) >= 4) {                           \
            STEP(4);                                                          \
            (nblocks) -= 4;                                                   \
        }                                                                     \
        if ((nblocks) >= 2) {                                                 \
            STEP(2);                                                          \
            (nblocks) -= 2;                                                   \
        }                                                                     \
        if (nblocks) {                                                        \
            STEP(1);                                                          \
            (nblocks) -= 1;                                                   \
        }                                                                     \
    } while (0)

AES_SSSE3_INLINE blk blk_load(const void *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

AES_SSSE3_INLINE void blk_store(void *p, blk b)
{
    _mm_storeu_si128((__m128i *)p, b);
}

AES_SSSE3_INLINE blk blk_bswap_mask(void)
{
    return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

/* Key expansion */

static uint32_t sub_word_ssse3(uint32_t w)
{
    return (uint32_t)_mm_cvtsi128_si32(
        aes_sub_bytes_ssse3(_mm_cvtsi32_si128((int)w)));
}

/* Times x in GF(2^8), each byte: no branch, the reduction by a mask. */
AES_SSSE3_INLINE blk mul2_ssse3(blk v)
{
    blk top = _mm_cmpgt_epi8(_mm_setzero_si128(), v);
    return _mm_xor_si128(_mm_add_epi8(v, v),
                         _mm_and_si128(top, _mm_set1_epi8(0x1b)));
}

/* InvMixColumns is MixColumns after a_r += 4 (a_r + a_r+2) (Daemen and
 * Rijmen, The Design of Rijndael, 4.1.3): the equivalent inverse cipher's
 * round keys, in the standard basis. */
AES_SSSE3_INLINE blk inv_mix_columns_ssse3(blk a)
{
    blk rot2 = _mm_shufflehi_epi16(_mm_shufflelo_epi16(a, 0xb1), 0xb1);
    a = _mm_xor_si128(a, mul2_ssse3(mul2_ssse3(_mm_xor_si128(a, rot2))));
    return aes_mix_columns_ssse3(a, mul2_ssse3(a), AES_SSSE3_T(rot1),
                                 AES_SSSE3_T(rot3));
}

/* k->enc: round 0 in the tower basis, the middle rounds also with 0x63
 * (SubBytes' constant, which the tables leave out) added and placed as
 * round r's output is, the last one in the standard basis with 0x63.
 * k->dec, from the equivalent inverse cipher's keys, likewise in the
 * decryption basis, with the inverse affine map's constant. */
void aes_expand_ssse3(aes_key *k, const uint8_t *key, size_t key_len,
                      int decrypt)
{
    blk rk[AES_MAX_ROUNDS + 1];
    const blk c63 = _mm_set1_epi8(0x63), five = AES_SSSE3_T(dec_five);
    aes_expand_enc(k, key, key_len, sub_word_ssse3);
    unsigned nr = k->rounds;
    for (unsigned r = 0; r <= nr; r++)
        rk[r] = blk_load(k->enc[r]);
    blk_store(k->enc[0], aes_linear_ssse3(AES_SSSE3_T(enc_in_lo),
                                          AES_SSSE3_T(enc_in_hi), rk[0]));
    for (unsigned r = 1; r < nr; r++)
        blk_store(k->enc[r],
                  _mm_shuffle_epi8(aes_linear_ssse3(AES_SSSE3_T(enc_in_lo),
                                                    AES_SSSE3_T(enc_in_hi),
                                                    _mm_xor_si128(rk[r], c63)),
                                   AES_SSSE3_T(enc_place[r % 4])));
    blk_store(k->enc[nr], _mm_xor_si128(rk[nr], c63));
    if (!decrypt)
        return;
    blk_store(k->dec[0],
              _mm_xor_si128(aes_linear_ssse3(AES_SSSE3_T(dec_in_lo),
                                             AES_SSSE3_T(dec_in_hi), rk[nr]),
                            five));
    for (unsigned r = 1; r < nr; r++) {
        blk d = aes_linear_ssse3(AES_SSSE3_T(dec_in_lo), AES_SSSE3_T(dec_in_hi),
                                 inv_mix_columns_ssse3(rk[nr - r]));
        blk_store(k->dec[r], _mm_shuffle_epi8(_mm_xor_si128(d, five),
                                              AES_SSSE3_T(dec_place[r % 4])));
    }
    blk_store(k->dec[nr], rk[0]);
}

/* The cipher on n blocks (n a constant), every round across all of them */

AES_SSSE3_INLINE blk enc_round_ssse3(blk w, blk rk, int r)
{
    aes_inverse_ssse3 v = aes_invert_ssse3(w);
    blk a = aes_from_inverse_ssse3(AES_SSSE3_T(enc1_io), AES_SSSE3_T(enc1_jo),
                                   v);
    blk a2 = aes_from_inverse_ssse3(AES_SSSE3_T(enc2_io),
                                    AES_SSSE3_T(enc2_jo), v);
    return _mm_xor_si128(aes_mix_columns_ssse3(a, a2,
                                               AES_SSSE3_T(enc_rot1[r % 4]),
                                               AES_SSSE3_T(enc_rot3[r % 4])),
                         rk);
}

/* InvMixColumns by Horner's rule on the rotation: 14a + 11b + 13c + 9d. */
AES_SSSE3_INLINE blk dec_round_ssse3(blk w, blk rk, int r)
{
    aes_inverse_ssse3 v = aes_invert_ssse3(w);
    const blk rot = AES_SSSE3_T(dec_rot1[r % 4]);
    blk x = aes_from_inverse_ssse3(AES_SSSE3_T(dec9_io), AES_SSSE3_T(dec9_jo),
                                   v);
    x = _mm_xor_si128(_mm_shuffle_epi8(x, rot),
                      aes_from_inverse_ssse3(AES_SSSE3_T(dec13_io),
                                             AES_SSSE3_T(dec13_jo), v));
    x = _mm_xor_si128(_mm_shuffle_epi8(x, rot),
                      aes_from_inverse_ssse3(AES_SSSE3_T(dec11_io),
                                             AES_SSSE3_T(dec11_jo), v));
    return _mm_xor_si128(
        _mm_xor_si128(_mm_shuffle_epi8(x, rot),
                      aes_from_inverse_ssse3(AES_SSSE3_T(dec14_io),
                                             AES_SSSE3_T(dec14_jo), v)),
        rk);
}

/* The last round's SubBytes (or its inverse) in the standard basis, the
 * bytes put back in place after nr rounds' ShiftRows (a constant), and
 * the last round key. */
AES_SSSE3_INLINE blk last_round_ssse3(blk w, blk rk, blk t_io, blk t_jo,
                                      blk unplace, int nr)
{
    blk s = aes_from_inverse_ssse3(t_io, t_jo, aes_invert_ssse3(w));
    if (nr % 4)
        s = _mm_shuffle_epi8(s, unplace);
    return _mm_xor_si128(s, rk);
}

AES_SSSE3_INLINE void encrypt_blks_ssse3(const aes_key *k, blk *s, int n,
                                         int nr)
{
    blk rk = blk_load(k->enc[0]);
    AES_SSSE3_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = _mm_xor_si128(aes_linear_ssse3(AES_SSSE3_T(enc_in_lo),
                                              AES_SSSE3_T(enc_in_hi), s[j]),
                             rk);
    /* The rounds stay a loop (the blocks within one are unrolled): fully
     * unrolled, the object was 1.1 MB and slower (docs/kernels.md, "The
     * ssse3 AES row"). */
    for (int r = 1; r < nr; r++) {
        rk = blk_load(k->enc[r]);
        AES_SSSE3_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = enc_round_ssse3(s[j], rk, r);
    }
    rk = blk_load(k->enc[nr]);
    AES_SSSE3_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = last_round_ssse3(s[j], rk, AES_SSSE3_T(sub_io),
                                AES_SSSE3_T(sub_jo),
                                AES_SSSE3_T(enc_unplace[nr % 4]), nr);
}

AES_SSSE3_INLINE void decrypt_blks_ssse3(const aes_key *k, blk *s, int n,
                                         int nr)
{
    blk rk = blk_load(k->dec[0]);
    AES_SSSE3_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = _mm_xor_si128(aes_linear_ssse3(AES_SSSE3_T(dec_in_lo),
                                              AES_SSSE3_T(dec_in_hi), s[j]),
                             rk);
    for (int r = 1; r < nr; r++) {
        rk = blk_load(k->dec[r]);
        AES_SSSE3_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = dec_round_ssse3(s[j], rk, r);
    }
    rk = blk_load(k->dec[nr]);
    AES_SSSE3_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = last_round_ssse3(s[j], rk, AES_SSSE3_T(inv_io),
                                AES_SSSE3_T(inv_jo),
                                AES_SSSE3_T(dec_unplace[nr % 4]), nr);
}

AES_SSSE3_INLINE void cipher_blks_ssse3(const aes_key *k, blk *s, int n,
                                        int nr, int decrypt)
{
    if (decrypt)
        decrypt_blks_ssse3(k, s, n, nr);
    else
        encrypt_blks_ssse3(k, s, n, nr);
}

/* ECB */

AES_SSSE3_INLINE void ecb_step_ssse3(const aes_key *k, uint8_t *out,
                                     const uint8_t *in, int n, int nr,
                                     int decrypt)
{
    blk s[AES_SSSE3_NVEC];
    AES_SSSE3_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = blk_load(in + 16 * j);
    cipher_blks_ssse3(k, s, n, nr, decrypt);
    AES_SSSE3_UNROLL
    for (int j = 0; j < n; j++)
        blk_store(out + 16 * j, s[j]);
}

AES_SSSE3_INLINE void ecb_blocks_ssse3(const aes_key *k, uint8_t *out,
                                       const uint8_t *in, size_t nblocks,
                                       int nr, int decrypt)
{
#define ECB_STEP(n)                                                           \
    (ecb_step_ssse3(k, out, in, n, nr, decrypt), in += 16 * (n),              \
     out += 16 * (n))
    AES_SSSE3_BATCHES(nblocks, ECB_STEP);
#undef ECB_STEP
}

void aes_encrypt_ssse3(const aes_key *k, uint8_t *out, const uint8_t *in,
                       size_t nblocks)
{
#define ECB_ENC(nr) ecb_blocks_ssse3(k, out, in, nblocks, nr, 0)
    AES_BY_ROUNDS(k, ECB_ENC);
#undef ECB_ENC
}

void aes_decrypt_ssse3(const aes_key *k, uint8_t *out, const uint8_t *in,
                       size_t nblocks)
{
#define ECB_DEC(nr) ecb_blocks_ssse3(k, out, in, nblocks, nr, 1)
    AES_BY_ROUNDS(k, ECB_DEC);
#undef ECB_DEC
}

/* out = the keystream s xored into in, n blocks. */
AES_SSSE3_INLINE void store_xor_ssse3(uint8_t *out, const blk *s,
                                      const uint8_t *in, int n)
{
    AES_SSSE3_UNROLL
    for (int j = 0; j < n; j++)
        blk_store(out + 16 * j, _mm_xor_si128(s[j], blk_load(in + 16 * j)));
}

/* CTR: a 128-bit big-endian counter, kept as two native halves. */

AES_SSSE3_INLINE void ctr_step_ssse3(const aes_key *k, uint64_t c[2],
                                     uint8_t *out, const uint8_t *in, int n,
                                     int nr)
{
    blk s[AES_SSSE3_NVEC];
    if (c[1] <= UINT64_MAX - (uint64_t)(n - 1)) {
        /* Byte-reversed, the counter block is a little-endian integer whose
         * low quadword takes the block index without a carry. */
        blk base = _mm_set_epi64x((long long)c[0], (long long)c[1]);
        AES_SSSE3_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = _mm_shuffle_epi8(_mm_add_epi64(base, _mm_set_epi64x(0, j)),
                                    blk_bswap_mask());
    } else {
        /* The low half carries inside this batch: once in 2^64 blocks. */
        uint64_t hi = c[0], lo = c[1];
        AES_SSSE3_UNROLL
        for (int j = 0; j < n; j++) {
            s[j] = _mm_shuffle_epi8(_mm_set_epi64x((long long)hi, (long long)lo),
                                    blk_bswap_mask());
            hi += ++lo == 0;
        }
    }
    c[1] += (uint64_t)n;
    c[0] += c[1] < (uint64_t)n;
    encrypt_blks_ssse3(k, s, n, nr);
    store_xor_ssse3(out, s, in, n);
}

AES_SSSE3_INLINE void ctr_blocks_ssse3(const aes_key *k, uint8_t ctr[16],
                                       uint8_t *out, const uint8_t *in,
                                       size_t nblocks, int nr)
{
    uint64_t c[2] = { aes_load64_be(ctr), aes_load64_be(ctr + 8) };
#define CTR_STEP(n)                                                           \
    (ctr_step_ssse3(k, c, out, in, n, nr), in += 16 * (n), out += 16 * (n))
    AES_SSSE3_BATCHES(nblocks, CTR_STEP);
#undef CTR_STEP
    aes_store64_be(ctr, c[0]);
    aes_store64_be(ctr + 8, c[1]);
}

void aes_ctr_ssse3(const aes_key *k, uint8_t ctr[16], uint8_t *out,
                   const uint8_t *in, size_t nblocks)
{
#define CTR_CALL(nr) ctr_blocks_ssse3(k, ctr, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, CTR_CALL);
#undef CTR_CALL
}

/* XCTR: the block index xored into the nonce's low quadword (a message
 * never reaches 2^64 blocks). */

AES_SSSE3_INLINE void xctr_step_ssse3(const aes_key *k, blk nonce,
                                      uint64_t *i, uint8_t *out,
                                      const uint8_t *in, int n, int nr)
{
    blk s[AES_SSSE3_NVEC];
    AES_SSSE3_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = _mm_xor_si128(nonce, _mm_cvtsi64_si128((long long)(*i + j)));
    *i += (uint64_t)n;
    encrypt_blks_ssse3(k, s, n, nr);
    store_xor_ssse3(out, s, in, n);
}

AES_SSSE3_INLINE void xctr_blocks_ssse3(const aes_key *k,
                                        const uint8_t nonce[16], uint64_t i,
                                        uint8_t *out, const uint8_t *in,
                                        size_t nblocks, int nr)
{
    blk n0 = blk_load(nonce);
#define XCTR_STEP(n)                                                          \
    (xctr_step_ssse3(k, n0, &i, out, in, n, nr), in += 16 * (n),              \
     out += 16 * (n))
    AES_SSSE3_BATCHES(nblocks, XCTR_STEP);
#undef XCTR_STEP
}

void aes_xctr_ssse3(const aes_key *k, const uint8_t nonce[16], uint64_t first,
                    uint8_t *out, const uint8_t *in, size_t nblocks)
{
#define XCTR_CALL(nr) xctr_blocks_ssse3(k, nonce, first, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, XCTR_CALL);
#undef XCTR_CALL
}

/* CBC. Encryption is one chain, a block at a time. */

AES_SSSE3_INLINE void cbc_encrypt_blocks_ssse3(const aes_key *k,
                                               const uint8_t iv[16],
                                               uint8_t *out, const uint8_t *in,
                                               size_t nblocks, int nr)
{
    blk c = blk_load(iv);
    for (size_t i = 0; i < nblocks; i++) {
        c = _mm_xor_si128(c, blk_load(in + 16 * i));
        encrypt_blks_ssse3(k, &c, 1, nr);
        blk_store(out + 16 * i, c);
    }
}

void aes_cbc_encrypt_ssse3(const aes_key *k, const uint8_t iv[16],
                           uint8_t *out, const uint8_t *in, size_t nblocks)
{
#define CBC_ENC(nr) cbc_encrypt_blocks_ssse3(k, iv, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, CBC_ENC);
#undef CBC_ENC
}

/* The batch's ciphertext is loaded before anything is stored, so out may
 * equal in. */
AES_SSSE3_INLINE void cbc_dec_step_ssse3(const aes_key *k, blk *chain,
                                         uint8_t *out, const uint8_t *in,
                                         int n, int nr)
{
    blk c[AES_SSSE3_NVEC], s[AES_SSSE3_NVEC];
    AES_SSSE3_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = c[j] = blk_load(in + 16 * j);
    decrypt_blks_ssse3(k, s, n, nr);
    AES_SSSE3_UNROLL
    for (int j = 0; j < n; j++)
        blk_store(out + 16 * j, _mm_xor_si128(s[j], j ? c[j - 1] : *chain));
    *chain = c[n - 1];
}

AES_SSSE3_INLINE void cbc_decrypt_blocks_ssse3(const aes_key *k, uint8_t iv[16],
                                               uint8_t *out, const uint8_t *in,
                                               size_t nblocks, int nr)
{
    blk chain = blk_load(iv);
#define CBC_STEP(n)                                                           \
    (cbc_dec_step_ssse3(k, &chain, out, in, n, nr), in += 16 * (n),           \
     out += 16 * (n))
    AES_SSSE3_BATCHES(nblocks, CBC_STEP);
#undef CBC_STEP
    blk_store(iv, chain);
}

void aes_cbc_decrypt_ssse3(const aes_key *k, uint8_t iv[16], uint8_t *out,
                           const uint8_t *in, size_t nblocks)
{
#define CBC_DEC(nr) cbc_decrypt_blocks_ssse3(k, iv, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, CBC_DEC);
#undef CBC_DEC
}

/* XTS. The tweak times x: each quadword shifted left by one; the bit out
 * of the low one goes into the high one, the bit out of the high one
 * comes back as 0x87 (x^128 = x^7 + x^2 + x + 1). */

AES_SSSE3_INLINE blk mulx_ssse3(blk t)
{
    blk carries = _mm_shuffle_epi32(_mm_srai_epi32(t, 31), 0x13);
    return _mm_xor_si128(_mm_add_epi64(t, t),
                         _mm_and_si128(carries, _mm_set_epi32(0, 1, 0, 0x87)));
}

AES_SSSE3_INLINE void xts_step_ssse3(const aes_key *k, blk *t, uint8_t *out,
                                     const uint8_t *in, int n, int nr,
                                     int decrypt)
{
    blk s[AES_SSSE3_NVEC], tw[AES_SSSE3_NVEC];
    AES_SSSE3_UNROLL
    for (int j = 0; j < n; j++) {
        tw[j] = *t;
        *t = mulx_ssse3(*t);
        s[j] = _mm_xor_si128(blk_load(in + 16 * j), tw[j]);
    }
    cipher_blks_ssse3(k, s, n, nr, decrypt);
    AES_SSSE3_UNROLL
    for (int j = 0; j < n; j++)
        blk_store(out + 16 * j, _mm_xor_si128(s[j], tw[j]));
}

AES_SSSE3_INLINE void xts_blocks_ssse3(const aes_key *k, uint8_t tweak[16],
                                       uint8_t *out, const uint8_t *in,
                                       size_t nblocks, int nr, int decrypt)
{
    blk t = blk_load(tweak);
#define XTS_STEP(n)                                                           \
    (xts_step_ssse3(k, &t, out, in, n, nr, decrypt), in += 16 * (n),          \
     out += 16 * (n))
    AES_SSSE3_BATCHES(nblocks, XTS_STEP);
#undef XTS_STEP
    blk_store(tweak, t);
}

void aes_xts_encrypt_ssse3(const aes_key *k, uint8_t tweak[16], uint8_t *out,
                           const uint8_t *in, size_t nblocks)
{
#define XTS_ENC(nr) xts_blocks_ssse3(k, tweak, out, in, nblocks, nr, 0)
    AES_BY_ROUNDS(k, XTS_ENC);
#undef XTS_ENC
}

void aes_xts_decrypt_ssse3(const aes_key *k, uint8_t tweak[16], uint8_t *out,
                           const uint8_t *in, size_t nblocks)
{
#define XTS_DEC(nr) xts_blocks_ssse3(k, tweak, out, in, nblocks, nr, 1)
    AES_BY_ROUNDS(k, XTS_DEC);
#undef XTS_DEC
}

/* GCM's CTR: byte-reversed, the counter block's low dword is GCM's 32-bit
 * counter, and a dword add wraps it as inc32 does. */

AES_SSSE3_INLINE void gcm_ctr_step_ssse3(const aes_key *k, blk *c,
                                         uint8_t *out, const uint8_t *in,
                                         int n, int nr)
{
    blk s[AES_SSSE3_NVEC];
    AES_SSSE3_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = _mm_shuffle_epi8(_mm_add_epi32(*c, _mm_set_epi32(0, 0, 0, j)),
                                blk_bswap_mask());
    *c = _mm_add_epi32(*c, _mm_set_epi32(0, 0, 0, n));
    encrypt_blks_ssse3(k, s, n, nr);
    store_xor_ssse3(out, s, in, n);
}

AES_SSSE3_INLINE void gcm_ctr_blocks_ssse3(const aes_key *k, uint8_t ctr[16],
                                           uint8_t *out, const uint8_t *in,
                                           size_t nblocks, int nr)
{
    blk c = _mm_shuffle_epi8(blk_load(ctr), blk_bswap_mask());
#define GCM_STEP(n)                                                           \
    (gcm_ctr_step_ssse3(k, &c, out, in, n, nr), in += 16 * (n),               \
     out += 16 * (n))
    AES_SSSE3_BATCHES(nblocks, GCM_STEP);
#undef GCM_STEP
    blk_store(ctr, _mm_shuffle_epi8(c, blk_bswap_mask()));
}

static void gcm_ctr_ssse3(const aes_key *k, uint8_t ctr[16], uint8_t *out,
                          const uint8_t *in, size_t nblocks)
{
#define GCM_CTR(nr) gcm_ctr_blocks_ssse3(k, ctr, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, GCM_CTR);
#undef GCM_CTR
}

void aes_gcm_encrypt_ssse3(const aes_key *k, const ghash_key *g,
                           uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                           const uint8_t *in, size_t nblocks)
{
    gcm_ctr_ssse3(k, ctr, out, in, nblocks);
    ghash_update_generic(g, y, out, nblocks);
}

void aes_gcm_decrypt_ssse3(const aes_key *k, const ghash_key *g,
                           uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                           const uint8_t *in, size_t nblocks)
{
    ghash_update_generic(g, y, in, nblocks); /* before out overwrites in */
    gcm_ctr_ssse3(k, ctr, out, in, nblocks);
}
