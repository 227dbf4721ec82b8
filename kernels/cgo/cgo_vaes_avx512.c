/* CGO's UIV+ with VAES and VPCLMULQDQ on zmm, four blocks per register. The
 * code is cgo_x86.h's; this file picks the vector width. */
#include "../simd/lanes_zmm.h"

#define CGO_ISA vaes_avx512
#include "cgo_x86.h"
