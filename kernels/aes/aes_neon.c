/* Constant-time software AES on NEON: the vector-permute technique
 * (Hamburg, CHES 2009; aes_round_neon.h and aes_ssse3_tables.py), for
 * aarch64 CPUs without the AES instructions (the Cortex-A53s and A7s that
 * Adiantum was designed for). The aarch64 twin of aes_ssse3.c, with TBL in
 * place of PSHUFB and the same tables: the S-box is computed over nibbles
 * in registers, so no memory is indexed by the key or the data and nothing
 * branches on them, key expansion included.
 *
 * As in aes_ssse3.c, the state stays in the tower basis between rounds and
 * ShiftRows is never applied: round r's MixColumns rotations are the
 * column rotations as the bytes are placed after r ShiftRows
 * (enc_rot1[r % 4]), and its round key is converted and placed to match
 * (aes_expand_neon), so the round keys in k->enc and k->dec are this row's
 * own form, not FIPS-197's. One TBL at the end puts the bytes back (none
 * for AES-192).
 *
 * A round is a chain of dependent TBLs, so blocks go through in batches of
 * AES_NEON_NVEC, every round across the whole batch. Four is the batch
 * llvm-mca-19's cortex-a53 model predicts fastest (against 6 and 8, which
 * its cortex-a72 and neoverse-n1 models predict no faster): a prediction,
 * not a measurement; docs/arm64.md has it. CBC encryption, one chain,
 * cannot batch.
 *
 * GHASH is the portable constant-time one (ghash_update_generic): plain
 * NEON has no 64-bit carry-less multiply (PMULL.1Q is the Cryptography
 * Extensions', the ce row's), and a 4-bit table GHASH would index memory
 * by the data. GCM here is two passes, CTR then GHASH. */
#include <arm_neon.h>
#include <string.h>

#include "aes_internal.h"
#include "aes_round_neon.h"
#include "../unroll.h"

#define AES_NEON_NVEC 4
#define AES_NEON_UNROLL CB_UNROLL(8)
#define AES_NEON_UNROLL_ROUNDS CB_UNROLL(14)

typedef uint8x16_t blk;

/* Runs STEP(n) on whole batches of AES_NEON_NVEC blocks, then on 4, 2, 1;
 * STEP advances the pointers and leaves nblocks at 0. */
#define AES_NEON_BATCHES(nblocks, STEP)                                       \
    do {                                                                      \
        for (; (nblocks) >= AES_NEON_NVEC; (nblocks) -= AES_NEON_NVEC)        \
            STEP(AES_NEON_NVEC);                                              \
        if (AES_NEON_NVEC > 4 && (nblocks) >= 4) {                            \
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

AES_NEON_INLINE blk blk_load(const uint8_t *p)
{
    return vld1q_u8(p);
}

AES_NEON_INLINE void blk_store(uint8_t *p, blk b)
{
    vst1q_u8(p, b);
}

/* Two native 64-bit halves, low first, as a block. */
AES_NEON_INLINE blk blk_of_u64(uint64_t lo, uint64_t hi)
{
    return vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(lo), vcreate_u64(hi)));
}

/* Key expansion */

static uint32_t sub_word_neon(uint32_t w)
{
    return vgetq_lane_u32(
        vreinterpretq_u32_u8(aes_sub_bytes_neon(
            vreinterpretq_u8_u32(vdupq_n_u32(w)))),
        0);
}

/* Times x in GF(2^8), each byte: no branch, the reduction by a mask. */
AES_NEON_INLINE blk mul2_neon(blk v)
{
    blk top = vreinterpretq_u8_s8(vshrq_n_s8(vreinterpretq_s8_u8(v), 7));
    return veorq_u8(vshlq_n_u8(v, 1), vandq_u8(top, vdupq_n_u8(0x1b)));
}

/* InvMixColumns is MixColumns after a_r += 4 (a_r + a_r+2) (Daemen and
 * Rijmen, The Design of Rijndael, 4.1.3): the equivalent inverse cipher's
 * round keys, in the standard basis. */
