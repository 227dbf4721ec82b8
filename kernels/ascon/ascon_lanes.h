/* Ascon-AEAD128 on AL_N independent messages at once: word i of every
 * message's state in s[i], one state per vector element, so that each
 * instruction advances AL_N sponges (one message's rounds are a chain of
 * dependent steps; AL_N messages' are independent). Each ISA file
 * includes this after defining, for its vector type AL_V:
 *   AL_XOR(a, b)         a ^ b
 *   AL_XOR3(a, b, c)     a ^ b ^ c
 *   AL_AND(a, b)         a & b
 *   AL_CHI(a, b, c)      a ^ (~b & c), the S-box's nonlinear step
 *   AL_LIN(a, m, n)      a ^ ror(a, m) ^ ror(a, n), m and n immediates
 *   AL_SET1(w)           the uint64_t w in every element
 *   AL_LOAD(u), AL_STORE(u, a)  between a vector and uint64_t u[AL_N]
 *   AL_N                 the elements of AL_V
 *   AL_NAME(f)           f with the file's ISA suffix, so that profiles
 *                        tell the files' copies apart
 * The sponge is written once here, as generic's is in ascon_generic.c;
 * the ISA decides what each step costs (one vpternlogq, or two or three
 * plain instructions). Words are little-endian, as the standard's are and
 * as x86-64 and aarch64 store them, which the loads below rely on. */
#include <string.h>

#include "ascon.h"

#define AL_INLINE static inline __attribute__((always_inline))

/* The last `rounds` rounds of the permutation on every state. x2 is kept
 * complemented between rounds: the S-box ends with x2 = ~x2, and the next
 * round's first step x2 ^= x1 ^ constant takes that NOT for free in its
 * constant (~c); one NOT at the end puts it right. */
AL_INLINE void AL_NAME(ascon_lanes_permute)(AL_V s[5], unsigned rounds)
{
    AL_V x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], x4 = s[4];
    uint64_t flip = 0; /* whether x2 comes in complemented */
    for (unsigned r = 12 - rounds; r < 12; r++) {
        x2 = AL_XOR3(x2, x1, AL_SET1(ascon_round_constants[r] ^ flip));
        x0 = AL_XOR(x0, x4);
        x4 = AL_XOR(x4, x3);
        AL_V t0 = AL_CHI(x0, x1, x2);
        AL_V t1 = AL_CHI(x1, x2, x3);
        AL_V t2 = AL_CHI(x2, x3, x4);
        AL_V t3 = AL_CHI(x3, x4, x0);
        AL_V t4 = AL_CHI(x4, x0, x1);
        t1 = AL_XOR(t1, t0);
        t0 = AL_XOR(t0, t4);
        t3 = AL_XOR(t3, t2);
        x0 = AL_LIN(t0, 19, 28);
        x1 = AL_LIN(t1, 61, 39);
        x2 = AL_LIN(t2, 1, 6); /* of ~t2: complemented, as said above */
        x3 = AL_LIN(t3, 10, 17);
        x4 = AL_LIN(t4, 7, 41);
        flip = ~0ull;
    }
    s[0] = x0; s[1] = x1; s[2] = AL_XOR(x2, AL_SET1(~0ull)); s[3] = x3;
    s[4] = x4;
}

/* The 64-bit word at p[j] + at of each message j. */
AL_INLINE AL_V AL_NAME(ascon_lanes_gather)(const uint8_t *const p[],
                                           size_t at)
{
    uint64_t u[AL_N];
    for (size_t j = 0; j < AL_N; j++)
        memcpy(&u[j], p[j] + at, 8);
    return AL_LOAD(u);
}

AL_INLINE void AL_NAME(ascon_lanes_scatter)(uint8_t *const p[], size_t at,
                                            AL_V w)
{
    uint64_t u[AL_N];
    AL_STORE(u, w);
    for (size_t j = 0; j < AL_N; j++)
        memcpy(p[j] + at, &u[j], 8);
}

/* The n < 16 bytes at p[j] + at of each message j, then the byte pad, then
 * zeros, as the rate's two words. */
AL_INLINE void AL_NAME(ascon_lanes_gather_last)(const uint8_t *const p[],
                                                size_t at, size_t n,
                                                uint8_t pad, AL_V w[2])
{
    uint64_t u[2][AL_N];
    for (size_t j = 0; j < AL_N; j++) {
        uint8_t b[ASCON_RATE] = { 0 };
        memcpy(b, p[j] + at, n);
        b[n] = pad;
        memcpy(&u[0][j], b, 8);
        memcpy(&u[1][j], b + 8, 8);
    }
    w[0] = AL_LOAD(u[0]);
    w[1] = AL_LOAD(u[1]);
}

/* The first n < 16 bytes of the rate words w to p[j] + at. */
AL_INLINE void AL_NAME(ascon_lanes_scatter_last)(uint8_t *const p[],
                                                 size_t at, size_t n,
                                                 const AL_V w[2])
{
    uint64_t u[2][AL_N];
    AL_STORE(u[0], w[0]);
    AL_STORE(u[1], w[1]);
    for (size_t j = 0; j < AL_N; j++) {
        uint8_t b[ASCON_RATE];
        memcpy(b, &u[0][j], 8);
        memcpy(b + 8, &u[1][j], 8);
        memcpy(p[j] + at, b, n);
    }
}

/* The states after the keys, the nonces and the associated data: what
 * encryption and decryption share before the message (generic's start).
 * k gets the keys' words, which finalisation uses again. */
