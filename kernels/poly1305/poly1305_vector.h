/* The wide Poly1305 loop, written once for every vector width: the avx2
 * file includes it with 4 lanes of ymm, the avx512 file with 8 of zmm, so
 * the avx512 code is, but for the avx2 file's assembly multiply, the avx2
 * code one width up (and the tests run the avx512 file on stand-in
 * intrinsics where the CPU lacks AVX-512: tests/c/emulated/emulated.h).
 *
 * The includer defines POLY1305_ISA (the suffix of the functions this
 * defines: poly1305_blocks_<isa> and its paths), VEC, LANES, the V_*
 * operations on 64-bit lanes (V_MUL multiplies the low 32 bits of each
 * lane, as vpmuludq does; V_ZEROUPPER is vzeroupper), and may define
 * VECTOR_MUL_LOOP, and VECTOR_NARROW_BLOCKS with VECTOR_NARROW_BELOW: a
 * narrower width's blocks function that takes every call shorter than
 * that, scalar ones included.
 *
 * Lane j accumulates blocks j, j + LANES, j + 2 LANES, ... in five 26-bit
 * limbs: h = (h + m) r^LANES per group of LANES blocks, and the last group
 * is multiplied by r^LANES .. r^1 lane by lane instead, after which the
 * lanes add up to the serial result (Goll and Gueron's vectorisation, as in
 * OpenSSL and libsodium). Limbs are carried lazily, two chains at a time,
 * so that they stay below 2^27 and every product fits in 64 bits. */
#ifndef CYCLEBENCH_POLY1305_VECTOR_H
#define CYCLEBENCH_POLY1305_VECTOR_H

#include "poly1305_scalar.h"

#define POLY1305_GROUP_BYTES (POLY1305_BLOCK_BYTES * LANES)

/* Rows of st->powers: the loop's multiplier (r^LANES, limbs 0-4 then 5
 * times limbs 1-4), then the same for the last group's per-lane powers. */
#define POLY1305_ROWS_LOOP 0
#define POLY1305_ROWS_LAST 9
/* What st->powers_layout says when this path filled them. */
#define VECTOR_LAYOUT (LANES * 26)

/* Once per key: the rows of poly1305_power_rows, and 5 times limbs 1-4 of
 * each (2^130 is 5 mod p). The powers are fully reduced, so that every
 * limb, and 5 times it, stays in 32 bits. */
POLY1305_INLINE void vector_powers(poly1305_state *st)
{
    poly1305_power_rows(st, LANES, 5, poly1305_to_limbs, POLY1305_ROWS_LOOP,
                        POLY1305_ROWS_LAST);
    for (int lane = 0; lane < LANES; lane++)
        for (int i = 1; i < 5; i++) {
            st->powers[POLY1305_ROWS_LOOP + 4 + i][lane] =
                5 * st->powers[POLY1305_ROWS_LOOP + i][lane];
            st->powers[POLY1305_ROWS_LAST + 4 + i][lane] =
                5 * st->powers[POLY1305_ROWS_LAST + i][lane];
        }
    st->powers_layout = VECTOR_LAYOUT;
}

/* One group of blocks as limbs, lane j getting block
 * poly1305_block_of_lane(j, LANES). */
POLY1305_INLINE void vector_load(const uint8_t *in, VEC m[5], VEC hibit,
                                 VEC mask)
{
    VEC a = V_LOADU(in), b = V_LOADU(in + sizeof(VEC));
    VEC lo = V_UNPACKLO(a, b), hi = V_UNPACKHI(a, b);
    m[0] = V_AND(lo, mask);
    m[1] = V_AND(V_SRL(lo, 26), mask);
    m[2] = V_AND(V_OR(V_SRL(lo, 52), V_SLL(hi, 12)), mask);
    m[3] = V_AND(V_SRL(hi, 14), mask);
    m[4] = V_OR(V_SRL(hi, 40), hibit);
}

/* h = h r mod p, unreduced: r is rows[0..4], 5 r[i] is rows[4 + i]. The
 * products of limbs i and j with i + j >= 5 wrap around as 2^130 = 5.
 * Written limb of h by limb of h, multiplying by rows in memory: GCC
 * keeps this order on x86, and it needs the fewest registers live (the
 * five sums, one limb of h, and what is left of h). */
POLY1305_INLINE void vector_mul(VEC h[5],
                                const uint64_t (*rows)[POLY1305_MAX_LANES])
{
    VEC d[5];
    for (int j = 0; j < 5; j++)
        d[j] = V_MUL(h[0], V_LOAD(rows[j]));
    for (int i = 1; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            /* limb i times limb k of r lands in limb i + k, or wraps
             * into i + k - 5 times 5 */
            int k = (j - i + 5) % 5;
            VEC r = V_LOAD(rows[i + k >= 5 ? 4 + k : k]);
            d[j] = V_ADD(d[j], V_MUL(h[i], r));
        }
    for (int j = 0; j < 5; j++)
        h[j] = d[j];
}

/* Products below 2^58 back to limbs below 2^26 + 2^9: the chains 3-4-0-1
 * and 0-1-2-3-4 run side by side. */