AES_NEON_INLINE blk inv_mix_columns_neon(blk a)
{
    blk rot2 = vreinterpretq_u8_u16(vrev32q_u16(vreinterpretq_u16_u8(a)));
    a = veorq_u8(a, mul2_neon(mul2_neon(veorq_u8(a, rot2))));
    return aes_mix_columns_neon(a, mul2_neon(a), AES_NEON_T(rot1),
                                AES_NEON_T(rot3));
}

/* k->enc: round 0 in the tower basis, the middle rounds also with 0x63
 * (SubBytes' constant, which the tables leave out) added and placed as
 * round r's output is, the last one in the standard basis with 0x63.
 * k->dec, from the equivalent inverse cipher's keys, likewise in the
 * decryption basis, with the inverse affine map's constant. */
void aes_expand_neon(aes_key *k, const uint8_t *key, size_t key_len,
                     int decrypt)
{
    blk rk[AES_MAX_ROUNDS + 1];
    const blk c63 = vdupq_n_u8(0x63), five = AES_NEON_T(dec_five);
    aes_expand_enc(k, key, key_len, sub_word_neon);
    unsigned nr = k->rounds;
    for (unsigned r = 0; r <= nr; r++)
        rk[r] = blk_load(k->enc[r]);
    blk_store(k->enc[0], aes_linear_neon(AES_NEON_T(enc_in_lo),
                                         AES_NEON_T(enc_in_hi), rk[0]));
    for (unsigned r = 1; r < nr; r++)
        blk_store(k->enc[r],
                  aes_lookup_neon(aes_linear_neon(AES_NEON_T(enc_in_lo),
                                                  AES_NEON_T(enc_in_hi),
                                                  veorq_u8(rk[r], c63)),
                                  AES_NEON_T(enc_place[r % 4])));
    blk_store(k->enc[nr], veorq_u8(rk[nr], c63));
    if (!decrypt)
        return;
    blk_store(k->dec[0],
              veorq_u8(aes_linear_neon(AES_NEON_T(dec_in_lo),
                                       AES_NEON_T(dec_in_hi), rk[nr]),
                       five));
    for (unsigned r = 1; r < nr; r++) {
        blk d = aes_linear_neon(AES_NEON_T(dec_in_lo), AES_NEON_T(dec_in_hi),
                                inv_mix_columns_neon(rk[nr - r]));
        blk_store(k->dec[r], aes_lookup_neon(veorq_u8(d, five),
                                             AES_NEON_T(dec_place[r % 4])));
    }
    blk_store(k->dec[nr], rk[0]);
}

/* The cipher on n blocks (n a constant), every round across all of them */

AES_NEON_INLINE blk enc_round_neon(blk w, blk rk, int r)
{
    aes_inverse_neon v = aes_invert_neon(w);
    blk a = aes_from_inverse_neon(AES_NEON_T(enc1_io), AES_NEON_T(enc1_jo), v);
    blk a2 = aes_from_inverse_neon(AES_NEON_T(enc2_io), AES_NEON_T(enc2_jo),
                                   v);
    return veorq_u8(aes_mix_columns_neon(a, a2, AES_NEON_T(enc_rot1[r % 4]),
                                         AES_NEON_T(enc_rot3[r % 4])),
                    rk);
}

/* InvMixColumns by Horner's rule on the rotation: 14a + 11b + 13c + 9d. */
AES_NEON_INLINE blk dec_round_neon(blk w, blk rk, int r)
{
    aes_inverse_neon v = aes_invert_neon(w);
    const blk rot = AES_NEON_T(dec_rot1[r % 4]);
    blk x = aes_from_inverse_neon(AES_NEON_T(dec9_io), AES_NEON_T(dec9_jo), v);
    x = veorq_u8(aes_lookup_neon(x, rot),
                 aes_from_inverse_neon(AES_NEON_T(dec13_io),
                                       AES_NEON_T(dec13_jo), v));
    x = veorq_u8(aes_lookup_neon(x, rot),
                 aes_from_inverse_neon(AES_NEON_T(dec11_io),
                                       AES_NEON_T(dec11_jo), v));
    return veorq_u8(veorq_u8(aes_lookup_neon(x, rot),
                             aes_from_inverse_neon(AES_NEON_T(dec14_io),
                                                   AES_NEON_T(dec14_jo), v)),
                    rk);
}

