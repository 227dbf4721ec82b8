/* The AEGIS state machine on vectors, written once for LANES 128-bit
 * lanes and compiled by aegis_aesni.c and aegis_ssse3.c (xmm, one lane,
 * through aegis_xmm.h: AEGIS-128L and AEGIS-256 on aesenc or on the
 * vector-permute round), aegis_vaes_avx2.c (ymm, two: the X2 forms),
 * aegis_vaes_avx512.c (zmm, four: the X4 forms) and, on aarch64,
 * aegis_ce.c (one lane, the round from AESE and AESMC), each with its own
 * ISA flags. A state word is one vector whose lane i is word j of state i,
 * so an update is one AES round per word whatever LANES is. Nothing here
 * names an architecture's intrinsics: the including file brings them.
 *
 * The including file first defines AEGIS_ISA (the symbol suffix), AEGIS128
 * and AEGIS256 (the kernels it carries: aegis128l and aegis256 for one
 * lane, aegis128x2 ...), LANES, the type `vec` and these primitives:
 *   V_LOADU(p) V_STOREU(p, v) V_XOR(a, b) V_AESENC(state, round_key)
 *   V_XOR3(a, b, c)      a ^ b ^ c
 *   V_XOR_AND(a, b, c)   a ^ (b & c)
 *   V_BCAST(p)           the 16 bytes at p in every lane
 *   V_LANE_QWORDS(k)     lane i holds k + i in its low quadword, 0 above
 *   V_FOLD(v)            the xor of all lanes, as a 16-byte vector
 *
 * Everything here is always_inline or exported as <kernel>_<op>_<AEGIS_ISA>,
 * so a profile names the variant, and nothing hands work to another ISA.
 * The 128 family has 8 state words and absorbs two vectors per update, the
 * 256 family 6 and one; `words` is a constant in every caller, so each
 * exported function is compiled for one family with its branches gone and
 * every state word in a register. */
#include <string.h>

#include "aegis.h"
#include "../unroll.h"

#define AEGISX_PASTE3(a, b, c) a##_##b##_##c
#define AEGISX_NAME(kernel, op, isa) AEGISX_PASTE3(kernel, op, isa)
#define AEGISX_INLINE static inline __attribute__((always_inline))
#define AEGISX_UNROLL CB_UNROLL(8)
#define VEC_BYTES (16 * LANES)
/* Bytes per update: two vectors for the 128 family, one for the 256. */
#define RATE(words) ((words) == 8 ? 2 * VEC_BYTES : VEC_BYTES)

/* The input of one update: m[1] is the 128 family's second vector. */
typedef struct rate_block {
    vec m[2];
} rate_block;

AEGISX_INLINE rate_block load_rate(const uint8_t *p, int words)
{
    rate_block b;
    b.m[0] = V_LOADU(p);
    b.m[1] = words == 8 ? V_LOADU(p + VEC_BYTES) : b.m[0];
    return b;
}

AEGISX_INLINE void store_rate(uint8_t *p, rate_block b, int words)
{
    V_STOREU(p, b.m[0]);
    if (words == 8)
        V_STOREU(p + VEC_BYTES, b.m[1]);
}

/* Word j of the state is kept in slot (j + rot) % words of s. An update
 * writes S'j = AESRound(S(j-1), Sj) over S(j-1), and S'0 = AESRound(S7,
 * S0 ^ M0) over the last word, so it moves every word down one slot
 * instead of copying the state: rot becomes rot - 1. In this order each
 * old word is read as a round key before it is overwritten as a state,
 * which suits the destructive SSE form. rot is a constant wherever this is
 * inlined, so that the slots are registers. */
#define W(j) s[((j) + rot) % words]

AEGISX_INLINE void update_at(vec *s, int words, int rot, rate_block in)
{
    vec m0 = V_XOR(W(0), in.m[0]);
    vec m4 = words == 8 ? V_XOR(W(4), in.m[1]) : m0;
    for (int j = 1; j < words; j++)
        W(j - 1) = V_AESENC(W(j - 1), words == 8 && j == 4 ? m4 : W(j));
    W(words - 1) = V_AESENC(W(words - 1), m0);
}

