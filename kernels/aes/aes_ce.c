/* AES and GHASH with the ARMv8 Cryptography Extensions (AESE, AESD,
 * AESMC, AESIMC, PMULL), one block per register, eight blocks in flight:
 * the aarch64 counterpart of aes_aesni.c, compiled with
 * -march=armv8-a+crypto.
 *
 * AESE xors its round key in before SubBytes and ShiftRows, where AESENC
 * adds it after MixColumns, so a round here is AESE with key r then
 * AESMC, and the cipher ends with AESE by the next to last key and an xor
 * of the last. That xor is folded into whatever the block is xored with
 * next (the data in CTR, the tweak in XTS, the chaining value in CBC),
 * and in CBC encryption the chain carries no xor of its own at all: the
 * next plaintext goes in with round key 0 as AESE's key. Each AESE is
 * followed at once by its AESMC, the pair that Cortex and Neoverse cores
 * fuse. Decryption is AESD and AESIMC with the equivalent inverse
 * cipher's schedule (aes.h's dec), which is the one AES-NI uses too.
 *
 * Batches of 8 blocks keep enough independent rounds in flight to cover
 * AESE's latency on every core modelled (docs/arm64.md); a message's last
 * blocks go through batches of 4, 2 and 1. GHASH and POLYVAL use PMULL
 * with Karatsuba's three products a block (kernels/gf128/clmul_ce.h), a
 * batch of 8 blocks against 8 powers of H and one reduction; in GCM and
 * in XCTR with POLYVAL that hash runs between the AES rounds of the next
 * batch, so that the AES and the carry-less multiplies issue together.
 * Everything is constant-time, key expansion included (SubWord is AESE on
 * a broadcast word). Every function is exported as <name>_ce or
 * force-inlined into one; nothing hands work to another ISA. */
#include <arm_neon.h>
#include <string.h>

#include "aes_internal.h"
#include "../gf128/clmul_ce.h"
#include "../polyval/polyval_ce.h"
#include "../unroll.h"

#define CE_INLINE static inline __attribute__((always_inline))
#define CE_UNROLL CB_UNROLL(8)
#define CE_UNROLL_ROUNDS CB_UNROLL(14)
#define CE_BATCH 8

_Static_assert(GHASH_POWERS == POLYVAL_POWERS,
               "GHASH's powers are laid out as POLYVAL's (pv_ce_powers)");

typedef uint8x16_t blk;

/* Runs STEP(n) on batches of n blocks: whole batches of CE_BATCH, then at
 * most one each of 4, 2 and 1. STEP advances the pointers. */
#define CE_BATCHES(nblocks, STEP)                                             \
    do {                                                                      \
        for (; (nblocks) >= CE_BATCH; (nblocks) -= CE_BATCH)                  \
            STEP(CE_BATCH);                                                   \
        if ((nblocks) >= 4) {                                                 \
            STEP(4);                                                          \
            (nblocks) -= 4;                                                   \
        }                                                                     \
        if ((nblocks) >= 2) {                                                 \
            STEP(2);                                                          \
            (nblocks) -= 2;                                                   \
        }                                                                     \
        if ((nblocks) >= 1) {                                                 \
            STEP(1);                                                          \
            (nblocks) -= 1;                                                   \
        }                                                                     \
    } while (0)

CE_INLINE blk blk_load(const uint8_t *p)
{
    return vld1q_u8(p);
}

CE_INLINE void blk_store(uint8_t *p, blk b)
{
    vst1q_u8(p, b);
}

CE_INLINE blk blk_xor(blk a, blk b)
{
    return veorq_u8(a, b);
}

CE_INLINE uint64x2_t blk_u64(blk b)
{
    return vreinterpretq_u64_u8(b);
}

CE_INLINE blk u64_blk(uint64x2_t v)
{
    return vreinterpretq_u8_u64(v);
}

/* The 16 bytes reversed: GCM's bit-reflected field elements become
 * little-endian integers, as PMULL reads them. */