POLY1305_INLINE void vector_carry(VEC h[5], VEC mask)
{
    VEC c;
    c = V_SRL(h[3], 26); h[3] = V_AND(h[3], mask); h[4] = V_ADD(h[4], c);
    c = V_SRL(h[0], 26); h[0] = V_AND(h[0], mask); h[1] = V_ADD(h[1], c);
    c = V_SRL(h[4], 26); h[4] = V_AND(h[4], mask);
    h[0] = V_ADD(h[0], V_ADD(c, V_SLL(c, 2)));
    c = V_SRL(h[1], 26); h[1] = V_AND(h[1], mask); h[2] = V_ADD(h[2], c);
    c = V_SRL(h[2], 26); h[2] = V_AND(h[2], mask); h[3] = V_ADD(h[3], c);
    c = V_SRL(h[0], 26); h[0] = V_AND(h[0], mask); h[1] = V_ADD(h[1], c);
    c = V_SRL(h[3], 26); h[3] = V_AND(h[3], mask); h[4] = V_ADD(h[4], c);
}

/* The includer may bring its own multiply for the loop (the avx2 file's
 * is in assembly). */
#ifndef VECTOR_MUL_LOOP
#define VECTOR_MUL_LOOP vector_mul
#endif

/* len: a nonzero multiple of POLY1305_GROUP_BYTES. */
POLY1305_INLINE void vector_blocks(poly1305_state *st, const uint8_t *in,
                                   size_t len, uint64_t padbit)
{
    const VEC mask = V_SET1(POLY1305_LIMB_MASK);
    const VEC hibit = V_SET1(padbit << 24);
    uint64_t acc[5];
    VEC h[5], m[5];
    if (st->powers_layout != VECTOR_LAYOUT)
        vector_powers(st);
    /* The running h joins the first block, in lane 0. */
    poly1305_to_limbs(st->h, acc);
    vector_load(in, h, hibit, mask);
    for (int i = 0; i < 5; i++)
        h[i] = V_ADD(h[i], V_LANE0(acc[i]));
    const uint64_t (*loop_rows)[POLY1305_MAX_LANES] =
        &st->powers[POLY1305_ROWS_LOOP];
    for (in += POLY1305_GROUP_BYTES, len -= POLY1305_GROUP_BYTES; len > 0;
         in += POLY1305_GROUP_BYTES, len -= POLY1305_GROUP_BYTES) {
        /* Hides the rows' address from the compiler so that it reads them
         * as memory operands of the multiplies: hoisted into registers,
         * they leave too few for h and the products and get spilled. */
        __asm__("" : "+r"(loop_rows));
        VECTOR_MUL_LOOP(h, loop_rows);
        vector_carry(h, mask);
        vector_load(in, m, hibit, mask);
        for (int i = 0; i < 5; i++)
            h[i] = V_ADD(h[i], m[i]);
    }
    vector_mul(h, &st->powers[POLY1305_ROWS_LAST]);
    for (int i = 0; i < 5; i++)
        acc[i] = V_HSUM(h[i]);
    poly1305_from_limbs(acc, st->h);
}

#define POLY1305_PASTE2(a, b) a##_##b
#define POLY1305_PASTE(a, b) POLY1305_PASTE2(a, b)
#define POLY1305_ISA_NAME(name) POLY1305_PASTE(name, POLY1305_ISA)

/* Each path in a function of its own: inlined into one, the scalar loop's
 * registers were allocated around the vector code's and ran at half
 * speed. The names carry the ISA so that profiles tell the variants
 * apart. */
static __attribute__((noinline)) void
POLY1305_ISA_NAME(poly1305_scalar)(poly1305_state *st, const uint8_t *in,
                                   size_t len, uint64_t padbit)
{
    poly1305_scalar_blocks(st, in, len, padbit);
}

/* Whole groups through the vector loop, the rest (fewer than LANES
 * blocks) scalar. GCC puts no vzeroupper before a tail call to a function
 * of the same file, and the scalar function, using no ymm, returns
 * without one: the dirty upper halves then cost the caller's SSE code
 * hundreds of cycles per call on the Xeon (family 6, model 207), so the
 * vector path clears them itself. */
static __attribute__((noinline)) void
POLY1305_ISA_NAME(poly1305_vector)(poly1305_state *st, const uint8_t *in,
                                   size_t len, uint64_t padbit)
{
    size_t wide = len - len % POLY1305_GROUP_BYTES;
    vector_blocks(st, in, wide, padbit);
    V_ZEROUPPER();
    POLY1305_ISA_NAME(poly1305_scalar)(st, in + wide, len - wide, padbit);
}

/* Nothing but tail calls, so that a short call pays no more than a
 * compare and a jump here; and a vzeroupper before this object's own
 * paths. A caller may come with the ymm upper halves dirty
 * (openssl:chacha20-poly1305 can return so), and the scalar path,
 * VEX-encoded and using no ymm, would never clean them: every call then
 * switched state against the caller's SSE code, much slower on short MACs
 * (docs/kernels.md, "The code's choices", Poly1305 entry). */
void POLY1305_ISA_NAME(poly1305_blocks)(poly1305_state *st, const uint8_t *in,
                                        size_t len, uint64_t padbit)
{
#ifdef VECTOR_NARROW_BLOCKS
    if (len < VECTOR_NARROW_BELOW) {
        VECTOR_NARROW_BLOCKS(st, in, len, padbit);
        return;
    }
#endif
    V_ZEROUPPER();
    if (len < POLY1305_SCALAR_BELOW) {
        POLY1305_ISA_NAME(poly1305_scalar)(st, in, len, padbit);
        return;
    }
    POLY1305_ISA_NAME(poly1305_vector)(st, in, len, padbit);
}

#endif
