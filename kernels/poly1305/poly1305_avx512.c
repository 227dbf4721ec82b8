/* Poly1305, eight blocks at a time in the 64-bit lanes of zmm registers:
 * the avx2 file's loop (poly1305_vector.h) one width up, with the scalar
 * core for tails and the avx2 variant for short calls (below). With 32
 * vector registers GCC's loop does not spill, so unlike the avx2 file's it
 * is all C. The tests also run this file on CPUs without AVX-512, against
 * stand-in intrinsics (tests/c/emulated/emulated.h). */
#include <immintrin.h>

#include "poly1305.h"
#include "poly1305_scalar.h"

#define LANES 8
#define VEC __m512i
#define V_ADD _mm512_add_epi64
#define V_MUL _mm512_mul_epu32
#define V_AND _mm512_and_si512
#define V_OR _mm512_or_si512
#define V_SRL _mm512_srli_epi64
#define V_SLL _mm512_slli_epi64
#define V_SET1(x) _mm512_set1_epi64((long long)(x))
#define V_LOAD(p) _mm512_load_si512((const void *)(p))
#define V_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define V_UNPACKLO _mm512_unpacklo_epi64
#define V_UNPACKHI _mm512_unpackhi_epi64
#define V_LANE0(x) _mm512_maskz_set1_epi64(1, (long long)(x))
#define V_HSUM(v) ((uint64_t)_mm512_reduce_add_epi64(v))
#define V_ZEROUPPER _mm256_zeroupper

/* Calls shorter than this go to poly1305_blocks_avx2 (the avx2 object's
 * scalar core below POLY1305_SCALAR_BELOW, its four lanes of ymm above),
 * so a profile of this variant on such messages shows avx2 symbols; this
 * object's own scalar core, which GCC allocates differently under these
 * flags, was slower on short messages. Eight lanes need twice the powers
 * of r per key and leave up to seven blocks to the scalar tail, so they
 * pay only from a measured crossover (docs/kernels.md, "The code's choices",
 * Poly1305 thresholds). */
#define VECTOR_NARROW_BLOCKS poly1305_blocks_avx2
#define VECTOR_NARROW_BELOW 768

#define POLY1305_ISA avx512
#include "poly1305_vector.h"
