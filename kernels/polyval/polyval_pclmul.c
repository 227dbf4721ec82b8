/* POLYVAL with PCLMULQDQ on xmm: one block per register, eight a batch. The
 * code is polyval_x86.h's; this file picks the vector width. */
#include "../simd/lanes_xmm.h"

#define POLYVAL_ISA pclmul
#include "polyval_x86.h"