CE_INLINE blk blk_bswap(blk b)
{
    static const uint8_t reverse[16] = { 15, 14, 13, 12, 11, 10, 9, 8,
                                         7,  6,  5,  4,  3,  2,  1, 0 };
    return vqtbl1q_u8(b, vld1q_u8(reverse));
}

/* One direction's round keys, loaded once per call. */
typedef struct ce_keys {
    blk rk[AES_MAX_ROUNDS + 1];
} ce_keys;

CE_INLINE ce_keys ce_load_keys(const aes_key *k, int nr, int decrypt)
{
    ce_keys ks;
    CE_UNROLL_ROUNDS
    for (int r = 0; r <= nr; r++)
        ks.rk[r] = blk_load(decrypt ? k->dec[r] : k->enc[r]);
    return ks;
}

/* One round with key rk, as the instructions order it: key, then
 * (Inv)SubBytes and (Inv)ShiftRows, then (Inv)MixColumns. */
CE_INLINE blk ce_round(blk s, blk rk, int decrypt)
{
    return decrypt ? vaesimcq_u8(vaesdq_u8(s, rk)) : vaesmcq_u8(vaeseq_u8(s, rk));
}

CE_INLINE blk ce_last_round(blk s, blk rk, int decrypt)
{
    return decrypt ? vaesdq_u8(s, rk) : vaeseq_u8(s, rk);
}

/* Rounds from..nr-2 in full, then the last one without its final key,
 * across n blocks: the caller xors in ks->rk[nr], with whatever else. */
CE_INLINE void ce_rounds_from(const ce_keys *ks, blk *s, int n, int from,
                              int nr, int decrypt)
{
    CE_UNROLL_ROUNDS
    for (int r = from; r < nr - 1; r++)
        CE_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = ce_round(s[j], ks->rk[r], decrypt);
    CE_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = ce_last_round(s[j], ks->rk[nr - 1], decrypt);
}

CE_INLINE void ce_rounds(const ce_keys *ks, blk *s, int n, int nr,
                         int decrypt)
{
    ce_rounds_from(ks, s, n, 0, nr, decrypt);
}

/* SubWord: on a word broadcast to every column ShiftRows moves nothing, so
 * AESE with a zero key is SubBytes. */
static uint32_t aes_sub_word_ce(uint32_t w)
{
    blk v = vaeseq_u8(vreinterpretq_u8_u32(vdupq_n_u32(w)), vdupq_n_u8(0));
    return vgetq_lane_u32(vreinterpretq_u32_u8(v), 0);
}

void aes_expand_ce(aes_key *k, const uint8_t *key, size_t key_len,
                   int decrypt)
{
    aes_expand_enc(k, key, key_len, aes_sub_word_ce);
    unsigned nr = k->rounds;
    if (!decrypt)
        return;
    blk_store(k->dec[0], blk_load(k->enc[nr]));
    for (unsigned r = 1; r < nr; r++)
        blk_store(k->dec[r], vaesimcq_u8(blk_load(k->enc[nr - r])));
    blk_store(k->dec[nr], blk_load(k->enc[0]));
}

/* ECB */

CE_INLINE void ecb_step(const ce_keys *ks, uint8_t *out, const uint8_t *in,
                        int n, int nr, int decrypt)
{
    blk s[CE_BATCH];
    CE_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = blk_load(in + 16 * j);
    ce_rounds(ks, s, n, nr, decrypt);
    CE_UNROLL
    for (int j = 0; j < n; j++)
        blk_store(out + 16 * j, blk_xor(s[j], ks->rk[nr]));
}

CE_INLINE void ecb_blocks(const aes_key *k, uint8_t *out, const uint8_t *in,
                          size_t nblocks, int nr, int decrypt)
{
    ce_keys ks = ce_load_keys(k, nr, decrypt);
#define ECB_STEP(n)                                                           \
    (ecb_step(&ks, out, in, n, nr, decrypt), in += 16 * (n), out += 16 * (n))
    CE_BATCHES(nblocks, ECB_STEP);
#undef ECB_STEP
}

