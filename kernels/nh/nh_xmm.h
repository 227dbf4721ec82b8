/* What the vector NH files share, force-inlined so that each ISA's object
 * carries its own copy under its own symbol: adding four accumulators of
 * two 64-bit lanes each (the wider files fold theirs to two) into the four
 * sums. */
#ifndef CYCLEBENCH_NH_XMM_H
#define CYCLEBENCH_NH_XMM_H

#include <emmintrin.h>

#include "nh.h"

/* sums[p] += both lanes of sp. */
static inline __attribute__((always_inline)) void
nh_add_sums_xmm(uint64_t sums[NH_PASSES], __m128i s0, __m128i s1, __m128i s2,
                __m128i s3)
{
    __m128i s01 = _mm_add_epi64(_mm_unpacklo_epi64(s0, s1),
                                _mm_unpackhi_epi64(s0, s1));
    __m128i s23 = _mm_add_epi64(_mm_unpacklo_epi64(s2, s3),
                                _mm_unpackhi_epi64(s2, s3));
    __m128i *out = (__m128i *)sums;
    _mm_storeu_si128(out, _mm_add_epi64(_mm_loadu_si128(out), s01));
    _mm_storeu_si128(out + 1, _mm_add_epi64(_mm_loadu_si128(out + 1), s23));
}

#endif
