/* Keccak-p[1600] on vectors whose every element is one state's lane: lane
 * i of KL_N states side by side in a[i] (KL_N = 1 uses one element of the
 * vector for one state). Each ISA file includes this after defining, for
 * its vector type KL_V:
 *   KL_XOR3(a, b, c)     a ^ b ^ c
 *   KL_THETA_D(p, q)     p ^ rol(q, 1)
 *   KL_XOR_ROL(a, d, n)  rol(a ^ d, n), n an immediate 1..63
 *   KL_XOR(a, b)         a ^ b
 *   KL_CHI(a, b, c)      a ^ (~b & c)
 *   KL_RC(a, rc)         a ^ rc in every state
 *   KL_NAME(f)           f with the file's ISA suffix, so that profiles
 *                        tell the files' copies apart
 * and, for KangarooTwelve's leaves (KL_N > 1):
 *   KL_GATHER(p, stride) the 64-bit word at p, p + stride, ... (one state
 *                        each), little-endian as Keccak's lanes are (so are
 *                        x86-64 and aarch64, which the stores below rely on)
 *   KL_STORE(u, a)       the KL_N elements of a into uint64_t u[KL_N]
 * The round code is written once here; the ISA decides what each of those
 * costs (one vpternlogq, one EOR3, or two or three plain instructions). */
#include <string.h>

#include "keccak.h"

/* One round on the lanes a0..a24 (lane x + 5y), named rather than an
 * array so that the compiler keeps the state in registers across the
 * rounds' loop (as an array it stayed on the stack, loaded and stored
 * every round). Theta's parities c and d; then, plane by plane of the
 * result, rho and pi into b (lane (x, y) goes to (y, 2x + 3y), rotated
 * by rho's count: FIPS 202, Table 2) and chi into e, so that each old
 * lane dies as its plane is made and few values are live at once; iota;
 * e is the next round's a. */
#define KL_ROUND(rc)                                                           \
    do {                                                                       \
        KL_V c0 = KL_XOR3(KL_XOR3(a0, a5, a10), a15, a20);                     \
        KL_V c1 = KL_XOR3(KL_XOR3(a1, a6, a11), a16, a21);                     \
        KL_V c2 = KL_XOR3(KL_XOR3(a2, a7, a12), a17, a22);                     \
        KL_V c3 = KL_XOR3(KL_XOR3(a3, a8, a13), a18, a23);                     \
        KL_V c4 = KL_XOR3(KL_XOR3(a4, a9, a14), a19, a24);                     \
        KL_V d0 = KL_THETA_D(c4, c1);                                          \
        KL_V d1 = KL_THETA_D(c0, c2);                                          \
        KL_V d2 = KL_THETA_D(c1, c3);                                          \
        KL_V d3 = KL_THETA_D(c2, c4);                                          \
        KL_V d4 = KL_THETA_D(c3, c0);                                          \
        KL_V b0 = KL_XOR(a0, d0);                                              \
        KL_V b1 = KL_XOR_ROL(a6, d1, 44);                                      \
        KL_V b2 = KL_XOR_ROL(a12, d2, 43);                                     \
        KL_V b3 = KL_XOR_ROL(a18, d3, 21);                                     \
        KL_V b4 = KL_XOR_ROL(a24, d4, 14);                                     \
        KL_V e0 = KL_CHI(b0, b1, b2);                                          \
        KL_V e1 = KL_CHI(b1, b2, b3);                                          \
        KL_V e2 = KL_CHI(b2, b3, b4);                                          \
        KL_V e3 = KL_CHI(b3, b4, b0);                                          \
        KL_V e4 = KL_CHI(b4, b0, b1);                                          \
        KL_V b5 = KL_XOR_ROL(a3, d3, 28);                                      \
        KL_V b6 = KL_XOR_ROL(a9, d4, 20);                                      \
        KL_V b7 = KL_XOR_ROL(a10, d0, 3);                                      \
        KL_V b8 = KL_XOR_ROL(a16, d1, 45);                                     \
        KL_V b9 = KL_XOR_ROL(a22, d2, 61);                                     \
        KL_V e5 = KL_CHI(b5, b6, b7);                                          \
        KL_V e6 = KL_CHI(b6, b7, b8);                                          \
        KL_V e7 = KL_CHI(b7, b8, b9);                                          \
        KL_V e8 = KL_CHI(b8, b9, b5);                                          \
        KL_V e9 = KL_CHI(b9, b5, b6);                                          \
        KL_V b10 = KL_XOR_ROL(a1, d1, 1);                                      \
        KL_V b11 = KL_XOR_ROL(a7, d2, 6);                                      \
        KL_V b12 = KL_XOR_ROL(a13, d3, 25);                                    \
        KL_V b13 = KL_XOR_ROL(a19, d4, 8);                                     \
        KL_V b14 = KL_XOR_ROL(a20, d0, 18);                                    \
        KL_V e10 = KL_CHI(b10, b11, b12);                                      \
        KL_V e11 = KL_CHI(b11, b12, b13);                                      \
        KL_V e12 = KL_CHI(b12, b13, b14);                                      \
        KL_V e13 = KL_CHI(b13, b14, b10);                                      \
        KL_V e14 = KL_CHI(b14, b10, b11);                                      \
        KL_V b15 = KL_XOR_ROL(a4, d4, 27);                                     \
        KL_V b16 = KL_XOR_ROL(a5, d0, 36);                                     \
        KL_V b17 = KL_XOR_ROL(a11, d1, 10);                                    \
        KL_V b18 = KL_XOR_ROL(a17, d2, 15);                                    \
        KL_V b19 = KL_XOR_ROL(a23, d3, 56);                                    \
        KL_V e15 = KL_CHI(b15, b16, b17);                                      \
        KL_V e16 = KL_CHI(b16, b17, b18);                                      \
        KL_V e17 = KL_CHI(b17, b18, b19);                                      \
        KL_V e18 = KL_CHI(b18, b19, b15);                                      \
        KL_V e19 = KL_CHI(b19, b15, b16);                                      \
        KL_V b20 = KL_XOR_ROL(a2, d2, 62);                                     \
        KL_V b21 = KL_XOR_ROL(a8, d3, 55);                                     \
        KL_V b22 = KL_XOR_ROL(a14, d4, 39);                                    \
        KL_V b23 = KL_XOR_ROL(a15, d0, 41);                                    \
        KL_V b24 = KL_XOR_ROL(a21, d1, 2);                                     \
        KL_V e20 = KL_CHI(b20, b21, b22);                                      \
        KL_V e21 = KL_CHI(b21, b22, b23);                                      \
        KL_V e22 = KL_CHI(b22, b23, b24);                                      \
        KL_V e23 = KL_CHI(b23, b24, b20);                                      \
        KL_V e24 = KL_CHI(b24, b20, b21);                                      \
        a0 = KL_RC(e0, rc);                                                    \
        a1 = e1; a2 = e2; a3 = e3; a4 = e4; a5 = e5;                           \
        a6 = e6; a7 = e7; a8 = e8; a9 = e9; a10 = e10;                         \
        a11 = e11; a12 = e12; a13 = e13; a14 = e14; a15 = e15;                 \
        a16 = e16; a17 = e17; a18 = e18; a19 = e19; a20 = e20;                 \
        a21 = e21; a22 = e22; a23 = e23; a24 = e24;                            \
    } while (0)

