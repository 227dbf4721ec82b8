/* libsodium's BLAKE2b (crypto_generichash, keyed or not, any output
 * length our blake2b takes) as the registry kernel sodium:blake2b. */
#include <sodium.h>

#include "../external.h"

static int sodium_blake2b_run(const kernel *k, const isa_variant *v,
                              const kernel_args *a, const uint8_t *in,
                              size_t len, uint8_t *out)
{
    (void)v;
    crypto_generichash(out, kernel_out_len(k, a, len), in, len, a->key.bytes,
                       a->key.len);
    return 0;
}

const kernel kernel_sodium_blake2b = EXTERNAL_KERNEL(
    "sodium:blake2b", "blake2b", kernel_blake2b, sodium_blake2b_run,
    external_sodium_unavailable, 0);
