#include "cpu.h"

#include <cpuid.h>
#include <stdio.h>
#include <string.h>

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

static uint32_t cached_features;
static int features_known;

uint32_t cpu_features(void)
{
    if (!features_known) {
        cached_features = detect_features();
        features_known = 1;
    }
    return cached_features;
}

int cpu_supports(uint32_t required)
{
    return (cpu_features() & required) == required;
}

static const struct { uint32_t bit; const char *name; } feature_names[] = {
    { CPU_SSE2, "sse2" },           { CPU_SSSE3, "ssse3" },
    { CPU_SSE41, "sse4.1" },        { CPU_AVX, "avx" },
    { CPU_AVX2, "avx2" },           { CPU_AVX512F, "avx512f" },
    { CPU_AVX512VL, "avx512vl" },   { CPU_AVX512BW, "avx512bw" },
    { CPU_AVX512IFMA, "avx512ifma" }, { CPU_AVX512VBMI, "avx512vbmi" },
    { CPU_AESNI, "aes" },           { CPU_PCLMUL, "pclmulqdq" },
    { CPU_VAES, "vaes" },           { CPU_VPCLMULQDQ, "vpclmulqdq" },
    { CPU_SHA, "sha" },             { CPU_BMI2, "bmi2" },
};

void cpu_describe(uint32_t mask, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++) {
        if (!(mask & feature_names[i].bit))
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? " " : "",
                         feature_names[i].name);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
}

const char *cpu_feature_names(void)
{
    static char names[256];
    if (!names[0])
        cpu_describe(cpu_features(), names, sizeof names);
    return names;
}

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

void cpu_clear_upper_state(void)
{
    /* The assembler takes the instruction without -mavx; the check keeps a
     * CPU without AVX from ever meeting it. */
    if (cpu_supports(CPU_AVX))
        __asm__ volatile("vzeroupper" ::: "memory");
}
