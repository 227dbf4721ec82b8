#include <immintrin.h>

#include "memcpy.h"

void memcpy_copy_avx512(uint8_t *dst, const uint8_t *src, size_t len)
{
    size_t i = 0;
    for (; i + 256 <= len; i += 256) {
        __m512i a = _mm512_loadu_si512(src + i);
        __m512i b = _mm512_loadu_si512(src + i + 64);
        __m512i c = _mm512_loadu_si512(src + i + 128);
        __m512i d = _mm512_loadu_si512(src + i + 192);
        _mm512_storeu_si512(dst + i, a);
        _mm512_storeu_si512(dst + i + 64, b);
        _mm512_storeu_si512(dst + i + 128, c);
        _mm512_storeu_si512(dst + i + 192, d);
    }
    for (; i + 64 <= len; i += 64)
        _mm512_storeu_si512(dst + i, _mm512_loadu_si512(src + i));
    /* AVX-512BW byte masks finish the tail without a scalar loop. */
    if (i < len) {
        __mmask64 m = (1ULL << (len - i)) - 1; /* len - i < 64 */
        _mm512_mask_storeu_epi8(dst + i, m, _mm512_maskz_loadu_epi8(m, src + i));
    }
}