AL_INLINE void AL_NAME(ascon_lanes_start)(AL_V x[5], AL_V k[2],
                                          const ascon_batch *b, size_t first)
{
    const uint8_t *const *ad = b->ad + first;
    size_t len = b->ad_len, at = 0;
    k[0] = AL_NAME(ascon_lanes_gather)(b->key + first, 0);
    k[1] = AL_NAME(ascon_lanes_gather)(b->key + first, 8);
    x[0] = AL_SET1(ASCON_AEAD128_IV);
    x[1] = k[0];
    x[2] = k[1];
    x[3] = AL_NAME(ascon_lanes_gather)(b->nonce + first, 0);
    x[4] = AL_NAME(ascon_lanes_gather)(b->nonce + first, 8);
    AL_NAME(ascon_lanes_permute)(x, 12);
    x[3] = AL_XOR(x[3], k[0]);
    x[4] = AL_XOR(x[4], k[1]);
    /* The data, padded with 0x01 and zeros to whole blocks (none at all
     * when it is empty), then the domain separator. */
    if (len) {
        AL_V w[2];
        for (; len - at >= ASCON_RATE; at += ASCON_RATE) {
            x[0] = AL_XOR(x[0], AL_NAME(ascon_lanes_gather)(ad, at));
            x[1] = AL_XOR(x[1], AL_NAME(ascon_lanes_gather)(ad, at + 8));
            AL_NAME(ascon_lanes_permute)(x, 8);
        }
        AL_NAME(ascon_lanes_gather_last)(ad, at, len - at, 0x01, w);
        x[0] = AL_XOR(x[0], w[0]);
        x[1] = AL_XOR(x[1], w[1]);
        AL_NAME(ascon_lanes_permute)(x, 8);
    }
    x[4] = AL_XOR(x[4], AL_SET1(ASCON_DOMAIN_SEPARATOR));
}

AL_INLINE void AL_NAME(ascon_lanes_finish)(AL_V x[5], const AL_V k[2],
                                           const ascon_batch *b,
                                           size_t first)
{
    x[2] = AL_XOR(x[2], k[0]);
    x[3] = AL_XOR(x[3], k[1]);
    AL_NAME(ascon_lanes_permute)(x, 12);
    AL_NAME(ascon_lanes_scatter)(b->tag + first, 0, AL_XOR(x[3], k[0]));
    AL_NAME(ascon_lanes_scatter)(b->tag + first, 8, AL_XOR(x[4], k[1]));
}

AL_INLINE void AL_NAME(ascon_lanes_encrypt)(const ascon_batch *b,
                                            size_t first)
{
    const uint8_t *const *in = b->in + first;
    uint8_t *const *out = b->out + first;
    size_t len = b->len, at = 0;
    AL_V x[5], k[2], w[2];
    AL_NAME(ascon_lanes_start)(x, k, b, first);
    for (; len - at >= ASCON_RATE; at += ASCON_RATE) {
        x[0] = AL_XOR(x[0], AL_NAME(ascon_lanes_gather)(in, at));
        x[1] = AL_XOR(x[1], AL_NAME(ascon_lanes_gather)(in, at + 8));
        AL_NAME(ascon_lanes_scatter)(out, at, x[0]);
        AL_NAME(ascon_lanes_scatter)(out, at + 8, x[1]);
        AL_NAME(ascon_lanes_permute)(x, 8);
    }
    /* The last, partial block (perhaps empty) with its 0x01 pad; the pad
     * lands past the n bytes written out. */
    AL_NAME(ascon_lanes_gather_last)(in, at, len - at, 0x01, w);
    x[0] = AL_XOR(x[0], w[0]);
    x[1] = AL_XOR(x[1], w[1]);
    AL_NAME(ascon_lanes_scatter_last)(out, at, len - at, x);
    AL_NAME(ascon_lanes_finish)(x, k, b, first);
}

AL_INLINE void AL_NAME(ascon_lanes_decrypt)(const ascon_batch *b,
                                            size_t first)
{
    const uint8_t *const *in = b->in + first;
    uint8_t *const *out = b->out + first;
    size_t len = b->len, at = 0;
    AL_V x[5], k[2], c[2], p[2];
    AL_NAME(ascon_lanes_start)(x, k, b, first);
    for (; len - at >= ASCON_RATE; at += ASCON_RATE) {
        c[0] = AL_NAME(ascon_lanes_gather)(in, at);
        c[1] = AL_NAME(ascon_lanes_gather)(in, at + 8);
        AL_NAME(ascon_lanes_scatter)(out, at, AL_XOR(x[0], c[0]));
        AL_NAME(ascon_lanes_scatter)(out, at + 8, AL_XOR(x[1], c[1]));
        x[0] = c[0];
        x[1] = c[1];
        AL_NAME(ascon_lanes_permute)(x, 8);
    }
    /* The last n bytes: the plaintext is the rate's bytes xor the
     * ciphertext's; the rate then takes the ciphertext's n bytes, keeps
     * the rest, and the 0x01 pad goes in at byte n. */
    size_t n = len - at;
    uint8_t keep[ASCON_RATE], pad[ASCON_RATE] = { 0 };
    uint64_t keep_w[2], pad_w[2];
    memset(keep, 0, n);
    memset(keep + n, 0xff, ASCON_RATE - n);
    pad[n] = 0x01;
    memcpy(keep_w, keep, sizeof keep);
    memcpy(pad_w, pad, sizeof pad);
    AL_NAME(ascon_lanes_gather_last)(in, at, n, 0, c);
    for (unsigned i = 0; i < 2; i++)
        p[i] = AL_XOR(x[i], c[i]);
    AL_NAME(ascon_lanes_scatter_last)(out, at, n, p);
    for (unsigned i = 0; i < 2; i++)
        x[i] = AL_XOR3(c[i], AL_AND(x[i], AL_SET1(keep_w[i])),
                       AL_SET1(pad_w[i]));
    AL_NAME(ascon_lanes_finish)(x, k, b, first);
}

#undef AL_INLINE
