/* Portable RC4 (broken, for comparison only: see rc4.h).
 *
 * RC4 is one chain of dependent table updates: j += S[i], then S[i] and
 * S[j] swap, and the next step reads S[i + 1], which that swap may just
 * have written, so the core waits for the swap's store address before it
 * trusts that load. The schedule follows the ideas of OpenSSL's
 * hand-written x86-64 loop (rc4-x86_64.pl, whose notes say what each
 * gained), in C with two one-line x86-64 asm statements where GCC would
 * otherwise put an instruction on that chain:
 * - The table holds 32-bit words, not bytes: the swaps' stores and the
 *   next steps' loads are whole words, which forward from store to load
 *   without the penalties byte stores meet.
 * - Unlike OpenSSL's loop, the next S[i + 1] is read before S[j] is
 *   written, and S[i] takes its place when j is i + 1. Read after that
 *   store, as OpenSSL reads it, the load may wait for the store's
 *   address, which comes off the j chain, and so put a load's latency on
 *   the chain: in one of the Intel Xeon host's states both OpenSSL's loop
 *   and this one read that way ran at 6.0-6.1 TSC ticks a byte at 16 KiB,
 *   where this order ran at 4.2 (docs/kernels.md). The key schedule reads
 *   S[x + 1] early the same way.
 * - That j == i + 1 case (one step in 256) is a branch, not a select: a
 *   compare and a cmov on the chain cost two cycles a byte, and on the
 *   AMD Zen 4 host the select's loop stayed behind OpenSSL's where the
 *   branch's went ahead (docs/kernels.md). The branch depends on the secret j, as the table's addresses already do,
 *   and ctgrind reports it beside them (docs/leak.md); the empty asm
 *   keeps GCC from turning it back into a cmov. The key schedule keeps
 *   its select: a branch there measured no faster.
 * - j stays below 256 in a full register and is added to in its low byte
 *   (rc4_add_byte), where GCC's & 0xff costs a movzx on the chain; S[j]
 *   is read and written addressed from j itself (rc4_exchange), where GCC
 *   computes the address once with an lea, again a cycle on the chain.
 * - The 256 steps of i's round unrolled (RC4_GROUP): i is a constant in
 *   each, so S[i] and S[i + 1] are fixed offsets from the table and
 *   j == i + 1 is one compare with that constant (the check is on
 *   indices, which GCC folds, where a pointer compare kept two lea a
 *   step). Eight steps a group, each group's keystream one word; single
 *   steps before and after. With
 *   eight steps a loop, i a register, a step took thirteen instructions
 *   and now takes ten: the fewer a step's, the more steps the core's
 *   window holds while the sibling hyperthread takes half of it, the
 *   state in which the eight-step loop fell behind OpenSSL's
 *   (docs/kernels.md, "The code's choices", RC4). */
#include <string.h>

#include "rc4.h"

#if defined(__x86_64__)
/* *v = (*v + add) mod 256 for *v below 256: the low byte's add leaves the
 * rest of the register zero. */
#define rc4_add_byte(v, add) __asm__("addb %b1, %b0" : "+r"(v) : "r"(add))
#else
#define rc4_add_byte(v, add) ((v) = ((v) + (add)) & 0xff)
#endif

/* Returns S[j] and writes x there. */
static inline __attribute__((always_inline)) size_t
rc4_exchange(uint32_t *s, size_t j, size_t x)
{
    size_t y;
#if defined(__x86_64__)
    __asm__("movl (%[s],%[j],4), %k[y]\n\t"
            "movl %k[x], (%[s],%[j],4)"
            : [y] "=&r"(y)
            : [s] "r"(s), [j] "r"(j), [x] "r"(x)
            : "memory");
#else
    y = s[j];
    s[j] = (uint32_t)x;
#endif
    return y;
}

/* One step at si = &S[i] with *tx = S[i] already read: swaps S[i] and
 * S[j], reads *next (S[i + 1]) into *tx, returns the keystream byte. */
