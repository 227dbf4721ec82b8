#include "external.h"

#include <sodium.h>
#include <string.h>

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

void external_chacha20_iv(const kernel_args *a, uint8_t iv[16])
{
    uint64_t counter = a->counter.num;
    size_t counter_bytes = 16 - a->nonce.len;
    for (size_t i = 0; i < counter_bytes; i++)
        iv[i] = (uint8_t)(counter >> (8 * i));
    memcpy(iv + counter_bytes, a->nonce.bytes, a->nonce.len);
}
