/* The constant-time AES round on NEON (vector permute, after Hamburg,
 * CHES 2009), for the neon AES row (aes_neon.c) and for other primitives
 * built on AES rounds (AEGIS). The aarch64 twin of aes_round_ssse3.h: the
 * same technique and the same constants (aes_ssse3_tables.h, plain bytes
 * that aes_ssse3_tables.py derives), TBL in place of PSHUFB. Include it
 * only from a file compiled for aarch64. Every function is force-inlined
 * and named *_neon, so a profile shows it inside its caller.
 *
 * TBL gives 0 for an index of 16 or more, PSHUFB for one with its top bit
 * set; the technique's indices are nibbles or "1/0" (0x80) plus a nibble,
 * on which the two agree (aes_ssse3_tables.py checks every index it
 * models). No memory is indexed by secret data (TBL's table and index are
 * registers) and nothing branches on it, so the time does not depend on
 * the key or the data. */
#ifndef CYCLEBENCH_AES_ROUND_NEON_H
#define CYCLEBENCH_AES_ROUND_NEON_H

#include <arm_neon.h>

#include "aes_ssse3_tables.h"

#define AES_NEON_INLINE static inline __attribute__((always_inline))

/* A 16-byte constant of aes_ssse3_t, e.g. AES_NEON_T(inv). */
#define AES_NEON_T(field) vld1q_u8(aes_ssse3_t.field)

AES_NEON_INLINE uint8x16_t aes_lookup_neon(uint8x16_t table, uint8x16_t index)
{
    return vqtbl1q_u8(table, index);
}

/* A GF(2)-linear map of each byte of x, as its two nibble tables. A byte
 * shift leaves the high nibble alone, so it needs no mask. */
AES_NEON_INLINE uint8x16_t aes_linear_neon(uint8x16_t lo_table,
                                           uint8x16_t hi_table, uint8x16_t x)
{
    uint8x16_t lo = vandq_u8(x, vdupq_n_u8(0x0f)), hi = vshrq_n_u8(x, 4);
    return veorq_u8(aes_lookup_neon(lo_table, lo),
                    aes_lookup_neon(hi_table, hi));
}

/* The inverse of each byte of w (in the tower basis) as two nibbles, io and
 * jo, from which one xored pair of tables gives any linear map of it. */
typedef struct aes_inverse_neon {
    uint8x16_t io, jo;
} aes_inverse_neon;

AES_NEON_INLINE aes_inverse_neon aes_invert_neon(uint8x16_t w)
{
    const uint8x16_t inv = AES_NEON_T(inv);
    uint8x16_t k = vandq_u8(w, vdupq_n_u8(0x0f)), i = vshrq_n_u8(w, 4);
    uint8x16_t a_over_k = aes_lookup_neon(AES_NEON_T(a_over), k);
    uint8x16_t j = veorq_u8(i, k);
    uint8x16_t iak = veorq_u8(aes_lookup_neon(inv, i), a_over_k);
    uint8x16_t jak = veorq_u8(aes_lookup_neon(inv, j), a_over_k);
    return (aes_inverse_neon){
        veorq_u8(aes_lookup_neon(inv, iak), j),
        veorq_u8(aes_lookup_neon(inv, jak), i),
    };
}

/* A linear map of the inverse: the tables t_io and t_jo, xored. */
AES_NEON_INLINE uint8x16_t aes_from_inverse_neon(uint8x16_t t_io,
                                                 uint8x16_t t_jo,
                                                 aes_inverse_neon v)
{
    return veorq_u8(aes_lookup_neon(t_io, v.io), aes_lookup_neon(t_jo, v.jo));
}

/* SubBytes of each byte, in the standard basis. */
AES_NEON_INLINE uint8x16_t aes_sub_bytes_neon(uint8x16_t x)
{
    aes_inverse_neon v = aes_invert_neon(
        aes_linear_neon(AES_NEON_T(enc_in_lo), AES_NEON_T(enc_in_hi), x));
    return veorq_u8(aes_from_inverse_neon(AES_NEON_T(sub_io),
                                          AES_NEON_T(sub_jo), v),
                    vdupq_n_u8(0x63));
}

/* MixColumns given a (each byte's S-box value or any linear image of it)
 * and twice it, and the two rotations within columns (rot1: row r from row
 * r + 1; rot3: from row r + 3) as the bytes are placed:
 * 2a + 3b + c + d, where b, c, d are a rotated by 1, 2, 3 rows. */
AES_NEON_INLINE uint8x16_t aes_mix_columns_neon(uint8x16_t a, uint8x16_t a2,
                                                uint8x16_t rot1,
                                                uint8x16_t rot3)
{
    uint8x16_t x = veorq_u8(a2, aes_lookup_neon(a, rot1)); /* 2a + b */
    uint8x16_t y = veorq_u8(x, aes_lookup_neon(a, rot3));  /* + d */
    return veorq_u8(aes_lookup_neon(x, rot1), y);           /* + 2b + c */
}

/* One AES encryption round, as AESENC computes it (SubBytes, ShiftRows,
 * MixColumns, then the round key added; on aarch64 that is AESE with a
 * zero key, AESMC, then the key). State and key in the standard basis and
 * byte order. The neon row's own rounds keep the state in the tower basis
 * and skip ShiftRows instead (aes_neon.c). */
AES_NEON_INLINE uint8x16_t aes_round_neon(uint8x16_t state,
                                          uint8x16_t round_key)
{
    uint8x16_t x = aes_lookup_neon(state, AES_NEON_T(shift_rows));
    aes_inverse_neon v = aes_invert_neon(
        aes_linear_neon(AES_NEON_T(enc_in_lo), AES_NEON_T(enc_in_hi), x));
    uint8x16_t s = aes_from_inverse_neon(AES_NEON_T(sub_io),
                                         AES_NEON_T(sub_jo), v);
    uint8x16_t s2 = aes_from_inverse_neon(AES_NEON_T(sub2_io),
                                          AES_NEON_T(sub2_jo), v);
    /* s is SubBytes less 0x63, whose MixColumns is 0x63 again. */
    return veorq_u8(
        aes_mix_columns_neon(s, s2, AES_NEON_T(rot1), AES_NEON_T(rot3)),
        veorq_u8(round_key, vdupq_n_u8(0x63)));
}

#endif
