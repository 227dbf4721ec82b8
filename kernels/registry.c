#include "registry.h"

#define CYCLEBENCH_KERNEL_ENTRY(id) &kernel_##id,
const kernel *const kernel_registry[] = {
    CYCLEBENCH_KERNELS(CYCLEBENCH_KERNEL_ENTRY) NULL,
};

const kernel_alias kernel_aliases[] = {
    { "tor-relay-cell", &kernel_tor1_relay_originate },
    { NULL, NULL },
};