void aes_encrypt_ce(const aes_key *k, uint8_t *out, const uint8_t *in,
                    size_t nblocks)
{
#define ECB_ENC(nr) ecb_blocks(k, out, in, nblocks, nr, 0)
    AES_BY_ROUNDS(k, ECB_ENC);
#undef ECB_ENC
}

void aes_decrypt_ce(const aes_key *k, uint8_t *out, const uint8_t *in,
                    size_t nblocks)
{
#define ECB_DEC(nr) ecb_blocks(k, out, in, nblocks, nr, 1)
    AES_BY_ROUNDS(k, ECB_DEC);
#undef ECB_DEC
}

/* out = s ^ the last round key ^ in, block by block: the keystream's last
 * xor and the data's in one, the key and the data xored first, off the
 * AES chain. */
CE_INLINE void store_xor_blocks(const ce_keys *ks, uint8_t *out,
                                const blk *s, const uint8_t *in, int n,
                                int nr)
{
    CE_UNROLL
    for (int j = 0; j < n; j++)
        blk_store(out + 16 * j,
                  blk_xor(s[j], blk_xor(ks->rk[nr], blk_load(in + 16 * j))));
}

/* CTR: a 128-bit big-endian counter, kept as two native halves in a
 * vector (high, low); REV64 gives each half its big-endian bytes. */

CE_INLINE void ctr_step(const ce_keys *ks, uint64x2_t *ctr, uint8_t *out,
                        const uint8_t *in, int n, int nr)
{
    blk s[CE_BATCH];
    uint64_t hi = vgetq_lane_u64(*ctr, 0), lo = vgetq_lane_u64(*ctr, 1);
    if ((lo & 0xff) <= (uint64_t)(0x100 - n)) {
        /* No block of the batch carries out of the counter's lowest byte
         * (31 batches in 32 of eight blocks, all of them from a counter
         * that is a multiple of eight): the block reversed once and each
         * block's index added to its last byte, as the x86 rows do
         * (aes_x86.h's counters_in_last_byte): one add a block, not an
         * add and a REV64. */
        blk base = vrev64q_u8(u64_blk(*ctr));
        CE_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = vaddq_u8(base, vsetq_lane_u8((uint8_t)j, vdupq_n_u8(0), 15));
    } else if (lo <= UINT64_MAX - (uint64_t)(n - 1)) {
        CE_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = vrev64q_u8(u64_blk(vaddq_u64(*ctr, (uint64x2_t){ 0, (uint64_t)j })));
    } else {
        /* The low half carries inside this batch: once in 2^64 blocks. */
        CE_UNROLL
        for (int j = 0; j < n; j++) {
            s[j] = vrev64q_u8(u64_blk((uint64x2_t){ hi, lo }));
            hi += ++lo == 0;
        }
    }
    lo = vgetq_lane_u64(*ctr, 1) + (uint64_t)n;
    hi = vgetq_lane_u64(*ctr, 0) + (lo < (uint64_t)n);
    *ctr = (uint64x2_t){ hi, lo };
    ce_rounds(ks, s, n, nr, 0);
    store_xor_blocks(ks, out, s, in, n, nr);
}

CE_INLINE void ctr_blocks(const aes_key *k, uint8_t ctr[16], uint8_t *out,
                          const uint8_t *in, size_t nblocks, int nr)
{
    ce_keys ks = ce_load_keys(k, nr, 0);
    uint64x2_t c = blk_u64(vrev64q_u8(blk_load(ctr)));
#define CTR_STEP(n)                                                           \
    (ctr_step(&ks, &c, out, in, n, nr), in += 16 * (n), out += 16 * (n))
    CE_BATCHES(nblocks, CTR_STEP);
#undef CTR_STEP
    blk_store(ctr, vrev64q_u8(u64_blk(c)));
}

void aes_ctr_ce(const aes_key *k, uint8_t ctr[16], uint8_t *out,
                const uint8_t *in, size_t nblocks)
{
#define CTR_CALL(nr) ctr_blocks(k, ctr, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, CTR_CALL);
#undef CTR_CALL
}

