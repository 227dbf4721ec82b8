/* AVX-512 kernels tested on CPUs without AVX-512.
 *
 * The Makefile (EMULATED_KERNELS) compiles each listed kernel file a second
 * time, unchanged, against tests/c/emulated/immintrin.h: plain-C
 * stand-ins for the zmm intrinsics, working on xmm lanes and 64-bit words.
 * The object's global symbols get the suffix _emulated
 * (poly1305_blocks_avx512_emulated) so that it links beside the real one
 * into the test program listed with it. That test adds a row built from
 * those symbols to the ISA rows it checks, so the emulated variant meets
 * every check the real one does, wherever the CPU has what the stand-ins
 * and the narrower variants it hands work to need. On a host without
 * AVX-512 it is the only run that code gets before it meets a CPU with it.
 *
 * What it covers: what the kernel file says, as GCC compiles it: its
 * mapping of the width-generic primitives onto intrinsics, its helpers,
 * the logic it instantiates at its real width (batch sizes, tails, lane
 * shifts, powers of the hash key, tweak steps) and its hand-offs to
 * narrower variants, which are the real objects.
 * What it cannot cover: the zmm intrinsics themselves. A stand-in is our
 * reading of Intel's description, so a kernel and a stand-in that misread
 * an instruction alike agree; and the real machine code is not this one
 * (register allocation, encodings, masked and faulting forms, the
 * compiler's lowering of the real intrinsics, timing). Those are checked
 * only on a CPU with AVX-512, where the real rows run the same tests.
 *
 * A kernel joins with one line in the Makefile's EMULATED_KERNELS (its
 * test program and its file), stand-ins for any intrinsics it adds, and a
 * row in its test. */
#ifndef CYCLEBENCH_EMULATED_H
#define CYCLEBENCH_EMULATED_H

#include "../../../kernels/cpu.h"

/* What the emulated objects need besides their narrower variants' ISAs:
 * the Makefile compiles them with FLAGS_aesni, which the xmm-lane
 * stand-ins of VAES and VPCLMULQDQ use. */
#define EMULATED_CPU (CPU_SSE41 | CPU_AESNI | CPU_PCLMUL)

#endif
