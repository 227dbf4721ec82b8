/* Keccak-p[1600] in portable C, on 64-bit lanes (FIPS 202, Section 3.2):
 * theta, rho and pi, chi, iota per round. */
#include "keccak.h"

/* Rho's rotation of lane x + 5y (FIPS 202, Table 2). */
static const unsigned keccak_rho[KECCAK_LANES] = {
    0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
    25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14,
};

static uint64_t rotl64(uint64_t x, unsigned n)
{
    return n ? x << n | x >> (64 - n) : x;
}

void keccak_permute_generic(uint64_t a[KECCAK_LANES], unsigned rounds)
{
    for (unsigned r = 24 - rounds; r < 24; r++) {
        uint64_t c[5], b[KECCAK_LANES];
        for (unsigned x = 0; x < 5; x++)
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        for (unsigned x = 0; x < 5; x++) {
            uint64_t d = c[(x + 4) % 5] ^ rotl64(c[(x + 1) % 5], 1);
            for (unsigned y = 0; y < 25; y += 5)
                a[x + y] ^= d;
        }
        /* rho and pi: lane (x, y) moves to (y, 2x + 3y). */
        for (unsigned x = 0; x < 5; x++)
            for (unsigned y = 0; y < 5; y++)
                b[y + 5 * ((2 * x + 3 * y) % 5)] =
                    rotl64(a[x + 5 * y], keccak_rho[x + 5 * y]);
        for (unsigned y = 0; y < 25; y += 5)
            for (unsigned x = 0; x < 5; x++)
                a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y]);
        a[0] ^= keccak_round_constants[r];
    }
}