/* The last round's SubBytes (or its inverse) in the standard basis, the
 * bytes put back in place after nr rounds' ShiftRows (a constant), and
 * the last round key. */
AES_NEON_INLINE blk last_round_neon(blk w, blk rk, blk t_io, blk t_jo,
                                    blk unplace, int nr)
{
    blk s = aes_from_inverse_neon(t_io, t_jo, aes_invert_neon(w));
    if (nr % 4)
        s = aes_lookup_neon(s, unplace);
    return veorq_u8(s, rk);
}

AES_NEON_INLINE void encrypt_blks_neon(const aes_key *k, blk *s, int n, int nr)
{
    blk rk = blk_load(k->enc[0]);
    AES_NEON_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = veorq_u8(aes_linear_neon(AES_NEON_T(enc_in_lo),
                                        AES_NEON_T(enc_in_hi), s[j]),
                        rk);
    AES_NEON_UNROLL_ROUNDS
    for (int r = 1; r < nr; r++) {
        rk = blk_load(k->enc[r]);
        AES_NEON_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = enc_round_neon(s[j], rk, r);
    }
    rk = blk_load(k->enc[nr]);
    AES_NEON_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = last_round_neon(s[j], rk, AES_NEON_T(sub_io),
                               AES_NEON_T(sub_jo),
                               AES_NEON_T(enc_unplace[nr % 4]), nr);
}

AES_NEON_INLINE void decrypt_blks_neon(const aes_key *k, blk *s, int n, int nr)
{
    blk rk = blk_load(k->dec[0]);
    AES_NEON_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = veorq_u8(aes_linear_neon(AES_NEON_T(dec_in_lo),
                                        AES_NEON_T(dec_in_hi), s[j]),
                        rk);
    AES_NEON_UNROLL_ROUNDS
    for (int r = 1; r < nr; r++) {
        rk = blk_load(k->dec[r]);
        AES_NEON_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = dec_round_neon(s[j], rk, r);
    }
    rk = blk_load(k->dec[nr]);
    AES_NEON_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = last_round_neon(s[j], rk, AES_NEON_T(inv_io),
                               AES_NEON_T(inv_jo),
                               AES_NEON_T(dec_unplace[nr % 4]), nr);
}

AES_NEON_INLINE void cipher_blks_neon(const aes_key *k, blk *s, int n, int nr,
                                      int decrypt)
{
    if (decrypt)
        decrypt_blks_neon(k, s, n, nr);
    else
        encrypt_blks_neon(k, s, n, nr);
}

/* ECB */

AES_NEON_INLINE void ecb_step_neon(const aes_key *k, uint8_t *out,
                                   const uint8_t *in, int n, int nr,
                                   int decrypt)
{
    blk s[AES_NEON_NVEC];
    AES_NEON_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = blk_load(in + 16 * j);
    cipher_blks_neon(k, s, n, nr, decrypt);
    AES_NEON_UNROLL
    for (int j = 0; j < n; j++)
        blk_store(out + 16 * j, s[j]);
}

AES_NEON_INLINE void ecb_blocks_neon(const aes_key *k, uint8_t *out,
                                     const uint8_t *in, size_t nblocks, int nr,
                                     int decrypt)
{
#define ECB_STEP(n)                                                           \
    (ecb_step_neon(k, out, in, n, nr, decrypt), in += 16 * (n),               \
     out += 16 * (n))
    AES_NEON_BATCHES(nblocks, ECB_STEP);
#undef ECB_STEP
}

void aes_encrypt_neon(const aes_key *k, uint8_t *out, const uint8_t *in,
                      size_t nblocks)
{
#define ECB_ENC(nr) ecb_blocks_neon(k, out, in, nblocks, nr, 0)
    AES_BY_ROUNDS(k, ECB_ENC);
#undef ECB_ENC
}

