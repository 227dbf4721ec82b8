#include "cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>

/* XCR0 bits: SSE (1) and AVX (2) state for ymm; opmask (5), upper halves of
 * zmm0-15 (6) and zmm16-31 (7) for AVX-512. A CPUID bit alone is not enough:
 * the OS must also save that state on context switches. */
#define XCR0_YMM    0x06u
#define XCR0_ZMM    0xe6u

static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static uint32_t detect_features(void)
{
    unsigned a, b, c, d, max_leaf;
    uint32_t f = 0;

    max_leaf = __get_cpuid_max(0, NULL);
    if (max_leaf < 1)
        return 0;
    __cpuid(1, a, b, c, d);
    if (d & bit_SSE2)   f |= CPU_SSE2;
    if (c & bit_SSSE3)  f |= CPU_SSSE3;
    if (c & bit_SSE4_1) f |= CPU_SSE41;
    if (c & bit_AES)    f |= CPU_AESNI;
    if (c & bit_PCLMUL) f |= CPU_PCLMUL;

    int os_ymm = 0, os_zmm = 0;
    if ((c & bit_OSXSAVE) && (c & bit_AVX)) {
        uint64_t xcr0 = read_xcr0();
        os_ymm = (xcr0 & XCR0_YMM) == XCR0_YMM;
        os_zmm = (xcr0 & XCR0_ZMM) == XCR0_ZMM;
    }
    if (os_ymm)
        f |= CPU_AVX;
    if (max_leaf < 7)
        return f;

    __cpuid_count(7, 0, a, b, c, d);
    if (b & bit_SHA)  f |= CPU_SHA;
    if (b & bit_BMI2) f |= CPU_BMI2;
    if (os_ymm) {
        if (b & bit_AVX2)       f |= CPU_AVX2;
        if (c & bit_VAES)       f |= CPU_VAES;
        if (c & bit_VPCLMULQDQ) f |= CPU_VPCLMULQDQ;
    }
    if (os_zmm) {
        if (b & bit_AVX512F)    f |= CPU_AVX512F;
        if (b & bit_AVX512VL)   f |= CPU_AVX512VL;
        if (b & bit_AVX512BW)   f |= CPU_AVX512BW;
        if (b & bit_AVX512IFMA) f |= CPU_AVX512IFMA;
        if (c & bit_AVX512VBMI) f |= CPU_AVX512VBMI;
    }
    return f;
}

#elif defined(__aarch64__)
#include <sys/auxv.h>

/* The kernel sets a HWCAP bit only where it also saves the state the
 * instructions use (SVE's wider registers), so the bits are the answer, as
 * XGETBV's confirmation is on x86-64. */
static uint32_t detect_features(void)
{
    unsigned long hwcap = getauxval(AT_HWCAP), hwcap2 = getauxval(AT_HWCAP2);
    uint32_t f = 0;
    if (hwcap & HWCAP_ASIMD)  f |= CPU_NEON;
    if (hwcap & HWCAP_AES)    f |= CPU_ARM_AES;
    if (hwcap & HWCAP_PMULL)  f |= CPU_ARM_PMULL;
    if (hwcap & HWCAP_SHA3)   f |= CPU_ARM_SHA3;
    if (hwcap2 & HWCAP2_SVE2) f |= CPU_ARM_SVE2;
    return f;
}

#else
#error "kernels/cpu.c: no feature detection for this architecture (x86_64 and aarch64 only)"
#endif

const isa_variant *isa_table_row(const isa_variant *first, size_t row_size,
                                 size_t i)
{
    const isa_variant *v =
        (const isa_variant *)((const char *)first + i * row_size);
    return v->isa ? v : NULL;
}

const isa_variant *isa_table_find(const isa_variant *first, size_t row_size,
                                  const char *isa)
{
    const isa_variant *v;
    for (size_t i = 0; (v = isa_table_row(first, row_size, i)); i++)
        if (strcmp(v->isa, isa) == 0)
            return v;
    return NULL;
}

static uint32_t cached_features, disabled_features;
static int features_known;

