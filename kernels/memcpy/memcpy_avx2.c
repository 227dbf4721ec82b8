#include <immintrin.h>
#include <string.h>

#include "memcpy.h"

void memcpy_copy_avx2(uint8_t *dst, const uint8_t *src, size_t len)
{
    size_t i = 0;
    for (; i + 128 <= len; i += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(src + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(src + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(src + i + 64));
        __m256i d = _mm256_loadu_si256((const __m256i *)(src + i + 96));
        _mm256_storeu_si256((__m256i *)(dst + i), a);
        _mm256_storeu_si256((__m256i *)(dst + i + 32), b);
        _mm256_storeu_si256((__m256i *)(dst + i + 64), c);
        _mm256_storeu_si256((__m256i *)(dst + i + 96), d);
    }
    for (; i + 32 <= len; i += 32)
        _mm256_storeu_si256((__m256i *)(dst + i),
                            _mm256_loadu_si256((const __m256i *)(src + i)));
    /* The sub-vector tail is a byte loop, not a libc call, so that this
     * variant's profile contains only its own code. */
    for (; i < len; i++)
        dst[i] = src[i];
}