void aes_decrypt_neon(const aes_key *k, uint8_t *out, const uint8_t *in,
                      size_t nblocks)
{
#define ECB_DEC(nr) ecb_blocks_neon(k, out, in, nblocks, nr, 1)
    AES_BY_ROUNDS(k, ECB_DEC);
#undef ECB_DEC
}

/* out = the keystream s xored into in, n blocks. */
AES_NEON_INLINE void store_xor_neon(uint8_t *out, const blk *s,
                                    const uint8_t *in, int n)
{
    AES_NEON_UNROLL
    for (int j = 0; j < n; j++)
        blk_store(out + 16 * j, veorq_u8(s[j], blk_load(in + 16 * j)));
}

/* CTR: a 128-bit big-endian counter, kept as two native halves, high
 * first: byte-reversing each 64-bit lane of {high, low} gives the block. */

AES_NEON_INLINE void ctr_step_neon(const aes_key *k, uint64_t c[2],
                                   uint8_t *out, const uint8_t *in, int n,
                                   int nr)
{
    blk s[AES_NEON_NVEC];
    if (c[1] <= UINT64_MAX - (uint64_t)(n - 1)) {
        /* The low half takes the block index without a carry. */
        uint64x2_t base = vcombine_u64(vcreate_u64(c[0]), vcreate_u64(c[1]));
        AES_NEON_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = vrev64q_u8(vreinterpretq_u8_u64(vaddq_u64(
                base, vcombine_u64(vcreate_u64(0), vcreate_u64((uint64_t)j)))));
    } else {
        /* The low half carries inside this batch: once in 2^64 blocks. */
        uint64_t hi = c[0], lo = c[1];
        AES_NEON_UNROLL
        for (int j = 0; j < n; j++) {
            s[j] = vrev64q_u8(blk_of_u64(hi, lo));
            hi += ++lo == 0;
        }
    }
    c[1] += (uint64_t)n;
    c[0] += c[1] < (uint64_t)n;
    encrypt_blks_neon(k, s, n, nr);
    store_xor_neon(out, s, in, n);
}

AES_NEON_INLINE void ctr_blocks_neon(const aes_key *k, uint8_t ctr[16],
                                     uint8_t *out, const uint8_t *in,
                                     size_t nblocks, int nr)
{
    uint64_t c[2] = { aes_load64_be(ctr), aes_load64_be(ctr + 8) };
#define CTR_STEP(n)                                                           \
    (ctr_step_neon(k, c, out, in, n, nr), in += 16 * (n), out += 16 * (n))
    AES_NEON_BATCHES(nblocks, CTR_STEP);
#undef CTR_STEP
    aes_store64_be(ctr, c[0]);
    aes_store64_be(ctr + 8, c[1]);
}

void aes_ctr_neon(const aes_key *k, uint8_t ctr[16], uint8_t *out,
                  const uint8_t *in, size_t nblocks)
{
#define CTR_CALL(nr) ctr_blocks_neon(k, ctr, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, CTR_CALL);
#undef CTR_CALL
}

/* XCTR: the block index xored into the nonce's low quadword (a message
 * never reaches 2^64 blocks). */

AES_NEON_INLINE void xctr_step_neon(const aes_key *k, blk nonce, uint64_t *i,
                                    uint8_t *out, const uint8_t *in, int n,
                                    int nr)
{
    blk s[AES_NEON_NVEC];
    AES_NEON_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = veorq_u8(nonce, blk_of_u64(*i + (uint64_t)j, 0));
    *i += (uint64_t)n;
    encrypt_blks_neon(k, s, n, nr);
    store_xor_neon(out, s, in, n);
}

AES_NEON_INLINE void xctr_blocks_neon(const aes_key *k,
                                      const uint8_t nonce[16], uint64_t i,
                                      uint8_t *out, const uint8_t *in,
                                      size_t nblocks, int nr)
{
    blk n0 = blk_load(nonce);
#define XCTR_STEP(n)                                                          \
    (xctr_step_neon(k, n0, &i, out, in, n, nr), in += 16 * (n),               \
     out += 16 * (n))
    AES_NEON_BATCHES(nblocks, XCTR_STEP);
#undef XCTR_STEP
}

