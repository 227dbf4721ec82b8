/* CPU feature detection, done once per process.
 *
 * Every kernel variant names the features it needs as a mask of CPU_* bits;
 * dispatch, tests and benchmarks ask cpu_supports() before they call it, so an
 * ISA the machine lacks is never executed. */
#ifndef CYCLEBENCH_CPU_H
#define CYCLEBENCH_CPU_H

#include <stddef.h>
#include <stdint.h>

enum cpu_feature {
    CPU_SSE2       = 1u << 0,
    CPU_SSSE3      = 1u << 1,
    CPU_SSE41      = 1u << 2,
    CPU_AVX        = 1u << 3,
    CPU_AVX2       = 1u << 4,
    CPU_AVX512F    = 1u << 5,
    CPU_AVX512VL   = 1u << 6,
    CPU_AVX512BW   = 1u << 7,
    CPU_AVX512IFMA = 1u << 8,
    CPU_AVX512VBMI = 1u << 9,
    CPU_AESNI      = 1u << 10,
    CPU_PCLMUL     = 1u << 11,
    CPU_VAES       = 1u << 12,
    CPU_VPCLMULQDQ = 1u << 13,
    CPU_SHA        = 1u << 14,
    CPU_BMI2       = 1u << 15,
    /* aarch64, from AT_HWCAP and AT_HWCAP2. */
    CPU_NEON       = 1u << 16, /* Advanced SIMD (asimd) */
    CPU_ARM_AES    = 1u << 17, /* AESE, AESD, AESMC, AESIMC */
    CPU_ARM_PMULL  = 1u << 18, /* PMULL, PMULL2 on 64-bit lanes */
    CPU_ARM_SHA3   = 1u << 19, /* EOR3, RAX1, XAR, BCAX */
    CPU_ARM_SVE2   = 1u << 20,
};

/* The AVX-512 subset our avx512 kernels are compiled for
 * (-mavx512f -mavx512vl -mavx512bw). */
#define CPU_AVX512 (CPU_AVX512F | CPU_AVX512VL | CPU_AVX512BW)

/* Header shared by every row of every implementation table. Tables are
 * arrays of structs whose first member is this, best first, generic last,
 * ended by a row whose isa is NULL. */
typedef struct isa_variant {
    const char *isa;      /* "generic", "sse2", "avx2", ... */
    uint32_t required;    /* CPU_* bits */
} isa_variant;

/* Row i of a table whose rows are row_size bytes apart, or NULL past the
 * end; and the row named isa, or NULL. */
const isa_variant *isa_table_row(const isa_variant *first, size_t row_size,
                                 size_t i);
const isa_variant *isa_table_find(const isa_variant *first, size_t row_size,
                                  const char *isa);

/* Features usable here: on x86-64, CPUID bits confirmed by XGETBV that the
 * OS saves the matching register state; on aarch64, the kernel's HWCAP
 * bits. Less those named in the environment variable CYCLEBENCH_CPU_DISABLE
 * (a comma-separated list of cpu_describe's names, or "all"), so that tests
 * run the rows and the dispatch of a CPU without them. Detected on first
 * call, cached afterwards; an unknown name there exits 2, naming it. */
uint32_t cpu_features(void);

/* What CYCLEBENCH_CPU_DISABLE took away from this CPU's features (0 when
 * unset), for results context. */
uint32_t cpu_features_disabled(void);

/* Nonzero when every bit of `required` is usable on this CPU. */
int cpu_supports(uint32_t required);

/* The architecture this binary was built for: "x86_64" or "aarch64", as
 * uname -m and the Makefile's ARCH name it. */
const char *cpu_arch(void);

/* The program this process really is when it is not this binary: an
 * emulator that runs it instruction by instruction (qemu-aarch64 on an
 * x86-64 host, or valgrind); NULL on a CPU of the binary's architecture.
 * Timings taken under one describe the emulator, not a CPU. */
const char *cpu_emulator(void);

/* Space-separated names of the detected features, for results context. */
const char *cpu_feature_names(void);
/* The same for any mask of CPU_* bits ("avx512f vaes"), into buf. */
void cpu_describe(uint32_t mask, char *buf, size_t len);

/* The CPU's brand string from CPUID 0x80000002..4, trimmed; on aarch64
 * its implementer and part from MIDR_EL1, as the kernel shows them in
 * /proc/cpuinfo. */
const char *cpu_model_name(void);

/* Nonzero on a core that executes each 512-bit vector operation as two
 * 256-bit halves: AMD family 19h (Zen 4), by AMD's Software Optimization
 * Guide for that family. Its zmm lane moves cost more than the narrower
 * forms' (vpermq over a zmm runs as several operations), so a kernel whose
 * AVX-512 code has a narrower layout of its own may choose it there. 0 on
 * every other core, and on aarch64. */
int cpu_zmm_halves(void);

/* Clear the upper halves of the vector registers (vzeroupper) where the CPU
 * has AVX; a no-op elsewhere (aarch64 has no such state). Code that returns with them dirty (OpenSSL's
 * ChaCha20-Poly1305 does) makes every SSE instruction after it pay for a
 * state transition or a false dependency, so a benchmark that follows one
 * would be timed slow for another's sake. */
void cpu_clear_upper_state(void);

#endif
