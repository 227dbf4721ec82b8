/* Poly1305 with AVX-512 IFMA: blocks in the 64-bit lanes of zmm registers,
 * as in the avx512 file, but in three limbs of 44, 44 and 42 bits
 * multiplied with vpmadd52luq/vpmadd52huq (the low and high halves of
 * 52-bit products) instead of five 26-bit limbs with vpmuludq: nine
 * products a block instead of twenty-five.
 *
 * Sixteen blocks per step, as two independent chains of eight lanes each
 * (Goll and Gueron's vectorisation, as in poly1305_vector.h, twice): lane
 * j of chain A accumulates the even groups' block j, chain B the odd
 * groups', h = (h + m) r^16 per step. One chain alone is bound by the
 * latency of its multiply and carries; two keep the multipliers busy.
 * At the end the chain holding the last group is multiplied by r^8 .. r^1
 * lane by lane, the other by r^16 .. r^9, and all lanes add up.
 *
 * Calls shorter than IFMA_BELOW go to poly1305_blocks_avx2 (the avx2
 * object's scalar core below POLY1305_SCALAR_BELOW, its four 26-bit lanes
 * of ymm above), so a profile of this variant shows avx2 symbols for
 * them; longer calls leave their last blocks, fewer than a group, to the
 * scalar core. */
#include <immintrin.h>

#include "poly1305.h"
#include "poly1305_scalar.h"

#define IFMA_LANES 8
#define IFMA_GROUP_BYTES (POLY1305_BLOCK_BYTES * IFMA_LANES)

/* The set-up (eight powers of r by scalar multiplies, eight more by two
 * vector ones) and a scalar tail of up to seven blocks pay from here, a
 * measured crossover (docs/kernels.md, "The code's choices", Poly1305 thresholds). */
#define IFMA_BELOW 640

/* What st->powers_layout says when this file filled them. */
#define IFMA_LAYOUT (IFMA_LANES * 44)
/* Rows of st->powers, five per multiplier (limbs 0-2, then 20 times limbs
 * 1 and 2): r^16 in every lane for the loop, then the per-lane powers of
 * the chain holding the last group (r^8 .. r^1), then of the other chain
 * (r^16 .. r^9). */
#define IFMA_ROWS_LOOP 0
#define IFMA_ROWS_LAST 5
#define IFMA_ROWS_LAST2 10

#define LIMB44 0xfffffffffffull
#define LIMB42 0x3ffffffffffull

typedef struct ifma_limbs {
    __m512i l0, l1, l2;
} ifma_limbs;

/* h (base 2^64, h[2] small) as limbs of 44, 44 and 42 bits (the top one
 * takes h[2]'s bits as well). */
POLY1305_INLINE void ifma_to_limbs(const uint64_t h[3], uint64_t l[3])
{
    l[0] = h[0] & LIMB44;
    l[1] = ((h[0] >> 44) | (h[1] << 20)) & LIMB44;
    l[2] = (h[1] >> 24) | (h[2] << 40);
}

/* h from three limbs of up to 50 bits each (the sums of the lanes),
 * carried and folded back below 2^130 + 2^45. */
POLY1305_INLINE void ifma_from_limbs(uint64_t d[3], uint64_t h[3])
{
    for (int pass = 0; pass < 2; pass++) {
        d[1] += d[0] >> 44;
        d[0] &= LIMB44;
        d[2] += d[1] >> 44;
        d[1] &= LIMB44;
        d[0] += (d[2] >> 42) * 5;
        d[2] &= LIMB42;
    }
    /* Now d[0] < 2^44 + 5 and the others are within their widths. */
    poly1305_u128 low = (poly1305_u128)d[0] + ((poly1305_u128)d[1] << 44);
    poly1305_u128 top = (poly1305_u128)(d[2] & 0xffffffffffull) << 88;
    poly1305_u128 sum = low + top;
    h[0] = (uint64_t)sum;
    h[1] = (uint64_t)(sum >> 64);
    h[2] = (d[2] >> 40) + (sum < top);
}

POLY1305_INLINE ifma_limbs ifma_add(ifma_limbs a, ifma_limbs b)
{
    a.l0 = _mm512_add_epi64(a.l0, b.l0);
    a.l1 = _mm512_add_epi64(a.l1, b.l1);
    a.l2 = _mm512_add_epi64(a.l2, b.l2);
    return a;
}

#define LO52 _mm512_madd52lo_epu64
#define HI52 _mm512_madd52hi_epu64

/* h r mod p, with r in rows[0..2] and 20 r[1], 20 r[2] in rows[3..4]
 * (2^132 = 4 * 2^130 is 20 mod p). The limbs come back within 44, 44 and
 * 42 bits, but limb 1 up to 2^44 + 2^15. The multiplier reads 52 bits of
 * each input: h's limbs stay below 2^46 with a message added, the rows
 * below 2^50. A product's low 52 bits land in its limb, its high bits 8
 * bits up in the next; limb 2's high bits (2^140 = 2^10 * 2^130) come back
 * to limb 0 times 5 * 2^10. */
