/* Portable AES with 32-bit lookup tables (T-tables): the "software AES" of
 * the seeds, and the reference every other variant is tested against.
 *
 * NOT constant-time: every table index is a key-dependent byte of the state,
 * so which cache lines are touched, and hence the timing, depends on the key
 * and the data. Use it to measure what AES costs without AES instructions,
 * never to protect anything on a machine shared with an attacker.
 *
 * GHASH here is constant-time: the carry-less multiply of
 * kernels/gf128/clmul_generic.h (BearSSL's ghash_ctmul64 technique), so no
 * branch or index depends on H or the data.
 *
 * Words hold a state column little-endian (row 0 in the low byte), so a
 * round key is its 16 bytes loaded as four words, and the byte order of the
 * schedule is the same as the x86 variants'. */
#include <string.h>

#include "aes.h"
#include "../gf128/clmul_generic.h"

#define AES_SBOX(f) \
    f(0x63), f(0x7c), f(0x77), f(0x7b), f(0xf2), f(0x6b), f(0x6f), f(0xc5), \
    f(0x30), f(0x01), f(0x67), f(0x2b), f(0xfe), f(0xd7), f(0xab), f(0x76), \
    f(0xca), f(0x82), f(0xc9), f(0x7d), f(0xfa), f(0x59), f(0x47), f(0xf0), \
    f(0xad), f(0xd4), f(0xa2), f(0xaf), f(0x9c), f(0xa4), f(0x72), f(0xc0), \
    f(0xb7), f(0xfd), f(0x93), f(0x26), f(0x36), f(0x3f), f(0xf7), f(0xcc), \
    f(0x34), f(0xa5), f(0xe5), f(0xf1), f(0x71), f(0xd8), f(0x31), f(0x15), \
    f(0x04), f(0xc7), f(0x23), f(0xc3), f(0x18), f(0x96), f(0x05), f(0x9a), \
    f(0x07), f(0x12), f(0x80), f(0xe2), f(0xeb), f(0x27), f(0xb2), f(0x75), \
    f(0x09), f(0x83), f(0x2c), f(0x1a), f(0x1b), f(0x6e), f(0x5a), f(0xa0), \
    f(0x52), f(0x3b), f(0xd6), f(0xb3), f(0x29), f(0xe3), f(0x2f), f(0x84), \
    f(0x53), f(0xd1), f(0x00), f(0xed), f(0x20), f(0xfc), f(0xb1), f(0x5b), \
    f(0x6a), f(0xcb), f(0xbe), f(0x39), f(0x4a), f(0x4c), f(0x58), f(0xcf), \
    f(0xd0), f(0xef), f(0xaa), f(0xfb), f(0x43), f(0x4d), f(0x33), f(0x85), \
    f(0x45), f(0xf9), f(0x02), f(0x7f), f(0x50), f(0x3c), f(0x9f), f(0xa8), \
    f(0x51), f(0xa3), f(0x40), f(0x8f), f(0x92), f(0x9d), f(0x38), f(0xf5), \
    f(0xbc), f(0xb6), f(0xda), f(0x21), f(0x10), f(0xff), f(0xf3), f(0xd2), \
    f(0xcd), f(0x0c), f(0x13), f(0xec), f(0x5f), f(0x97), f(0x44), f(0x17), \
    f(0xc4), f(0xa7), f(0x7e), f(0x3d), f(0x64), f(0x5d), f(0x19), f(0x73), \
    f(0x60), f(0x81), f(0x4f), f(0xdc), f(0x22), f(0x2a), f(0x90), f(0x88), \
    f(0x46), f(0xee), f(0xb8), f(0x14), f(0xde), f(0x5e), f(0x0b), f(0xdb), \
    f(0xe0), f(0x32), f(0x3a), f(0x0a), f(0x49), f(0x06), f(0x24), f(0x5c), \
    f(0xc2), f(0xd3), f(0xac), f(0x62), f(0x91), f(0x95), f(0xe4), f(0x79), \
    f(0xe7), f(0xc8), f(0x37), f(0x6d), f(0x8d), f(0xd5), f(0x4e), f(0xa9), \
    f(0x6c), f(0x56), f(0xf4), f(0xea), f(0x65), f(0x7a), f(0xae), f(0x08), \
    f(0xba), f(0x78), f(0x25), f(0x2e), f(0x1c), f(0xa6), f(0xb4), f(0xc6), \
    f(0xe8), f(0xdd), f(0x74), f(0x1f), f(0x4b), f(0xbd), f(0x8b), f(0x8a), \
    f(0x70), f(0x3e), f(0xb5), f(0x66), f(0x48), f(0x03), f(0xf6), f(0x0e), \
    f(0x61), f(0x35), f(0x57), f(0xb9), f(0x86), f(0xc1), f(0x1d), f(0x9e), \
    f(0xe1), f(0xf8), f(0x98), f(0x11), f(0x69), f(0xd9), f(0x8e), f(0x94), \
    f(0x9b), f(0x1e), f(0x87), f(0xe9), f(0xce), f(0x55), f(0x28), f(0xdf), \
    f(0x8c), f(0xa1), f(0x89), f(0x0d), f(0xbf), f(0xe6), f(0x42), f(0x68), \
    f(0x41), f(0x99), f(0x2d), f(0x0f), f(0xb0), f(0x54), f(0xbb), f(0x16)
