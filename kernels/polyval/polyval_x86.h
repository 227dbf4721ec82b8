/* POLYVAL on x86, written once for vectors of LANES blocks: the including
 * file first includes one of kernels/simd/lanes_{xmm,ymm,zmm}.h. With
 * POLYVAL_ISA defined (the symbol suffix: pclmul, vpclmul_avx2,
 * vpclmul_avx512) it also defines that row's polyval_init_<isa>,
 * polyval_update_<isa> and polyval_mul_<isa>; without, only the
 * force-inlined pieces below, for kernels built on POLYVAL (CGO, and the
 * AES rows' XCTR with POLYVAL) to hash in their own loops with keys that a
 * POLYVAL row set up.
 *
 * Blocks are little-endian field elements, which is how PCLMULQDQ reads a
 * register: no byte swap, unlike GHASH. A batch of n vectors is multiplied
 * by the descending powers H^(n*LANES) .. H^1 (polyval_key.pow), the
 * running hash added to its first block; the products of each block are
 * summed over the batch and reduced once. Each product is Karatsuba's
 * three: lo, hi and (x_lo ^ x_hi)(h_lo ^ h_hi), whose key half the key
 * holds (polyval_key.kpow), the middle's fix-up (lo ^ hi) once per batch.
 * Against the schoolbook's four carry-less multiplies that is one fewer
 * on the multiplier and a shuffle and a xor more: where the shuffle
 * shares the multiplier's port (Intel's cores) it is the same count
 * there; on AMD's Zen 4 the two cost less than the multiply they save
 * (docs/kernels.md, "The code's choices").
 * Whole batches are PV_NVEC vectors; the rest of a message goes through
 * batches of 4, 2 and 1 vectors and its last blocks (fewer than a vector)
 * one by one on xmm, reduced once. Nothing is handed to another ISA's
 * functions. */
#ifndef CYCLEBENCH_POLYVAL_X86_H
#define CYCLEBENCH_POLYVAL_X86_H

#include <immintrin.h>

#include "polyval.h"
#include "../gf128/clmul_x86.h"
#include "../unroll.h"

#define PV_INLINE static inline __attribute__((always_inline))
#define PV_UNROLL CB_UNROLL(8)
#define PV_NVEC 8
#define PV_VEC_BYTES (16 * LANES)
#define PV_BATCH (PV_NVEC * LANES)

/* A batch's products, unreduced; mid without its fix-up. */
typedef struct pv_sum {
    vec lo, mid, hi;
} pv_sum;

PV_INLINE pv_sum pv_sum_zero(void)
{
    return (pv_sum){ V_ZERO(), V_ZERO(), V_ZERO() };
}

/* The powers of H, and their Karatsuba halves, for the blocks from
 * `first` on, of a batch of `blocks` blocks (the last of which gets H). */
PV_INLINE vec pv_powers(const polyval_key *k, int blocks, int first)
{
    return V_LOADU(k->pow[POLYVAL_POWERS - blocks + first]);
}

PV_INLINE vec pv_kpowers(const polyval_key *k, int blocks, int first)
{
    return V_LOADU(k->kpow[POLYVAL_POWERS - blocks + first]);
}

/* The low qword of each lane: x_lo ^ x_hi. */
PV_INLINE vec pv_khalf(vec x)
{
    return V_XOR(x, V_SWAP64(x));
}

/* s += x * h, lane by lane, hk being h's Karatsuba half (pv_khalf(h),
 * kept in the key): lo, hi and the middle's (x_lo ^ x_hi)(h_lo ^ h_hi).
 * GHASH's batches (kernels/aes/aes_x86.h) sum their products with it
 * too. */
PV_INLINE void pv_sum_mul(pv_sum *s, vec x, vec h, vec hk)
{
    s->lo = V_XOR(s->lo, V_CLMUL(x, h, 0x00));
    s->hi = V_XOR(s->hi, V_CLMUL(x, h, 0x11));
    s->mid = V_XOR(s->mid, V_CLMUL(pv_khalf(x), hk, 0x00));
}

/* s += x * H^.., lane by lane: x is the vector of a batch of `blocks`
 * blocks whose first block is `first`. */
PV_INLINE void pv_sum_add(pv_sum *s, vec x, const polyval_key *k, int blocks,
                          int first)
{
    pv_sum_mul(s, x, pv_powers(k, blocks, first),
               pv_kpowers(k, blocks, first));
}

