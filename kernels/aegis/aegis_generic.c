/* AEGIS in portable C for any degree D of parallelism, written as the draft
 * writes it (D = 1 is AEGIS-128L or AEGIS-256): the reference every other
 * variant is tested against, and "AEGIS without AES instructions" to
 * measure.
 *
 * NOT constant-time: the AES round is the table-driven one of
 * aes_generic.c, whose lookups are indexed by state bytes, and the state
 * derives from the key. */
#include <string.h>

#include "../aes/aes.h"
#include "aegis.h"

typedef struct aegis_state {
    int words; /* 8: the 128 family, 6: the 256 family */
    int lanes; /* D */
    uint8_t s[8][AEGIS_MAX_LANES][AEGIS_BLOCK_BYTES]; /* V[j,i] */
} aegis_state;

/* Bytes per update, and of each of its halves for the 128 family. */
static size_t lane_bytes(const aegis_state *g)
{
    return (size_t)AEGIS_BLOCK_BYTES * (size_t)g->lanes;
}

static size_t rate(const aegis_state *g)
{
    return (g->words == 8 ? 2 : 1) * lane_bytes(g);
}

static void xor_block(uint8_t *out, const uint8_t *a, const uint8_t *b)
{
    for (int i = 0; i < AEGIS_BLOCK_BYTES; i++)
        out[i] = a[i] ^ b[i];
}

static void and_block(uint8_t *out, const uint8_t *a, const uint8_t *b)
{
    for (int i = 0; i < AEGIS_BLOCK_BYTES; i++)
        out[i] = a[i] & b[i];
}

/* Update with one rate block m: lane i of M0 (the 256 family's M) is
 * m[16i..], of the 128 family's M1 m[16D + 16i..]. */
static void aegis_update_generic(aegis_state *g, const uint8_t *m)
{
    int w = g->words;
    for (int i = 0; i < g->lanes; i++) {
        uint8_t next[8][AEGIS_BLOCK_BYTES], key[AEGIS_BLOCK_BYTES];
        for (int j = 0; j < w; j++) {
            memcpy(key, g->s[j][i], sizeof key);
            if (j == 0)
                xor_block(key, key, m + AEGIS_BLOCK_BYTES * i);
            else if (j == 4 && w == 8)
                xor_block(key, key, m + lane_bytes(g) + AEGIS_BLOCK_BYTES * i);
            aes_round_generic(next[j], g->s[(j + w - 1) % w][i], key);
        }
        for (int j = 0; j < w; j++)
            memcpy(g->s[j][i], next[j], AEGIS_BLOCK_BYTES);
    }
}

/* The same block b in every lane of a vector at v. */
static void aegis_broadcast_generic(uint8_t *v, const aegis_state *g,
                                    const uint8_t *b)
{
    for (int i = 0; i < g->lanes; i++)
        memcpy(v + AEGIS_BLOCK_BYTES * i, b, AEGIS_BLOCK_BYTES);
}

/* ctx[i] = Byte(i) || Byte(D - 1) || zeros into words 3 and the last. */
static void aegis_add_context_generic(aegis_state *g)
{
    for (int i = 0; i < g->lanes; i++) {
        g->s[3][i][0] ^= (uint8_t)i;
        g->s[3][i][1] ^= (uint8_t)(g->lanes - 1);
        g->s[g->words - 1][i][0] ^= (uint8_t)i;
        g->s[g->words - 1][i][1] ^= (uint8_t)(g->lanes - 1);
    }
}

static void aegis_init_generic(aegis_state *g, const aegis_key *k,
                               const uint8_t *nonce)
{
    uint8_t kn0[AEGIS_BLOCK_BYTES], kn1[AEGIS_BLOCK_BYTES];
    uint8_t m[4][2 * AEGIS_MAX_LANES * AEGIS_BLOCK_BYTES];
    xor_block(kn0, k->k[0], nonce);
    if (g->words == 8) {
        const uint8_t *words[8] = { kn0, aegis_c1, aegis_c0, aegis_c1,
                                    kn0, k->kc[0], k->kc[1], k->kc[0] };
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < g->lanes; i++)
                memcpy(g->s[j][i], words[j], AEGIS_BLOCK_BYTES);
        aegis_broadcast_generic(m[0], g, nonce);
        aegis_broadcast_generic(m[0] + lane_bytes(g), g, k->k[0]);
        for (int r = 0; r < 10; r++) {
            aegis_add_context_generic(g);
            aegis_update_generic(g, m[0]);
        }
        return;
    }
    xor_block(kn1, k->k[1], nonce + AEGIS_BLOCK_BYTES);
    const uint8_t *words[6] = { kn0, kn1, aegis_c1, aegis_c0, k->kc[0],
                                k->kc[1] };
    const uint8_t *absorbed[4] = { k->k[0], k->k[1], kn0, kn1 };
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < g->lanes; i++)
            memcpy(g->s[j][i], words[j], AEGIS_BLOCK_BYTES);
    for (int n = 0; n < 4; n++)
        aegis_broadcast_generic(m[n], g, absorbed[n]);
    for (int r = 0; r < 4; r++)
        for (int n = 0; n < 4; n++) {
            aegis_add_context_generic(g);
            aegis_update_generic(g, m[n]);
        }
}