/* XCTR: the block index xored into the nonce's low quadword (a message
 * never reaches 2^64 blocks). */

CE_INLINE void xctr_counters(blk *s, blk nonce, uint64x2_t *ctr, int n)
{
    CE_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = blk_xor(nonce, u64_blk(vaddq_u64(*ctr, (uint64x2_t){ (uint64_t)j, 0 })));
    *ctr = vaddq_u64(*ctr, (uint64x2_t){ (uint64_t)n, 0 });
}

CE_INLINE void xctr_step(const ce_keys *ks, blk nonce, uint64x2_t *ctr,
                         uint8_t *out, const uint8_t *in, int n, int nr)
{
    blk s[CE_BATCH];
    xctr_counters(s, nonce, ctr, n);
    ce_rounds(ks, s, n, nr, 0);
    store_xor_blocks(ks, out, s, in, n, nr);
}

CE_INLINE void xctr_blocks(const ce_keys *ks, blk nonce, uint64x2_t *c,
                           uint8_t *out, const uint8_t *in, size_t nblocks,
                           int nr)
{
#define XCTR_STEP(n)                                                          \
    (xctr_step(ks, nonce, c, out, in, n, nr), in += 16 * (n), out += 16 * (n))
    CE_BATCHES(nblocks, XCTR_STEP);
#undef XCTR_STEP
}

CE_INLINE void xctr_call(const aes_key *k, const uint8_t nonce[16],
                         uint64_t first, uint8_t *out, const uint8_t *in,
                         size_t nblocks, int nr)
{
    ce_keys ks = ce_load_keys(k, nr, 0);
    uint64x2_t c = { first, 0 };
    xctr_blocks(&ks, blk_load(nonce), &c, out, in, nblocks, nr);
}

void aes_xctr_ce(const aes_key *k, const uint8_t nonce[16], uint64_t first,
                 uint8_t *out, const uint8_t *in, size_t nblocks)
{
#define XCTR_CALL(nr) xctr_call(k, nonce, first, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, XCTR_CALL);
#undef XCTR_CALL
}

/* XCTR with POLYVAL of its output (HCTR2's second half), stitched as GCM
 * is below: each whole batch's POLYVAL, with polyval_ce.h's pieces and the
 * POLYVAL row's key, runs between the AES rounds of the next batch; the
 * last batch, and the blocks after it, are hashed after their XCTR. */

CE_INLINE uint64x2_t xctr_pv_step(const ce_keys *ks, const polyval_key *pk,
                                  blk nonce, uint64x2_t *ctr, uint64x2_t acc,
                                  uint8_t *out, const uint8_t *in, int nr,
                                  const uint8_t *hashed)
{
    const int n = CE_BATCH;
    blk s[CE_BATCH];
    gf128_ce_sum sum = gf128_ce_sum_zero();
    xctr_counters(s, nonce, ctr, n);
    /* One POLYVAL block after each of the first 8 rounds: AES has at
     * least 10. */
    CE_UNROLL_ROUNDS
    for (int r = 0; r < nr - 1; r++) {
        CE_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = ce_round(s[j], ks->rk[r], 0);
        if (r < n) {
            uint64x2_t x = pv_ce_load(hashed + 16 * r);
            pv_ce_add(&sum, pk, r == 0 ? veorq_u64(x, acc) : x, n, r);
        }
    }
    CE_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = ce_last_round(s[j], ks->rk[nr - 1], 0);
    store_xor_blocks(ks, out, s, in, n, nr);
    return gf128_ce_reduce(sum);
}

