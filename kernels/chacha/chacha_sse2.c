/* ChaCha for SSE2: the layouts of chacha_xmm.h. SSE2 has no byte shuffle:
 * rotates are shift/shift/or, except by 16, which swaps 16-bit halves in two
 * word shuffles. */
#include <emmintrin.h>

#include "chacha.h"

#define CHACHA_ISA(name) name##_sse2
#define ROTL16(v) _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xb1), 0xb1)
#define ROTL8(v) _mm_or_si128(_mm_slli_epi32(v, 8), _mm_srli_epi32(v, 24))

/* chacha_stream_xor_sse2 */
#include "chacha_xmm.h"