POLY1305_INLINE ifma_limbs ifma_mul(ifma_limbs h,
                                    const uint64_t (*rows)[POLY1305_MAX_LANES])
{
    const __m512i r0 = _mm512_load_si512(rows[0]);
    const __m512i r1 = _mm512_load_si512(rows[1]);
    const __m512i r2 = _mm512_load_si512(rows[2]);
    const __m512i s1 = _mm512_load_si512(rows[3]);
    const __m512i s2 = _mm512_load_si512(rows[4]);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i m44 = _mm512_set1_epi64((long long)LIMB44);
    const __m512i m42 = _mm512_set1_epi64((long long)LIMB42);
    __m512i d0 = LO52(LO52(LO52(zero, h.l0, r0), h.l1, s2), h.l2, s1);
    __m512i d1 = LO52(LO52(LO52(zero, h.l0, r1), h.l1, r0), h.l2, s2);
    __m512i d2 = LO52(LO52(LO52(zero, h.l0, r2), h.l1, r1), h.l2, r0);
    __m512i e0 = HI52(HI52(HI52(zero, h.l0, r0), h.l1, s2), h.l2, s1);
    __m512i e1 = HI52(HI52(HI52(zero, h.l0, r1), h.l1, r0), h.l2, s2);
    __m512i e2 = HI52(HI52(HI52(zero, h.l0, r2), h.l1, r1), h.l2, r0);
    __m512i c;
    d1 = _mm512_add_epi64(d1, _mm512_slli_epi64(e0, 8));
    d2 = _mm512_add_epi64(d2, _mm512_slli_epi64(e1, 8));
    c = _mm512_srli_epi64(d0, 44);
    d0 = _mm512_and_si512(d0, m44);
    d1 = _mm512_add_epi64(d1, c);
    c = _mm512_srli_epi64(d1, 44);
    d1 = _mm512_and_si512(d1, m44);
    d2 = _mm512_add_epi64(d2, c);
    /* All above bit 130, in units of 2^130, goes to limb 0 times 5. */
    c = _mm512_add_epi64(_mm512_srli_epi64(d2, 42), _mm512_slli_epi64(e2, 10));
    d2 = _mm512_and_si512(d2, m42);
    d0 = _mm512_add_epi64(d0, _mm512_add_epi64(c, _mm512_slli_epi64(c, 2)));
    c = _mm512_srli_epi64(d0, 44);
    d0 = _mm512_and_si512(d0, m44);
    d1 = _mm512_add_epi64(d1, c);
    return (ifma_limbs){ d0, d1, d2 };
}

POLY1305_INLINE ifma_limbs ifma_load_rows(const poly1305_state *st, int row)
{
    return (ifma_limbs){ _mm512_load_si512(st->powers[row]),
                         _mm512_load_si512(st->powers[row + 1]),
                         _mm512_load_si512(st->powers[row + 2]) };
}

/* p's limbs, and 20 times limbs 1 and 2, into rows row..row + 4. */
POLY1305_INLINE void ifma_store_rows(poly1305_state *st, int row,
                                     ifma_limbs p)
{
    _mm512_store_si512(st->powers[row], p.l0);
    _mm512_store_si512(st->powers[row + 1], p.l1);
    _mm512_store_si512(st->powers[row + 2], p.l2);
    _mm512_store_si512(st->powers[row + 3],
                       _mm512_add_epi64(_mm512_slli_epi64(p.l1, 4),
                                        _mm512_slli_epi64(p.l1, 2)));
    _mm512_store_si512(st->powers[row + 4],
                       _mm512_add_epi64(_mm512_slli_epi64(p.l2, 4),
                                        _mm512_slli_epi64(p.l2, 2)));
}

/* Once per key. r^8 and the last group's r^(8 - b) come from the scalar
 * core; the other chain's last group owes r^(16 - b): that, and r^16, are
 * one vector multiply by r^8 each. */
POLY1305_INLINE void ifma_powers(poly1305_state *st)
{
    poly1305_power_rows(st, IFMA_LANES, 3, ifma_to_limbs, IFMA_ROWS_LOOP,
                        IFMA_ROWS_LAST);
    ifma_store_rows(st, IFMA_ROWS_LOOP, ifma_load_rows(st, IFMA_ROWS_LOOP));
    ifma_store_rows(st, IFMA_ROWS_LAST, ifma_load_rows(st, IFMA_ROWS_LAST));
    /* Rows LOOP hold r^8 now. */
    ifma_store_rows(st, IFMA_ROWS_LAST2,
                    ifma_mul(ifma_load_rows(st, IFMA_ROWS_LAST),
                             &st->powers[IFMA_ROWS_LOOP]));
    ifma_store_rows(st, IFMA_ROWS_LOOP,
                    ifma_mul(ifma_load_rows(st, IFMA_ROWS_LOOP),
                             &st->powers[IFMA_ROWS_LOOP]));
    st->powers_layout = IFMA_LAYOUT;
}