#define AES_INV_SBOX(f) \
    f(0x52), f(0x09), f(0x6a), f(0xd5), f(0x30), f(0x36), f(0xa5), f(0x38), \
    f(0xbf), f(0x40), f(0xa3), f(0x9e), f(0x81), f(0xf3), f(0xd7), f(0xfb), \
    f(0x7c), f(0xe3), f(0x39), f(0x82), f(0x9b), f(0x2f), f(0xff), f(0x87), \
    f(0x34), f(0x8e), f(0x43), f(0x44), f(0xc4), f(0xde), f(0xe9), f(0xcb), \
    f(0x54), f(0x7b), f(0x94), f(0x32), f(0xa6), f(0xc2), f(0x23), f(0x3d), \
    f(0xee), f(0x4c), f(0x95), f(0x0b), f(0x42), f(0xfa), f(0xc3), f(0x4e), \
    f(0x08), f(0x2e), f(0xa1), f(0x66), f(0x28), f(0xd9), f(0x24), f(0xb2), \
    f(0x76), f(0x5b), f(0xa2), f(0x49), f(0x6d), f(0x8b), f(0xd1), f(0x25), \
    f(0x72), f(0xf8), f(0xf6), f(0x64), f(0x86), f(0x68), f(0x98), f(0x16), \
    f(0xd4), f(0xa4), f(0x5c), f(0xcc), f(0x5d), f(0x65), f(0xb6), f(0x92), \
    f(0x6c), f(0x70), f(0x48), f(0x50), f(0xfd), f(0xed), f(0xb9), f(0xda), \
    f(0x5e), f(0x15), f(0x46), f(0x57), f(0xa7), f(0x8d), f(0x9d), f(0x84), \
    f(0x90), f(0xd8), f(0xab), f(0x00), f(0x8c), f(0xbc), f(0xd3), f(0x0a), \
    f(0xf7), f(0xe4), f(0x58), f(0x05), f(0xb8), f(0xb3), f(0x45), f(0x06), \
    f(0xd0), f(0x2c), f(0x1e), f(0x8f), f(0xca), f(0x3f), f(0x0f), f(0x02), \
    f(0xc1), f(0xaf), f(0xbd), f(0x03), f(0x01), f(0x13), f(0x8a), f(0x6b), \
    f(0x3a), f(0x91), f(0x11), f(0x41), f(0x4f), f(0x67), f(0xdc), f(0xea), \
    f(0x97), f(0xf2), f(0xcf), f(0xce), f(0xf0), f(0xb4), f(0xe6), f(0x73), \
    f(0x96), f(0xac), f(0x74), f(0x22), f(0xe7), f(0xad), f(0x35), f(0x85), \
    f(0xe2), f(0xf9), f(0x37), f(0xe8), f(0x1c), f(0x75), f(0xdf), f(0x6e), \
    f(0x47), f(0xf1), f(0x1a), f(0x71), f(0x1d), f(0x29), f(0xc5), f(0x89), \
    f(0x6f), f(0xb7), f(0x62), f(0x0e), f(0xaa), f(0x18), f(0xbe), f(0x1b), \
    f(0xfc), f(0x56), f(0x3e), f(0x4b), f(0xc6), f(0xd2), f(0x79), f(0x20), \
    f(0x9a), f(0xdb), f(0xc0), f(0xfe), f(0x78), f(0xcd), f(0x5a), f(0xf4), \
    f(0x1f), f(0xdd), f(0xa8), f(0x33), f(0x88), f(0x07), f(0xc7), f(0x31), \
    f(0xb1), f(0x12), f(0x10), f(0x59), f(0x27), f(0x80), f(0xec), f(0x5f), \
    f(0x60), f(0x51), f(0x7f), f(0xa9), f(0x19), f(0xb5), f(0x4a), f(0x0d), \
    f(0x2d), f(0xe5), f(0x7a), f(0x9f), f(0x93), f(0xc9), f(0x9c), f(0xef), \
    f(0xa0), f(0xe0), f(0x3b), f(0x4d), f(0xae), f(0x2a), f(0xf5), f(0xb0), \
    f(0xc8), f(0xeb), f(0xbb), f(0x3c), f(0x83), f(0x53), f(0x99), f(0x61), \
    f(0x17), f(0x2b), f(0x04), f(0x7e), f(0xba), f(0x77), f(0xd6), f(0x26), \
    f(0xe1), f(0x69), f(0x14), f(0x63), f(0x55), f(0x21), f(0x0c), f(0x7d)

