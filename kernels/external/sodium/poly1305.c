/* libsodium's Poly1305 (crypto_onetimeauth_poly1305) as the registry
 * kernel sodium:poly1305. It takes what our poly1305 takes. */
#include <sodium.h>

#include "../external.h"

static int sodium_poly1305_run(const kernel *k, const isa_variant *v,
                               const kernel_args *a, const uint8_t *in,
                               size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    crypto_onetimeauth_poly1305(out, in, len, a->key.bytes);
    return 0;
}

const kernel kernel_sodium_poly1305 = EXTERNAL_KERNEL(
    "sodium:poly1305", "poly1305", kernel_poly1305, sodium_poly1305_run,
    external_sodium_unavailable, 0);