/* Every word back to its own slot after one update at rot 0. Written out,
 * not as a loop, which GCC turns into a call of memmove on a copy of the
 * state in memory. */
AEGISX_INLINE void realign(vec *s, int words)
{
    vec first = s[words - 1];
    if (words == 8) {
        s[7] = s[6];
        s[6] = s[5];
        s[5] = s[4];
        s[4] = s[3];
    } else {
        s[5] = s[4];
        s[4] = s[3];
    }
    s[3] = s[2];
    s[2] = s[1];
    s[1] = s[0];
    s[0] = first;
}

AEGISX_INLINE void update(vec *s, int words, rate_block in)
{
    update_at(s, words, 0, in);
    realign(s, words);
}

/* x xored with the keystream of the state as it is (Enc, Dec): 128 family
 * z0 = S1 ^ S6 ^ (S2 & S3), z1 = S2 ^ S5 ^ (S6 & S7); 256 family
 * z = S1 ^ S4 ^ S5 ^ (S2 & S3). */
AEGISX_INLINE rate_block keystream_xor(const vec *s, int words, int rot,
                                       rate_block x)
{
    rate_block y;
    if (words == 8) {
        y.m[0] = V_XOR3(x.m[0], W(1), V_XOR_AND(W(6), W(2), W(3)));
        y.m[1] = V_XOR3(x.m[1], W(2), V_XOR_AND(W(5), W(6), W(7)));
    } else {
        y.m[0] = V_XOR(V_XOR3(x.m[0], W(1), W(4)),
                       V_XOR_AND(W(5), W(2), W(3)));
        y.m[1] = y.m[0];
    }
    return y;
}

#undef W

AEGISX_INLINE rate_block both(vec v)
{
    return (rate_block){ { v, v } };
}

/* Lane i xors in ctx[i] = i, D - 1 (bytes 0 and 1), zeros. */
AEGISX_INLINE vec context(void)
{
    return V_LANE_QWORDS((LANES - 1) << 8);
}

AEGISX_INLINE void add_context(vec *s, int words, vec ctx)
{
    if (LANES == 1)
        return; /* ctx[0] of one lane is zero */
    s[3] = V_XOR(s[3], ctx);
    s[words - 1] = V_XOR(s[words - 1], ctx);
}

AEGISX_INLINE void init(vec *s, int words, const aegis_key *k,
                        const uint8_t *nonce)
{
    vec c0 = V_BCAST(aegis_c0), c1 = V_BCAST(aegis_c1), ctx = context();
    vec k0 = V_BCAST(k->k[0]), n0 = V_BCAST(nonce), kn0 = V_XOR(k0, n0);
    if (words == 8) {
        vec kc0 = V_BCAST(k->kc[0]);
        s[0] = kn0, s[1] = c1, s[2] = c0, s[3] = c1;
        s[4] = kn0, s[5] = kc0, s[6] = V_BCAST(k->kc[1]), s[7] = kc0;
        for (int r = 0; r < 10; r++) {
            add_context(s, words, ctx);
            update(s, words, (rate_block){ { n0, k0 } });
        }
        return;
    }
    vec k1 = V_BCAST(k->k[1]), kn1 = V_XOR(k1, V_BCAST(nonce + 16));
    s[0] = kn0, s[1] = kn1, s[2] = c1, s[3] = c0;
    s[4] = V_BCAST(k->kc[0]), s[5] = V_BCAST(k->kc[1]);
    for (int r = 0; r < 4; r++) {
        const vec m[4] = { k0, k1, kn0, kn1 };
        for (int i = 0; i < 4; i++) {
            add_context(s, words, ctx);
            update(s, words, both(m[i]));
        }
    }
}

enum { OP_ABSORB, OP_ENCRYPT, OP_DECRYPT };

