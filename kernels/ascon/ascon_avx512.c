/* Ascon-AEAD128 on eight messages at once with AVX-512, one state per
 * 64-bit element of a zmm register (ascon_lanes.h has the sponge): the
 * S-box's a ^ (~b & c) and every three-input XOR one vpternlogq, the
 * linear layer's two rotations of a word two vprorq. */
#include <immintrin.h>

#include "ascon.h"

#define AL_V __m512i
#define AL_N 8
#define AL_NAME(f) f##_x8_avx512
#define AL_XOR(a, b) _mm512_xor_si512(a, b)
#define AL_XOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#define AL_AND(a, b) _mm512_and_si512(a, b)
#define AL_CHI(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0xd2)
#define AL_LIN(a, m, n)                                                      \
    AL_XOR3(a, _mm512_ror_epi64(a, m), _mm512_ror_epi64(a, n))
#define AL_SET1(w) _mm512_set1_epi64((long long)(w))
#define AL_LOAD(u) _mm512_loadu_si512((const void *)(u))
#define AL_STORE(u, a) _mm512_storeu_si512((void *)(u), a)
#include "ascon_lanes.h"

void ascon_aead128_encrypt_x8_avx512(const ascon_batch *b, size_t first)
{
    ascon_lanes_encrypt_x8_avx512(b, first);
}

void ascon_aead128_decrypt_x8_avx512(const ascon_batch *b, size_t first)
{
    ascon_lanes_decrypt_x8_avx512(b, first);
}
