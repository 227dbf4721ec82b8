/* POLYVAL (RFC 8452, section 3) per ISA: the GF(2^128) hash of AES-GCM-SIV,
 * of HCTR2 and of Tor's Counter Galois Onion.
 *
 * The field is GF(2)[x] / (x^128 + x^127 + x^126 + x^121 + 1); a 16-byte
 * block is an element little-endian (bit i of the 128-bit little-endian
 * integer is the coefficient of x^i), and dot(a, b) = a * b * x^-128. With
 * key H and blocks X_1..X_s, S_0 = 0, S_j = dot(S_{j-1} ^ X_j, H), and the
 * hash is S_s.
 *
 * How to use it (HCTR2, CGO, the `polyval` kernel):
 *
 *     const polyval_impl *pv = polyval_best();       (or a row of the table)
 *     polyval_key key;
 *     uint8_t acc[16] = { 0 };                       S_0
 *     pv->init(&key, h);                             once per key
 *     pv->update(&key, acc, blocks, nblocks);        any number of times
 *     polyval_finish(pv, &key, acc, tail, tail_len); a last partial block,
 *                                                    zero-padded; acc is now
 *                                                    the hash
 *
 * update takes whole blocks and carries acc from call to call, so a caller
 * may hash a fixed prefix once and continue from a copy of acc; acc is S_j
 * exactly (reduced, in the RFC's byte order) between calls. A key belongs
 * to the row that set it up: pass it only to that row's functions.
 *
 * Every row is constant-time: no table index and no branch depends on the
 * key or the data. generic is BearSSL's integer-multiply carry-less multiply
 * (kernels/gf128/clmul_generic.h), one block at a time. The x86 rows use
 * PCLMULQDQ (pclmul, xmm) or VPCLMULQDQ (vpclmul-avx2 on ymm, vpclmul-avx512
 * on zmm) on batches of 8 vectors, each batch's products summed unreduced
 * against the powers of H that init precomputed and reduced once: 8 blocks
 * a reduction on pclmul, 16 on vpclmul-avx2, 32 on vpclmul-avx512. The
 * aarch64 row ce uses PMULL the same way, 8 blocks a reduction. */
#ifndef CYCLEBENCH_POLYVAL_H
#define CYCLEBENCH_POLYVAL_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu.h"

#define POLYVAL_BLOCK_BYTES 16
#define POLYVAL_KEY_BYTES 16
/* Powers of H a key holds: one per block of the widest batch. */
#define POLYVAL_POWERS 32

/* pow[i] = H^(POLYVAL_POWERS - i), where H^k is H dotted with itself k
 * times: descending, so that the powers for the last n blocks of a batch
 * are pow[POLYVAL_POWERS - n ...] in block order, and pow[POLYVAL_POWERS -
 * 1] is H. The x86 and ce rows' init fills all of them (their own
 * batches use 8, 16 or 32; CGO hashes its 32-block tweak with one
 * reduction on every row), the x86 rows' init_upto the lowest it is asked
 * for; generic only H, the rest left as they were. The x86 rows also
 * fill kpow[i], pow[i] with each qword xored with the other (Karatsuba's
 * half of each power). */
typedef struct polyval_key {
    _Alignas(64) uint8_t pow[POLYVAL_POWERS][POLYVAL_BLOCK_BYTES];
    _Alignas(64) uint8_t kpow[POLYVAL_POWERS][POLYVAL_BLOCK_BYTES];
} polyval_key;

/* The key for hash key h. */
typedef void polyval_init_fn(polyval_key *k, const uint8_t h[16]);
/* The same, holding only the powers H^1 .. H^blocks (all of them from
 * POLYVAL_POWERS on): enough for updates of at most `blocks` blocks each,
 * whose batches are no longer than the blocks they hash. For a key used
 * once, on a short message (AES-GCM-SIV's per-nonce key). */
typedef void polyval_init_upto_fn(polyval_key *k, const uint8_t h[16],
                                  size_t blocks);
/* acc = POLYVAL continued over nblocks whole blocks at in (any alignment;
 * nblocks may be 0). */
typedef void polyval_update_fn(const polyval_key *k, uint8_t acc[16],
                               const uint8_t *in, size_t nblocks);
/* out = dot(x, h): the POLYVAL of the one block x under key h, with no key
 * set up (a PRF over single blocks, as CGO's, needs no powers). out may
 * equal x or h. */
typedef void polyval_mul_fn(uint8_t out[16], const uint8_t x[16],
                            const uint8_t h[16]);

typedef struct polyval_impl {
    isa_variant v;
    polyval_init_fn *init;
    polyval_update_fn *update;
    polyval_mul_fn *mul;
    /* NULL: polyval_init_upto calls init (generic, which makes H alone,
     * and ce, which makes every power). */
    polyval_init_upto_fn *init_upto;
} polyval_impl;

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const polyval_impl polyval_impls[];

#define POLYVAL_DECLARE_ISA(isa)                                              \
    polyval_init_fn polyval_init_##isa;                                       \
    polyval_update_fn polyval_update_##isa;                                   \
    polyval_mul_fn polyval_mul_##isa

POLYVAL_DECLARE_ISA(generic);
#if defined(__x86_64__)
POLYVAL_DECLARE_ISA(pclmul);
POLYVAL_DECLARE_ISA(vpclmul_avx2);
POLYVAL_DECLARE_ISA(vpclmul_avx512);
polyval_init_upto_fn polyval_init_upto_pclmul, polyval_init_upto_vpclmul_avx2,
    polyval_init_upto_vpclmul_avx512;
#elif defined(__aarch64__)
POLYVAL_DECLARE_ISA(ce);
#endif

/* impl's key for h, for updates of at most `blocks` blocks each. */
void polyval_init_upto(const polyval_impl *impl, polyval_key *k,
                       const uint8_t h[16], size_t blocks);
/* Zeroes every power polyval_init_upto(impl, k, h, blocks) may have
 * written, and no other: a key made per message (AES-GCM-SIV's) is wiped
 * in the time its few powers took, not the whole key's. */
void polyval_wipe_upto(const polyval_impl *impl, polyval_key *k,
                       size_t blocks);

/* The row named isa ("pclmul"), or NULL; the first row this CPU supports. */
const polyval_impl *polyval_find(const char *isa);
const polyval_impl *polyval_best(void);

/* Absorbs the last len bytes (0 <= len < 16 is a partial block, zero-padded;
 * 0 does nothing) into acc, which is then the hash. */
void polyval_finish(const polyval_impl *impl, const polyval_key *k,
                    uint8_t acc[16], const uint8_t *tail, size_t len);

/* tag = POLYVAL under key h of msg zero-padded to whole blocks; tag may
 * overlap msg. */
void polyval_hash(const polyval_impl *impl, uint8_t tag[16],
                  const uint8_t h[16], const uint8_t *msg, size_t len);

#endif