/* s += x1 * H^.. + x2 * H^..: two consecutive vectors from `first` on,
 * folded in with three-way xors. */
PV_INLINE void pv_sum_add2(pv_sum *s, vec x1, vec x2, const polyval_key *k,
                           int blocks, int first)
{
    vec h1 = pv_powers(k, blocks, first),
        h2 = pv_powers(k, blocks, first + LANES);
    s->lo = V_XOR3(s->lo, V_CLMUL(x1, h1, 0x00), V_CLMUL(x2, h2, 0x00));
    s->hi = V_XOR3(s->hi, V_CLMUL(x1, h1, 0x11), V_CLMUL(x2, h2, 0x11));
    s->mid = V_XOR3(
        s->mid,
        V_CLMUL(pv_khalf(x1), pv_kpowers(k, blocks, first), 0x00),
        V_CLMUL(pv_khalf(x2), pv_kpowers(k, blocks, first + LANES), 0x00));
}

/* The sum of every lane's product, unreduced, the middle fixed up. */
PV_INLINE void pv_sum_fold(const pv_sum *s, __m128i *lo, __m128i *mid,
                           __m128i *hi)
{
    *lo = V_FOLD(s->lo);
    *hi = V_FOLD(s->hi);
    *mid = _mm_xor_si128(V_FOLD(s->mid), _mm_xor_si128(*lo, *hi));
}

/* The same, reduced: the hash of the batch. */
PV_INLINE __m128i pv_sum_reduce(const pv_sum *s)
{
    __m128i lo, mid, hi;
    pv_sum_fold(s, &lo, &mid, &hi);
    return gf128_reduce(lo, mid, hi);
}

/* The products of the n vectors at p, acc added to the first. The first
 * vector's products are summed last: only they wait on acc, and the rest
 * of the batch's sums need not wait in the scheduler with them. */
PV_INLINE pv_sum pv_vecs_sum(const polyval_key *k, __m128i acc,
                             const uint8_t *p, int n)
{
    pv_sum s = pv_sum_zero();
    vec x[PV_NVEC];
    PV_UNROLL
    for (int j = 0; j < n; j++)
        x[j] = V_LOADU(p + PV_VEC_BYTES * j);
    PV_UNROLL
    for (int j = 1; j + 1 < n; j += 2)
        pv_sum_add2(&s, x[j], x[j + 1], k, n * LANES, j * LANES);
    if (n % 2 == 0)
        pv_sum_add(&s, x[n - 1], k, n * LANES, (n - 1) * LANES);
    pv_sum_add(&s, V_XOR(x[0], V_ZEXT(acc)), k, n * LANES, 0);
    return s;
}

/* acc continued over the n vectors at p. */
PV_INLINE __m128i pv_vecs(const polyval_key *k, __m128i acc, const uint8_t *p,
                          int n)
{
    pv_sum s = pv_vecs_sum(k, acc, p, n);
    return pv_sum_reduce(&s);
}

/* acc continued over r < LANES blocks at p, on xmm, reduced once. */
PV_INLINE __m128i pv_blks(const polyval_key *k, __m128i acc, const uint8_t *p,
                          size_t r)
{
    __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
    for (size_t i = 0; i < r; i++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
        __m128i h = _mm_load_si128((const __m128i *)(const void *)
                                       k->pow[POLYVAL_POWERS - r + i]);
        gf128_mul_add(&lo, &mid, &hi, i == 0 ? _mm_xor_si128(x, acc) : x, h);
    }
    return r ? gf128_reduce(lo, mid, hi) : acc;
}

/* dot(a, b) lane by lane. */
PV_INLINE vec pv_mul_vec(vec a, vec b)
{
    const vec poly = V_BCAST(_mm_set_epi64x(0, GF128_POLY_QWORD));
    vec lo = V_CLMUL(a, b, 0x00), hi = V_CLMUL(a, b, 0x11),
        mid = V_XOR(V_CLMUL(a, b, 0x01), V_CLMUL(a, b, 0x10));
    return GF128_REDUCE_WITH(lo, mid, hi, poly, V_XOR, V_BSLLI, V_BSRLI,
                             V_CLMUL, V_SWAP64);
}

