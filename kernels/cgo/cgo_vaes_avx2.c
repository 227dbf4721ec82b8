/* CGO's UIV+ with VAES and VPCLMULQDQ on ymm, two blocks per register. The
 * code is cgo_x86.h's; this file picks the vector width. */
#include "../simd/lanes_ymm.h"

#define CGO_ISA vaes_avx2
#include "cgo_x86.h"
