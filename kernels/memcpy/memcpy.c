/* The memcpy implementation table and its registry kernel. */
#include "memcpy.h"
#include "../kernel.h"

const memcpy_impl memcpy_impls[] = {
#if defined(__x86_64__)
    { { "avx512", CPU_AVX512 }, memcpy_copy_avx512 },
    { { "avx2", CPU_AVX2 }, memcpy_copy_avx2 },
#elif defined(__aarch64__)
#endif
    { { "generic", 0 }, memcpy_copy_generic },
    { { NULL, 0 }, NULL },
};

static int memcpy_run(const kernel *k, const isa_variant *v,
                      const kernel_args *a, const uint8_t *in, size_t len,
                      uint8_t *out)
{
    (void)k;
    (void)a;
    ((const memcpy_impl *)v)->copy(out, in, len);
    return 0;
}

static void memcpy_bench_args(const kernel *k, kernel_args *a)
{
    (void)k;
    *a = (kernel_args){ 0 };
}

const kernel kernel_memcpy = {
    .name = "memcpy",
    .family = "memcpy",
    .table = &memcpy_impls[0].v,
    .row_size = sizeof memcpy_impls[0],
    .run = memcpy_run,
    .bench_args = memcpy_bench_args,
};