void aes_xctr_neon(const aes_key *k, const uint8_t nonce[16], uint64_t first,
                   uint8_t *out, const uint8_t *in, size_t nblocks)
{
#define XCTR_CALL(nr) xctr_blocks_neon(k, nonce, first, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, XCTR_CALL);
#undef XCTR_CALL
}

/* CBC. Encryption is one chain, a block at a time. */

AES_NEON_INLINE void cbc_encrypt_blocks_neon(const aes_key *k,
                                             const uint8_t iv[16],
                                             uint8_t *out, const uint8_t *in,
                                             size_t nblocks, int nr)
{
    blk c = blk_load(iv);
    for (size_t i = 0; i < nblocks; i++) {
        c = veorq_u8(c, blk_load(in + 16 * i));
        encrypt_blks_neon(k, &c, 1, nr);
        blk_store(out + 16 * i, c);
    }
}

void aes_cbc_encrypt_neon(const aes_key *k, const uint8_t iv[16],
                          uint8_t *out, const uint8_t *in, size_t nblocks)
{
#define CBC_ENC(nr) cbc_encrypt_blocks_neon(k, iv, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, CBC_ENC);
#undef CBC_ENC
}

/* The batch's ciphertext is loaded before anything is stored, so out may
 * equal in. */
AES_NEON_INLINE void cbc_dec_step_neon(const aes_key *k, blk *chain,
                                       uint8_t *out, const uint8_t *in, int n,
                                       int nr)
{
    blk c[AES_NEON_NVEC], s[AES_NEON_NVEC];
    AES_NEON_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = c[j] = blk_load(in + 16 * j);
    decrypt_blks_neon(k, s, n, nr);
    AES_NEON_UNROLL
    for (int j = 0; j < n; j++)
        blk_store(out + 16 * j, veorq_u8(s[j], j ? c[j - 1] : *chain));
    *chain = c[n - 1];
}

AES_NEON_INLINE void cbc_decrypt_blocks_neon(const aes_key *k, uint8_t iv[16],
                                             uint8_t *out, const uint8_t *in,
                                             size_t nblocks, int nr)
{
    blk chain = blk_load(iv);
#define CBC_STEP(n)                                                           \
    (cbc_dec_step_neon(k, &chain, out, in, n, nr), in += 16 * (n),            \
     out += 16 * (n))
    AES_NEON_BATCHES(nblocks, CBC_STEP);
#undef CBC_STEP
    blk_store(iv, chain);
}

void aes_cbc_decrypt_neon(const aes_key *k, uint8_t iv[16], uint8_t *out,
                          const uint8_t *in, size_t nblocks)
{
#define CBC_DEC(nr) cbc_decrypt_blocks_neon(k, iv, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, CBC_DEC);
#undef CBC_DEC
}

/* XTS. The tweak times x: each 64-bit lane shifted left by one; the bit out
 * of the low one goes into the high one, the bit out of the high one comes
 * back as 0x87 (x^128 = x^7 + x^2 + x + 1). */

AES_NEON_INLINE blk mulx_neon(blk t)
{
    int64x2_t v = vreinterpretq_s64_u8(t);
    /* Each lane's top bit as a mask, the lanes swapped. */
    int64x2_t top = vshrq_n_s64(v, 63);
    uint64x2_t carries = vreinterpretq_u64_s64(vextq_s64(top, top, 1));
    uint64x2_t fold = vcombine_u64(vcreate_u64(0x87), vcreate_u64(1));
    return vreinterpretq_u8_u64(
        veorq_u64(vshlq_n_u64(vreinterpretq_u64_s64(v), 1),
                  vandq_u64(carries, fold)));
}

AES_NEON_INLINE void xts_step_neon(const aes_key *k, blk *t, uint8_t *out,
                                   const uint8_t *in, int n, int nr,
                                   int decrypt)
{
    blk s[AES_NEON_NVEC], tw[AES_NEON_NVEC];
    AES_NEON_UNROLL
    for (int j = 0; j < n; j++) {
        tw[j] = *t;
        *t = mulx_neon(*t);
        s[j] = veorq_u8(blk_load(in + 16 * j), tw[j]);
    }
    cipher_blks_neon(k, s, n, nr, decrypt);
    AES_NEON_UNROLL
    for (int j = 0; j < n; j++)
        blk_store(out + 16 * j, veorq_u8(s[j], tw[j]));
}

