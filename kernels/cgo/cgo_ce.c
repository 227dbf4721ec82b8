/* CGO's UIV+ on aarch64 with the Cryptography Extensions for one 509-byte
 * payload, fused as cgo_x86.h does it on x86 (read its header for the
 * steps), one block per register:
 *   1. ET's mask: the tweak's 32 blocks times KU's powers H^32 .. H^1 with
 *      PMULL, summed unreduced and reduced once (polyval_ce.h's pieces,
 *      with the keys the ce POLYVAL row set up), H's product last.
 *   2. T = AES-128(KB, X_L ^ mask) ^ mask, AESE/AESMC (or AESD/AESIMC).
 *   3. The PRF's counter block, dot(T, B) with its low six bits cleared.
 *   4. X_R ^= AES-128-CTR(K) from it: 31 blocks in groups of 8 in flight,
 *      each counter the block xor its index in the last byte (which cannot
 *      carry); the 13-byte tail as one 16-byte window ending at the
 *      payload's end, so nothing is read or written past it.
 * Decryption runs the PRF first and hashes the new X_R from the output.
 *
 * AES-128 only (10 rounds, unrolled), as CGO's keys are. AESE adds its
 * round key before SubBytes, so each cipher ends with AESE by key 9 and
 * an xor of key 10, folded into the xor with the data or the mask.
 * Everything is force-inlined into the exported cgo_uiv_*_ce, so a profile
 * names the variant; nothing is handed to another ISA's functions. */
#include <arm_neon.h>
#include <string.h>

#include "cgo.h"
#include "../polyval/polyval_ce.h"
#include "../unroll.h"

#define CG_INLINE static inline __attribute__((always_inline))
#define CG_UNROLL CB_UNROLL(32)
#define CG_ROUNDS 10
/* X_R's whole blocks, before its 13-byte tail. */
#define CG_X_R_WHOLE (CGO_X_R_BYTES / 16)
/* Where the last 16 bytes of the payload start. */
#define CG_LAST16 (CGO_PAYLOAD_BYTES - 16)
#define CG_GROUP 8

typedef uint8x16_t blk;

CG_INLINE blk cg_load(const uint8_t *p)
{
    return vld1q_u8(p);
}

CG_INLINE void cg_store(uint8_t *p, blk b)
{
    vst1q_u8(p, b);
}

/* Tweak block k, 1 <= k < 32, of the payload at p. */
CG_INLINE blk cg_tweak_block(const uint8_t *p, uint8_t cmd, int k)
{
    if (k == 1)
        return vsetq_lane_u8(cmd, cg_load(p + 15), 0);
    if (k == CGO_TWEAK_BLOCKS - 1)
        return vextq_u8(cg_load(p + CG_LAST16), vdupq_n_u8(0), 2);
    return cg_load(p + 15 + 16 * (k - 1));
}

/* ET's mask for tweak (h, cmd, X_R of the payload at p). */
CG_INLINE blk cg_et_mask(const polyval_key *ku, blk h, const uint8_t *p,
                         uint8_t cmd)
{
    gf128_ce_sum s = gf128_ce_sum_zero();
    CG_UNROLL
    for (int k = 1; k < CGO_TWEAK_BLOCKS; k++)
        pv_ce_add(&s, ku, vreinterpretq_u64_u8(cg_tweak_block(p, cmd, k)),
                  CGO_TWEAK_BLOCKS, k);
    pv_ce_add(&s, ku, vreinterpretq_u64_u8(h), CGO_TWEAK_BLOCKS, 0);
    return vreinterpretq_u8_u64(gf128_ce_reduce(s));
}

/* AES-128 of one block, without the last round key's xor; decrypt (a
 * constant) picks the inverse cipher and its schedule. */
