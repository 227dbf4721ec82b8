/* The constant-time AES round on SSSE3 (vector permute, after Hamburg,
 * CHES 2009), for the ssse3 AES row (aes_ssse3.c) and for other primitives
 * built on AES rounds (AEGIS). Include it only from a file compiled with
 * -mssse3. Every function is force-inlined and named *_ssse3, so a profile
 * shows it inside its caller.
 *
 * aes_ssse3_tables.py derives the constants and explains the technique:
 * bytes are taken into a tower field where GF(2^8) inversion needs only
 * nibble inverses and sums, each a PSHUFB of a constant register indexed
 * by a nibble. No memory is indexed by secret data and nothing branches on
 * it, so the time does not depend on the key or the data. */
#ifndef CYCLEBENCH_AES_ROUND_SSSE3_H
#define CYCLEBENCH_AES_ROUND_SSSE3_H

#include <tmmintrin.h>

#include "aes_ssse3_tables.h"

#define AES_SSSE3_INLINE static inline __attribute__((always_inline))

/* A 16-byte constant of aes_ssse3_t, e.g. AES_SSSE3_T(inv). */
#define AES_SSSE3_T(field)                                                    \
    _mm_load_si128((const __m128i *)(const void *)aes_ssse3_t.field)

AES_SSSE3_INLINE __m128i aes_lookup_ssse3(__m128i table, __m128i index)
{
    return _mm_shuffle_epi8(table, index);
}

/* A GF(2)-linear map of each byte of x, as its two nibble tables. */
AES_SSSE3_INLINE __m128i aes_linear_ssse3(__m128i lo_table, __m128i hi_table,
                                          __m128i x)
{
    const __m128i nibble = _mm_set1_epi8(0x0f);
    __m128i lo = _mm_and_si128(x, nibble),
            hi = _mm_and_si128(_mm_srli_epi32(x, 4), nibble);
    return _mm_xor_si128(aes_lookup_ssse3(lo_table, lo),
                         aes_lookup_ssse3(hi_table, hi));
}

/* The inverse of each byte of w (in the tower basis) as two nibbles, io and
 * jo, from which one xored pair of tables gives any linear map of it. */
typedef struct aes_inverse_ssse3 {
    __m128i io, jo;
} aes_inverse_ssse3;

AES_SSSE3_INLINE aes_inverse_ssse3 aes_invert_ssse3(__m128i w)
{
    const __m128i nibble = _mm_set1_epi8(0x0f), inv = AES_SSSE3_T(inv);
    __m128i k = _mm_and_si128(w, nibble),
            i = _mm_and_si128(_mm_srli_epi32(w, 4), nibble);
    /* Opaque to the compiler, so that j is one xor of the two nibbles:
     * GCC otherwise rewrites it as (w ^ w >> 4) & 0x0f, an op more per
     * round on the vector ports this code is bound by. */
    __asm__("" : "+x"(k), "+x"(i));
    __m128i a_over_k = aes_lookup_ssse3(AES_SSSE3_T(a_over), k);
    __m128i j = _mm_xor_si128(i, k);
    __m128i iak = _mm_xor_si128(aes_lookup_ssse3(inv, i), a_over_k);
    __m128i jak = _mm_xor_si128(aes_lookup_ssse3(inv, j), a_over_k);
    return (aes_inverse_ssse3){
        _mm_xor_si128(aes_lookup_ssse3(inv, iak), j),
        _mm_xor_si128(aes_lookup_ssse3(inv, jak), i),
    };
}

/* A linear map of the inverse: the tables t_io and t_jo, xored. */
AES_SSSE3_INLINE __m128i aes_from_inverse_ssse3(__m128i t_io, __m128i t_jo,
                                                aes_inverse_ssse3 v)
{
    return _mm_xor_si128(aes_lookup_ssse3(t_io, v.io),
                         aes_lookup_ssse3(t_jo, v.jo));
}

/* SubBytes of each byte, in the standard basis. */
AES_SSSE3_INLINE __m128i aes_sub_bytes_ssse3(__m128i x)
{
    aes_inverse_ssse3 v = aes_invert_ssse3(
        aes_linear_ssse3(AES_SSSE3_T(enc_in_lo), AES_SSSE3_T(enc_in_hi), x));
    return _mm_xor_si128(aes_from_inverse_ssse3(AES_SSSE3_T(sub_io),
                                                AES_SSSE3_T(sub_jo), v),
                         _mm_set1_epi8(0x63));
}

/* MixColumns given a (each byte's S-box value or any linear image of it)
 * and twice it, and the two rotations within columns (rot1: row r from row
 * r + 1; rot3: from row r + 3) as the bytes are placed:
 * 2a + 3b + c + d, where b, c, d are a rotated by 1, 2, 3 rows. */
AES_SSSE3_INLINE __m128i aes_mix_columns_ssse3(__m128i a, __m128i a2,
                                               __m128i rot1, __m128i rot3)
{
    __m128i x = _mm_xor_si128(a2, _mm_shuffle_epi8(a, rot1)); /* 2a + b */
    __m128i y = _mm_xor_si128(x, _mm_shuffle_epi8(a, rot3));  /* + d */
    return _mm_xor_si128(_mm_shuffle_epi8(x, rot1), y);        /* + 2b + c */
}

/* One AES encryption round, as AESENC computes it: ShiftRows, SubBytes,
 * MixColumns, then the round key added. State and key in the standard
 * basis and byte order. The ssse3 row's own rounds keep the state in the
 * tower basis and skip ShiftRows instead (aes_ssse3.c), which saves three
 * of the fifteen shuffles here. */
AES_SSSE3_INLINE __m128i aes_round_ssse3(__m128i state, __m128i round_key)
{
    __m128i x = _mm_shuffle_epi8(state, AES_SSSE3_T(shift_rows));
    aes_inverse_ssse3 v = aes_invert_ssse3(
        aes_linear_ssse3(AES_SSSE3_T(enc_in_lo), AES_SSSE3_T(enc_in_hi), x));
    __m128i s = aes_from_inverse_ssse3(AES_SSSE3_T(sub_io),
                                       AES_SSSE3_T(sub_jo), v);
    __m128i s2 = aes_from_inverse_ssse3(AES_SSSE3_T(sub2_io),
                                        AES_SSSE3_T(sub2_jo), v);
    /* s is SubBytes less 0x63, whose MixColumns is 0x63 again. */
    return _mm_xor_si128(
        aes_mix_columns_ssse3(s, s2, AES_SSSE3_T(rot1), AES_SSSE3_T(rot3)),
        _mm_xor_si128(round_key, _mm_set1_epi8(0x63)));
}

#endif
