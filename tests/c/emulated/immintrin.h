/* Plain-C stand-ins for the AVX-512 intrinsics that
 * kernels/poly1305/poly1305_avx512.c uses, so that its logic can run on a
 * CPU without AVX-512 (tests/cli/poly1305_avx512_emulated_test.sh compiles it
 * with this directory first on the include path). Semantics as in Intel's
 * intrinsics guide; loads that must be aligned trap when they are not. */
#ifndef CYCLEBENCH_EMULATED_IMMINTRIN_H
#define CYCLEBENCH_EMULATED_IMMINTRIN_H

#include <stdint.h>
#include <string.h>
#include <x86gprintrin.h> /* _addcarry_u64, as the real header provides */

typedef struct {
    _Alignas(64) uint64_t q[8];
} __m512i;

#define EMU static inline

EMU __m512i _mm512_add_epi64(__m512i a, __m512i b)
{
    for (int i = 0; i < 8; i++)
        a.q[i] += b.q[i];
    return a;
}

/* The low 32 bits of each lane, multiplied to 64. */
EMU __m512i _mm512_mul_epu32(__m512i a, __m512i b)
{
    for (int i = 0; i < 8; i++)
        a.q[i] = (uint64_t)(uint32_t)a.q[i] * (uint32_t)b.q[i];
    return a;
}

EMU __m512i _mm512_and_si512(__m512i a, __m512i b)
{
    for (int i = 0; i < 8; i++)
        a.q[i] &= b.q[i];
    return a;
}

EMU __m512i _mm512_or_si512(__m512i a, __m512i b)
{
    for (int i = 0; i < 8; i++)
        a.q[i] |= b.q[i];
    return a;
}

EMU __m512i _mm512_srli_epi64(__m512i a, unsigned n)
{
    for (int i = 0; i < 8; i++)
        a.q[i] = n > 63 ? 0 : a.q[i] >> n;
    return a;
}

EMU __m512i _mm512_slli_epi64(__m512i a, unsigned n)
{
    for (int i = 0; i < 8; i++)
        a.q[i] = n > 63 ? 0 : a.q[i] << n;
    return a;
}

EMU __m512i _mm512_set1_epi64(long long x)
{
    __m512i a;
    for (int i = 0; i < 8; i++)
        a.q[i] = (uint64_t)x;
    return a;
}

EMU __m512i _mm512_maskz_set1_epi64(uint8_t k, long long x)
{
    __m512i a;
    for (int i = 0; i < 8; i++)
        a.q[i] = (k >> i & 1) ? (uint64_t)x : 0;
    return a;
}

EMU __m512i _mm512_load_si512(const void *p)
{
    __m512i a;
    if ((uintptr_t)p % 64 != 0)
        __builtin_trap();
    memcpy(a.q, p, 64);
    return a;
}

EMU __m512i _mm512_loadu_si512(const void *p)
{
    __m512i a;
    memcpy(a.q, p, 64);
    return a;
}

/* Within each 128-bit lane L: the low (or high) quadwords of a and b. */
EMU __m512i _mm512_unpacklo_epi64(__m512i a, __m512i b)
{
    __m512i r;
    for (int l = 0; l < 4; l++) {
        r.q[2 * l] = a.q[2 * l];
        r.q[2 * l + 1] = b.q[2 * l];
    }
    return r;
}

EMU __m512i _mm512_unpackhi_epi64(__m512i a, __m512i b)
{
    __m512i r;
    for (int l = 0; l < 4; l++) {
        r.q[2 * l] = a.q[2 * l + 1];
        r.q[2 * l + 1] = b.q[2 * l + 1];
    }
    return r;
}

EMU long long _mm512_reduce_add_epi64(__m512i a)
{
    uint64_t s = 0;
    for (int i = 0; i < 8; i++)
        s += a.q[i];
    return (long long)s;
}

/* No register state to clear here. */
EMU void _mm256_zeroupper(void)
{
}

#undef EMU
#endif