/* Eight blocks as limbs, lane j getting block poly1305_block_of_lane(j). */
POLY1305_INLINE ifma_limbs ifma_load(const uint8_t *in, __m512i hibit)
{
    const __m512i mask = _mm512_set1_epi64((long long)LIMB44);
    __m512i a = _mm512_loadu_si512(in), b = _mm512_loadu_si512(in + 64);
    __m512i lo = _mm512_unpacklo_epi64(a, b), hi = _mm512_unpackhi_epi64(a, b);
    ifma_limbs m;
    m.l0 = _mm512_and_si512(lo, mask);
    m.l1 = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44),
                                            _mm512_slli_epi64(hi, 20)),
                            mask);
    m.l2 = _mm512_or_si512(_mm512_srli_epi64(hi, 24), hibit);
    return m;
}

/* h = (h + ...) r^16 + the group at in. */
POLY1305_INLINE ifma_limbs ifma_step(const poly1305_state *st, ifma_limbs h,
                                     const uint8_t *in, __m512i hibit)
{
    return ifma_add(ifma_mul(h, &st->powers[IFMA_ROWS_LOOP]),
                    ifma_load(in, hibit));
}

/* len: a multiple of IFMA_GROUP_BYTES, at least two groups. */
POLY1305_INLINE void ifma_blocks(poly1305_state *st, const uint8_t *in,
                                 size_t len, uint64_t padbit)
{
    const __m512i hibit = _mm512_set1_epi64((long long)(padbit << 40));
    const uint8_t *end = in + len;
    uint64_t acc[3];
    if (st->powers_layout != IFMA_LAYOUT)
        ifma_powers(st);
    /* The running h joins the first block, in lane 0 of chain A. */
    ifma_to_limbs(st->h, acc);
    ifma_limbs a = ifma_load(in, hibit);
    ifma_limbs b = ifma_load(in + IFMA_GROUP_BYTES, hibit);
    a.l0 = _mm512_add_epi64(a.l0, _mm512_maskz_set1_epi64(1, (long long)acc[0]));
    a.l1 = _mm512_add_epi64(a.l1, _mm512_maskz_set1_epi64(1, (long long)acc[1]));
    a.l2 = _mm512_add_epi64(a.l2, _mm512_maskz_set1_epi64(1, (long long)acc[2]));
    for (in += 2 * IFMA_GROUP_BYTES; end - in >= 2 * IFMA_GROUP_BYTES;
         in += 2 * IFMA_GROUP_BYTES) {
        a = ifma_step(st, a, in, hibit);
        b = ifma_step(st, b, in + IFMA_GROUP_BYTES, hibit);
    }
    ifma_limbs h;
    if (in < end) { /* an odd number of groups: A takes the last */
        a = ifma_step(st, a, in, hibit);
        h = ifma_add(ifma_mul(a, &st->powers[IFMA_ROWS_LAST]),
                     ifma_mul(b, &st->powers[IFMA_ROWS_LAST2]));
    } else {
        h = ifma_add(ifma_mul(a, &st->powers[IFMA_ROWS_LAST2]),
                     ifma_mul(b, &st->powers[IFMA_ROWS_LAST]));
    }
    acc[0] = (uint64_t)_mm512_reduce_add_epi64(h.l0);
    acc[1] = (uint64_t)_mm512_reduce_add_epi64(h.l1);
    acc[2] = (uint64_t)_mm512_reduce_add_epi64(h.l2);
    ifma_from_limbs(acc, st->h);
}

/* Each path in a function of its own, as in poly1305_vector.h. */
static __attribute__((noinline)) void
poly1305_scalar_avx512ifma(poly1305_state *st, const uint8_t *in, size_t len,
                           uint64_t padbit)
{
    poly1305_scalar_blocks(st, in, len, padbit);
}

/* Whole groups through the vector loop, the rest scalar, with vzeroupper
 * before the tail call (see poly1305_vector.h). */
static __attribute__((noinline)) void
poly1305_vector_avx512ifma(poly1305_state *st, const uint8_t *in, size_t len,
                           uint64_t padbit)
{
    size_t wide = len - len % IFMA_GROUP_BYTES;
    ifma_blocks(st, in, wide, padbit);
    _mm256_zeroupper();
    poly1305_scalar_avx512ifma(st, in + wide, len - wide, padbit);
}

/* Tail calls, with a vzeroupper before this object's path, as in
 * poly1305_vector.h. */
void poly1305_blocks_avx512ifma(poly1305_state *st, const uint8_t *in,
                                size_t len, uint64_t padbit)
{
    if (len < IFMA_BELOW) {
        poly1305_blocks_avx2(st, in, len, padbit);
        return;
    }
    _mm256_zeroupper();
    poly1305_vector_avx512ifma(st, in, len, padbit);
}