/* One whole block x, the input at offset i: absorbed (the associated
 * data), or encrypted or decrypted to out, the plaintext absorbed. */
AEGISX_INLINE void block_from(vec *s, int words, int rot, int op,
                              uint8_t *out, rate_block x, size_t i)
{
    if (op == OP_ENCRYPT)
        store_rate(out + i, keystream_xor(s, words, rot, x), words);
    if (op == OP_DECRYPT) {
        x = keystream_xor(s, words, rot, x);
        store_rate(out + i, x, words);
    }
    update_at(s, words, rot, x);
}

AEGISX_INLINE void block_at(vec *s, int words, int rot, int op, uint8_t *out,
                            const uint8_t *in, size_t i)
{
    block_from(s, words, rot, op, out, load_rate(in + i, words), i);
}

/* Blocks go words at a time, after which every word is back in its slot,
 * so the loop keeps the state in registers without a copy. */
#define AEGISX_GROUP(words) (RATE(words) * (words))

/* On zmm rows, the whole groups of a message's blocks but its last, each
 * block's input loaded words / 2 blocks ahead of its output's store; returns
 * how many bytes they are. With each load after the stores before it, a
 * 512-bit load whose address matched a recent 512-bit store's in the low 12
 * bits (for output 64 to 256 bytes past the input modulo 4 KiB) held the
 * loop at up to 1.7 times its time on AMD Zen 4, in some processes, as it
 * did AES-CTR's (docs/kernels.md, "The code's choices"). */
AEGISX_INLINE size_t groups_ahead(vec *s, int words, int op, uint8_t *out,
                                  const uint8_t *in, size_t len)
{
    enum { AHEAD_MAX = 4 };
    const int ahead = words / 2;
    size_t rate = RATE(words), group = AEGISX_GROUP(words), i = 0;
    size_t end = len / group * group;
    rate_block next[AHEAD_MAX];
    if (LANES != 4 || op == OP_ABSORB || end < 2 * group)
        return 0;
    for (int j = 0; j < ahead; j++)
        next[j] = load_rate(in + rate * j, words);
    for (; i + group < end; i += group)
        AEGISX_UNROLL
        for (int r = 0; r < words; r++) {
            rate_block x = next[r % ahead];
            next[r % ahead] = load_rate(in + i + rate * (r + ahead), words);
            block_from(s, words, (words - r) % words, op, out, x,
                       i + rate * r);
        }
    return i;
}

/* The whole blocks of len bytes; returns how many bytes they are. */
AEGISX_INLINE size_t blocks(vec *s, int words, int op, uint8_t *out,
                            const uint8_t *in, size_t len)
{
    size_t rate = RATE(words);
    size_t i = groups_ahead(s, words, op, out, in, len);
    for (; i + AEGISX_GROUP(words) <= len; i += AEGISX_GROUP(words))
        AEGISX_UNROLL
        for (int r = 0; r < words; r++)
            block_at(s, words, (words - r) % words, op, out, in, i + rate * r);
    for (; i + rate <= len; i += rate) {
        block_at(s, words, 0, op, out, in, i);
        realign(s, words);
    }
    return i;
}

/* n < 2 * VEC_BYTES bytes (a partial block) in power-of-two pieces, each
 * a fixed-size copy the compiler inlines: no call into the C library in a
 * kernel's code, so that a profile finds a message's tail inside the
 * variant's own symbol. */
AEGISX_INLINE void copy_part(uint8_t *dst, const uint8_t *src, size_t n)
{
    size_t at = 0;
    for (size_t piece = VEC_BYTES; piece > 0; piece /= 2)
        if (n & piece) {
            memcpy(dst + at, src + at, piece);
            at += piece;
        }
}

/* The associated data, a last partial block zero-padded. */
AEGISX_INLINE void absorb(vec *s, int words, const uint8_t *ad, size_t len)
{
    size_t i = blocks(s, words, OP_ABSORB, NULL, ad, len);
    if (i < len) {
        uint8_t pad[2 * VEC_BYTES] = { 0 };
        copy_part(pad, ad + i, len - i);
        update(s, words, load_rate(pad, words));
    }
}