CE_INLINE void xctr_polyval_call(const aes_key *k, const polyval_key *pk,
                                 const uint8_t nonce[16], uint64_t first,
                                 uint8_t acc[16], uint8_t *out,
                                 const uint8_t *in, size_t nblocks, int nr)
{
    ce_keys ks = ce_load_keys(k, nr, 0);
    blk n0 = blk_load(nonce);
    uint64x2_t c = { first, 0 }, y = pv_ce_load(acc);
    size_t done = 0;
    if (nblocks >= CE_BATCH) {
        xctr_step(&ks, n0, &c, out, in, CE_BATCH, nr);
        for (done = CE_BATCH; nblocks - done >= CE_BATCH; done += CE_BATCH)
            y = xctr_pv_step(&ks, pk, n0, &c, y, out + 16 * done,
                             in + 16 * done, nr, out + 16 * (done - CE_BATCH));
        y = pv_ce_blocks(pk, y, out + 16 * (done - CE_BATCH), CE_BATCH);
    }
    xctr_blocks(&ks, n0, &c, out + 16 * done, in + 16 * done, nblocks - done,
                nr);
    pv_ce_store(acc, pv_ce_update(pk, y, out + 16 * done, nblocks - done));
}

void aes_xctr_polyval_ce(const aes_key *k, const polyval_key *pk,
                         const uint8_t nonce[16], uint64_t first,
                         uint8_t acc[16], uint8_t *out, const uint8_t *in,
                         size_t nblocks)
{
#define XCTR_PV_CALL(nr)                                                      \
    xctr_polyval_call(k, pk, nonce, first, acc, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, XCTR_PV_CALL);
#undef XCTR_PV_CALL
}

/* CBC. Encryption is one chain, of AES rounds only: AESE takes the next
 * plaintext xored with round key 0 and the last round key as its key, so
 * the chain carries the block before the last key is added and the xors
 * happen off it. */

CE_INLINE void cbc_encrypt_blocks(const aes_key *k, const uint8_t iv[16],
                                  uint8_t *out, const uint8_t *in,
                                  size_t nblocks, int nr)
{
    ce_keys ks = ce_load_keys(k, nr, 0);
    blk last = ks.rk[nr], first_last = blk_xor(ks.rk[0], last);
    blk s = blk_xor(blk_load(iv), last); /* s ^ last is the chaining value */
    for (size_t i = 0; i < nblocks; i++) {
        s = vaesmcq_u8(vaeseq_u8(s, blk_xor(blk_load(in + 16 * i), first_last)));
        ce_rounds_from(&ks, &s, 1, 1, nr, 0);
        blk_store(out + 16 * i, blk_xor(s, last));
    }
}

void aes_cbc_encrypt_ce(const aes_key *k, const uint8_t iv[16],
                        uint8_t *out, const uint8_t *in, size_t nblocks)
{
#define CBC_ENC(nr) cbc_encrypt_blocks(k, iv, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, CBC_ENC);
#undef CBC_ENC
}

/* Decryption: P_j = D(C_j) ^ C_j-1, the batch's ciphertext kept in
 * registers, so in place works; D's last key goes in with C_j-1. */
CE_INLINE void cbc_dec_step(const ce_keys *ks, blk *chain, uint8_t *out,
                            const uint8_t *in, int n, int nr)
{
    blk s[CE_BATCH], c[CE_BATCH];
    CE_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = c[j] = blk_load(in + 16 * j);
    ce_rounds(ks, s, n, nr, 1);
    CE_UNROLL
    for (int j = 0; j < n; j++)
        blk_store(out + 16 * j,
                  blk_xor(s[j], blk_xor(ks->rk[nr], j ? c[j - 1] : *chain)));
    *chain = c[n - 1];
}

CE_INLINE void cbc_decrypt_blocks(const aes_key *k, uint8_t iv[16],
                                  uint8_t *out, const uint8_t *in,
                                  size_t nblocks, int nr)
{
    ce_keys ks = ce_load_keys(k, nr, 1);
    blk chain = blk_load(iv);
#define CBC_STEP(n)                                                           \
    (cbc_dec_step(&ks, &chain, out, in, n, nr), in += 16 * (n),               \
     out += 16 * (n))
    CE_BATCHES(nblocks, CBC_STEP);
#undef CBC_STEP
    blk_store(iv, chain);
}

void aes_cbc_decrypt_ce(const aes_key *k, uint8_t iv[16], uint8_t *out,
                        const uint8_t *in, size_t nblocks)
{
#define CBC_DEC(nr) cbc_decrypt_blocks(k, iv, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, CBC_DEC);
#undef CBC_DEC
}

