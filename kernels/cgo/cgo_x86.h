/* CGO's UIV+ on x86 for one 509-byte payload, fused, written once for
 * vectors of LANES blocks: compiled by cgo_aesni.c (xmm), cgo_vaes_avx2.c
 * (ymm) and cgo_vaes_avx512.c (zmm), each of which includes its
 * kernels/simd/lanes_*.h and defines CGO_ISA (the symbol suffix).
 *
 * Encryption (a relay's), every step in registers:
 *   1. ET's mask: the tweak's 32 blocks (H; the command byte and X_R,
 *      zero-padded) times KU's powers H^32 .. H^1, summed unreduced and
 *      reduced once (kernels/polyval/polyval_x86.h's pieces, with the keys
 *      a POLYVAL row set up). The tweak's blocks are the payload from its
 *      byte 15 on, block 1's first byte replaced by the command and block
 *      31 shifted in from the payload's last 16 bytes, so nothing is read
 *      past the payload. H's product is added last: in a circuit's run of
 *      cells H is the previous cell's tag, and everything else can start
 *      before it is known.
 *   2. T = AES-128(KB, X_L ^ mask) ^ mask, on xmm.
 *   3. The PRF's counter block, dot(T, B) with its low six bits cleared.
 *   4. X_R ^= AES-128-CTR(K) from it: 31 blocks in batches of up to 8
 *      vectors, each counter the block plus its index in the last byte
 *      (which cannot carry); the 13-byte tail as one 16-byte window ending
 *      at the payload's end, so nothing is written past it either.
 * Decryption (a client's) runs the PRF first and hashes the new X_R from
 * the output, then decrypts X_L.
 *
 * AES-128 only (10 rounds, unrolled), as CGO's keys are. Everything is
 * force-inlined into the exported cgo_uiv_*_<CGO_ISA>, so a profile names
 * the variant; nothing is handed to another ISA's functions. */
#include <immintrin.h>
#include <string.h>

#include "cgo.h"
#include "../polyval/polyval_x86.h"
#include "../unroll.h"

#define CG_PASTE2(a, b) a##_##b
#define CG_PASTE(a, b) CG_PASTE2(a, b)
#define CG_FN(name) CG_PASTE(name, CGO_ISA)
#define CG_INLINE static inline __attribute__((always_inline))
#define CG_UNROLL CB_UNROLL(32)
#define CG_ROUNDS 10
/* Vectors of the tweak and of the PRF's t = 0 stream. */
#define CG_TWEAK_VECS (CGO_TWEAK_BLOCKS / LANES)
#define CG_CTR_VECS ((CGO_PRF_T0_BLOCKS + LANES - 1) / LANES)
/* X_R's whole blocks, before its 13-byte tail. */
#define CG_X_R_WHOLE (CGO_X_R_BYTES / 16)
/* Where the last 16 bytes of the payload start. */
#define CG_LAST16 (CGO_PAYLOAD_BYTES - 16)
#define CG_GROUP 8

