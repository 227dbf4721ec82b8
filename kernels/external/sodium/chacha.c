/* libsodium's ChaCha20 (DJB and IETF layouts, with a starting counter) as
 * the registry kernel sodium:chacha20. libsodium picks its own fastest
 * implementation at sodium_init; it takes every argument our chacha20
 * accepts. */
#include <sodium.h>

#include "../external.h"

static int sodium_chacha20_run(const kernel *k, const isa_variant *v,
                               const kernel_args *a, const uint8_t *in,
                               size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    uint64_t counter = a->counter.num;
    if (a->nonce.len == crypto_stream_chacha20_ietf_NONCEBYTES)
        crypto_stream_chacha20_ietf_xor_ic(out, in, len, a->nonce.bytes,
                                           (uint32_t)counter, a->key.bytes);
    else
        crypto_stream_chacha20_xor_ic(out, in, len, a->nonce.bytes, counter,
                                      a->key.bytes);
    return 0;
}

const kernel kernel_sodium_chacha20 = EXTERNAL_KERNEL(
    "sodium:chacha20", "chacha", kernel_chacha20, sodium_chacha20_run,
    external_sodium_unavailable, 0);