/* H^1 .. H^POLYVAL_POWERS into k by doubling: H^LANES .. H^1 on xmm, in
 * one vector (H^2, then H^3 and H^4 from it side by side); then, while
 * `have` powers are known, all of them at once times H^have give the next
 * `have`. AES-GCM-SIV waits on this for every nonce: a chain of two xmm
 * products and then one vector product a doubling, each lane's work done
 * in one. Then the powers' Karatsuba halves. The doubling stops once
 * `need` powers are there (polyval_init_upto); the higher ones are left
 * as they were. */
PV_INLINE void pv_init_powers(polyval_key *k, const uint8_t h[16],
                              size_t need)
{
    vec pw[POLYVAL_POWERS / LANES];
    const int last = POLYVAL_POWERS / LANES - 1;
    __m128i p[4];
    p[0] = _mm_loadu_si128((const __m128i *)(const void *)h);
    p[1] = LANES > 1 ? gf128_mul(p[0], p[0]) : p[0];
    p[2] = LANES > 2 ? gf128_mul(p[1], p[0]) : p[0];
    p[3] = LANES > 2 ? gf128_mul(p[1], p[1]) : p[0];
    /* Lane 0 the highest power: pow[] descends. */
    pw[last] = V_SET4(p[LANES - 1], p[LANES > 1 ? LANES - 2 : 0],
                      p[LANES > 2 ? 1 : 0], p[0]);
    __m128i top = p[LANES - 1];
    int known = LANES;
    PV_UNROLL
    for (int have = LANES; have < POLYVAL_POWERS; have *= 2) {
        if ((size_t)have >= need)
            break;
        vec f = V_BCAST(top);
        int first = (POLYVAL_POWERS - 2 * have) / LANES;
        PV_UNROLL
        for (int j = 0; j < have / LANES; j++)
            pw[first + j] = pv_mul_vec(pw[first + j + have / LANES], f);
        top = V_LANE(pw[first], 0);
        known = 2 * have;
    }
    PV_UNROLL
    for (int i = 0; i <= last; i++) {
        if (LANES * i < POLYVAL_POWERS - known)
            continue;
        V_STOREU(k->pow[LANES * i], pw[i]);
        V_STOREU(k->kpow[LANES * i], pv_khalf(pw[i]));
    }
}

#ifdef POLYVAL_ISA

#define PV_PASTE2(a, b) a##_##b
#define PV_PASTE(a, b) PV_PASTE2(a, b)
#define PV_FN(name) PV_PASTE(name, POLYVAL_ISA)

/* All the powers, though a row's own batches use PV_BATCH of them: CGO's
 * tweak is 32 blocks, hashed with one reduction on every row. */
void PV_FN(polyval_init)(polyval_key *k, const uint8_t h[16])
{
    pv_init_powers(k, h, POLYVAL_POWERS);
}

/* Every power through the same code as init's (the constant lets the
 * doubling's checks fold away); fewer through a copy that checks. */
void PV_FN(polyval_init_upto)(polyval_key *k, const uint8_t h[16],
                              size_t blocks)
{
    if (blocks >= POLYVAL_POWERS)
        pv_init_powers(k, h, POLYVAL_POWERS);
    else
        pv_init_powers(k, h, blocks);
}

void PV_FN(polyval_update)(const polyval_key *k, uint8_t acc[16],
                           const uint8_t *in, size_t nblocks)
{
    __m128i y = _mm_loadu_si128((const __m128i *)(const void *)acc);
    for (; nblocks >= PV_BATCH; nblocks -= PV_BATCH, in += PV_VEC_BYTES * PV_NVEC)
        y = pv_vecs(k, y, in, PV_NVEC);
#define PV_REST(n)                                                            \
    if (nblocks >= (n) * LANES) {                                             \
        y = pv_vecs(k, y, in, n);                                             \
        nblocks -= (n) * LANES;                                               \
        in += PV_VEC_BYTES * (n);                                             \
    }
    PV_REST(4)
    PV_REST(2)
    PV_REST(1)
#undef PV_REST
    y = pv_blks(k, y, in, nblocks);
    _mm_storeu_si128((__m128i *)(void *)acc, y);
}

void PV_FN(polyval_mul)(uint8_t out[16], const uint8_t x[16],
                        const uint8_t h[16])
{
    _mm_storeu_si128(
        (__m128i *)(void *)out,
        gf128_mul(_mm_loadu_si128((const __m128i *)(const void *)x),
                  _mm_loadu_si128((const __m128i *)(const void *)h)));
}

#endif

#endif