/* XTS. The tweak, a little-endian 128-bit integer in a vector, times x
 * per block: each half shifted left by one, the bit shifted out of the low
 * half carried into the high one, and x^128 = x^7 + x^2 + x + 1 (0x87)
 * folded back for the bit out of the high half; the carries come from an
 * arithmetic shift of the swapped halves, without a branch. The chain of
 * tweaks is short beside the batch's AES rounds. */

CE_INLINE uint64x2_t xts_mulx(uint64x2_t t)
{
    int64x2_t top = vshrq_n_s64(vreinterpretq_s64_u64(t), 63);
    uint64x2_t carry = vandq_u64(vreinterpretq_u64_s64(vextq_s64(top, top, 1)),
                                 (uint64x2_t){ 0x87, 1 });
    return veorq_u64(vshlq_n_u64(t, 1), carry);
}

/* n blocks with tweaks from *t, which is advanced past them. The last
 * round key goes in with the tweak. */
CE_INLINE void xts_step(const ce_keys *ks, uint64x2_t *t, uint8_t *out,
                        const uint8_t *in, int n, int nr, int decrypt)
{
    blk s[CE_BATCH], tw[CE_BATCH];
    CE_UNROLL
    for (int j = 0; j < n; j++) {
        tw[j] = u64_blk(*t);
        *t = xts_mulx(*t);
        s[j] = blk_xor(blk_load(in + 16 * j), tw[j]);
    }
    ce_rounds(ks, s, n, nr, decrypt);
    CE_UNROLL
    for (int j = 0; j < n; j++)
        blk_store(out + 16 * j, blk_xor(s[j], blk_xor(ks->rk[nr], tw[j])));
}

CE_INLINE void xts_blocks(const aes_key *k, uint8_t tweak[16], uint8_t *out,
                          const uint8_t *in, size_t nblocks, int nr,
                          int decrypt)
{
    ce_keys ks = ce_load_keys(k, nr, decrypt);
    uint64x2_t t = blk_u64(blk_load(tweak));
#define XTS_STEP(n)                                                           \
    (xts_step(&ks, &t, out, in, n, nr, decrypt), in += 16 * (n),              \
     out += 16 * (n))
    CE_BATCHES(nblocks, XTS_STEP);
#undef XTS_STEP
    blk_store(tweak, u64_blk(t));
}

void aes_xts_encrypt_ce(const aes_key *k, uint8_t tweak[16], uint8_t *out,
                        const uint8_t *in, size_t nblocks)
{
#define XTS_ENC(nr) xts_blocks(k, tweak, out, in, nblocks, nr, 0)
    AES_BY_ROUNDS(k, XTS_ENC);
#undef XTS_ENC
}

void aes_xts_decrypt_ce(const aes_key *k, uint8_t tweak[16], uint8_t *out,
                        const uint8_t *in, size_t nblocks)
{
#define XTS_DEC(nr) xts_blocks(k, tweak, out, in, nblocks, nr, 1)
    AES_BY_ROUNDS(k, XTS_DEC);
#undef XTS_DEC
}

/* GHASH on byte-reversed blocks, as on x86 (aes_x86.h says why): the key
 * powers are stored times x^-1 and the product is POLYVAL's, reduced once
 * per batch. htab[i] = H^(GHASH_POWERS - i) so twisted, hkara[i] its
 * halves' xor. */

/* s += block i of a batch of n at p (y added to the first) times its
 * power of H. */
CE_INLINE void gh_add(const ghash_key *g, gf128_ce_sum *s, uint64x2_t y,
                      const uint8_t *p, int i, int n)
{
    int power = GHASH_POWERS - n + i;
    uint64x2_t x = blk_u64(blk_bswap(blk_load(p + 16 * i)));
    if (i == 0)
        x = veorq_u64(x, y);
    gf128_ce_mul_add(s, x, blk_u64(blk_load(g->htab[power])),
                     blk_u64(blk_load(g->hkara[power])));
}

