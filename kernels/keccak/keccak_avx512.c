/* Keccak-p[1600] with AVX-512. One state is five zmm registers, one row
 * each (the five lanes of a y, lane x in element x; elements 5-7 are
 * never stored), so that theta's column parities are two
 * vpternlogq for all five columns and rho is one vprolvq a row. Pi moves
 * lane (x, y) to (y, 2x + 3y): new column X is old row X reordered, so
 * rotating row X's elements by X (vpermq) gives the new state by columns,
 * element j of every register holding new row 2j mod 5. Chi runs along a
 * row, so on columns it is five vpternlogq of whole registers with no lane
 * moves; a 5x5 transpose (vpunpck*qdq, vpermt2q) then gives back rows for
 * the next theta. A round is 35 vector instructions, 15 of them lane moves
 * (port 5 on Intel), where one lane per xmm register took about 95; the
 * round is a chain, one state having no other work to overlap it with.
 * On a core that splits every zmm operation into two 256-bit halves
 * (cpu_zmm_halves: AMD Zen 4) those lane moves cost several operations
 * each, and one lane per xmm register (every three-input XOR and chi's
 * a ^ (~b & c) one vpternlogq, every rotation one vprolq, 32 registers
 * holding the state and theta's parities) is the faster of the two: the
 * row's functions choose it there.
 * KangarooTwelve's leaves run eight at a time, one state per 64-bit
 * element of a zmm (keccak_lanes.h has those rounds). */
#include <immintrin.h>

#include "keccak.h"

/* Elements 5-7 of row 0 copy its elements 1, 3 and 0 (KECCAK_ROW0_SPARE),
 * and the permutes below carry that through pi and chi to column 4, whose
 * elements 5-7 then fill the spare places of the transpose's first step:
 * three of the five rows are whole after its second step. The other rows'
 * elements 5-7 are never read. */
#define KECCAK_IDX(a, b, c, d, e, f, g, h) _mm512_setr_epi64(a, b, c, d, e, f, g, h)
#define KECCAK_ROW0_SPARE KECCAK_IDX(0, 1, 2, 3, 4, 1, 3, 0)

/* Rho's rotation of each lane (x, y), one vector a row (FIPS 202, Table 2);
 * row 0's elements 5-7 as its 1, 3 and 0. */
#define KECCAK_RHO_ROW(a, b, c, d, e) _mm512_setr_epi64(a, b, c, d, e, b, d, a)

