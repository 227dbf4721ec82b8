/* POLYVAL with VPCLMULQDQ on zmm: four blocks per register, thirty-two a batch. The
 * code is polyval_x86.h's; this file picks the vector width. */
#include "../simd/lanes_zmm.h"

#define POLYVAL_ISA vpclmul_avx512
#include "polyval_x86.h"
