/* Portable AES with 32-bit lookup tables (T-tables): the "software AES" of
 * the Firebird 10 MB comparison, and the reference every other variant is tested against.
 *
 * NOT constant-time: every table index is a key-dependent byte of the state,
 * so which cache lines are touched, and hence the timing, depends on the key
 * and the data. Use it to measure what AES costs without AES instructions,
 * never to protect anything on a machine shared with an attacker.
 *
 * Its GHASH is the portable constant-time one of aes_internal.c.
 *
 * Words hold a state column little-endian (row 0 in the low byte), so a
 * round key is its 16 bytes loaded as four words, and the byte order of the
 * schedule is the same as the x86 variants'. */
#include <string.h>

#include "aes_internal.h"

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

static uint32_t sub_word_generic(uint32_t w)
{
    return (uint32_t)sbox[w & 0xff] | (uint32_t)sbox[w >> 8 & 0xff] << 8 |
           (uint32_t)sbox[w >> 16 & 0xff] << 16 | (uint32_t)sbox[w >> 24] << 24;
}

/* InvMixColumns of one column: the decryption tables include InvSubBytes,
 * so feed them SubBytes of the input. */
static uint32_t inv_mix_column_generic(uint32_t w)
{
    return td[0][sbox[w & 0xff]] ^ td[1][sbox[w >> 8 & 0xff]] ^
           td[2][sbox[w >> 16 & 0xff]] ^ td[3][sbox[w >> 24]];
}

void aes_expand_generic(aes_key *k, const uint8_t *key, size_t key_len,
                        int decrypt)
{
    aes_expand_enc(k, key, key_len, sub_word_generic);
    unsigned nr = k->rounds;
    if (!decrypt)
        return;
    memcpy(k->dec[0], k->enc[nr], 16);
    memcpy(k->dec[nr], k->enc[0], 16);
    for (unsigned r = 1; r < nr; r++)
        for (int c = 0; c < 4; c++)
            aes_store32_le(k->dec[r] + 4 * c,
                       inv_mix_column_generic(aes_load32_le(k->enc[nr - r] + 4 * c)));
}

static inline uint32_t te_column(uint32_t a, uint32_t b, uint32_t c,
                                 uint32_t d, const uint8_t *rk)
{
    return te[0][a & 0xff] ^ te[1][b >> 8 & 0xff] ^ te[2][c >> 16 & 0xff] ^
           te[3][d >> 24] ^ aes_load32_le(rk);
}

static inline uint32_t sbox_column(uint32_t a, uint32_t b, uint32_t c,
                                   uint32_t d, const uint8_t *rk)
{
    return ((uint32_t)sbox[a & 0xff] | (uint32_t)sbox[b >> 8 & 0xff] << 8 |
            (uint32_t)sbox[c >> 16 & 0xff] << 16 |
            (uint32_t)sbox[d >> 24] << 24) ^ aes_load32_le(rk);
}

static inline uint32_t td_column(uint32_t a, uint32_t b, uint32_t c,
                                 uint32_t d, const uint8_t *rk)
{
    return td[0][a & 0xff] ^ td[1][b >> 8 & 0xff] ^ td[2][c >> 16 & 0xff] ^
           td[3][d >> 24] ^ aes_load32_le(rk);
}

static inline uint32_t inv_sbox_column(uint32_t a, uint32_t b, uint32_t c,
                                       uint32_t d, const uint8_t *rk)
{
    return ((uint32_t)inv_sbox[a & 0xff] | (uint32_t)inv_sbox[b >> 8 & 0xff] << 8 |
            (uint32_t)inv_sbox[c >> 16 & 0xff] << 16 |
            (uint32_t)inv_sbox[d >> 24] << 24) ^ aes_load32_le(rk);
}

/* A middle round on the state's four columns: ShiftRows (row r of output
 * column c comes from column c + r), then SubBytes, MixColumns and the
 * round key rk from the tables. */
static inline void te_round(uint32_t s[4], const uint8_t *rk)
{
    uint32_t t0 = te_column(s[0], s[1], s[2], s[3], rk),
             t1 = te_column(s[1], s[2], s[3], s[0], rk + 4),
             t2 = te_column(s[2], s[3], s[0], s[1], rk + 8),
             t3 = te_column(s[3], s[0], s[1], s[2], rk + 12);
    s[0] = t0, s[1] = t1, s[2] = t2, s[3] = t3;
}

static void encrypt_block_generic(const aes_key *k, uint8_t out[16],
                                  const uint8_t in[16])
{
    const uint8_t *rk = k->enc[0];
    uint32_t s[4];
    for (int c = 0; c < 4; c++)
        s[c] = aes_load32_le(in + 4 * c) ^ aes_load32_le(rk + 4 * c);
    for (unsigned r = 1; r < k->rounds; r++)
        te_round(s, rk += 16);
    rk += 16;
    aes_store32_le(out, sbox_column(s[0], s[1], s[2], s[3], rk));
    aes_store32_le(out + 4, sbox_column(s[1], s[2], s[3], s[0], rk + 4));
    aes_store32_le(out + 8, sbox_column(s[2], s[3], s[0], s[1], rk + 8));
    aes_store32_le(out + 12, sbox_column(s[3], s[0], s[1], s[2], rk + 12));
}