/* The tables are built from the S-boxes at compile time: multiplication by
 * 2 in GF(2^8) is XT, and the T-table words are the MixColumns (or
 * InvMixColumns) column of one S-box output, rotated per row. */
#define XT(s) ((((s) << 1) ^ (((s) >> 7) * 0x1b)) & 0xff)
#define ROTL32(w, n) ((uint32_t)((w) << (n) | (w) >> (32 - (n))))
#define BYTE(s) (s)
#define TE0(s) ((uint32_t)XT(s) | (uint32_t)(s) << 8 | (uint32_t)(s) << 16 | \
                (uint32_t)(XT(s) ^ (s)) << 24)
#define TE1(s) ROTL32(TE0(s), 8)
#define TE2(s) ROTL32(TE0(s), 16)
#define TE3(s) ROTL32(TE0(s), 24)
#define MUL9(s) (XT(XT(XT(s))) ^ (s))
#define MUL11(s) (XT(XT(XT(s))) ^ XT(s) ^ (s))
#define MUL13(s) (XT(XT(XT(s))) ^ XT(XT(s)) ^ (s))
#define MUL14(s) (XT(XT(XT(s))) ^ XT(XT(s)) ^ XT(s))
#define TD0(s) ((uint32_t)MUL14(s) | (uint32_t)MUL9(s) << 8 | \
                (uint32_t)MUL13(s) << 16 | (uint32_t)MUL11(s) << 24)
#define TD1(s) ROTL32(TD0(s), 8)
#define TD2(s) ROTL32(TD0(s), 16)
#define TD3(s) ROTL32(TD0(s), 24)

static const uint8_t sbox[256] = { AES_SBOX(BYTE) };
static const uint8_t inv_sbox[256] = { AES_INV_SBOX(BYTE) };
static const uint32_t te[4][256] = {
    { AES_SBOX(TE0) }, { AES_SBOX(TE1) }, { AES_SBOX(TE2) }, { AES_SBOX(TE3) },
};
static const uint32_t td[4][256] = {
    { AES_INV_SBOX(TD0) }, { AES_INV_SBOX(TD1) }, { AES_INV_SBOX(TD2) },
    { AES_INV_SBOX(TD3) },
};