/* y continued over n <= GHASH_POWERS blocks at p, reduced once. */
CE_INLINE uint64x2_t gh_blocks(const ghash_key *g, uint64x2_t y,
                               const uint8_t *p, int n)
{
    gf128_ce_sum s = gf128_ce_sum_zero();
    if (n == 0)
        return y;
    CE_UNROLL
    for (int i = 0; i < n; i++)
        gh_add(g, &s, y, p, i, n);
    return gf128_ce_reduce(s);
}

CE_INLINE uint64x2_t gh_update(const ghash_key *g, uint64x2_t y,
                               const uint8_t *p, size_t nblocks)
{
    for (; nblocks >= CE_BATCH; nblocks -= CE_BATCH, p += 16 * CE_BATCH)
        y = gh_blocks(g, y, p, CE_BATCH);
    return gh_blocks(g, y, p, (int)nblocks);
}

void ghash_init_ce(ghash_key *g, const uint8_t h[16])
{
    /* H times x^-1: the reversed H shifted left by one, and x^-1 =
     * x^127 + x^6 + x + 1 (reversed: 0xc2 << 120 | 1) added when the bit
     * shifted out (the coefficient of x^0) is set. */
    uint64x2_t r = blk_u64(blk_bswap(blk_load(h)));
    uint64_t lo = vgetq_lane_u64(r, 0), hi = vgetq_lane_u64(r, 1),
             mask = -(hi >> 63);
    hi = (hi << 1 | lo >> 63) ^ (mask & GF128_CE_POLY_QWORD);
    lo = (lo << 1) ^ (mask & 1);
    memset(g, 0, sizeof *g);
    pv_ce_powers(g->htab, (uint64x2_t){ lo, hi });
    for (int i = 0; i < GHASH_POWERS; i++) {
        uint64x2_t p = blk_u64(blk_load(g->htab[i]));
        blk_store(g->hkara[i], u64_blk(veorq_u64(p, vextq_u64(p, p, 1))));
    }
}

void ghash_update_ce(const ghash_key *g, uint8_t y[16], const uint8_t *in,
                     size_t nblocks)
{
    uint64x2_t h = blk_u64(blk_bswap(blk_load(y)));
    blk_store(y, blk_bswap(u64_blk(gh_update(g, h, in, nblocks))));
}

/* GCM. The counter block is kept with every word byte-swapped (REV32), so
 * that its last word is GCM's 32-bit counter as a native integer, which a
 * word add wraps as inc32 does. */

CE_INLINE void gcm_counters(blk *s, uint32x4_t *ctr, int n)
{
    CE_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = vrev32q_u8(vreinterpretq_u8_u32(
            vaddq_u32(*ctr, (uint32x4_t){ 0, 0, 0, (uint32_t)j })));
    *ctr = vaddq_u32(*ctr, (uint32x4_t){ 0, 0, 0, (uint32_t)n });
}

/* n blocks of CTR; with hash, the batch of CE_BATCH blocks at hashed is
 * hashed into y between the rounds, one block after each of the first 8
 * (AES has at least 10). Returns y. */
CE_INLINE uint64x2_t gcm_step(const ce_keys *ks, const ghash_key *g,
                              uint32x4_t *ctr, uint64x2_t y, uint8_t *out,
                              const uint8_t *in, int n, int nr,
                              const uint8_t *hashed, int hash)
{
    blk s[CE_BATCH];
    gf128_ce_sum a = gf128_ce_sum_zero();
    gcm_counters(s, ctr, n);
    CE_UNROLL_ROUNDS
    for (int r = 0; r < nr - 1; r++) {
        CE_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = ce_round(s[j], ks->rk[r], 0);
        if (hash && r < CE_BATCH)
            gh_add(g, &a, y, hashed, r, CE_BATCH);
    }
    CE_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = ce_last_round(s[j], ks->rk[nr - 1], 0);
    store_xor_blocks(ks, out, s, in, n, nr);
    return hash ? gf128_ce_reduce(a) : y;
}

/* Encryption hashes the previous batch's ciphertext while it encrypts the
 * next one; the last whole batch is hashed on its own, and so are the
 * blocks after it, once they are all written. */
