#include "registry.h"

#define CYCLEBENCH_KERNEL_ENTRY(id) &kernel_##id,
const kernel *const kernel_registry[] = {
    CYCLEBENCH_KERNELS(CYCLEBENCH_KERNEL_ENTRY) NULL,
};
