#include "external.h"

#include <sodium.h>

const isa_variant external_row[2] = { { "external", 0 }, { NULL, 0 } };

const char *external_sodium_unavailable(const kernel *k)
{
    (void)k;
    return sodium_init() < 0 ? "libsodium failed to initialise" : NULL;
}