static inline __attribute__((always_inline)) void
keccak_rows_round_avx512(__m512i *r0, __m512i *r1, __m512i *r2, __m512i *r3,
                         __m512i *r4, const uint64_t *rc)
{
    /* Theta: c[x] the column parities, then every row gets
     * c[x - 1] ^ rol(c[x + 1], 1). */
    __m512i c = _mm512_ternarylogic_epi64(
        _mm512_ternarylogic_epi64(*r0, *r1, *r2, 0x96), *r3, *r4, 0x96);
    __m512i c_prev = _mm512_permutexvar_epi64(KECCAK_IDX(4, 0, 1, 2, 3, 0, 2, 4), c);
    __m512i c_next = _mm512_permutexvar_epi64(KECCAK_IDX(1, 2, 3, 4, 0, 2, 4, 1),
                                              _mm512_rol_epi64(c, 1));
    /* Rho. */
    __m512i b0 = _mm512_rolv_epi64(_mm512_ternarylogic_epi64(*r0, c_prev, c_next, 0x96),
                                   KECCAK_RHO_ROW(0, 1, 62, 28, 27));
    __m512i b1 = _mm512_rolv_epi64(_mm512_ternarylogic_epi64(*r1, c_prev, c_next, 0x96),
                                   KECCAK_RHO_ROW(36, 44, 6, 55, 20));
    __m512i b2 = _mm512_rolv_epi64(_mm512_ternarylogic_epi64(*r2, c_prev, c_next, 0x96),
                                   KECCAK_RHO_ROW(3, 10, 43, 25, 39));
    __m512i b3 = _mm512_rolv_epi64(_mm512_ternarylogic_epi64(*r3, c_prev, c_next, 0x96),
                                   KECCAK_RHO_ROW(41, 45, 15, 21, 8));
    __m512i b4 = _mm512_rolv_epi64(_mm512_ternarylogic_epi64(*r4, c_prev, c_next, 0x96),
                                   KECCAK_RHO_ROW(18, 2, 61, 56, 14));
    /* Pi: new (X, Y) is old (X + 3Y, X). With new row Y = 2j in element j
     * that is old (X + j, X): row X's elements rotated down by X (and
     * elements 5-7 as 1, 3 and 0, like row 0's). */
    __m512i p0 = b0;
    __m512i p1 = _mm512_permutexvar_epi64(KECCAK_IDX(1, 2, 3, 4, 0, 2, 4, 1), b1);
    __m512i p2 = _mm512_permutexvar_epi64(KECCAK_IDX(2, 3, 4, 0, 1, 3, 0, 2), b2);
    __m512i p3 = _mm512_permutexvar_epi64(KECCAK_IDX(3, 4, 0, 1, 2, 4, 1, 3), b3);
    __m512i p4 = _mm512_permutexvar_epi64(KECCAK_IDX(4, 0, 1, 2, 3, 0, 2, 4), b4);
    /* Chi along each row: column X with columns X + 1 and X + 2. Iota
     * changes lane (0, 0), element 0 (new row 0) of column 0: it is XORed
     * into that column's own term before chi, where it waits for no
     * permute, rather than after (column 0's element 7 then misses it:
     * it is never read). */
    __m512i e0 = _mm512_ternarylogic_epi64(
        _mm512_xor_si512(p0, _mm512_maskz_loadu_epi64(1, rc)), p1, p2, 0xd2);
    __m512i e1 = _mm512_ternarylogic_epi64(p1, p2, p3, 0xd2);
    __m512i e2 = _mm512_ternarylogic_epi64(p2, p3, p4, 0xd2);
    __m512i e3 = _mm512_ternarylogic_epi64(p3, p4, p0, 0xd2);
    __m512i e4 = _mm512_ternarylogic_epi64(p4, p0, p1, 0xd2);
    /* Back to rows: new row Y is element j = 3Y mod 5 of every column.
     * vpunpck{l,h}qdq pair columns 0-1 and 2-3 (elements 0, 2, 4 and 1, 3;
     * one cycle, where a cross-lane permute takes three); column 2-3's
     * pairs keep column 4's elements in their unused places: 6 and 7 (its
     * elements 3 and 0) after the even elements, 4-7 (its 4, 1, 3, 0)
     * after the odd. */
    __m512i lo01 = _mm512_unpacklo_epi64(e0, e1), hi01 = _mm512_unpackhi_epi64(e0, e1);
    __m512i lo23 = _mm512_mask_unpacklo_epi64(e4, 0x3f, e2, e3);
    __m512i hi23 = _mm512_mask_unpackhi_epi64(e4, 0x0f, e2, e3);
    *r0 = _mm512_permutex2var_epi64(lo01, KECCAK_IDX(0, 1, 8, 9, 15, 1, 9, 0), lo23);
    *r2 = _mm512_permutex2var_epi64(hi01, KECCAK_IDX(0, 1, 8, 9, 13, 1, 9, 0), hi23);
    *r1 = _mm512_permutex2var_epi64(hi01, KECCAK_IDX(2, 3, 10, 11, 14, 3, 11, 2), hi23);
    /* Elements 4 then 2 of columns 0-3; column 4's element 4 is in place
     * for row 3 (a blend), its element 2 is not for row 4. */
    __m512i j42 = _mm512_permutex2var_epi64(lo01, KECCAK_IDX(4, 5, 12, 13, 2, 3, 10, 11), lo23);
    *r3 = _mm512_mask_blend_epi64(0x10, j42, e4);
    *r4 = _mm512_permutex2var_epi64(j42, KECCAK_IDX(4, 5, 6, 7, 10, 5, 6, 7), e4);
}

/* The rounds on the five rows, which callers keep in named variables (as
 * an array, absorb's were stored to the stack after every block). */
static inline __attribute__((always_inline)) void
keccak_rows_rounds_avx512(__m512i *r0, __m512i *r1, __m512i *r2, __m512i *r3,
                          __m512i *r4, unsigned rounds)
{
    for (unsigned r = 24 - rounds; r < 24; r++)
        keccak_rows_round_avx512(r0, r1, r2, r3, r4, &keccak_round_constants[r]);
}

/* Lanes 5y..5y+4 are row y: 40 bytes, read and written masked. */
#define KECCAK_ROW_MASK 0x1f