static inline __attribute__((always_inline)) unsigned
rc4_step_generic(uint32_t *s, uint32_t *si, const uint32_t *next,
                 size_t *tx, size_t *j)
{
    size_t x = *tx, y, nx = *next;
    rc4_add_byte(*j, x);
    y = rc4_exchange(s, *j, x);
    *tx = nx;
    if (__builtin_expect(*j == (size_t)(next - s), 0)) {
        __asm__("" : "+r"(x));
        *tx = x;
    }
    *si = (uint32_t)y;
    rc4_add_byte(y, x);
    return s[y];
}

/* Steps 8g..8g+7; leaves for the single steps when fewer than eight bytes
 * are left. */
#define RC4_GROUP(g)                                                          \
        if (len - n < 8) {                                                    \
            i = 8 * (g);                                                      \
            goto rest;                                                        \
        }                                                                     \
        {                                                                     \
            uint64_t ks = 0, m;                                               \
            for (unsigned b = 0; b < 8; b++)                                  \
                ks |= (uint64_t)rc4_step_generic(                             \
                          s, &s[8 * (g) + b], &s[(8 * (g) + b + 1) & 0xff],   \
                          &tx, &j)                                            \
                      << (8 * b);                                             \
            memcpy(&m, in + n, 8);                                            \
            m ^= ks;                                                          \
            memcpy(out + n, &m, 8);                                           \
            n += 8;                                                           \
        }
/* The case of the switch on i / 8 for group g > 0, which the one before
 * falls through to. */
#define RC4_CASE(g)                                                           \
    __attribute__((fallthrough));                                             \
    case g:                                                                   \
        RC4_GROUP(g)

static void rc4_key_schedule_generic(uint32_t s[256], const uint8_t *key,
                                     size_t key_len)
{
    size_t j = 0;
    for (unsigned x = 0; x < 256; x++)
        s[x] = x;
    size_t t = s[0];
    for (size_t x = 0, k = 0; x < 256; x++) {
        /* S[x + 1] read before the exchange, as in rc4_step_generic. */
        size_t kb = key[k], next = s[(x + 1) & 0xff];
        rc4_add_byte(j, kb);
        rc4_add_byte(j, t);
        s[x] = (uint32_t)rc4_exchange(s, j, t);
        t = j == x + 1 ? t : next;
        k = k + 1 == key_len ? 0 : k + 1;
    }
}

void rc4_xor_generic(uint8_t *out, const uint8_t *in, size_t len,
                     const uint8_t *key, size_t key_len)
{
    uint32_t s[256];
    unsigned i = 1;
    size_t j = 0, tx, n = 0;
    rc4_key_schedule_generic(s, key, key_len);
    tx = s[1];
    for (; n < len && (i & 7); n++, i = (i + 1) & 0xff)
        out[n] = in[n] ^ (uint8_t)rc4_step_generic(
                             s, &s[i], &s[(i + 1) & 0xff], &tx, &j);
    /* Whole groups of eight from i on, round and round the table. */
    for (;;) {
        switch (i >> 3) {
        case 0:
            RC4_GROUP(0)
            RC4_CASE(1) RC4_CASE(2) RC4_CASE(3) RC4_CASE(4) RC4_CASE(5)
            RC4_CASE(6) RC4_CASE(7) RC4_CASE(8) RC4_CASE(9) RC4_CASE(10)
            RC4_CASE(11) RC4_CASE(12) RC4_CASE(13) RC4_CASE(14) RC4_CASE(15)
            RC4_CASE(16) RC4_CASE(17) RC4_CASE(18) RC4_CASE(19) RC4_CASE(20)
            RC4_CASE(21) RC4_CASE(22) RC4_CASE(23) RC4_CASE(24) RC4_CASE(25)
            RC4_CASE(26) RC4_CASE(27) RC4_CASE(28) RC4_CASE(29) RC4_CASE(30)
            RC4_CASE(31)
        }
        i = 0;
    }
rest:
    for (; n < len; n++, i = (i + 1) & 0xff)
        out[n] = in[n] ^ (uint8_t)rc4_step_generic(
                             s, &s[i], &s[(i + 1) & 0xff], &tx, &j);
}