/* A last partial block through a zero-padded copy. The state absorbs the
 * plaintext padded with zeros, so decryption pads what it decrypted anew. */
AEGISX_INLINE void crypt_tail(vec *s, int words, uint8_t *out,
                              const uint8_t *in, size_t n, int op)
{
    uint8_t pad[2 * VEC_BYTES] = { 0 }, plain[2 * VEC_BYTES] = { 0 };
    rate_block x;
    copy_part(pad, in, n);
    x = load_rate(pad, words);
    store_rate(pad, keystream_xor(s, words, 0, x), words);
    copy_part(out, pad, n);
    if (op == OP_DECRYPT) {
        copy_part(plain, pad, n);
        x = load_rate(plain, words);
    }
    update(s, words, x);
}

AEGISX_INLINE void crypt(vec *s, int words, uint8_t *out, const uint8_t *in,
                         size_t len, int op)
{
    size_t i = blocks(s, words, op, out, in, len);
    if (i < len)
        crypt_tail(s, words, out + i, in + i, len - i, op);
}

/* The xor of words [from, to) of every state, folded over the lanes, into
 * the 16 bytes at p. */
AEGISX_INLINE void store_fold(uint8_t *p, const vec *s, int from, int to)
{
    vec x = s[from];
    for (int j = from + 1; j < to; j++)
        x = V_XOR(x, s[j]);
    __typeof__(V_FOLD(x)) folded = V_FOLD(x);
    memcpy(p, &folded, 16);
}

AEGISX_INLINE void finalize(vec *s, int words, size_t ad_len, size_t len,
                            uint8_t *tag, size_t tag_len)
{
    /* The lengths in bits, little-endian, as the host (both hosts) is. */
    const uint64_t bits[2] = { (uint64_t)ad_len * 8, (uint64_t)len * 8 };
    vec t = V_XOR(s[words == 8 ? 2 : 3], V_BCAST((const uint8_t *)bits));
    for (int r = 0; r < 7; r++)
        update(s, words, both(t));
    if (tag_len == 16) {
        /* The 128 family leaves S7 out of its 128-bit tag. */
        store_fold(tag, s, 0, words == 8 ? 7 : 6);
        return;
    }
    store_fold(tag, s, 0, words / 2);
    store_fold(tag + 16, s, words / 2, words);
}

AEGISX_INLINE void aegis_message(int words, const aegis_key *k,
                                 const uint8_t *nonce, const uint8_t *ad,
                                 size_t ad_len, uint8_t *out,
                                 const uint8_t *in, size_t len, uint8_t *tag,
                                 size_t tag_len, int op)
{
    vec s[8];
    init(s, words, k, nonce);
    absorb(s, words, ad, ad_len);
    crypt(s, words, out, in, len, op);
    finalize(s, words, ad_len, len, tag, tag_len);
}

#define AEGISX_DEFINE(kernel, name, words, op)                                \
    void AEGISX_NAME(kernel, name, AEGIS_ISA)(                                \
        const aegis_key *k, const uint8_t *nonce, const uint8_t *ad,          \
        size_t ad_len, uint8_t *out, const uint8_t *in, size_t len,           \
        uint8_t *tag, size_t tag_len)                                         \
    {                                                                         \
        aegis_message(words, k, nonce, ad, ad_len, out, in, len, tag,         \
                      tag_len, op);                                           \
    }

AEGISX_DEFINE(AEGIS128, encrypt, 8, OP_ENCRYPT)
AEGISX_DEFINE(AEGIS128, decrypt, 8, OP_DECRYPT)
AEGISX_DEFINE(AEGIS256, encrypt, 6, OP_ENCRYPT)
AEGISX_DEFINE(AEGIS256, decrypt, 6, OP_DECRYPT)