CG_INLINE blk cg_aes_rounds(const uint8_t (*rk)[16], blk b, int decrypt)
{
    CG_UNROLL
    for (int r = 0; r < CG_ROUNDS - 1; r++)
        b = decrypt ? vaesimcq_u8(vaesdq_u8(b, cg_load(rk[r])))
                    : vaesmcq_u8(vaeseq_u8(b, cg_load(rk[r])));
    return decrypt ? vaesdq_u8(b, cg_load(rk[CG_ROUNDS - 1]))
                   : vaeseq_u8(b, cg_load(rk[CG_ROUNDS - 1]));
}

/* ET: AES(X_L ^ mask) ^ mask, the last round key in with the mask. */
CG_INLINE blk cg_et(const aes_key *k, blk x_l, blk mask, int decrypt)
{
    const uint8_t (*rk)[16] = decrypt ? k->dec : k->enc;
    return veorq_u8(cg_aes_rounds(rk, veorq_u8(x_l, mask), decrypt),
                    veorq_u8(mask, cg_load(rk[CG_ROUNDS])));
}

/* dot(x, B), the low six bits of its last byte (bits 120-125) cleared. */
CG_INLINE blk cg_prf_counter(const uint8_t b[16], blk x)
{
    const uint64x2_t clear = { ~0ull, 0xc0ffffffffffffffull };
    return vreinterpretq_u8_u64(vandq_u64(
        gf128_ce_mul(vreinterpretq_u64_u8(x), pv_ce_load(b)), clear));
}

/* Stream blocks j0 .. j0 + n - 1 from the counter base; their whole blocks
 * of X_R xored in; the two blocks the tail's window needs kept in ks29 and
 * ks30. */
CG_INLINE void cg_ctr_group(const aes_key *k, blk base, uint8_t *out,
                            const uint8_t *in, int j0, int n, blk *ks29,
                            blk *ks30)
{
    blk s[CG_GROUP], last = cg_load(k->enc[CG_ROUNDS]);
    /* The counter plus the block number is the counter xor the number:
     * its last byte's low six bits are clear and the numbers below 64. */
    CG_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = veorq_u8(base, vreinterpretq_u8_u64((uint64x2_t){
                                  0, (uint64_t)(j0 + j) << 56 }));
    CG_UNROLL
    for (int r = 0; r < CG_ROUNDS - 1; r++) {
        blk rk = cg_load(k->enc[r]);
        CG_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = vaesmcq_u8(vaeseq_u8(s[j], rk));
    }
    blk rk = cg_load(k->enc[CG_ROUNDS - 1]);
    CG_UNROLL
    for (int j = 0; j < n; j++) {
        int b = j0 + j;
        s[j] = veorq_u8(vaeseq_u8(s[j], rk), last);
        if (b < CG_X_R_WHOLE) {
            size_t at = CGO_TAG_BYTES + 16 * (size_t)b;
            cg_store(out + at, veorq_u8(s[j], cg_load(in + at)));
        }
        if (b == CG_X_R_WHOLE - 1)
            *ks29 = s[j];
        if (b == CG_X_R_WHOLE)
            *ks30 = s[j];
    }
}

/* X_R ^= the PRF's t = 0 stream from counter block ctr. in_last16 is the
 * payload's last 16 bytes as they were read before anything was written
 * (in place, block 29's output overlaps them): bytes 3-15 are the tail. */
CG_INLINE void cg_ctr_xor(const aes_key *k, blk ctr, uint8_t *out,
                          const uint8_t *in, blk in_last16)
{
    blk ks29 = vdupq_n_u8(0), ks30 = ks29;
    CG_UNROLL
    for (int j0 = 0; j0 < CGO_PRF_T0_BLOCKS; j0 += CG_GROUP)
        cg_ctr_group(k, ctr, out, in, j0,
                     CGO_PRF_T0_BLOCKS - j0 < CG_GROUP ? CGO_PRF_T0_BLOCKS - j0
                                                       : CG_GROUP,
                     &ks29, &ks30);
    /* The window's first 3 bytes are block 29's last 3 again. */
    cg_store(out + CG_LAST16, veorq_u8(in_last16, vextq_u8(ks29, ks30, 13)));
}