static inline __attribute__((always_inline)) void
KL_NAME(keccak_lanes_rounds)(KL_V s[KECCAK_LANES], unsigned rounds)
{
    KL_V a0 = s[0], a1 = s[1], a2 = s[2], a3 = s[3], a4 = s[4],
         a5 = s[5], a6 = s[6], a7 = s[7], a8 = s[8], a9 = s[9],
         a10 = s[10], a11 = s[11], a12 = s[12], a13 = s[13], a14 = s[14],
         a15 = s[15], a16 = s[16], a17 = s[17], a18 = s[18], a19 = s[19],
         a20 = s[20], a21 = s[21], a22 = s[22], a23 = s[23], a24 = s[24];
    for (unsigned r = 24 - rounds; r < 24; r++)
        KL_ROUND(keccak_round_constants[r]);
    s[0] = a0; s[1] = a1; s[2] = a2; s[3] = a3; s[4] = a4;
    s[5] = a5; s[6] = a6; s[7] = a7; s[8] = a8; s[9] = a9;
    s[10] = a10; s[11] = a11; s[12] = a12; s[13] = a13; s[14] = a14;
    s[15] = a15; s[16] = a16; s[17] = a17; s[18] = a18; s[19] = a19;
    s[20] = a20; s[21] = a21; s[22] = a22; s[23] = a23; s[24] = a24;
}

#undef KL_ROUND

#ifdef KL_GATHER
/* KangarooTwelve's leaf step for KL_N whole leaves at in, in + 8192, ...:
 * each leaf's chaining value, TurboSHAKE of the leaf with D = 0x0B (RFC
 * 9861, Section 3.2), cv_len bytes each, one after another at cv. The
 * leaves are absorbed side by side, one vector of lanes per word. */
static inline __attribute__((always_inline)) void
KL_NAME(keccak_lanes_leaves)(const uint8_t *in, unsigned security,
                             uint8_t *cv)
{
    size_t rate_lanes = (security == 128 ? KECCAK_RATE_128 : KECCAK_RATE_256) / 8;
    size_t cv_lanes = security == 128 ? 4 : 8;
    size_t words = KT_LEAF_BYTES / 8, at = 0;
    KL_V a[KECCAK_LANES];
    uint64_t u[KL_N];
    memset(a, 0, sizeof a);
    for (; words - at >= rate_lanes; at += rate_lanes) {
        for (size_t i = 0; i < rate_lanes; i++)
            a[i] = KL_XOR(a[i], KL_GATHER(in + 8 * (at + i), KT_LEAF_BYTES));
        KL_NAME(keccak_lanes_rounds)(a, TURBOSHAKE_ROUNDS);
    }
    /* A leaf is whole words, so its last block ends on a word: the domain
     * byte starts the next word and 0x80 ends the rate's last one. */
    size_t rest = words - at;
    for (size_t i = 0; i < rest; i++)
        a[i] = KL_XOR(a[i], KL_GATHER(in + 8 * (at + i), KT_LEAF_BYTES));
    a[rest] = KL_RC(a[rest], 0x0b);
    a[rate_lanes - 1] = KL_RC(a[rate_lanes - 1], 0x8000000000000000ull);
    KL_NAME(keccak_lanes_rounds)(a, TURBOSHAKE_ROUNDS);
    for (size_t i = 0; i < cv_lanes; i++) {
        KL_STORE(u, a[i]);
        for (size_t j = 0; j < KL_N; j++)
            memcpy(cv + j * 8 * cv_lanes + 8 * i, &u[j], 8);
    }
}
#endif