/* The rate block of keystream the state gives now (Enc, Dec). */
static void aegis_keystream_generic(const aegis_state *g, uint8_t *z)
{
    uint8_t t[AEGIS_BLOCK_BYTES];
    for (int i = 0; i < g->lanes; i++) {
        const uint8_t(*s)[AEGIS_MAX_LANES][AEGIS_BLOCK_BYTES] = g->s;
        uint8_t *z0 = z + AEGIS_BLOCK_BYTES * i;
        and_block(t, s[2][i], s[3][i]);
        xor_block(z0, s[1][i], t);
        if (g->words == 8) {
            uint8_t *z1 = z0 + lane_bytes(g);
            xor_block(z0, z0, s[6][i]);
            and_block(t, s[6][i], s[7][i]);
            xor_block(z1, s[2][i], s[5][i]);
            xor_block(z1, z1, t);
        } else {
            xor_block(z0, z0, s[4][i]);
            xor_block(z0, z0, s[5][i]);
        }
    }
}

#define MAX_RATE (2 * AEGIS_MAX_LANES * AEGIS_BLOCK_BYTES)

static void aegis_absorb_generic(aegis_state *g, const uint8_t *ad, size_t len)
{
    size_t r = rate(g), i = 0;
    for (; i + r <= len; i += r)
        aegis_update_generic(g, ad + i);
    if (i < len) {
        uint8_t pad[MAX_RATE] = { 0 };
        memcpy(pad, ad + i, len - i);
        aegis_update_generic(g, pad);
    }
}

/* n <= rate bytes from in to out; the state absorbs the plaintext, padded
 * with zeros to a whole block. */
static void aegis_crypt_block_generic(aegis_state *g, uint8_t *out,
                                      const uint8_t *in, size_t n,
                                      int decrypt)
{
    uint8_t z[MAX_RATE], plain[MAX_RATE] = { 0 };
    aegis_keystream_generic(g, z);
    for (size_t b = 0; b < n; b++) {
        uint8_t x = in[b];
        out[b] = x ^ z[b];
        plain[b] = decrypt ? out[b] : x;
    }
    aegis_update_generic(g, plain);
}

static void aegis_finalize_generic(aegis_state *g, size_t ad_len,
                                   size_t len, uint8_t *tag, size_t tag_len)
{
    uint8_t u[AEGIS_BLOCK_BYTES], t[MAX_RATE], last[AEGIS_BLOCK_BYTES];
    uint64_t bits[2] = { (uint64_t)ad_len * 8, (uint64_t)len * 8 };
    int w = g->words;
    for (int h = 0; h < 2; h++)
        for (int b = 0; b < 8; b++)
            u[8 * h + b] = (uint8_t)(bits[h] >> (8 * b));
    for (int i = 0; i < g->lanes; i++) {
        xor_block(t + AEGIS_BLOCK_BYTES * i, g->s[w == 8 ? 2 : 3][i], u);
        memcpy(t + lane_bytes(g) + AEGIS_BLOCK_BYTES * i,
               t + AEGIS_BLOCK_BYTES * i, AEGIS_BLOCK_BYTES);
    }
    for (int r = 0; r < 7; r++)
        aegis_update_generic(g, t);
    /* 16 bytes: words 0 to 6 (128 family) or 5; 32: the two halves. */
    int halves = tag_len == 16 ? 1 : 2;
    for (int h = 0; h < halves; h++) {
        int from = h * w / 2,
            to = halves == 2 ? (h + 1) * w / 2 : (w == 8 ? 7 : 6);
        memset(last, 0, sizeof last);
        for (int j = from; j < to; j++)
            for (int i = 0; i < g->lanes; i++)
                xor_block(last, last, g->s[j][i]);
        memcpy(tag + AEGIS_BLOCK_BYTES * h, last, AEGIS_BLOCK_BYTES);
    }
}

static void aegis_message_generic(int words, int lanes, const aegis_key *k,
                                  const uint8_t *nonce, const uint8_t *ad,
                                  size_t ad_len, uint8_t *out,
                                  const uint8_t *in, size_t len, uint8_t *tag,
                                  size_t tag_len, int decrypt)
{
    aegis_state g = { .words = words, .lanes = lanes };
    size_t r = rate(&g);
    aegis_init_generic(&g, k, nonce);
    aegis_absorb_generic(&g, ad, ad_len);
    for (size_t i = 0; i < len; i += r)
        aegis_crypt_block_generic(&g, out + i, in + i,
                                  len - i < r ? len - i : r, decrypt);
    aegis_finalize_generic(&g, ad_len, len, tag, tag_len);
}

#define AEGIS_GENERIC_FN(kernel, op, words, lanes, decrypt)                   \
    void kernel##_##op##_generic(const aegis_key *k, const uint8_t *nonce,    \
                                 const uint8_t *ad, size_t ad_len,            \
                                 uint8_t *out, const uint8_t *in, size_t len, \
                                 uint8_t *tag, size_t tag_len)                \
    {                                                                         \
        aegis_message_generic(words, lanes, k, nonce, ad, ad_len, out, in,    \
                              len, tag, tag_len, decrypt);                    \
    }
#define AEGIS_GENERIC(kernel, words, lanes)                                   \
    AEGIS_GENERIC_FN(kernel, encrypt, words, lanes, 0)                        \
    AEGIS_GENERIC_FN(kernel, decrypt, words, lanes, 1)

AEGIS_GENERIC(aegis128l, 8, 1)
AEGIS_GENERIC(aegis128x2, 8, 2)
AEGIS_GENERIC(aegis128x4, 8, 4)
AEGIS_GENERIC(aegis256, 6, 1)
AEGIS_GENERIC(aegis256x2, 6, 2)
AEGIS_GENERIC(aegis256x4, 6, 4)
