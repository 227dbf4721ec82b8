/* CGO's UIV+ with AES-NI and PCLMULQDQ on xmm, one block per register. The
 * code is cgo_x86.h's; this file picks the vector width. */
#include "../simd/lanes_xmm.h"

#define CGO_ISA aesni
#include "cgo_x86.h"