static const struct { uint32_t bit; const char *name; } feature_names[] = {
    { CPU_SSE2, "sse2" },           { CPU_SSSE3, "ssse3" },
    { CPU_SSE41, "sse4.1" },        { CPU_AVX, "avx" },
    { CPU_AVX2, "avx2" },           { CPU_AVX512F, "avx512f" },
    { CPU_AVX512VL, "avx512vl" },   { CPU_AVX512BW, "avx512bw" },
    { CPU_AVX512IFMA, "avx512ifma" }, { CPU_AVX512VBMI, "avx512vbmi" },
    { CPU_AESNI, "aes" },           { CPU_PCLMUL, "pclmulqdq" },
    { CPU_VAES, "vaes" },           { CPU_VPCLMULQDQ, "vpclmulqdq" },
    { CPU_SHA, "sha" },             { CPU_BMI2, "bmi2" },
    /* aarch64's, as /proc/cpuinfo names them but for Advanced SIMD
     * ("asimd"), named as its ISA rows are. */
    { CPU_NEON, "neon" },           { CPU_ARM_AES, "aes" },
    { CPU_ARM_PMULL, "pmull" },     { CPU_ARM_SHA3, "sha3" },
    { CPU_ARM_SVE2, "sve2" },
};
#define FEATURE_NAMES (sizeof feature_names / sizeof feature_names[0])

/* The features CYCLEBENCH_CPU_DISABLE names: every bit of each name ("aes"
 * is AES-NI on x86-64 and the AES instructions on aarch64), or all of them
 * for "all". An unknown name is refused before anything runs. */
static uint32_t features_to_disable(void)
{
    const char *list = getenv("CYCLEBENCH_CPU_DISABLE");
    uint32_t mask = 0;
    if (!list)
        return 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        uint32_t named = 0;
        if (n == 3 && strncmp(p, "all", 3) == 0)
            named = ~0u;
        for (size_t i = 0; i < FEATURE_NAMES; i++)
            if (strlen(feature_names[i].name) == n &&
                strncmp(feature_names[i].name, p, n) == 0)
                named |= feature_names[i].bit;
        if (n > 0 && !named) {
            fprintf(stderr,
                    "cyclebench: CYCLEBENCH_CPU_DISABLE names '%.*s', not a "
                    "feature: use \"all\" or names from 'cyclebench list' "
                    "(cpu_features), comma-separated\n",
                    (int)n, p);
            exit(2);
        }
        mask |= named;
        p += n + (p[n] == ',');
    }
    return mask;
}

uint32_t cpu_features(void)
{
    if (!features_known) {
        uint32_t detected = detect_features();
        disabled_features = detected & features_to_disable();
        cached_features = detected & ~disabled_features;
        features_known = 1;
    }
    return cached_features;
}

uint32_t cpu_features_disabled(void)
{
    cpu_features();
    return disabled_features;
}

int cpu_supports(uint32_t required)
{
    return (cpu_features() & required) == required;
}

void cpu_describe(uint32_t mask, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < FEATURE_NAMES; i++) {
        if (!(mask & feature_names[i].bit))
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? " " : "",
                         feature_names[i].name);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
}

const char *cpu_arch(void)
{
#if defined(__x86_64__)
    return "x86_64";
#elif defined(__aarch64__)
    return "aarch64";
#endif
}

/* qemu-user and valgrind show their guest its own path at /proc/self/exe
 * (and /proc/<pid>/exe), but the kernel's /proc/<pid>/task/<tid>/exe is
 * the program it really started: the emulator. Natively the two agree.
 * Neither a HWCAP, MIDR nor /proc/cpuinfo tells: qemu's -cpu cortex-a53
 * has the real core's MIDR, and newer qemu fakes /proc/cpuinfo too. */
const char *cpu_emulator(void)
{
    static char real[4096];
    static int known;
    if (!known) {
        char self[4096], task[64];
        snprintf(task, sizeof task, "/proc/%d/task/%d/exe", (int)getpid(),
                 (int)getpid());
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1),
                m = readlink(task, real, sizeof real - 1);
        self[n > 0 ? n : 0] = '\0';
        real[m > 0 ? m : 0] = '\0';
        if (n <= 0 || m <= 0 || strcmp(self, real) == 0)
            real[0] = '\0';
        known = 1;
    }
    return real[0] ? real : NULL;
}

const char *cpu_feature_names(void)
{
    static char names[256];
    if (!names[0])
        cpu_describe(cpu_features(), names, sizeof names);
    return names;
}

