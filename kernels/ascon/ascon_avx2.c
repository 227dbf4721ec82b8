/* Ascon-AEAD128 on four messages at once with AVX2, one state per 64-bit
 * element of a ymm register (ascon_lanes.h has the sponge): a rotation is
 * two shifts and an OR, the S-box's a ^ (~b & c) an ANDN and an XOR. */
#include <immintrin.h>

#include "ascon.h"

#define AL_V __m256i
#define AL_N 4
#define AL_NAME(f) f##_x4_avx2
#define AL_ROR(a, n)                                                         \
    _mm256_or_si256(_mm256_srli_epi64(a, n), _mm256_slli_epi64(a, 64 - (n)))
#define AL_XOR(a, b) _mm256_xor_si256(a, b)
#define AL_XOR3(a, b, c) AL_XOR(AL_XOR(a, b), c)
#define AL_AND(a, b) _mm256_and_si256(a, b)
#define AL_CHI(a, b, c) AL_XOR(a, _mm256_andnot_si256(b, c))
#define AL_LIN(a, m, n) AL_XOR3(a, AL_ROR(a, m), AL_ROR(a, n))
#define AL_SET1(w) _mm256_set1_epi64x((long long)(w))
#define AL_LOAD(u) _mm256_loadu_si256((const __m256i *)(const void *)(u))
#define AL_STORE(u, a) _mm256_storeu_si256((__m256i *)(void *)(u), a)
#include "ascon_lanes.h"

void ascon_aead128_encrypt_x4_avx2(const ascon_batch *b, size_t first)
{
    ascon_lanes_encrypt_x4_avx2(b, first);
}

void ascon_aead128_decrypt_x4_avx2(const ascon_batch *b, size_t first)
{
    ascon_lanes_decrypt_x4_avx2(b, first);
}