static inline uint32_t load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline void store32_le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline uint64_t load64_be(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static inline void store64_be(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

static inline void xor_block(uint8_t *out, const uint8_t *a, const uint8_t *b)
{
    for (int i = 0; i < 16; i++)
        out[i] = a[i] ^ b[i];
}

static uint32_t sub_word_generic(uint32_t w)
{
    return (uint32_t)sbox[w & 0xff] | (uint32_t)sbox[w >> 8 & 0xff] << 8 |
           (uint32_t)sbox[w >> 16 & 0xff] << 16 | (uint32_t)sbox[w >> 24] << 24;
}

void aes_expand_enc(aes_key *k, const uint8_t *key, size_t key_len,
                    aes_sub_word_fn *sub_word)
{
    static const uint8_t rcon[10] = { 0x01, 0x02, 0x04, 0x08, 0x10,
                                      0x20, 0x40, 0x80, 0x1b, 0x36 };
    size_t nk = key_len / 4;
    unsigned rounds = (unsigned)nk + 6;
    uint32_t w[4 * (AES_MAX_ROUNDS + 1)];
    for (size_t i = 0; i < nk; i++)
        w[i] = load32_le(key + 4 * i);
    for (size_t i = nk; i < 4 * (rounds + 1); i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) /* RotWord is a rotation right of the LE word */
            t = sub_word(t >> 8 | t << 24) ^ rcon[i / nk - 1];
        else if (nk > 6 && i % nk == 4)
            t = sub_word(t);
        w[i] = w[i - nk] ^ t;
    }
    for (size_t i = 0; i < 4 * (rounds + 1); i++)
        store32_le(k->enc[i / 4] + 4 * (i % 4), w[i]);
    k->rounds = rounds;
}

/* InvMixColumns of one column: the decryption tables include InvSubBytes,
 * so feed them SubBytes of the input. */
static uint32_t inv_mix_column_generic(uint32_t w)
{
    return td[0][sbox[w & 0xff]] ^ td[1][sbox[w >> 8 & 0xff]] ^
           td[2][sbox[w >> 16 & 0xff]] ^ td[3][sbox[w >> 24]];
}

void aes_expand_generic(aes_key *k, const uint8_t *key, size_t key_len)
{
    aes_expand_enc(k, key, key_len, sub_word_generic);
    unsigned nr = k->rounds;
    memcpy(k->dec[0], k->enc[nr], 16);
    memcpy(k->dec[nr], k->enc[0], 16);
    for (unsigned r = 1; r < nr; r++)
        for (int c = 0; c < 4; c++)
            store32_le(k->dec[r] + 4 * c,
                       inv_mix_column_generic(load32_le(k->enc[nr - r] + 4 * c)));
}

static inline uint32_t te_column(uint32_t a, uint32_t b, uint32_t c,
                                 uint32_t d, const uint8_t *rk)
{
    return te[0][a & 0xff] ^ te[1][b >> 8 & 0xff] ^ te[2][c >> 16 & 0xff] ^
           te[3][d >> 24] ^ load32_le(rk);
}

static inline uint32_t sbox_column(uint32_t a, uint32_t b, uint32_t c,
                                   uint32_t d, const uint8_t *rk)
{
    return ((uint32_t)sbox[a & 0xff] | (uint32_t)sbox[b >> 8 & 0xff] << 8 |
            (uint32_t)sbox[c >> 16 & 0xff] << 16 |
            (uint32_t)sbox[d >> 24] << 24) ^ load32_le(rk);
}

static inline uint32_t td_column(uint32_t a, uint32_t b, uint32_t c,
                                 uint32_t d, const uint8_t *rk)
{
    return td[0][a & 0xff] ^ td[1][b >> 8 & 0xff] ^ td[2][c >> 16 & 0xff] ^
           td[3][d >> 24] ^ load32_le(rk);
}

static inline uint32_t inv_sbox_column(uint32_t a, uint32_t b, uint32_t c,
                                       uint32_t d, const uint8_t *rk)
{
    return ((uint32_t)inv_sbox[a & 0xff] | (uint32_t)inv_sbox[b >> 8 & 0xff] << 8 |
            (uint32_t)inv_sbox[c >> 16 & 0xff] << 16 |
            (uint32_t)inv_sbox[d >> 24] << 24) ^ load32_le(rk);
}

/* ShiftRows: row r of output column c comes from column c + r. */
static void encrypt_block_generic(const aes_key *k, uint8_t out[16],
                                  const uint8_t in[16])
{
    const uint8_t *rk = k->enc[0];
    uint32_t s0 = load32_le(in) ^ load32_le(rk),
             s1 = load32_le(in + 4) ^ load32_le(rk + 4),
             s2 = load32_le(in + 8) ^ load32_le(rk + 8),
             s3 = load32_le(in + 12) ^ load32_le(rk + 12), t0, t1, t2, t3;
    for (unsigned r = 1; r < k->rounds; r++) {
        rk += 16;
        t0 = te_column(s0, s1, s2, s3, rk);
        t1 = te_column(s1, s2, s3, s0, rk + 4);
        t2 = te_column(s2, s3, s0, s1, rk + 8);
        t3 = te_column(s3, s0, s1, s2, rk + 12);
        s0 = t0, s1 = t1, s2 = t2, s3 = t3;
    }
    rk += 16;
    store32_le(out, sbox_column(s0, s1, s2, s3, rk));
    store32_le(out + 4, sbox_column(s1, s2, s3, s0, rk + 4));
    store32_le(out + 8, sbox_column(s2, s3, s0, s1, rk + 8));
    store32_le(out + 12, sbox_column(s3, s0, s1, s2, rk + 12));
}

/* InvShiftRows: row r of output column c comes from column c - r. */
static void decrypt_block_generic(const aes_key *k, uint8_t out[16],
                                  const uint8_t in[16])
{
    const uint8_t *rk = k->dec[0];
    uint32_t s0 = load32_le(in) ^ load32_le(rk),
             s1 = load32_le(in + 4) ^ load32_le(rk + 4),
             s2 = load32_le(in + 8) ^ load32_le(rk + 8),
             s3 = load32_le(in + 12) ^ load32_le(rk + 12), t0, t1, t2, t3;
    for (unsigned r = 1; r < k->rounds; r++) {
        rk += 16;
        t0 = td_column(s0, s3, s2, s1, rk);
        t1 = td_column(s1, s0, s3, s2, rk + 4);
        t2 = td_column(s2, s1, s0, s3, rk + 8);
        t3 = td_column(s3, s2, s1, s0, rk + 12);
        s0 = t0, s1 = t1, s2 = t2, s3 = t3;
    }
    rk += 16;
    store32_le(out, inv_sbox_column(s0, s3, s2, s1, rk));
    store32_le(out + 4, inv_sbox_column(s1, s0, s3, s2, rk + 4));
    store32_le(out + 8, inv_sbox_column(s2, s1, s0, s3, rk + 8));
    store32_le(out + 12, inv_sbox_column(s3, s2, s1, s0, rk + 12));
}

void aes_encrypt_generic(const aes_key *k, uint8_t *out, const uint8_t *in,
                         size_t nblocks)
{
    for (size_t i = 0; i < nblocks; i++)
        encrypt_block_generic(k, out + 16 * i, in + 16 * i);
}

void aes_decrypt_generic(const aes_key *k, uint8_t *out, const uint8_t *in,
                         size_t nblocks)
{
    for (size_t i = 0; i < nblocks; i++)
        decrypt_block_generic(k, out + 16 * i, in + 16 * i);
}

void aes_ctr_generic(const aes_key *k, uint8_t ctr[16], uint8_t *out,
                     const uint8_t *in, size_t nblocks)
{
    uint64_t hi = load64_be(ctr), lo = load64_be(ctr + 8);
    uint8_t ks[16];
    for (size_t i = 0; i < nblocks; i++, in += 16, out += 16) {
        encrypt_block_generic(k, ks, ctr);
        xor_block(out, in, ks);
        hi += ++lo == 0;
        store64_be(ctr, hi);
        store64_be(ctr + 8, lo);
    }
}

void aes_cbc_encrypt_generic(const aes_key *k, uint8_t iv[16], uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    for (size_t i = 0; i < nblocks; i++, in += 16, out += 16) {
        xor_block(iv, iv, in);
        encrypt_block_generic(k, iv, iv);
        memcpy(out, iv, 16);
    }
}

void aes_cbc_decrypt_generic(const aes_key *k, uint8_t iv[16], uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    uint8_t c[16], p[16];
    for (size_t i = 0; i < nblocks; i++, in += 16, out += 16) {
        memcpy(c, in, 16); /* in may be out */
        decrypt_block_generic(k, p, c);
        xor_block(out, p, iv);
        memcpy(iv, c, 16);
    }
}

void aes_xts_encrypt_generic(const aes_key *k, uint8_t tweak[16], uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    uint8_t b[16];
    for (size_t i = 0; i < nblocks; i++, in += 16, out += 16) {
        xor_block(b, in, tweak);
        encrypt_block_generic(k, b, b);
        xor_block(out, b, tweak);
        aes_xts_mulx(tweak);
    }
}

void aes_xts_decrypt_generic(const aes_key *k, uint8_t tweak[16], uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    uint8_t b[16];
    for (size_t i = 0; i < nblocks; i++, in += 16, out += 16) {
        xor_block(b, in, tweak);
        decrypt_block_generic(k, b, b);
        xor_block(out, b, tweak);
        aes_xts_mulx(tweak);
    }
}

void ghash_init_generic(ghash_key *g, const uint8_t h[16])
{
    memset(g, 0, sizeof *g);
    memcpy(g->htab[0], h, 16);
}

/* Blocks loaded big-endian are GCM's polynomials bit-reversed (bit 127 is
 * the coefficient of x^0). The product of two reversed 128-bit values is
 * the reversed 255-bit product, hence the shift left by one; the reduction
 * folds the low 128 bits (the high-degree terms) back twice, 64 at a time,
 * with x^128 = x^7 + x^2 + x + 1 in reversed form. */
void ghash_update_generic(const ghash_key *g, uint8_t y[16], const uint8_t *in,
                          size_t nblocks)
{
    clmul_factor h = clmul_factor_of(load64_be(g->htab[0]),
                                     load64_be(g->htab[0] + 8));
    uint64_t y1 = load64_be(y), y0 = load64_be(y + 8), v[4];
    for (size_t i = 0; i < nblocks; i++, in += 16) {
        y1 ^= load64_be(in);
        y0 ^= load64_be(in + 8);
        clmul_128(&h, y1, y0, v);
        uint64_t v0 = v[0], v1 = v[1], v2 = v[2], v3 = v[3];
        v3 = v3 << 1 | v2 >> 63;
        v2 = v2 << 1 | v1 >> 63;
        v1 = v1 << 1 | v0 >> 63;
        v0 = v0 << 1;
        v2 ^= v0 ^ (v0 >> 1) ^ (v0 >> 2) ^ (v0 >> 7);
        v1 ^= (v0 << 63) ^ (v0 << 62) ^ (v0 << 57);
        v3 ^= v1 ^ (v1 >> 1) ^ (v1 >> 2) ^ (v1 >> 7);
        v2 ^= (v1 << 63) ^ (v1 << 62) ^ (v1 << 57);
        y0 = v2;
        y1 = v3;
    }
    store64_be(y, y1);
    store64_be(y + 8, y0);
}

static inline void inc32_generic(uint8_t ctr[16])
{
    uint32_t c = (uint32_t)ctr[12] << 24 | (uint32_t)ctr[13] << 16 |
                 (uint32_t)ctr[14] << 8 | ctr[15];
    c++;
    ctr[12] = (uint8_t)(c >> 24);
    ctr[13] = (uint8_t)(c >> 16);
    ctr[14] = (uint8_t)(c >> 8);
    ctr[15] = (uint8_t)c;
}

/* Two passes (CTR, then GHASH over the ciphertext) are as fast as one
 * here, where nothing overlaps anyway. */
static void gcm_ctr_generic(const aes_key *k, uint8_t ctr[16], uint8_t *out,
                            const uint8_t *in, size_t nblocks)
{
    uint8_t ks[16];
    for (size_t i = 0; i < nblocks; i++, in += 16, out += 16) {
        encrypt_block_generic(k, ks, ctr);
        inc32_generic(ctr);
        xor_block(out, in, ks);
    }
}

void aes_gcm_encrypt_generic(const aes_key *k, const ghash_key *g,
                             uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    gcm_ctr_generic(k, ctr, out, in, nblocks);
    ghash_update_generic(g, y, out, nblocks);
}

void aes_gcm_decrypt_generic(const aes_key *k, const ghash_key *g,
                             uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    ghash_update_generic(g, y, in, nblocks); /* before out overwrites in */
    gcm_ctr_generic(k, ctr, out, in, nblocks);
}
