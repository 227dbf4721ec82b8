#include "external.h"

#include <sodium.h>

const isa_variant external_row[2] = { { "external", 0 }, { NULL, 0 } };
const isa_variant external_aesni_row[2] = {
    { "external", CPU_AESNI | CPU_PCLMUL }, { NULL, 0 }
};

int external_kernel(const kernel *k)
{
    return k->table == external_row || k->table == external_aesni_row;
}

const char *external_sodium_unavailable(const kernel *k)
{
    (void)k;
    return sodium_init() < 0 ? "libsodium failed to initialise" : NULL;
}