void aes_round_generic(uint8_t out[16], const uint8_t in[16],
                       const uint8_t rk[16])
{
    uint32_t s[4];
    for (int c = 0; c < 4; c++)
        s[c] = aes_load32_le(in + 4 * c);
    te_round(s, rk);
    for (int c = 0; c < 4; c++)
        aes_store32_le(out + 4 * c, s[c]);
}

/* InvShiftRows: row r of output column c comes from column c - r. */
static void decrypt_block_generic(const aes_key *k, uint8_t out[16],
                                  const uint8_t in[16])
{
    const uint8_t *rk = k->dec[0];
    uint32_t s0 = aes_load32_le(in) ^ aes_load32_le(rk),
             s1 = aes_load32_le(in + 4) ^ aes_load32_le(rk + 4),
             s2 = aes_load32_le(in + 8) ^ aes_load32_le(rk + 8),
             s3 = aes_load32_le(in + 12) ^ aes_load32_le(rk + 12), t0, t1, t2, t3;
    for (unsigned r = 1; r < k->rounds; r++) {
        rk += 16;
        t0 = td_column(s0, s3, s2, s1, rk);
        t1 = td_column(s1, s0, s3, s2, rk + 4);
        t2 = td_column(s2, s1, s0, s3, rk + 8);
        t3 = td_column(s3, s2, s1, s0, rk + 12);
        s0 = t0, s1 = t1, s2 = t2, s3 = t3;
    }
    rk += 16;
    aes_store32_le(out, inv_sbox_column(s0, s3, s2, s1, rk));
    aes_store32_le(out + 4, inv_sbox_column(s1, s0, s3, s2, rk + 4));
    aes_store32_le(out + 8, inv_sbox_column(s2, s1, s0, s3, rk + 8));
    aes_store32_le(out + 12, inv_sbox_column(s3, s2, s1, s0, rk + 12));
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
    uint64_t hi = aes_load64_be(ctr), lo = aes_load64_be(ctr + 8);
    uint8_t ks[16];
    for (size_t i = 0; i < nblocks; i++, in += 16, out += 16) {
        encrypt_block_generic(k, ks, ctr);
        aes_xor_bytes(out, in, ks, 16);
        hi += ++lo == 0;
        aes_store64_be(ctr, hi);
        aes_store64_be(ctr + 8, lo);
    }
}

void aes_xctr_generic(const aes_key *k, const uint8_t nonce[16],
                      uint64_t first, uint8_t *out, const uint8_t *in,
                      size_t nblocks)
{
    uint64_t n0 = aes_load64_le(nonce);
    uint8_t b[16], ks[16];
    memcpy(b, nonce, 16);
    for (size_t i = 0; i < nblocks; i++, in += 16, out += 16) {
        aes_store64_le(b, n0 ^ (first + i));
        encrypt_block_generic(k, ks, b);
        aes_xor_bytes(out, in, ks, 16);
    }
}

void aes_cbc_encrypt_generic(const aes_key *k, const uint8_t iv[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks)
{
    uint8_t c[16];
    memcpy(c, iv, 16);
    for (size_t i = 0; i < nblocks; i++, in += 16, out += 16) {
        aes_xor_bytes(c, c, in, 16);
        encrypt_block_generic(k, c, c);
        memcpy(out, c, 16);
    }
}

void aes_cbc_decrypt_generic(const aes_key *k, uint8_t iv[16], uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    uint8_t c[16], p[16];
    for (size_t i = 0; i < nblocks; i++, in += 16, out += 16) {
        memcpy(c, in, 16); /* in may be out */
        decrypt_block_generic(k, p, c);
        aes_xor_bytes(out, p, iv, 16);
        memcpy(iv, c, 16);
    }
}

void aes_xts_encrypt_generic(const aes_key *k, uint8_t tweak[16], uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    uint8_t b[16];
    for (size_t i = 0; i < nblocks; i++, in += 16, out += 16) {
        aes_xor_bytes(b, in, tweak, 16);
        encrypt_block_generic(k, b, b);
        aes_xor_bytes(out, b, tweak, 16);
        aes_xts_mulx(tweak, tweak);
    }
}

void aes_xts_decrypt_generic(const aes_key *k, uint8_t tweak[16], uint8_t *out,
                             const uint8_t *in, size_t nblocks)
{
    uint8_t b[16];
    for (size_t i = 0; i < nblocks; i++, in += 16, out += 16) {
        aes_xor_bytes(b, in, tweak, 16);
        decrypt_block_generic(k, b, b);
        aes_xor_bytes(out, b, tweak, 16);
        aes_xts_mulx(tweak, tweak);
    }
}

/* Two passes (CTR, then GHASH over the ciphertext) are as fast as one
 * here, where nothing overlaps anyway. */
static void gcm_ctr_generic(const aes_key *k, uint8_t ctr[16], uint8_t *out,
                            const uint8_t *in, size_t nblocks)
{
    uint8_t ks[16];
    for (size_t i = 0; i < nblocks; i++, in += 16, out += 16) {
        encrypt_block_generic(k, ks, ctr);
        aes_gcm_inc32(ctr);
        aes_xor_bytes(out, in, ks, 16);
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