static inline __attribute__((always_inline)) void
keccak_rows_load_avx512(const uint64_t state[KECCAK_LANES], __m512i *r0,
                        __m512i *r1, __m512i *r2, __m512i *r3, __m512i *r4)
{
    *r0 = _mm512_permutexvar_epi64(KECCAK_ROW0_SPARE,
                                   _mm512_maskz_loadu_epi64(KECCAK_ROW_MASK, state));
    *r1 = _mm512_maskz_loadu_epi64(KECCAK_ROW_MASK, state + 5);
    *r2 = _mm512_maskz_loadu_epi64(KECCAK_ROW_MASK, state + 10);
    *r3 = _mm512_maskz_loadu_epi64(KECCAK_ROW_MASK, state + 15);
    *r4 = _mm512_maskz_loadu_epi64(KECCAK_ROW_MASK, state + 20);
}

static inline __attribute__((always_inline)) void
keccak_rows_store_avx512(uint64_t state[KECCAK_LANES], __m512i r0, __m512i r1,
                         __m512i r2, __m512i r3, __m512i r4)
{
    _mm512_mask_storeu_epi64(state, KECCAK_ROW_MASK, r0);
    _mm512_mask_storeu_epi64(state + 5, KECCAK_ROW_MASK, r1);
    _mm512_mask_storeu_epi64(state + 10, KECCAK_ROW_MASK, r2);
    _mm512_mask_storeu_epi64(state + 15, KECCAK_ROW_MASK, r3);
    _mm512_mask_storeu_epi64(state + 20, KECCAK_ROW_MASK, r4);
}

void keccak_permute_avx512_rows(uint64_t state[KECCAK_LANES], unsigned rounds)
{
    __m512i r0, r1, r2, r3, r4;
    keccak_rows_load_avx512(state, &r0, &r1, &r2, &r3, &r4);
    keccak_rows_rounds_avx512(&r0, &r1, &r2, &r3, &r4, rounds);
    keccak_rows_store_avx512(state, r0, r1, r2, r3, r4);
}

/* Row y's elements that lie in the rate's first `lanes` lanes. */
static __mmask8 keccak_rate_mask_avx512(size_t lanes, unsigned y)
{
    if (lanes <= 5 * y)
        return 0;
    return lanes - 5 * y >= 5 ? KECCAK_ROW_MASK
                              : (__mmask8)((1u << (lanes - 5 * y)) - 1);
}

/* The state stays in the five rows across the blocks: each block is XORed
 * in with one masked load a row, which reads the rate's bytes and no more
 * (masked-off elements do not fault), row 0's spread to its spare elements
 * as the state's is. */
void keccak_absorb_blocks_avx512_rows(uint64_t state[KECCAK_LANES],
                                      const uint8_t *in, size_t blocks,
                                      size_t rate, unsigned rounds)
{
    __mmask8 m0 = keccak_rate_mask_avx512(rate / 8, 0),
             m1 = keccak_rate_mask_avx512(rate / 8, 1),
             m2 = keccak_rate_mask_avx512(rate / 8, 2),
             m3 = keccak_rate_mask_avx512(rate / 8, 3),
             m4 = keccak_rate_mask_avx512(rate / 8, 4);
    __m512i r0, r1, r2, r3, r4;
    keccak_rows_load_avx512(state, &r0, &r1, &r2, &r3, &r4);
    for (; blocks; blocks--, in += rate) {
        r0 = _mm512_xor_si512(r0, _mm512_permutexvar_epi64(
                                      KECCAK_ROW0_SPARE,
                                      _mm512_maskz_loadu_epi64(m0, in)));
        r1 = _mm512_xor_si512(r1, _mm512_maskz_loadu_epi64(m1, in + 40));
        r2 = _mm512_xor_si512(r2, _mm512_maskz_loadu_epi64(m2, in + 80));
        r3 = _mm512_xor_si512(r3, _mm512_maskz_loadu_epi64(m3, in + 120));
        r4 = _mm512_xor_si512(r4, _mm512_maskz_loadu_epi64(m4, in + 160));
        keccak_rows_rounds_avx512(&r0, &r1, &r2, &r3, &r4, rounds);
    }
    keccak_rows_store_avx512(state, r0, r1, r2, r3, r4);
}

