/* ChaCha for SSSE3: the layouts of chacha_xmm.h, with pshufb doing the
 * byte-aligned rotates by 16 and 8 in one instruction each. */
#include <tmmintrin.h>

#include "chacha.h"

#define CHACHA_ISA(name) name##_ssse3
#define ROTL16(v)                                                             \
    _mm_shuffle_epi8(v, _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5,                 \
                                      10, 11, 8, 9, 14, 15, 12, 13))
#define ROTL8(v)                                                              \
    _mm_shuffle_epi8(v, _mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6,                 \
                                      11, 8, 9, 10, 15, 12, 13, 14))

/* chacha_stream_xor_ssse3 */
#include "chacha_xmm.h"
