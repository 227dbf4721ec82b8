/* The x86 AES and GHASH kernels, written once for a vector of LANES
 * 128-bit blocks and compiled by aes_aesni.c (xmm, 1 block per register),
 * aes_vaes_avx2.c (ymm, 2) and aes_vaes_avx512.c (zmm, 4), each with its
 * own ISA flags. One source is what makes the AVX-512 variant trustworthy
 * on machines that cannot run it: it differs from the tested variants only
 * in the few V_* primitives its file defines, and the tests also compile
 * that file against stand-in zmm intrinsics on xmm lanes
 * (tests/c/emulated/emulated.h), so its 4-lane logic runs wherever AES-NI
 * does.
 *
 * The including file first includes kernels/simd/lanes_{xmm,ymm,zmm}.h
 * (LANES, the type `vec`, loads, stores, xors, the AES rounds, carry-less
 * products, byte shifts and quadword swaps per lane, V_BCAST, V_ZEXT,
 * V_FOLD, V_SET4, V_LOAD_PART and V_STORE_PART) and defines AESX_ISA (the
 * symbol suffix) and these primitives (per 128-bit lane unless said):
 *   V_SHUF8(v, m) V_ADD32 V_ADD64 V_SLLI64(v, n) V_SRLI64(v, n)
 *   V_LANE0(v) V_LAST_LANE(v)   one lane as a block
 *   V_LANE_AT(v, i)      lane i (0 < i < LANES, a variable) as a block
 *   V_SHIFT_IN(b, v)     lanes b, v[0], ..., v[LANES-2]
 *   V_LANE_QWORDS(k)     lane i holds k + i in its low quadword, 0 above
 *   V_LANE_LAST_BYTES(k) lane i holds k + i (below 256) in its last byte,
 *                        0 elsewhere (AESX_TOP_BYTE(k + i) its high
 *                        quadword)
 *
 * Everything here is always_inline or exported as <name>_<AESX_ISA>, so a
 * profile names the variant. Work is done in batches of AESX_NVEC vectors
 * (8 blocks for aesni, 16 for vaes-avx2, 32 for vaes-avx512) so that enough
 * independent AES rounds are in flight to cover the instruction latency;
 * a message's last blocks go through batches of 4, 2 and 1 vectors, and
 * fewer blocks than one vector through one vector whose loads and stores
 * are cut to those blocks (V_LOAD_PART, V_STORE_PART), not through a
 * buffer on the stack: a vector load of blocks just copied in cannot take
 * its data from the copy's narrower stores and waits for them to retire
 * (measured slower: docs/kernels.md, "The code's choices"). A single block through
 * ECB (aes.c's tweaks and tags) or XTS takes the 128-bit AES-NI forms,
 * which every VAES CPU has, in the same function: no setup of a vector for
 * one lane (CTR and CBC still build one). Nothing hands work to another ISA's functions. */
#include <immintrin.h>
#include <string.h>

#include "aes_internal.h"
#include "../gf128/clmul_x86.h"
#include "../polyval/polyval_x86.h"
#include "../unroll.h"

#define AESX_PASTE2(a, b) a##_##b
#define AESX_PASTE(a, b) AESX_PASTE2(a, b)
#define AESX_FN(name) AESX_PASTE(name, AESX_ISA)
#define AESX_INLINE static inline __attribute__((always_inline))
#define AESX_UNROLL CB_UNROLL(8)
#define AESX_UNROLL_ROUNDS CB_UNROLL(14)
/* A quadword whose top byte is b (V_LANE_LAST_BYTES). */
#define AESX_TOP_BYTE(b) ((long long)((uint64_t)(b) << 56))
#define AESX_NVEC 8
#define AESX_VEC_BYTES (16 * LANES)
#define AESX_BATCH (AESX_NVEC * LANES)

typedef __m128i blk;

/* Runs STEP(n) on batches of n vectors: whole batches of AESX_NVEC, then at
 * most one each of 4, 2 and 1; leaves nblocks < LANES. STEP advances the
 * pointers. */
#define AESX_BATCHES(nblocks, STEP)                                           \
    do {                                                                      \
        for (; (nblocks) >= AESX_BATCH; (nblocks) -= AESX_BATCH)              \
            STEP(AESX_NVEC);                                                  \
        if ((nblocks) >= 4 * LANES) {                                         \
            STEP(4);                                                          \
            (nblocks) -= 4 * LANES;                                           \
        }                                                                     \
        if ((nblocks) >= 2 * LANES) {                                         \
            STEP(2);                                                          \
            (nblocks) -= 2 * LANES;                                           \
        }                                                                     \
        if ((nblocks) >= LANES) {                                             \
            STEP(1);                                                          \
            (nblocks) -= LANES;                                               \
        }                                                                     \
    } while (0)