/* One lane per xmm register. */
#define KL_V __m128i
#define KL_N 1
#define KL_NAME(f) f##_x1_avx512
#define KL_XOR3(a, b, c) _mm_ternarylogic_epi64(a, b, c, 0x96)
#define KL_THETA_D(p, q) _mm_xor_si128(p, _mm_rol_epi64(q, 1))
#define KL_XOR_ROL(a, d, n) _mm_rol_epi64(_mm_xor_si128(a, d), n)
#define KL_XOR(a, b) _mm_xor_si128(a, b)
#define KL_CHI(a, b, c) _mm_ternarylogic_epi64(a, b, c, 0xd2)
#define KL_RC(a, rc) _mm_xor_si128(a, _mm_set1_epi64x((long long)(rc)))
#include "keccak_lanes.h"
#undef KL_V
#undef KL_N
#undef KL_NAME
#undef KL_XOR3
#undef KL_THETA_D
#undef KL_XOR_ROL
#undef KL_XOR
#undef KL_CHI
#undef KL_RC

static inline __attribute__((always_inline)) void
keccak_lanes_load_avx512(__m128i a[KECCAK_LANES],
                         const uint64_t state[KECCAK_LANES])
{
    for (unsigned i = 0; i < KECCAK_LANES; i++)
        a[i] = _mm_cvtsi64_si128((long long)state[i]);
}

static inline __attribute__((always_inline)) void
keccak_lanes_store_avx512(uint64_t state[KECCAK_LANES],
                          const __m128i a[KECCAK_LANES])
{
    for (unsigned i = 0; i < KECCAK_LANES; i++)
        state[i] = (uint64_t)_mm_cvtsi128_si64(a[i]);
}

void keccak_permute_avx512_lanes(uint64_t state[KECCAK_LANES], unsigned rounds)
{
    __m128i a[KECCAK_LANES];
    keccak_lanes_load_avx512(a, state);
    keccak_lanes_rounds_x1_avx512(a, rounds);
    keccak_lanes_store_avx512(state, a);
}

/* The lanes stay in registers across the blocks; each block's words are
 * XORed into the first rate / 8 of them. */
void keccak_absorb_blocks_avx512_lanes(uint64_t state[KECCAK_LANES],
                                       const uint8_t *in, size_t blocks,
                                       size_t rate, unsigned rounds)
{
    __m128i a[KECCAK_LANES];
    keccak_lanes_load_avx512(a, state);
    for (; blocks; blocks--, in += rate) {
        for (size_t i = 0; i < rate / 8; i++)
            a[i] = _mm_xor_si128(a[i], _mm_loadl_epi64((const void *)(in + 8 * i)));
        keccak_lanes_rounds_x1_avx512(a, rounds);
    }
    keccak_lanes_store_avx512(state, a);
}

/* The row's functions: the layout this core runs faster (the comment at
 * the top). */
void keccak_permute_avx512(uint64_t state[KECCAK_LANES], unsigned rounds)
{
    if (cpu_zmm_halves())
        keccak_permute_avx512_lanes(state, rounds);
    else
        keccak_permute_avx512_rows(state, rounds);
}

void keccak_absorb_blocks_avx512(uint64_t state[KECCAK_LANES],
                                 const uint8_t *in, size_t blocks,
                                 size_t rate, unsigned rounds)
{
    if (cpu_zmm_halves())
        keccak_absorb_blocks_avx512_lanes(state, in, blocks, rate, rounds);
    else
        keccak_absorb_blocks_avx512_rows(state, in, blocks, rate, rounds);
}

#define KL_V __m512i
#define KL_N 8
#define KL_NAME(f) f##_x8_avx512
#define KL_XOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#define KL_THETA_D(p, q) _mm512_xor_si512(p, _mm512_rol_epi64(q, 1))
#define KL_XOR_ROL(a, d, n) _mm512_rol_epi64(_mm512_xor_si512(a, d), n)
#define KL_XOR(a, b) _mm512_xor_si512(a, b)
#define KL_CHI(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0xd2)
#define KL_RC(a, rc) _mm512_xor_si512(a, _mm512_set1_epi64((long long)(rc)))
#define KL_GATHER(p, stride)                                                 \
    _mm512_i64gather_epi64(_mm512_setr_epi64(0, (stride), 2 * (stride),      \
                                             3 * (stride), 4 * (stride),     \
                                             5 * (stride), 6 * (stride),     \
                                             7 * (stride)),                  \
                           (const void *)(p), 1)
#define KL_STORE(u, a) _mm512_storeu_si512((void *)(u), a)
#include "keccak_lanes.h"

void keccak_kt_leaves_avx512(const uint8_t *in, unsigned security,
                             uint8_t *cv)
{
    keccak_lanes_leaves_x8_avx512(in, security, cv);
}