CE_INLINE void gcm_encrypt_blocks(const aes_key *k, const ghash_key *g,
                                  uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                                  const uint8_t *in, size_t nblocks, int nr)
{
    ce_keys ks = ce_load_keys(k, nr, 0);
    uint32x4_t c = vreinterpretq_u32_u8(vrev32q_u8(blk_load(ctr)));
    uint64x2_t h = blk_u64(blk_bswap(blk_load(y)));
    uint32_t ctr_end = aes_load32_be(ctr + 12) + (uint32_t)nblocks;
    if (nblocks >= CE_BATCH) {
        gcm_step(&ks, g, &c, h, out, in, CE_BATCH, nr, NULL, 0);
        for (nblocks -= CE_BATCH; nblocks >= CE_BATCH; nblocks -= CE_BATCH) {
            in += 16 * CE_BATCH;
            out += 16 * CE_BATCH;
            h = gcm_step(&ks, g, &c, h, out, in, CE_BATCH, nr,
                         out - 16 * CE_BATCH, 1);
        }
        h = gh_blocks(g, h, out, CE_BATCH);
        in += 16 * CE_BATCH;
        out += 16 * CE_BATCH;
    }
    uint8_t *rest = out;
    size_t rest_blocks = nblocks;
#define GCM_ENC_STEP(n)                                                       \
    (gcm_step(&ks, g, &c, h, out, in, n, nr, NULL, 0), in += 16 * (n),        \
     out += 16 * (n))
    CE_BATCHES(nblocks, GCM_ENC_STEP);
#undef GCM_ENC_STEP
    h = gh_blocks(g, h, rest, (int)rest_blocks);
    aes_store32_be(ctr + 12, ctr_end);
    blk_store(y, blk_bswap(u64_blk(h)));
}

/* Decryption hashes each batch's ciphertext while it decrypts it; the
 * hash reads the batch before its output overwrites it in place. The
 * blocks after the whole batches are hashed first, then decrypted. */
CE_INLINE void gcm_decrypt_blocks(const aes_key *k, const ghash_key *g,
                                  uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                                  const uint8_t *in, size_t nblocks, int nr)
{
    ce_keys ks = ce_load_keys(k, nr, 0);
    uint32x4_t c = vreinterpretq_u32_u8(vrev32q_u8(blk_load(ctr)));
    uint64x2_t h = blk_u64(blk_bswap(blk_load(y)));
    uint32_t ctr_end = aes_load32_be(ctr + 12) + (uint32_t)nblocks;
    for (; nblocks >= CE_BATCH; nblocks -= CE_BATCH) {
        h = gcm_step(&ks, g, &c, h, out, in, CE_BATCH, nr, in, 1);
        in += 16 * CE_BATCH;
        out += 16 * CE_BATCH;
    }
    h = gh_blocks(g, h, in, (int)nblocks);
#define GCM_DEC_STEP(n)                                                       \
    (gcm_step(&ks, g, &c, h, out, in, n, nr, NULL, 0), in += 16 * (n),        \
     out += 16 * (n))
    CE_BATCHES(nblocks, GCM_DEC_STEP);
#undef GCM_DEC_STEP
    aes_store32_be(ctr + 12, ctr_end);
    blk_store(y, blk_bswap(u64_blk(h)));
}

void aes_gcm_encrypt_ce(const aes_key *k, const ghash_key *g, uint8_t ctr[16],
                        uint8_t y[16], uint8_t *out, const uint8_t *in,
                        size_t nblocks)
{
#define GCM_ENC(nr) gcm_encrypt_blocks(k, g, ctr, y, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, GCM_ENC);
#undef GCM_ENC
}

void aes_gcm_decrypt_ce(const aes_key *k, const ghash_key *g, uint8_t ctr[16],
                        uint8_t y[16], uint8_t *out, const uint8_t *in,
                        size_t nblocks)
{
#define GCM_DEC(nr) gcm_decrypt_blocks(k, g, ctr, y, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, GCM_DEC);
#undef GCM_DEC
}
