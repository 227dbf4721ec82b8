/* What every AES variant shares, for the files of kernels/aes/ only: the
 * functions each ISA file exports for the implementation table, FIPS-197
 * key expansion, the portable constant-time GHASH, XTS's multiply by x and
 * the byte-order helpers. aes.h is the public side (the table and the
 * modes); nothing here calls into an ISA file, so no variant depends on
 * another. */
#ifndef CYCLEBENCH_AES_INTERNAL_H
#define CYCLEBENCH_AES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "aes.h"
#include "../block16.h"

/* The loads, stores and block helpers below read and write x86-64's
 * (little-endian) byte order directly. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "kernels/aes assumes a little-endian host");

#define AES_INTERNAL_INLINE static inline __attribute__((always_inline))

/* The table row functions of each ISA file: aes_ctr_<isa> and so on; and
 * the GHASH of those with one of their own. */
#define AES_DECLARE_ISA(isa)                                                  \
    aes_expand_fn aes_expand_##isa;                                           \
    aes_blocks_fn aes_encrypt_##isa, aes_decrypt_##isa;                       \
    aes_chain_fn aes_ctr_##isa, aes_cbc_decrypt_##isa, aes_xts_encrypt_##isa, \
        aes_xts_decrypt_##isa;                                                \
    aes_cbc_encrypt_fn aes_cbc_encrypt_##isa;                                 \
    aes_gcm_fn aes_gcm_encrypt_##isa, aes_gcm_decrypt_##isa;                  \
    aes_xctr_fn aes_xctr_##isa
#define AES_DECLARE_XCTR_POLYVAL(isa)                                         \
    aes_xctr_polyval_fn aes_xctr_polyval_##isa
#define AES_DECLARE_GHASH(isa)                                                \
    ghash_init_fn ghash_init_##isa;                                           \
    ghash_update_fn ghash_update_##isa

AES_DECLARE_ISA(generic);
#if defined(__x86_64__)
AES_DECLARE_ISA(ssse3);
AES_DECLARE_ISA(aesni);
AES_DECLARE_ISA(vaes_avx2);
AES_DECLARE_ISA(vaes_avx512);
AES_DECLARE_XCTR_POLYVAL(aesni);
AES_DECLARE_XCTR_POLYVAL(vaes_avx2);
AES_DECLARE_XCTR_POLYVAL(vaes_avx512);
AES_DECLARE_GHASH(aesni);
AES_DECLARE_GHASH(vaes_avx2);
AES_DECLARE_GHASH(vaes_avx512);
#elif defined(__aarch64__)
AES_DECLARE_ISA(ce);
AES_DECLARE_XCTR_POLYVAL(ce);
AES_DECLARE_GHASH(ce);
AES_DECLARE_ISA(neon);
#endif

/* Calls CALL(nr) with the key's round count as a constant, so that an ISA
 * function compiled once per key size has its round loops unrolled fully
 * and each state vector kept in its register (aes_x86.h; aes_ssse3.c keeps
 * its rounds a loop of known length, its last round's tables constant).
 * Compact code (../unroll.h) compiles the one body, nr the key's. */
#ifdef CB_COMPACT_CODE
#define AES_BY_ROUNDS(k, CALL)                                                \
    do {                                                                      \
        CALL((int)(k)->rounds);                                               \
    } while (0)
#else
#define AES_BY_ROUNDS(k, CALL)                                                \
    do {                                                                      \
        switch ((k)->rounds) {                                                \
        case 10: CALL(10); break;                                             \
        case 12: CALL(12); break;                                             \
        default: CALL(14); break;                                             \
        }                                                                     \
    } while (0)
#endif

/* The table row of an ISA (aes.c's table; the tests' emulated row): its
 * functions, the GHASH it uses (its own, or the portable one), and its
 * XCTR with POLYVAL where it has one (or NULL). */
#define AES_ROW(name, isa, ghash, xctr_polyval, required)                     \
    {                                                                         \
        { name, required }, aes_expand_##isa, aes_encrypt_##isa,              \
            aes_decrypt_##isa, aes_ctr_##isa, aes_cbc_decrypt_##isa,          \
            aes_xts_encrypt_##isa, aes_xts_decrypt_##isa,                     \
            aes_cbc_encrypt_##isa, ghash_init_##ghash, ghash_update_##ghash,  \
            aes_gcm_encrypt_##isa, aes_gcm_decrypt_##isa, aes_xctr_##isa,     \
            xctr_polyval                                                      \
    }

/* FIPS-197 key expansion into k->enc and k->rounds, shared by every ISA,
 * each bringing its own SubWord (on a column, row 0 in the low byte) and
 * deriving k->dec its own way. It branches and indexes on the round only,
 * so it is constant-time when sub_word is. */
typedef uint32_t aes_sub_word_fn(uint32_t w);
void aes_expand_enc(aes_key *k, const uint8_t *key, size_t key_len,
                    aes_sub_word_fn *sub_word);

/* The portable GHASH, constant-time (aes_internal.c says how): the
 * generic row's, and that of any row without a carry-less multiply, which
 * names it in the table (aes.c). In a profile it shows as
 * ghash_update_generic whichever row called it. */
AES_DECLARE_GHASH(generic);

/* Byte order */

AES_INTERNAL_INLINE uint32_t aes_load32_le(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

AES_INTERNAL_INLINE void aes_store32_le(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

AES_INTERNAL_INLINE uint64_t aes_load64_le(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

AES_INTERNAL_INLINE void aes_store64_le(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

AES_INTERNAL_INLINE uint32_t aes_load32_be(const uint8_t *p)
{
    return __builtin_bswap32(aes_load32_le(p));
}

AES_INTERNAL_INLINE void aes_store32_be(uint8_t *p, uint32_t v)
{
    aes_store32_le(p, __builtin_bswap32(v));
}

AES_INTERNAL_INLINE uint64_t aes_load64_be(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

AES_INTERNAL_INLINE void aes_store64_be(uint8_t *p, uint64_t v)
{
    v = __builtin_bswap64(v);
    memcpy(p, &v, 8);
}

AES_INTERNAL_INLINE void aes_xor_bytes(uint8_t *out, const uint8_t *a,
                                       const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = a[i] ^ b[i];
}

/* out = t times x in GF(2^128), the tweak little-endian (IEEE 1619 5.2):
 * a shift left by one with x^128 = x^7 + x^2 + x + 1 (0x87) folded back.
 * out may equal t. */
AES_INTERNAL_INLINE void aes_xts_mulx(uint8_t out[16], const uint8_t t[16])
{
    block16 v = block16_load(t);
    uint64_t lo = v[0], hi = v[1];
    block16 r = { lo << 1 ^ (0x87 & -(hi >> 63)), hi << 1 | lo >> 63 };
    block16_store(out, r);
}

/* GCM's inc32: the last four bytes as a big-endian counter, wrapping. */
AES_INTERNAL_INLINE void aes_gcm_inc32(uint8_t ctr[16])
{
    aes_store32_be(ctr + 12, aes_load32_be(ctr + 12) + 1);
}

#endif
