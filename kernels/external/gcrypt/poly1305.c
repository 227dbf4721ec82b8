/* libgcrypt's Poly1305 MAC as the registry kernel gcrypt:poly1305. Its
 * key is one-time, so every message sets it; setkey also starts a new
 * message on the thread's handle. */
#include "gcry.h"

#ifdef CB_HAVE_GCRYPT
static int gcrypt_poly1305_run(const kernel *k, const isa_variant *v,
                               const kernel_args *a, const uint8_t *in,
                               size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    size_t tag_len = 16;
    gcry_mac_hd_t h = gcrypt_mac_handle(GCRYPT_POLY1305);
    gcrypt_must(gcry_mac_setkey(h, a->key.bytes, a->key.len),
                "gcry_mac_setkey");
    gcrypt_must(gcry_mac_write(h, in, len), "gcry_mac_write");
    gcrypt_must(gcry_mac_read(h, out, &tag_len), "gcry_mac_read");
    return 0;
}
#else
#define gcrypt_poly1305_run gcrypt_absent_run
#endif

const kernel kernel_gcrypt_poly1305 = EXTERNAL_KERNEL(
    "gcrypt:poly1305", "poly1305", kernel_poly1305, gcrypt_poly1305_run,
    gcrypt_kernel_unavailable, GCRYPT_POLY1305);
