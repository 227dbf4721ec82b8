/* POLYVAL with VPCLMULQDQ on ymm: two blocks per register, sixteen a batch. The
 * code is polyval_x86.h's; this file picks the vector width. */
#include "../simd/lanes_ymm.h"

#define POLYVAL_ISA vpclmul_avx2
#include "polyval_x86.h"
