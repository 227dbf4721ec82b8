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

/* Theta, rho and pi for lane (x, y), which goes to (y, 2x + 3y) rotated
 * by rho's count (FIPS 202, Table 2). */
#define KL_LANE(to, from, x, rot) b[to] = KL_XOR_ROL(a[from], d[x], rot);

static inline __attribute__((always_inline)) void
KL_NAME(keccak_lanes_rounds)(KL_V a[KECCAK_LANES], unsigned rounds)
{
    for (unsigned r = 24 - rounds; r < 24; r++) {
        KL_V b[KECCAK_LANES], c[5], d[5];
        for (unsigned x = 0; x < 5; x++)
            c[x] = KL_XOR3(KL_XOR3(a[x], a[x + 5], a[x + 10]), a[x + 15],
                           a[x + 20]);
        for (unsigned x = 0; x < 5; x++)
            d[x] = KL_THETA_D(c[(x + 4) % 5], c[(x + 1) % 5]);
        b[0] = KL_XOR(a[0], d[0]);
        KL_LANE(10, 1, 1, 1) KL_LANE(20, 2, 2, 62) KL_LANE(5, 3, 3, 28)
        KL_LANE(15, 4, 4, 27) KL_LANE(16, 5, 0, 36) KL_LANE(1, 6, 1, 44)
        KL_LANE(11, 7, 2, 6) KL_LANE(21, 8, 3, 55) KL_LANE(6, 9, 4, 20)
        KL_LANE(7, 10, 0, 3) KL_LANE(17, 11, 1, 10) KL_LANE(2, 12, 2, 43)
        KL_LANE(12, 13, 3, 25) KL_LANE(22, 14, 4, 39) KL_LANE(23, 15, 0, 41)
        KL_LANE(8, 16, 1, 45) KL_LANE(18, 17, 2, 15) KL_LANE(3, 18, 3, 21)
        KL_LANE(13, 19, 4, 8) KL_LANE(14, 20, 0, 18) KL_LANE(24, 21, 1, 2)
        KL_LANE(9, 22, 2, 61) KL_LANE(19, 23, 3, 56) KL_LANE(4, 24, 4, 14)
        for (unsigned y = 0; y < 25; y += 5)
            for (unsigned x = 0; x < 5; x++)
                a[x + y] = KL_CHI(b[x + y], b[(x + 1) % 5 + y],
                                  b[(x + 2) % 5 + y]);
        a[0] = KL_RC(a[0], keccak_round_constants[r]);
    }
}

#undef KL_LANE

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