AES_NEON_INLINE void xts_blocks_neon(const aes_key *k, uint8_t tweak[16],
                                     uint8_t *out, const uint8_t *in,
                                     size_t nblocks, int nr, int decrypt)
{
    blk t = blk_load(tweak);
#define XTS_STEP(n)                                                           \
    (xts_step_neon(k, &t, out, in, n, nr, decrypt), in += 16 * (n),           \
     out += 16 * (n))
    AES_NEON_BATCHES(nblocks, XTS_STEP);
#undef XTS_STEP
    blk_store(tweak, t);
}

void aes_xts_encrypt_neon(const aes_key *k, uint8_t tweak[16], uint8_t *out,
                          const uint8_t *in, size_t nblocks)
{
#define XTS_ENC(nr) xts_blocks_neon(k, tweak, out, in, nblocks, nr, 0)
    AES_BY_ROUNDS(k, XTS_ENC);
#undef XTS_ENC
}

void aes_xts_decrypt_neon(const aes_key *k, uint8_t tweak[16], uint8_t *out,
                          const uint8_t *in, size_t nblocks)
{
#define XTS_DEC(nr) xts_blocks_neon(k, tweak, out, in, nblocks, nr, 1)
    AES_BY_ROUNDS(k, XTS_DEC);
#undef XTS_DEC
}

/* GCM's CTR: with each 32-bit word byte-reversed, the counter block's last
 * word is GCM's 32-bit counter as a native lane, and a 32-bit add wraps it
 * as inc32 does. */

AES_NEON_INLINE void gcm_ctr_step_neon(const aes_key *k, uint32x4_t *c,
                                       uint8_t *out, const uint8_t *in, int n,
                                       int nr)
{
    blk s[AES_NEON_NVEC];
    AES_NEON_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = vrev32q_u8(vreinterpretq_u8_u32(
            vaddq_u32(*c, vsetq_lane_u32((uint32_t)j, vdupq_n_u32(0), 3))));
    *c = vaddq_u32(*c, vsetq_lane_u32((uint32_t)n, vdupq_n_u32(0), 3));
    encrypt_blks_neon(k, s, n, nr);
    store_xor_neon(out, s, in, n);
}

AES_NEON_INLINE void gcm_ctr_blocks_neon(const aes_key *k, uint8_t ctr[16],
                                         uint8_t *out, const uint8_t *in,
                                         size_t nblocks, int nr)
{
    uint32x4_t c = vreinterpretq_u32_u8(vrev32q_u8(blk_load(ctr)));
#define GCM_STEP(n)                                                           \
    (gcm_ctr_step_neon(k, &c, out, in, n, nr), in += 16 * (n),                \
     out += 16 * (n))
    AES_NEON_BATCHES(nblocks, GCM_STEP);
#undef GCM_STEP
    blk_store(ctr, vrev32q_u8(vreinterpretq_u8_u32(c)));
}

static void gcm_ctr_neon(const aes_key *k, uint8_t ctr[16], uint8_t *out,
                         const uint8_t *in, size_t nblocks)
{
#define GCM_CTR(nr) gcm_ctr_blocks_neon(k, ctr, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, GCM_CTR);
#undef GCM_CTR
}

void aes_gcm_encrypt_neon(const aes_key *k, const ghash_key *g,
                          uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                          const uint8_t *in, size_t nblocks)
{
    gcm_ctr_neon(k, ctr, out, in, nblocks);
    ghash_update_generic(g, y, out, nblocks);
}

void aes_gcm_decrypt_neon(const aes_key *k, const ghash_key *g,
                          uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                          const uint8_t *in, size_t nblocks)
{
    ghash_update_generic(g, y, in, nblocks); /* before out overwrites in */
    gcm_ctr_neon(k, ctr, out, in, nblocks);
}