CG_INLINE __m128i cg_load(const void *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

CG_INLINE void cg_store(void *p, __m128i b)
{
    _mm_storeu_si128((__m128i *)p, b);
}

/* Tweak block k, 1 <= k < 32, of the payload at p. */
CG_INLINE __m128i cg_tweak_block(const uint8_t *p, uint8_t cmd, int k)
{
    if (k == 1)
        return _mm_insert_epi8(cg_load(p + 15), cmd, 0);
    if (k == CGO_TWEAK_BLOCKS - 1)
        return _mm_srli_si128(cg_load(p + CG_LAST16), 2);
    return cg_load(p + 15 + 16 * (k - 1));
}

/* Tweak vector j, blocks j * LANES on; block 0 (H) is zero here. */
CG_INLINE vec cg_tweak_vec(const uint8_t *p, uint8_t cmd, int j)
{
    int k0 = j * LANES;
    __m128i b[4] = { _mm_setzero_si128(), _mm_setzero_si128(),
                     _mm_setzero_si128(), _mm_setzero_si128() };
    if (k0 >= 2 && k0 + LANES <= CGO_TWEAK_BLOCKS - 1)
        return V_LOADU(p + 15 + 16 * (k0 - 1));
    for (int i = 0; i < LANES; i++)
        if (k0 + i > 0)
            b[i] = cg_tweak_block(p, cmd, k0 + i);
    return V_SET4(b[0], b[1], b[2], b[3]);
}

/* ET's mask for tweak (h, cmd, X_R of the payload at p). */
CG_INLINE __m128i cg_et_mask(const polyval_key *ku, __m128i h,
                             const uint8_t *p, uint8_t cmd)
{
    pv_sum s = pv_sum_zero();
    CG_UNROLL
    for (int j = 0; j < CG_TWEAK_VECS; j += 2)
        pv_sum_add2(&s, cg_tweak_vec(p, cmd, j), cg_tweak_vec(p, cmd, j + 1),
                    ku, CGO_TWEAK_BLOCKS, j * LANES);
    __m128i lo, mid, hi;
    pv_sum_fold(&s, &lo, &mid, &hi);
    gf128_mul_add(&lo, &mid, &hi, h,
                  _mm_load_si128((const __m128i *)(const void *)
                                     ku->pow[POLYVAL_POWERS - CGO_TWEAK_BLOCKS]));
    return gf128_reduce(lo, mid, hi);
}

/* AES-128 of one block; decrypt (a constant) picks the inverse cipher
 * and its schedule. */
CG_INLINE __m128i cg_aes(const aes_key *k, __m128i b, int decrypt)
{
    const uint8_t (*rk)[16] = decrypt ? k->dec : k->enc;
    b = _mm_xor_si128(b, cg_load(rk[0]));
    CG_UNROLL
    for (int r = 1; r < CG_ROUNDS; r++)
        b = decrypt ? _mm_aesdec_si128(b, cg_load(rk[r]))
                    : _mm_aesenc_si128(b, cg_load(rk[r]));
    return decrypt ? _mm_aesdeclast_si128(b, cg_load(rk[CG_ROUNDS]))
                   : _mm_aesenclast_si128(b, cg_load(rk[CG_ROUNDS]));
}

/* dot(x, B), the low six bits of its last byte (bits 120-125) cleared. */
CG_INLINE __m128i cg_prf_counter(const uint8_t b[16], __m128i x)
{
    const __m128i clear = _mm_set_epi64x((long long)0xc0ffffffffffffffull, -1);
    return _mm_and_si128(gf128_mul(x, cg_load(b)), clear);
}

/* Block i's number in its last byte, for the stream's counters: loaded,
 * since a vector built from constants lane by lane takes the shuffle port
 * POLYVAL needs. */
#define CG_NUMBER(i) [i][15] = i
static const _Alignas(64) uint8_t cg_numbers[CG_CTR_VECS * LANES][16] = {
    CG_NUMBER(0), CG_NUMBER(1), CG_NUMBER(2), CG_NUMBER(3), CG_NUMBER(4),
    CG_NUMBER(5), CG_NUMBER(6), CG_NUMBER(7), CG_NUMBER(8), CG_NUMBER(9),
    CG_NUMBER(10), CG_NUMBER(11), CG_NUMBER(12), CG_NUMBER(13),
    CG_NUMBER(14), CG_NUMBER(15), CG_NUMBER(16), CG_NUMBER(17),
    CG_NUMBER(18), CG_NUMBER(19), CG_NUMBER(20), CG_NUMBER(21),
    CG_NUMBER(22), CG_NUMBER(23), CG_NUMBER(24), CG_NUMBER(25),
    CG_NUMBER(26), CG_NUMBER(27), CG_NUMBER(28), CG_NUMBER(29),
    CG_NUMBER(30),
};
#undef CG_NUMBER

/* Lane i holds n + i in its last byte. */
CG_INLINE vec cg_block_numbers(int n)
{
    return V_LOADU(cg_numbers[n]);
}

/* X_R's whole blocks in vector j of the stream: out = in ^ ks. */
CG_INLINE void cg_xor_vec(uint8_t *out, const uint8_t *in, vec ks, int j)
{
    int first = j * LANES, whole = CG_X_R_WHOLE - first;
    size_t at = CGO_TAG_BYTES + 16 * (size_t)first;
    if (whole >= LANES)
        V_STOREU(out + at, V_XOR(ks, V_LOADU(in + at)));
    else if (whole > 0)
        V_STORE_PART(out + at, V_XOR(ks, V_LOAD_PART(in + at, whole)), whole);
}

/* Stream vectors j0 .. j0 + n - 1 from the counter base, every round
 * across all of them; their whole blocks xored into X_R; the two blocks
 * the tail's window needs kept in ks29 and ks30. */
CG_INLINE void cg_ctr_group(const aes_key *k, vec base, uint8_t *out,
                            const uint8_t *in, int j0, int n, __m128i *ks29,
                            __m128i *ks30)
{
    vec s[CG_GROUP];
    vec rk = V_BCAST(cg_load(k->enc[0]));
    /* The counter plus the block number is the counter xor the number:
     * its last byte's low six bits are clear and the numbers below 64. */
    CG_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = V_XOR3(base, cg_block_numbers((j0 + j) * LANES), rk);
    CG_UNROLL
    for (int r = 1; r < CG_ROUNDS; r++) {
        rk = V_BCAST(cg_load(k->enc[r]));
        CG_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = V_AESENC(s[j], rk);
    }
    rk = V_BCAST(cg_load(k->enc[CG_ROUNDS]));
    CG_UNROLL
    for (int j = 0; j < n; j++) {
        s[j] = V_AESENCLAST(s[j], rk);
        cg_xor_vec(out, in, s[j], j0 + j);
        if (j0 + j == (CG_X_R_WHOLE - 1) / LANES)
            *ks29 = V_LANE(s[j], (CG_X_R_WHOLE - 1) % LANES);
        if (j0 + j == CG_X_R_WHOLE / LANES)
            *ks30 = V_LANE(s[j], CG_X_R_WHOLE % LANES);
    }
}

/* X_R ^= the PRF's t = 0 stream from counter block ctr. in_last16 is the
 * payload's last 16 bytes as they were read before anything was written
 * (in place, block 29's output overlaps them): bytes 3-15 are the tail. */
CG_INLINE void cg_ctr_xor(const aes_key *k, __m128i ctr, uint8_t *out,
                          const uint8_t *in, __m128i in_last16)
{
    vec base = V_BCAST(ctr);
    __m128i ks29 = _mm_setzero_si128(), ks30 = ks29;
    CG_UNROLL
    for (int j0 = 0; j0 < CG_CTR_VECS; j0 += CG_GROUP)
        cg_ctr_group(k, base, out, in, j0,
                     CG_CTR_VECS - j0 < CG_GROUP ? CG_CTR_VECS - j0 : CG_GROUP,
                     &ks29, &ks30);
    /* The window's first 3 bytes are block 29's last 3 again. */
    cg_store(out + CG_LAST16,
             _mm_xor_si128(in_last16, _mm_alignr_epi8(ks30, ks29, 13)));
}

CG_INLINE void cg_encrypt(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                          uint8_t *out, const uint8_t *in, uint64_t *ticks)
{
    uint64_t last = cgo_stamp_start(ticks);
    __m128i x_l = cg_load(in), in_last16 = cg_load(in + CG_LAST16);
    __m128i mask = cg_et_mask(&u->ku, cg_load(h), in, cmd);
    cgo_stamp(ticks, CGO_STAGE_TWEAK, &last);
    __m128i t = _mm_xor_si128(cg_aes(&u->kb, _mm_xor_si128(x_l, mask), 0),
                              mask);
    cg_store(out, t);
    cgo_stamp(ticks, CGO_STAGE_BLOCK, &last);
    __m128i ctr = cg_prf_counter(u->b, t);
    cgo_stamp(ticks, CGO_STAGE_PRF, &last);
    cg_ctr_xor(&u->k, ctr, out, in, in_last16);
    cgo_stamp(ticks, CGO_STAGE_CTR, &last);
}

CG_INLINE void cg_decrypt(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                          uint8_t *out, const uint8_t *in, uint64_t *ticks)
{
    uint64_t last = cgo_stamp_start(ticks);
    __m128i x_l = cg_load(in), in_last16 = cg_load(in + CG_LAST16);
    __m128i ctr = cg_prf_counter(u->b, x_l);
    cgo_stamp(ticks, CGO_STAGE_PRF, &last);
    cg_ctr_xor(&u->k, ctr, out, in, in_last16);
    cgo_stamp(ticks, CGO_STAGE_CTR, &last);
    /* The new X_R is read back from out: hashing it from the stream's
     * registers would need every block shifted by a byte. */
    __m128i mask = cg_et_mask(&u->ku, cg_load(h), out, cmd);
    cgo_stamp(ticks, CGO_STAGE_TWEAK, &last);
    cg_store(out, _mm_xor_si128(
                      cg_aes(&u->kb, _mm_xor_si128(x_l, mask), 1), mask));
    cgo_stamp(ticks, CGO_STAGE_BLOCK, &last);
}

void CG_FN(cgo_uiv_encrypt)(const cgo_uiv *u, const uint8_t h[16],
                            uint8_t cmd, uint8_t *out, const uint8_t *in,
                            uint64_t *ticks)
{
    if (ticks)
        cg_encrypt(u, h, cmd, out, in, ticks);
    else
        cg_encrypt(u, h, cmd, out, in, NULL);
}

void CG_FN(cgo_uiv_decrypt)(const cgo_uiv *u, const uint8_t h[16],
                            uint8_t cmd, uint8_t *out, const uint8_t *in,
                            uint64_t *ticks)
{
    if (ticks)
        cg_decrypt(u, h, cmd, out, in, ticks);
    else
        cg_decrypt(u, h, cmd, out, in, NULL);
}

/* Four circuits' cells, software-pipelined: each cell's steps depend on
 * each other, the cells do not, so the code interleaves them, one cell's
 * stream (the AES unit) next to the next cell's tweak (the carry-less
 * multiplier) and the AES block of the one after, for the core to run
 * side by side. */
void CG_FN(cgo_uiv_encrypt_x4)(const cgo_uiv *const u[CGO_X4],
                               const uint8_t *const h[CGO_X4],
                               const uint8_t cmd[CGO_X4],
                               uint8_t *const out[CGO_X4],
                               const uint8_t *const in[CGO_X4])
{
    __m128i last16[CGO_X4], x_l[CGO_X4], mask[CGO_X4], ctr[CGO_X4];
    CG_UNROLL
    for (int i = 0; i < CGO_X4; i++) {
        x_l[i] = cg_load(in[i]);
        last16[i] = cg_load(in[i] + CG_LAST16);
    }
    mask[0] = cg_et_mask(&u[0]->ku, cg_load(h[0]), in[0], cmd[0]);
    CG_UNROLL
    for (int i = 0; i <= CGO_X4; i++) {
        if (i < CGO_X4) {
            __m128i t = _mm_xor_si128(
                cg_aes(&u[i]->kb, _mm_xor_si128(x_l[i], mask[i]), 0), mask[i]);
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