AESX_INLINE blk blk_load(const void *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

AESX_INLINE void blk_store(void *p, blk b)
{
    _mm_storeu_si128((__m128i *)p, b);
}

/* Reverses the 16 bytes: GCM's big-endian counter and its bit-reflected
 * field elements become little-endian integers. */
AESX_INLINE blk blk_bswap_mask(void)
{
    return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

AESX_INLINE vec vec_bswap_mask(void)
{
    return V_BCAST(blk_bswap_mask());
}

AESX_INLINE vec round_key(const uint8_t rk[16])
{
    return V_BCAST(blk_load(rk));
}

/* SubWord without a table lookup: on a word broadcast to every column,
 * ShiftRows moves nothing, so AESENCLAST with a zero key is SubBytes. */
static uint32_t AESX_FN(sub_word)(uint32_t w)
{
    return (uint32_t)_mm_cvtsi128_si32(
        _mm_aesenclast_si128(_mm_set1_epi32((int)w), _mm_setzero_si128()));
}

/* The key schedule four words at a time, for 16- and 32-byte keys (the
 * rest go word by word through aes_expand_enc). A schedule is made per
 * message where keys change per message (AES-GCM-SIV's, CGO's), so its
 * cost shows: word by word it was 40% of an AES-GCM-SIV call at 576 bytes.
 *
 * t: SubWord of word 3 of w, after RotWord when rot, xored with rcon, in
 * every column. On a word in every column ShiftRows moves nothing, so
 * AESENCLAST is SubBytes then the xor of its key. */
AESX_INLINE blk expand_sub_word(blk w, int rcon, int rot)
{
    /* Bytes 13, 14, 15, 12 (RotWord of the little-endian word 3), or 12 to
     * 15, into every column. */
    blk x = _mm_shuffle_epi8(w, _mm_set1_epi32(rot ? 0x0c0f0e0d : 0x0f0e0d0c));
    return _mm_aesenclast_si128(x, _mm_set1_epi32(rcon));
}

/* The four words after w: each is the one four back xored with the one
 * before it, the first with t instead. */
AESX_INLINE blk expand_step(blk w, blk t)
{
    w = _mm_xor_si128(w, _mm_slli_si128(w, 4));
    w = _mm_xor_si128(w, _mm_slli_si128(w, 8));
    return _mm_xor_si128(w, t);
}

AESX_INLINE void expand_enc_blocks(aes_key *k, const uint8_t *key,
                                   size_t key_len)
{
    static const int rcon[10] = { 0x01, 0x02, 0x04, 0x08, 0x10,
                                  0x20, 0x40, 0x80, 0x1b, 0x36 };
    blk a = blk_load(key);
    blk_store(k->enc[0], a);
    if (key_len == 16) {
        for (int r = 1; r <= 10; r++) {
            a = expand_step(a, expand_sub_word(a, rcon[r - 1], 1));
            blk_store(k->enc[r], a);
        }
        k->rounds = 10;
        return;
    }
    /* 32 bytes: the halves take turns, RotWord and rcon every other. */
    blk b = blk_load(key + 16);
    blk_store(k->enc[1], b);
    for (int r = 2; r <= 14; r += 2) {
        a = expand_step(a, expand_sub_word(b, rcon[r / 2 - 1], 1));
        blk_store(k->enc[r], a);
        if (r == 14)
            break;
        b = expand_step(b, expand_sub_word(a, 0, 0));
        blk_store(k->enc[r + 1], b);
    }
    k->rounds = 14;
}

void AESX_FN(aes_expand)(aes_key *k, const uint8_t *key, size_t key_len,
                         int decrypt)
{
    if (key_len == 16 || key_len == 32)
        expand_enc_blocks(k, key, key_len);
    else
        aes_expand_enc(k, key, key_len, AESX_FN(sub_word));
    unsigned nr = k->rounds;
    if (!decrypt)
        return;
    blk_store(k->dec[0], blk_load(k->enc[nr]));
    for (unsigned r = 1; r < nr; r++)
        blk_store(k->dec[r], _mm_aesimc_si128(blk_load(k->enc[nr - r])));
    blk_store(k->dec[nr], blk_load(k->enc[0]));
}

/* The block cipher on n vectors, every round across all of them; decrypt
 * (a constant) picks the inverse cipher and its schedule. */
AESX_INLINE vec cipher_round(vec s, vec rk, int decrypt)
{
    return decrypt ? V_AESDEC(s, rk) : V_AESENC(s, rk);
}

AESX_INLINE vec cipher_last_round(vec s, vec rk, int decrypt)
{
    return decrypt ? V_AESDECLAST(s, rk) : V_AESENCLAST(s, rk);
}

AESX_INLINE const uint8_t (*cipher_schedule(const aes_key *k,
                                            int decrypt))[16]
{
    return decrypt ? k->dec : k->enc;
}

/* Rounds 1 to nr - 1: what is left once the first round key is in. */
AESX_INLINE void cipher_middle_rounds(const aes_key *k, vec *s, int n, int nr,
                                      int decrypt)
{
    AESX_UNROLL_ROUNDS
    for (int r = 1; r < nr; r++) {
        vec rk = round_key(cipher_schedule(k, decrypt)[r]);
        AESX_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = cipher_round(s[j], rk, decrypt);
    }
}

AESX_INLINE void cipher_vecs(const aes_key *k, vec *s, int n, int nr,
                             int decrypt)
{
    vec rk = round_key(cipher_schedule(k, decrypt)[0]);
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = V_XOR(s[j], rk);
    cipher_middle_rounds(k, s, n, nr, decrypt);
    rk = round_key(cipher_schedule(k, decrypt)[nr]);
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = cipher_last_round(s[j], rk, decrypt);
}

/* The blocks of vector j of n at p, of which the last holds `part` blocks
 * (LANES when whole; a constant in whole batches, so the test folds). */
AESX_INLINE int vec_blocks(int j, int n, int part)
{
    return j == n - 1 ? part : LANES;
}

AESX_INLINE vec load_blocks(const uint8_t *p, int blocks)
{
    return blocks == LANES ? V_LOADU(p) : V_LOAD_PART(p, blocks);
}

AESX_INLINE void store_blocks(uint8_t *p, vec v, int blocks)
{
    if (blocks == LANES)
        V_STOREU(p, v);
    else
        V_STORE_PART(p, v, blocks);
}

AESX_INLINE void load_vecs(vec *s, const uint8_t *in, int n, int part)
{
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = load_blocks(in + AESX_VEC_BYTES * j, vec_blocks(j, n, part));
}

AESX_INLINE void store_vecs(uint8_t *out, const vec *s, int n, int part)
{
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        store_blocks(out + AESX_VEC_BYTES * j, s[j], vec_blocks(j, n, part));
}

/* out = s ^ in, vector by vector. */
AESX_INLINE void store_xor_vecs(uint8_t *out, const vec *s, const uint8_t *in,
                                int n, int part)
{
    AESX_UNROLL
    for (int j = 0; j < n; j++) {
        int blocks = vec_blocks(j, n, part);
        store_blocks(out + AESX_VEC_BYTES * j,
                     V_XOR(s[j], load_blocks(in + AESX_VEC_BYTES * j, blocks)),
                     blocks);
    }
}

/* ECB */

AESX_INLINE void ecb_vecs(const aes_key *k, uint8_t *out, const uint8_t *in,
                          int n, int part, int nr, int decrypt)
{
    vec s[AESX_NVEC];
    load_vecs(s, in, n, part);
    cipher_vecs(k, s, n, nr, decrypt);
    store_vecs(out, s, n, part);
}

/* One block on xmm, with the 128-bit forms every VAES CPU also has. */
AESX_INLINE blk blk_cipher(const aes_key *k, blk b, int nr, int decrypt)
{
    const uint8_t (*rk)[16] = cipher_schedule(k, decrypt);
    b = _mm_xor_si128(b, blk_load(rk[0]));
    AESX_UNROLL_ROUNDS
    for (int r = 1; r < nr; r++)
        b = decrypt ? _mm_aesdec_si128(b, blk_load(rk[r]))
                    : _mm_aesenc_si128(b, blk_load(rk[r]));
    return decrypt ? _mm_aesdeclast_si128(b, blk_load(rk[nr]))
                   : _mm_aesenclast_si128(b, blk_load(rk[nr]));
}

AESX_INLINE void ecb_blocks(const aes_key *k, uint8_t *out, const uint8_t *in,
                            size_t nblocks, int nr, int decrypt)
{
    if (LANES > 1 && nblocks == 1) {
        blk_store(out, blk_cipher(k, blk_load(in), nr, decrypt));
        return;
    }
#define ECB_STEP(n)                                                           \
    (ecb_vecs(k, out, in, n, LANES, nr, decrypt), in += AESX_VEC_BYTES * (n), \
     out += AESX_VEC_BYTES * (n))
    AESX_BATCHES(nblocks, ECB_STEP);
#undef ECB_STEP
    if (LANES > 1 && nblocks)
        ecb_vecs(k, out, in, 1, (int)nblocks, nr, decrypt);
}

void AESX_FN(aes_encrypt)(const aes_key *k, uint8_t *out, const uint8_t *in,
                          size_t nblocks)
{
#define ECB_ENC(nr) ecb_blocks(k, out, in, nblocks, nr, 0)
    AES_BY_ROUNDS(k, ECB_ENC);
#undef ECB_ENC
}

void AESX_FN(aes_decrypt)(const aes_key *k, uint8_t *out, const uint8_t *in,
                          size_t nblocks)
{
#define ECB_DEC(nr) ecb_blocks(k, out, in, nblocks, nr, 1)
    AES_BY_ROUNDS(k, ECB_DEC);
#undef ECB_DEC
}

/* CTR: a 128-bit big-endian counter, kept as two native halves. */

/* Whether none of a batch's `blocks` counter blocks, from one whose lowest
 * byte is low, carries out of that byte: seven batches in eight of 32
 * blocks, all of them from a counter that is a multiple of 32. */
AESX_INLINE int last_byte_holds(unsigned low, int blocks)
{
    return (int)(low & 0xff) <= 0x100 - blocks;
}

/* The n vectors of such a batch: the counter block as it is in memory
 * (be), each block's index added to that byte, with no byte reversal of
 * each vector (measured faster: docs/kernels.md, "The code's choices").
 * CTR's and GCM's. */
AESX_INLINE void counters_in_last_byte(vec *s, vec be, int n)
{
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = V_ADD32(be, V_LANE_LAST_BYTES(j * LANES));
}

AESX_INLINE void ctr_counters(vec *s, uint64_t ctr[2], int n, int part)
{
    uint64_t blocks = (uint64_t)(n - 1) * LANES + (uint64_t)part;
    if (last_byte_holds((unsigned)ctr[1], (int)blocks)) {
        counters_in_last_byte(
            s,
            V_BCAST(_mm_shuffle_epi8(
                _mm_set_epi64x((long long)ctr[0], (long long)ctr[1]),
                blk_bswap_mask())),
            n);
    } else if (ctr[1] <= UINT64_MAX - (blocks - 1)) {
        /* Byte-reversed, the counter block is a little-endian integer whose
         * low quadword takes the block index without a carry. */
        vec base = V_BCAST(_mm_set_epi64x((long long)ctr[0], (long long)ctr[1]));
        vec swap = vec_bswap_mask();
        AESX_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = V_SHUF8(V_ADD64(base, V_LANE_QWORDS(j * LANES)), swap);
    } else {
        /* The low half carries inside this batch: once in 2^64 blocks. */
        uint8_t c[AESX_BATCH][16];
        uint64_t hi = ctr[0], lo = ctr[1];
        for (uint64_t i = 0; i < blocks; i++) {
            aes_store64_be(c[i], hi);
            aes_store64_be(c[i] + 8, lo);
            hi += ++lo == 0;
        }
        load_vecs(s, c[0], n, part);
    }
    ctr[1] += blocks;
    ctr[0] += ctr[1] < blocks;
}

AESX_INLINE void ctr_vecs(const aes_key *k, uint64_t ctr[2], uint8_t *out,
                          const uint8_t *in, int n, int part, int nr)
{
    vec s[AESX_NVEC];
    ctr_counters(s, ctr, n, part);
    cipher_vecs(k, s, n, nr, 0);
    store_xor_vecs(out, s, in, n, part);
}

AESX_INLINE void xctr_counters(vec *s, vec nonce, vec *ctr, int n)
{
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = V_XOR(nonce, V_ADD64(*ctr, V_LANE_QWORDS(j * LANES)));
    *ctr = V_ADD64(*ctr, V_BCAST(_mm_set_epi64x(0, n * LANES)));
}

#if LANES == 4
/* One batch of CTR's keystream (ctr given) or XCTR's (nonce and xctr). */
AESX_INLINE void keystream_batch(const aes_key *k, vec *r, uint64_t *ctr,
                                 vec nonce, vec *xctr, int nr)
{
    if (ctr)
        ctr_counters(r, ctr, AESX_NVEC, LANES);
    else
        xctr_counters(r, nonce, xctr, AESX_NVEC);
    cipher_vecs(k, r, AESX_NVEC, nr, 0);
}

/* CTR or XCTR over whole batches, each batch's input loaded before the
 * batch before it is stored. With each load after the stores before it, a
 * 512-bit load whose address matched a 512-bit store's still in flight in
 * the low 12 bits (the output some vectors behind, for buffers that far
 * apart modulo 4 KiB) held the loop at up to 1.4 times its time on AMD
 * Zen 4, in some processes and not others, by where their buffers' pages
 * lay (measured: docs/kernels.md, "The code's choices"). Two batches in
 * flight take 16 vector registers beside the round key: zmm rows only. */
AESX_INLINE void keystream_batches_nr(const aes_key *k, uint64_t *ctr,
                                      vec nonce, vec *xctr, uint8_t *out,
                                      const uint8_t *in, size_t batches,
                                      int nr)
{
    /* The counters in locals, kept in registers: through the caller's
     * memory, XCTR's ran 8% slower. */
    vec r[AESX_NVEC], x[AESX_NVEC], xc = ctr ? V_ZERO() : *xctr;
    uint64_t c[2] = { ctr ? ctr[0] : 0, ctr ? ctr[1] : 0 };
    uint64_t *cp = ctr ? c : NULL;
    load_vecs(x, in, AESX_NVEC, LANES);
    keystream_batch(k, r, cp, nonce, &xc, nr);
    AESX_UNROLL
    for (int j = 0; j < AESX_NVEC; j++)
        r[j] = V_XOR(r[j], x[j]);
    for (size_t b = 1; b < batches; b++) {
        in += 16 * AESX_BATCH;
        load_vecs(x, in, AESX_NVEC, LANES);
        store_vecs(out, r, AESX_NVEC, LANES);
        out += 16 * AESX_BATCH;
        keystream_batch(k, r, cp, nonce, &xc, nr);
        AESX_UNROLL
        for (int j = 0; j < AESX_NVEC; j++)
            r[j] = V_XOR(r[j], x[j]);
    }
    store_vecs(out, r, AESX_NVEC, LANES);
    if (ctr) {
        ctr[0] = c[0];
        ctr[1] = c[1];
    } else {
        *xctr = xc;
    }
}

/* Functions of their own, one a mode, entered from two batches: inlined
 * where the messages are shorter, the loop cost a 576-byte CTR message
 * 10% more ticks though it never ran there. */
static __attribute__((noinline)) void
AESX_FN(ctr_batches)(const aes_key *k, uint64_t ctr[2], uint8_t *out,
                     const uint8_t *in, size_t batches)
{
#define KEYSTREAM_CALL(nr)                                                    \
    keystream_batches_nr(k, ctr, V_ZERO(), NULL, out, in, batches, nr)
    AES_BY_ROUNDS(k, KEYSTREAM_CALL);
#undef KEYSTREAM_CALL
}

static __attribute__((noinline)) void
AESX_FN(xctr_batches)(const aes_key *k, vec nonce, vec *xctr, uint8_t *out,
                      const uint8_t *in, size_t batches)
{
#define KEYSTREAM_CALL(nr)                                                    \
    keystream_batches_nr(k, NULL, nonce, xctr, out, in, batches, nr)
    AES_BY_ROUNDS(k, KEYSTREAM_CALL);
#undef KEYSTREAM_CALL
}

/* CALL(batches) on the whole batches of a message of two or more; then
 * the pointers and the count past them. */
#define AESX_WHOLE_BATCHES(CALL, out, in, nblocks)                            \
    do {                                                                      \
        if ((nblocks) >= 2 * AESX_BATCH) {                                    \
            size_t batches_ = (nblocks) / AESX_BATCH;                         \
            CALL(batches_);                                                   \
            (in) += 16 * AESX_BATCH * batches_;                               \
            (out) += 16 * AESX_BATCH * batches_;                              \
            (nblocks) -= AESX_BATCH * batches_;                               \
        }                                                                     \
    } while (0)
#else
#define AESX_WHOLE_BATCHES(CALL, out, in, nblocks)                            \
    do {                                                                      \
    } while (0)
#endif

AESX_INLINE void ctr_blocks(const aes_key *k, uint8_t ctr[16], uint8_t *out,
                            const uint8_t *in, size_t nblocks, int nr)
{
    uint64_t c[2] = { aes_load64_be(ctr), aes_load64_be(ctr + 8) };
#define CTR_BATCHES(b) AESX_FN(ctr_batches)(k, c, out, in, b)
    AESX_WHOLE_BATCHES(CTR_BATCHES, out, in, nblocks);
#undef CTR_BATCHES
#define CTR_STEP(n)                                                           \
    (ctr_vecs(k, c, out, in, n, LANES, nr), in += AESX_VEC_BYTES * (n),       \
     out += AESX_VEC_BYTES * (n))
    AESX_BATCHES(nblocks, CTR_STEP);
#undef CTR_STEP
    if (LANES > 1 && nblocks)
        ctr_vecs(k, c, out, in, 1, (int)nblocks, nr);
    aes_store64_be(ctr, c[0]);
    aes_store64_be(ctr + 8, c[1]);
}

void AESX_FN(aes_ctr)(const aes_key *k, uint8_t ctr[16], uint8_t *out,
                      const uint8_t *in, size_t nblocks)
{
#define CTR_CALL(nr) ctr_blocks(k, ctr, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, CTR_CALL);
#undef CTR_CALL
}

/* XCTR: the block index xored into the nonce's low quadword (a message
 * never reaches 2^64 blocks), each lane's index one more than the last. */

AESX_INLINE void xctr_vecs(const aes_key *k, vec nonce, vec *ctr, uint8_t *out,
                           const uint8_t *in, int n, int part, int nr)
{
    vec s[AESX_NVEC];
    xctr_counters(s, nonce, ctr, n);
    cipher_vecs(k, s, n, nr, 0);
    store_xor_vecs(out, s, in, n, part);
}

AESX_INLINE void xctr_blocks(const aes_key *k, const uint8_t nonce[16],
                             uint64_t first, uint8_t *out, const uint8_t *in,
                             size_t nblocks, int nr)
{
    vec n0 = V_BCAST(blk_load(nonce)),
        c = V_BCAST(_mm_set_epi64x(0, (long long)first));
#define XCTR_BATCHES(b) AESX_FN(xctr_batches)(k, n0, &c, out, in, b)
    AESX_WHOLE_BATCHES(XCTR_BATCHES, out, in, nblocks);
#undef XCTR_BATCHES
#define XCTR_STEP(n)                                                          \
    (xctr_vecs(k, n0, &c, out, in, n, LANES, nr), in += AESX_VEC_BYTES * (n), \
     out += AESX_VEC_BYTES * (n))
    AESX_BATCHES(nblocks, XCTR_STEP);
#undef XCTR_STEP
    if (LANES > 1 && nblocks)
        xctr_vecs(k, n0, &c, out, in, 1, (int)nblocks, nr);
}

void AESX_FN(aes_xctr)(const aes_key *k, const uint8_t nonce[16],
                       uint64_t first, uint8_t *out, const uint8_t *in,
                       size_t nblocks)
{
#define XCTR_CALL(nr) xctr_blocks(k, nonce, first, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, XCTR_CALL);
#undef XCTR_CALL
}

/* XCTR with POLYVAL of its output (HCTR2's second half), stitched as GCM
 * is below: each whole batch's POLYVAL, with polyval_x86.h's pieces and a
 * POLYVAL row's key, runs between the AES rounds of the next batch, so
 * the carry-less multiplier and the AES unit work together; the last
 * batch, and a rest of fewer blocks, are hashed after their XCTR. */

AESX_INLINE __m128i xctr_pv_vecs(const aes_key *k, const polyval_key *pk,
                                 vec nonce, vec *ctr, __m128i acc,
                                 uint8_t *out, const uint8_t *in, int nr,
                                 const uint8_t *hashed, int hash)
{
    const int n = AESX_NVEC;
    vec s[AESX_NVEC], rk = round_key(k->enc[0]);
    pv_sum sum = pv_sum_zero();
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = V_XOR(V_XOR(nonce, V_ADD64(*ctr, V_LANE_QWORDS(j * LANES))),
                     rk);
    *ctr = V_ADD64(*ctr, V_BCAST(_mm_set_epi64x(0, n * LANES)));
    /* One POLYVAL vector between consecutive rounds: n = 8, and AES has
     * at least 10. */
    AESX_UNROLL_ROUNDS
    for (int r = 1; r < nr; r++) {
        rk = round_key(k->enc[r]);
        AESX_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = V_AESENC(s[j], rk);
        if (hash && r <= n) {
            vec x = V_LOADU(hashed + AESX_VEC_BYTES * (r - 1));
            if (r == 1)
                x = V_XOR(x, V_ZEXT(acc));
            pv_sum_add(&sum, x, pk, n * LANES, (r - 1) * LANES);
        }
    }
    rk = round_key(k->enc[nr]);
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = V_AESENCLAST(s[j], rk);
    store_xor_vecs(out, s, in, n, LANES);
    return hash ? pv_sum_reduce(&sum) : acc;
}

/* acc continued over nblocks at p: batches of AESX_NVEC, 4, 2 and 1
 * vectors, then the blocks short of a vector. */
AESX_INLINE __m128i pv_blocks(const polyval_key *pk, __m128i acc,
                              const uint8_t *p, size_t nblocks)
{
#define PV_STEP(n) (acc = pv_vecs(pk, acc, p, n), p += AESX_VEC_BYTES * (n))
    AESX_BATCHES(nblocks, PV_STEP);
#undef PV_STEP
    return pv_blks(pk, acc, p, nblocks);
}

AESX_INLINE void xctr_polyval_blocks(const aes_key *k, const polyval_key *pk,
                                     const uint8_t nonce[16], uint64_t first,
                                     uint8_t acc[16], uint8_t *out,
                                     const uint8_t *in, size_t nblocks, int nr)
{
    vec n0 = V_BCAST(blk_load(nonce)),
        c = V_BCAST(_mm_set_epi64x(0, (long long)first));
    __m128i y = blk_load(acc);
    size_t done = 0;
    if (nblocks >= AESX_BATCH) {
        y = xctr_pv_vecs(k, pk, n0, &c, y, out, in, nr, NULL, 0);
        for (done = AESX_BATCH; nblocks - done >= AESX_BATCH;
             done += AESX_BATCH)
            y = xctr_pv_vecs(k, pk, n0, &c, y, out + 16 * done, in + 16 * done,
                             nr, out + 16 * (done - AESX_BATCH), 1);
        y = pv_vecs(pk, y, out + 16 * (done - AESX_BATCH), AESX_NVEC);
    }
    xctr_blocks(k, nonce, first + done, out + 16 * done, in + 16 * done,
                nblocks - done, nr);
    blk_store(acc, pv_blocks(pk, y, out + 16 * done, nblocks - done));
}

void AESX_FN(aes_xctr_polyval)(const aes_key *k, const polyval_key *pk,
                               const uint8_t nonce[16], uint64_t first,
                               uint8_t acc[16], uint8_t *out,
                               const uint8_t *in, size_t nblocks)
{
#define XCTR_PV_CALL(nr)                                                      \
    xctr_polyval_blocks(k, pk, nonce, first, acc, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, XCTR_PV_CALL);
#undef XCTR_PV_CALL
}

/* CBC. Encryption is one chain, and nothing but the rounds is on it: the
 * last round's key carries the next block's plaintext and the first round
 * key too (AESENCLAST ends with an xor of its key), so the last round
 * gives the next block's first-round input, C_i ^ P_{i+1} ^ K_0, and C_i
 * is recovered from it off the chain. */

AESX_INLINE void cbc_encrypt_blocks(const aes_key *k, const uint8_t iv[16],
                                    uint8_t *out, const uint8_t *in,
                                    size_t nblocks, int nr)
{
    blk rk[AES_MAX_ROUNDS + 1];
    if (!nblocks)
        return;
    AESX_UNROLL_ROUNDS
    for (int r = 0; r <= nr; r++)
        rk[r] = blk_load(k->enc[r]);
    /* x: the block entering round 1 */
    blk x = _mm_xor_si128(blk_load(iv), _mm_xor_si128(blk_load(in), rk[0]));
    for (size_t i = 0; i + 1 < nblocks; i++) {
        blk next = _mm_xor_si128(blk_load(in + 16 * (i + 1)), rk[0]);
        AESX_UNROLL_ROUNDS
        for (int r = 1; r < nr; r++)
            x = _mm_aesenc_si128(x, rk[r]);
        x = _mm_aesenclast_si128(x, _mm_xor_si128(rk[nr], next));
        blk_store(out + 16 * i, _mm_xor_si128(x, next));
    }
    AESX_UNROLL_ROUNDS
    for (int r = 1; r < nr; r++)
        x = _mm_aesenc_si128(x, rk[r]);
    x = _mm_aesenclast_si128(x, rk[nr]);
    blk_store(out + 16 * (nblocks - 1), x);
}

void AESX_FN(aes_cbc_encrypt)(const aes_key *k, const uint8_t iv[16],
                              uint8_t *out, const uint8_t *in, size_t nblocks)
{
#define CBC_ENC(nr) cbc_encrypt_blocks(k, iv, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, CBC_ENC);
#undef CBC_ENC
}

AESX_INLINE void cbc_dec_vecs(const aes_key *k, blk *iv, uint8_t *out,
                              const uint8_t *in, int n, int part, int nr)
{
    vec s[AESX_NVEC];
    load_vecs(s, in, n, part);
    vec first_chain = V_SHIFT_IN(*iv, s[0]);
    *iv = part == LANES ? V_LAST_LANE(s[n - 1])
                        : blk_load(in + AESX_VEC_BYTES * (n - 1) + 16 * (part - 1));
    cipher_vecs(k, s, n, nr, 1);
    /* Last vector first: in place, the blocks just before vector j are then
     * still ciphertext when it is finished. */
    AESX_UNROLL
    for (int j = n - 1; j > 0; j--) {
        int blocks = vec_blocks(j, n, part);
        store_blocks(out + AESX_VEC_BYTES * j,
                     V_XOR(s[j], load_blocks(in + AESX_VEC_BYTES * j - 16,
                                             blocks)),
                     blocks);
    }
    store_blocks(out, V_XOR(s[0], first_chain), vec_blocks(0, n, part));
}

AESX_INLINE void cbc_decrypt_blocks(const aes_key *k, uint8_t iv[16],
                                    uint8_t *out, const uint8_t *in,
                                    size_t nblocks, int nr)
{
    blk chain = blk_load(iv);
#define CBC_STEP(n)                                                           \
    (cbc_dec_vecs(k, &chain, out, in, n, LANES, nr),                          \
     in += AESX_VEC_BYTES * (n), out += AESX_VEC_BYTES * (n))
    AESX_BATCHES(nblocks, CBC_STEP);
#undef CBC_STEP
    if (LANES > 1 && nblocks)
        cbc_dec_vecs(k, &chain, out, in, 1, (int)nblocks, nr);
    blk_store(iv, chain);
}

void AESX_FN(aes_cbc_decrypt)(const aes_key *k, uint8_t iv[16], uint8_t *out,
                              const uint8_t *in, size_t nblocks)
{
#define CBC_DEC(nr) cbc_decrypt_blocks(k, iv, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, CBC_DEC);
#undef CBC_DEC
}

/* XTS. The tweak is a little-endian 128-bit integer, multiplied by x per
 * block: a shift left by one, with x^128 = x^7 + x^2 + x + 1 (0x87) folded
 * back in. Which unit does that depends on the width:
 * - one block per vector (aesni): in general-purpose registers, where the
 *   integer units are otherwise idle, written to a buffer one chunk ahead of
 *   the vectors that load it, so the vector units only xor tweaks in and
 *   out (vector multiplies instead measured slower: docs/kernels.md, "The code's choices");
 * - several blocks per vector: in the vectors (sixteen or more scalar
 *   tweaks per batch would crowd the front end). A batch's first
 *   XTS_BASES vectors of tweaks (its first 8 blocks') are the bases;
 *   vector j's tweaks are base j % XTS_BASES times x^(8 (j / XTS_BASES)),
 *   a whole number of bytes, and so are the next batch's bases. Times x^8m
 *   is a byte shift of each lane, the m bytes out folded back by one
 *   carry-less multiply by 0x87 (vec_mulx_bytes), so no vector waits on
 *   another and none of it is a shift by bits: on Intel cores since Ice
 *   Lake (llvm-mca-19's sapphirerapids model agrees) vpsllq/vpsrlq on zmm issue only to port
 *   0, as VAESENC on zmm does, while byte shifts and VPCLMULQDQ go to
 *   port 5. A bit shift in every tweak vector measured slower
 *   (docs/kernels.md, "The code's choices"). */

typedef struct xts_tweak {
    uint64_t lo, hi;
} xts_tweak;

AESX_INLINE void xts_fill(xts_tweak *t, uint8_t (*buf)[16], size_t nblocks)
{
    uint64_t lo = t->lo, hi = t->hi;
    for (size_t i = 0; i < nblocks; i++) {
        uint64_t carry = (uint64_t)((int64_t)hi >> 63) & 0x87;
        memcpy(buf[i], &lo, 8);
        memcpy(buf[i] + 8, &hi, 8);
        hi = hi << 1 | lo >> 63;
        lo = lo << 1 ^ carry;
    }
    t->lo = lo;
    t->hi = hi;
}

AESX_INLINE blk blk_mulx(blk t, int n)
{
    blk out = _mm_srli_epi64(t, 64 - n);
    return _mm_xor_si128(
        _mm_xor_si128(_mm_slli_epi64(t, n), _mm_slli_si128(out, 8)),
        _mm_clmulepi64_si128(out, _mm_set_epi64x(0, 0x87), 0x01));
}

AESX_INLINE vec vec_mulx(vec t, int n)
{
    vec out = V_SRLI64(t, 64 - n);
    return V_XOR3(V_SLLI64(t, n), V_BSLLI(out, 8),
                  V_CLMUL(out, V_BCAST(_mm_set_epi64x(0, 0x87)), 0x01));
}

/* t times x^(8m), 0 < m < 8: the m bytes shifted out, times 0x87, fit in
 * the low quadword. The byte shifts take m as an immediate, which GCC
 * finds constant once it has inlined this and unrolled its callers. clang
 * (`make fuzz` builds the kernels with it) wants the immediate constant
 * before inlining: it gets one case per m, the same arithmetic, folded to
 * one case there too. Not for GCC: the switch perturbs how it inlines the
 * rest of vaes-avx512's file. */
#define XTS_MULX_BYTES(t, m)                                                 \
    V_XOR(V_BSLLI(t, m), V_CLMUL(V_BSRLI(t, 16 - (m)),                       \
                                 V_BCAST(_mm_set_epi64x(0, 0x87)), 0x00))
#ifndef __clang__
AESX_INLINE vec vec_mulx_bytes(vec t, int m)
{
    return XTS_MULX_BYTES(t, m);
}
#else
AESX_INLINE vec vec_mulx_bytes(vec t, int m)
{
    switch (m) {
    case 1:
        return XTS_MULX_BYTES(t, 1);
    case 2:
        return XTS_MULX_BYTES(t, 2);
    case 3:
        return XTS_MULX_BYTES(t, 3);
    case 4:
        return XTS_MULX_BYTES(t, 4);
    case 5:
        return XTS_MULX_BYTES(t, 5);
    case 6:
        return XTS_MULX_BYTES(t, 6);
    default:
        return XTS_MULX_BYTES(t, 7);
    }
}
#endif

#define XTS_BASES (8 / LANES)

/* The tweaks of vector j of a batch, from its bases b. */
AESX_INLINE vec xts_tweak_vec(const vec *b, int j)
{
    int m = j / XTS_BASES;
    return m ? vec_mulx_bytes(b[j % XTS_BASES], m) : b[j % XTS_BASES];
}

/* n vectors of blocks with their tweaks t[0..n-1], the last vector of
 * `part` blocks. The last round ends by adding its key, so the tweak goes
 * in with it: one xor per vector fewer. */
AESX_INLINE void xts_vecs(const aes_key *k, const vec *t, uint8_t *out,
                          const uint8_t *in, int n, int part, int nr,
                          int decrypt)
{
    vec s[AESX_NVEC];
    vec first = round_key(cipher_schedule(k, decrypt)[0]),
        last = round_key(cipher_schedule(k, decrypt)[nr]);
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = V_XOR3(load_blocks(in + AESX_VEC_BYTES * j,
                                  vec_blocks(j, n, part)),
                      t[j], first);
    cipher_middle_rounds(k, s, n, nr, decrypt);
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = cipher_last_round(s[j], V_XOR(last, t[j]), decrypt);
    store_vecs(out, s, n, part);
}

/* Tweaks from the buffer (one block per vector). */
AESX_INLINE void xts_vecs_buffered(const aes_key *k, const uint8_t (*tw)[16],
                                   uint8_t *out, const uint8_t *in, int n,
                                   int nr, int decrypt)
{
    vec t[AESX_NVEC];
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        t[j] = V_LOADU(tw[LANES * j]);
    xts_vecs(k, t, out, in, n, LANES, nr, decrypt);
}

/* n whole vectors with tweaks computed from the bases b, which are
 * advanced past them. */
AESX_INLINE void xts_vecs_computed(const aes_key *k, vec *b, uint8_t *out,
                                   const uint8_t *in, int n, int nr,
                                   int decrypt)
{
    vec t[AESX_NVEC], next[XTS_BASES];
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        t[j] = xts_tweak_vec(b, j);
    AESX_UNROLL
    for (int r = 0; r < XTS_BASES; r++)
        next[r] = xts_tweak_vec(b, n + r);
    AESX_UNROLL
    for (int r = 0; r < XTS_BASES; r++)
        b[r] = next[r];
    xts_vecs(k, t, out, in, n, LANES, nr, decrypt);
}

AESX_INLINE void xts_blocks_buffered(const aes_key *k, uint8_t tweak[16],
                                     uint8_t *out, const uint8_t *in,
                                     size_t nblocks, int nr, int decrypt)
{
    uint8_t buf[2][AESX_BATCH][16];
    xts_tweak t;
    int cur = 0;
    size_t chunk = nblocks < AESX_BATCH ? nblocks : AESX_BATCH;
    memcpy(&t.lo, tweak, 8);
    memcpy(&t.hi, tweak + 8, 8);
    xts_fill(&t, buf[cur], chunk);
    while (chunk) {
        size_t rest = nblocks - chunk,
               next = rest < AESX_BATCH ? rest : AESX_BATCH, left = chunk;
        const uint8_t (*tw)[16] = (const uint8_t (*)[16])buf[cur];
        xts_fill(&t, buf[cur ^ 1], next);
#define XTS_STEP(n)                                                           \
    (xts_vecs_buffered(k, tw, out, in, n, nr, decrypt),                       \
     in += AESX_VEC_BYTES * (n), out += AESX_VEC_BYTES * (n),                 \
     tw += LANES * (n))
        AESX_BATCHES(left, XTS_STEP);
#undef XTS_STEP
        nblocks = rest;
        chunk = next;
        cur ^= 1;
    }
    memcpy(tweak, &t.lo, 8);
    memcpy(tweak + 8, &t.hi, 8);
}

/* A call of fewer blocks than a vector, one by one on xmm: a vector of
 * them would first need its tweaks set up lane by lane, which costs more
 * than the blocks (aes.c's ciphertext stealing sends single blocks here).
 * After whole vectors the next tweaks are in a vector already, and a last
 * part of a vector goes through it. */
AESX_INLINE blk xts_blks(const aes_key *k, blk t, uint8_t *out,
                         const uint8_t *in, size_t nblocks, int nr,
                         int decrypt)
{
    for (size_t i = 0; i < nblocks; i++) {
        blk x = _mm_xor_si128(blk_load(in + 16 * i), t);
        blk_store(out + 16 * i,
                  _mm_xor_si128(blk_cipher(k, x, nr, decrypt), t));
        t = blk_mulx(t, 1);
    }
    return t;
}

AESX_INLINE void xts_blocks_computed(const aes_key *k, uint8_t tweak[16],
                                     uint8_t *out, const uint8_t *in,
                                     size_t nblocks, int nr, int decrypt)
{
    blk t = blk_load(tweak);
    if (nblocks >= LANES) {
        vec b[XTS_BASES];
        b[0] = V_SET4(t, blk_mulx(t, 1), blk_mulx(t, 2), blk_mulx(t, 3));
        AESX_UNROLL
        for (int r = 1; r < XTS_BASES; r++)
            b[r] = vec_mulx(b[0], LANES * r);
#define XTS_STEP(n)                                                           \
    (xts_vecs_computed(k, b, out, in, n, nr, decrypt),                        \
     in += AESX_VEC_BYTES * (n), out += AESX_VEC_BYTES * (n))
        AESX_BATCHES(nblocks, XTS_STEP);
#undef XTS_STEP
        t = V_LANE0(b[0]);
        /* The next tweak is a lane of the last part's tweaks: ciphertext
         * stealing waits for it, and a lane is nearer than t times x^n. */
        if (nblocks) {
            xts_vecs(k, b, out, in, 1, (int)nblocks, nr, decrypt);
            t = V_LANE_AT(b[0], (int)nblocks);
        }
    } else
        t = xts_blks(k, t, out, in, nblocks, nr, decrypt);
    blk_store(tweak, t);
}

AESX_INLINE void xts_blocks(const aes_key *k, uint8_t tweak[16], uint8_t *out,
                            const uint8_t *in, size_t nblocks, int nr,
                            int decrypt)
{
    if (LANES == 1)
        xts_blocks_buffered(k, tweak, out, in, nblocks, nr, decrypt);
    else
        xts_blocks_computed(k, tweak, out, in, nblocks, nr, decrypt);
}

void AESX_FN(aes_xts_encrypt)(const aes_key *k, uint8_t tweak[16],
                              uint8_t *out, const uint8_t *in, size_t nblocks)
{
#define XTS_ENC(nr) xts_blocks(k, tweak, out, in, nblocks, nr, 0)
    AES_BY_ROUNDS(k, XTS_ENC);
#undef XTS_ENC
}

void AESX_FN(aes_xts_decrypt)(const aes_key *k, uint8_t tweak[16],
                              uint8_t *out, const uint8_t *in, size_t nblocks)
{
#define XTS_DEC(nr) xts_blocks(k, tweak, out, in, nblocks, nr, 1)
    AES_BY_ROUNDS(k, XTS_DEC);
#undef XTS_DEC
}

/* GHASH on byte-reversed blocks: bit 127 of the integer is the coefficient
 * of x^0, so a carry-less product of two is the 255-bit product reversed,
 * one bit short of 256. The key powers are stored times x^-1, which makes
 * up that bit, and the 256-bit product is reduced Montgomery-style, 64 bits
 * at a time, by the reversed x^128 + x^127 + x^126 + x^121 + 1: each step
 * multiplies the lowest quadword by 0xc2 << 56 and folds it up. That is
 * POLYVAL's product, kernels/gf128/clmul_x86.h.
 *
 * A batch's products are summed unreduced and reduced once, and each is
 * Karatsuba's three multiplies (lo, hi, and (lo ^ hi) of both factors, the
 * key's half kept precomputed in hkara) rather than four: the carry-less
 * multiplier, not AES, is what limits GCM. The sums are POLYVAL's
 * (polyval_x86.h's pv_sum), the same product on the reversed blocks. */

/* Vector j of a batch of n vectors at p, times its powers of H; the
 * running hash y is added to the batch's first block. */
AESX_INLINE void gh_step(const ghash_key *g, pv_sum *a, blk y,
                         const uint8_t *p, int j, int n)
{
    int power = GHASH_POWERS - n * LANES + j * LANES;
    vec x = V_SHUF8(V_LOADU(p + AESX_VEC_BYTES * j), vec_bswap_mask());
    if (j == 0)
        x = V_XOR(x, V_ZEXT(y));
    pv_sum_mul(a, x, V_LOADU(g->htab[power]), V_LOADU(g->hkara[power]));
}

AESX_INLINE blk ghash_vecs(const ghash_key *g, blk y, const uint8_t *p, int n)
{
    pv_sum a = pv_sum_zero();
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        gh_step(g, &a, y, p, j, n);
    return pv_sum_reduce(&a);
}

/* r < LANES blocks, one at a time but reduced once. */
AESX_INLINE blk ghash_blks(const ghash_key *g, blk y, const uint8_t *p,
                           size_t r)
{
    blk lo = _mm_setzero_si128(), mid = lo, hi = lo;
    if (r == 0)
        return y;
    for (size_t i = 0; i < r; i++) {
        blk x = _mm_shuffle_epi8(blk_load(p + 16 * i), blk_bswap_mask());
        blk h = blk_load(g->htab[GHASH_POWERS - r + i]);
        gf128_mul_add(&lo, &mid, &hi, i == 0 ? _mm_xor_si128(x, y) : x, h);
    }
    return gf128_reduce(lo, mid, hi);
}

void AESX_FN(ghash_init)(ghash_key *g, const uint8_t h[16])
{
    /* H times x^-1: the reversed H shifted left by one, and x^-1 =
     * x^127 + x^6 + x + 1 (reversed: 0xc2 << 120 | 1) added when the bit
     * shifted out (the coefficient of x^0) is set. */
    blk r = _mm_shuffle_epi8(blk_load(h), blk_bswap_mask());
    uint64_t lo = (uint64_t)_mm_cvtsi128_si64(r),
             hi = (uint64_t)_mm_extract_epi64(r, 1), mask = -(hi >> 63);
    hi = (hi << 1 | lo >> 63) ^ (mask & 0xc200000000000000ull);
    lo = (lo << 1) ^ (mask & 1);
    blk h1 = _mm_set_epi64x((long long)hi, (long long)lo), p = h1;
    memset(g, 0, sizeof *g);
    for (int i = 1; i <= GHASH_POWERS; i++) {
        if (i > 1)
            p = gf128_mul(p, h1);
        blk_store(g->htab[GHASH_POWERS - i], p);
        blk_store(g->hkara[GHASH_POWERS - i],
                  _mm_xor_si128(p, _mm_shuffle_epi32(p, 0x4e)));
    }
}

void AESX_FN(ghash_update)(const ghash_key *g, uint8_t y[16], const uint8_t *in,
                           size_t nblocks)
{
    blk h = _mm_shuffle_epi8(blk_load(y), blk_bswap_mask());
#define GHASH_STEP(n) (h = ghash_vecs(g, h, in, n), in += AESX_VEC_BYTES * (n))
    AESX_BATCHES(nblocks, GHASH_STEP);
#undef GHASH_STEP
    h = ghash_blks(g, h, in, nblocks);
    blk_store(y, _mm_shuffle_epi8(h, blk_bswap_mask()));
}

/* GCM. The counter block is kept byte-reversed in every lane; its low dword
 * is then GCM's 32-bit counter, and a dword add wraps it as inc32 does. */

AESX_INLINE blk gcm_vecs(const aes_key *k, const ghash_key *g, vec *ctr, blk y,
                         uint8_t *out, const uint8_t *in, int n, int part,
                         int nr,
                         const uint8_t *hashed, int hash)
{
    vec s[AESX_NVEC], swap = vec_bswap_mask();
    pv_sum a = pv_sum_zero();
    int blocks = (n - 1) * LANES + part;
    if (last_byte_holds((unsigned)_mm_cvtsi128_si32(V_LANE0(*ctr)), blocks)) {
        counters_in_last_byte(s, V_SHUF8(*ctr, swap), n);
    } else {
        AESX_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = V_SHUF8(V_ADD32(*ctr, V_LANE_QWORDS(j * LANES)), swap);
    }
    *ctr = V_ADD32(*ctr, V_BCAST(_mm_set_epi32(0, 0, 0, n * LANES)));
    vec rk = round_key(k->enc[0]);
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = V_XOR(s[j], rk);
    /* Stitched: one GHASH vector between consecutive AES rounds (n <= 8,
     * and AES has at least 10), so the carry-less multiplier and the AES
     * unit are busy together. */
    AESX_UNROLL_ROUNDS
    for (int r = 1; r < nr; r++) {
        rk = round_key(k->enc[r]);
        AESX_UNROLL
        for (int j = 0; j < n; j++)
            s[j] = V_AESENC(s[j], rk);
        if (hash && r <= n)
            gh_step(g, &a, y, hashed, r - 1, n);
    }
    rk = round_key(k->enc[nr]);
    AESX_UNROLL
    for (int j = 0; j < n; j++)
        s[j] = V_AESENCLAST(s[j], rk);
    if (hash)
        y = pv_sum_reduce(&a);
    store_xor_vecs(out, s, in, n, part);
    return y;
}

/* Encryption hashes the previous batch's ciphertext while it encrypts the
 * next one; the last batch is hashed on its own. Whole batches of nvec
 * vectors from *in to *out, advancing both. */
AESX_INLINE blk gcm_encrypt_batches(const aes_key *k, const ghash_key *g,
                                    vec *c, blk h, uint8_t **out,
                                    const uint8_t **in, size_t *nblocks,
                                    int nr, int nvec)
{
    size_t batch = (size_t)nvec * LANES, bytes = AESX_VEC_BYTES * (size_t)nvec;
    if (*nblocks < batch)
        return h;
    gcm_vecs(k, g, c, h, *out, *in, nvec, LANES, nr, NULL, 0);
    for (*nblocks -= batch; *nblocks >= batch; *nblocks -= batch) {
        *in += bytes;
        *out += bytes;
        h = gcm_vecs(k, g, c, h, *out, *in, nvec, LANES, nr, *out - bytes, 1);
    }
    h = ghash_vecs(g, h, *out, nvec);
    *in += bytes;
    *out += bytes;
    return h;
}

/* Under two whole batches the batches are halved, so that a message of
 * one to two batches is still encrypted and hashed together: as one
 * batch it is hashed after, and measured no faster than vaes-avx2 there
 * (docs/kernels.md, "The code's choices"). */
AESX_INLINE void gcm_encrypt_blocks(const aes_key *k, const ghash_key *g,
                                    uint8_t ctr[16], uint8_t y[16],
                                    uint8_t *out, const uint8_t *in,
                                    size_t nblocks, int nr)
{
    vec c = V_BCAST(_mm_shuffle_epi8(blk_load(ctr), blk_bswap_mask()));
    blk h = _mm_shuffle_epi8(blk_load(y), blk_bswap_mask());
    uint32_t ctr_end = aes_load32_be(ctr + 12) + (uint32_t)nblocks;
    if (nblocks >= 2 * AESX_BATCH)
        h = gcm_encrypt_batches(k, g, &c, h, &out, &in, &nblocks, nr,
                                AESX_NVEC);
    else
        h = gcm_encrypt_batches(k, g, &c, h, &out, &in, &nblocks, nr,
                                AESX_NVEC / 2);
#define GCM_ENC_STEP(n)                                                       \
    (gcm_vecs(k, g, &c, h, out, in, n, LANES, nr, NULL, 0),                   \
     h = ghash_vecs(g, h, out, n), in += AESX_VEC_BYTES * (n),                \
     out += AESX_VEC_BYTES * (n))
    AESX_BATCHES(nblocks, GCM_ENC_STEP);
#undef GCM_ENC_STEP
    if (LANES > 1 && nblocks) {
        gcm_vecs(k, g, &c, h, out, in, 1, (int)nblocks, nr, NULL, 0);
        h = ghash_blks(g, h, out, nblocks);
    }
    aes_store32_be(ctr + 12, ctr_end);
    blk_store(y, _mm_shuffle_epi8(h, blk_bswap_mask()));
}

/* Decryption hashes each batch's ciphertext while it decrypts it; the
 * hash reads a batch before the batch's output overwrites it in place. */
AESX_INLINE void gcm_decrypt_blocks(const aes_key *k, const ghash_key *g,
                                    uint8_t ctr[16], uint8_t y[16],
                                    uint8_t *out, const uint8_t *in,
                                    size_t nblocks, int nr)
{
    vec c = V_BCAST(_mm_shuffle_epi8(blk_load(ctr), blk_bswap_mask()));
    blk h = _mm_shuffle_epi8(blk_load(y), blk_bswap_mask());
    uint32_t ctr_end = aes_load32_be(ctr + 12) + (uint32_t)nblocks;
#define GCM_DEC_STEP(n)                                                       \
    (h = gcm_vecs(k, g, &c, h, out, in, n, LANES, nr, in, 1),                 \
     in += AESX_VEC_BYTES * (n), out += AESX_VEC_BYTES * (n))
    AESX_BATCHES(nblocks, GCM_DEC_STEP);
#undef GCM_DEC_STEP
    if (LANES > 1 && nblocks) {
        h = ghash_blks(g, h, in, nblocks);
        gcm_vecs(k, g, &c, h, out, in, 1, (int)nblocks, nr, NULL, 0);
    }
    aes_store32_be(ctr + 12, ctr_end);
    blk_store(y, _mm_shuffle_epi8(h, blk_bswap_mask()));
}

void AESX_FN(aes_gcm_encrypt)(const aes_key *k, const ghash_key *g,
                              uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                              const uint8_t *in, size_t nblocks)
{
#define GCM_ENC(nr) gcm_encrypt_blocks(k, g, ctr, y, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, GCM_ENC);
#undef GCM_ENC
}

void AESX_FN(aes_gcm_decrypt)(const aes_key *k, const ghash_key *g,
                              uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                              const uint8_t *in, size_t nblocks)
{
#define GCM_DEC(nr) gcm_decrypt_blocks(k, g, ctr, y, out, in, nblocks, nr)
    AES_BY_ROUNDS(k, GCM_DEC);
#undef GCM_DEC
}