#if defined(__x86_64__)
const char *cpu_model_name(void)
{
    static char model[49];
    if (model[0])
        return model;
    unsigned regs[12] = { 0 };
    if ((unsigned)__get_cpuid_max(0x80000000u, NULL) >= 0x80000004u) {
        for (unsigned i = 0; i < 3; i++)
            __cpuid(0x80000002u + i, regs[4 * i], regs[4 * i + 1],
                    regs[4 * i + 2], regs[4 * i + 3]);
    }
    memcpy(model, regs, 48);
    model[48] = '\0';
    char *start = model;
    while (*start == ' ')
        start++;
    memmove(model, start, strlen(start) + 1);
    for (size_t n = strlen(model); n > 0 && model[n - 1] == ' '; n--)
        model[n - 1] = '\0';
    if (!model[0])
        strcpy(model, "unknown x86-64");
    return model;
}

int cpu_zmm_halves(void)
{
    static int known, halves;
    if (known)
        return halves;
    unsigned a, b, c, d;
    __cpuid(0, a, b, c, d);
    /* "AuthenticAMD" in EBX, EDX, ECX; the family is the base field plus
     * the extended one where the base is 0xf. */
    int amd = b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u;
    __cpuid(1, a, b, c, d);
    unsigned family = (a >> 8) & 0xf;
    if (family == 0xf)
        family += (a >> 20) & 0xff;
    halves = amd && family == 0x19 && cpu_supports(CPU_AVX512F);
    known = 1;
    return halves;
}

void cpu_clear_upper_state(void)
{
    /* The assembler takes the instruction without -mavx; the check keeps a
     * CPU without AVX from ever meeting it. */
    if (cpu_supports(CPU_AVX))
        __asm__ volatile("vzeroupper" ::: "memory");
}

#elif defined(__aarch64__)
/* A few cores by MIDR_EL1's implementer and part number (Arm's and the
 * vendors' technical reference manuals); any other is named by its
 * numbers. */
static const struct {
    unsigned implementer, part;
    const char *name;
} known_cores[] = {
    { 0x41, 0xd03, "Arm Cortex-A53" },  { 0x41, 0xd04, "Arm Cortex-A35" },
    { 0x41, 0xd05, "Arm Cortex-A55" },  { 0x41, 0xd07, "Arm Cortex-A57" },
    { 0x41, 0xd08, "Arm Cortex-A72" },  { 0x41, 0xd09, "Arm Cortex-A73" },
    { 0x41, 0xd0a, "Arm Cortex-A75" },  { 0x41, 0xd0b, "Arm Cortex-A76" },
    { 0x41, 0xd0c, "Arm Neoverse N1" }, { 0x41, 0xd0d, "Arm Cortex-A77" },
    { 0x41, 0xd40, "Arm Neoverse V1" }, { 0x41, 0xd41, "Arm Cortex-A78" },
    { 0x41, 0xd44, "Arm Cortex-X1" },   { 0x41, 0xd46, "Arm Cortex-A510" },
    { 0x41, 0xd47, "Arm Cortex-A710" }, { 0x41, 0xd49, "Arm Neoverse N2" },
    { 0x41, 0xd4f, "Arm Neoverse V2" }, { 0x41, 0xd8e, "Arm Neoverse N3" },
    { 0x41, 0xd84, "Arm Neoverse V3" }, { 0xc0, 0xac3, "Ampere-1" },
    { 0xc0, 0xac4, "Ampere-1a" },
};

/* MIDR_EL1 as the kernel emulates its read at EL0 (HWCAP_CPUID), or 0. */
static uint64_t read_midr(void)
{
    uint64_t midr = 0;
    if (getauxval(AT_HWCAP) & HWCAP_CPUID)
        __asm__ volatile("mrs %0, midr_el1" : "=r"(midr));
    return midr;
}

const char *cpu_model_name(void)
{
    static char model[96];
    if (model[0])
        return model;
    uint64_t midr = read_midr();
    unsigned implementer = (unsigned)(midr >> 24) & 0xff,
             part = (unsigned)(midr >> 4) & 0xfff;
    const char *name = NULL;
    for (size_t i = 0; i < sizeof known_cores / sizeof known_cores[0]; i++)
        if (known_cores[i].implementer == implementer &&
            known_cores[i].part == part)
            name = known_cores[i].name;
    if (!midr)
        snprintf(model, sizeof model, "unknown aarch64 (no MIDR_EL1)");
    else if (name)
        snprintf(model, sizeof model, "%s (MIDR 0x%08llx)", name,
                 (unsigned long long)midr);
    else
        snprintf(model, sizeof model,
                 "aarch64 implementer 0x%02x part 0x%03x (MIDR 0x%08llx)",
                 implementer, part, (unsigned long long)midr);
    return model;
}

int cpu_zmm_halves(void)
{
    return 0;
}

void cpu_clear_upper_state(void)
{
}
#endif