CG_INLINE void cg_encrypt(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                          uint8_t *out, const uint8_t *in, uint64_t *ticks)
{
    uint64_t last = cgo_stamp_start(ticks);
    blk x_l = cg_load(in), in_last16 = cg_load(in + CG_LAST16);
    blk mask = cg_et_mask(&u->ku, cg_load(h), in, cmd);
    cgo_stamp(ticks, CGO_STAGE_TWEAK, &last);
    blk t = cg_et(&u->kb, x_l, mask, 0);
    cg_store(out, t);
    cgo_stamp(ticks, CGO_STAGE_BLOCK, &last);
    blk ctr = cg_prf_counter(u->b, t);
    cgo_stamp(ticks, CGO_STAGE_PRF, &last);
    cg_ctr_xor(&u->k, ctr, out, in, in_last16);
    cgo_stamp(ticks, CGO_STAGE_CTR, &last);
}

CG_INLINE void cg_decrypt(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                          uint8_t *out, const uint8_t *in, uint64_t *ticks)
{
    uint64_t last = cgo_stamp_start(ticks);
    blk x_l = cg_load(in), in_last16 = cg_load(in + CG_LAST16);
    blk ctr = cg_prf_counter(u->b, x_l);
    cgo_stamp(ticks, CGO_STAGE_PRF, &last);
    cg_ctr_xor(&u->k, ctr, out, in, in_last16);
    cgo_stamp(ticks, CGO_STAGE_CTR, &last);
    /* The new X_R is read back from out: hashing it from the stream's
     * registers would need every block shifted by a byte. */
    blk mask = cg_et_mask(&u->ku, cg_load(h), out, cmd);
    cgo_stamp(ticks, CGO_STAGE_TWEAK, &last);
    cg_store(out, cg_et(&u->kb, x_l, mask, 1));
    cgo_stamp(ticks, CGO_STAGE_BLOCK, &last);
}

void cgo_uiv_encrypt_ce(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                        uint8_t *out, const uint8_t *in, uint64_t *ticks)
{
    if (ticks)
        cg_encrypt(u, h, cmd, out, in, ticks);
    else
        cg_encrypt(u, h, cmd, out, in, NULL);
}

void cgo_uiv_decrypt_ce(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                        uint8_t *out, const uint8_t *in, uint64_t *ticks)
{
    if (ticks)
        cg_decrypt(u, h, cmd, out, in, ticks);
    else
        cg_decrypt(u, h, cmd, out, in, NULL);
}

/* Four circuits' cells, software-pipelined as on x86: one cell's stream
 * (AESE) next to the next cell's tweak (PMULL) and the AES block of the
 * one after, for the core to run side by side. */
void cgo_uiv_encrypt_x4_ce(const cgo_uiv *const u[CGO_X4],
                           const uint8_t *const h[CGO_X4],
                           const uint8_t cmd[CGO_X4],
                           uint8_t *const out[CGO_X4],
                           const uint8_t *const in[CGO_X4])
{
    blk last16[CGO_X4], x_l[CGO_X4], mask[CGO_X4], ctr[CGO_X4];
    CG_UNROLL
    for (int i = 0; i < CGO_X4; i++) {
        x_l[i] = cg_load(in[i]);
        last16[i] = cg_load(in[i] + CG_LAST16);
    }
    mask[0] = cg_et_mask(&u[0]->ku, cg_load(h[0]), in[0], cmd[0]);
    CG_UNROLL
    for (int i = 0; i <= CGO_X4; i++) {
        if (i < CGO_X4) {
            blk t = cg_et(&u[i]->kb, x_l[i], mask[i], 0);
            cg_store(out[i], t);
            ctr[i] = cg_prf_counter(u[i]->b, t);
        }
        if (i + 1 < CGO_X4)
            mask[i + 1] = cg_et_mask(&u[i + 1]->ku, cg_load(h[i + 1]),
                                     in[i + 1], cmd[i + 1]);
        if (i > 0)
            cg_ctr_xor(&u[i - 1]->k, ctr[i - 1], out[i - 1], in[i - 1],
                       last16[i - 1]);
    }
}
