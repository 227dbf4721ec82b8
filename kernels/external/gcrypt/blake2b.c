/* libgcrypt's BLAKE2b-512 as the registry kernel gcrypt:blake2b512: the
 * thread's digest handle, reset per message as EVP's DigestInit is. */
#include <string.h>

#include "gcry.h"

#ifdef CB_HAVE_GCRYPT
static int gcrypt_blake2b512_run(const kernel *k, const isa_variant *v,
                                 const kernel_args *a, const uint8_t *in,
                                 size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    (void)a;
    gcry_md_hd_t h = gcrypt_md_handle(GCRYPT_BLAKE2B512);
    gcry_md_reset(h);
    gcry_md_write(h, in, len);
    /* gcry_md_read finishes the digest in the handle and returns it. */
    memcpy(out, gcry_md_read(h, GCRY_MD_BLAKE2B_512), 64);
    return 0;
}
#else
#define gcrypt_blake2b512_run gcrypt_absent_run
#endif

const kernel kernel_gcrypt_blake2b512 = {
    .name = "gcrypt:blake2b512",
    .family = "blake2b",
    .table = external_row,
    .row_size = sizeof external_row[0],
    .param = GCRYPT_BLAKE2B512,
    /* Used unkeyed with its fixed 64-byte digest, as openssl:blake2b512. */
    .args = { { KARG_TAKES(OUTLEN, 64),
                .note = "libgcrypt's BLAKE2b-512 is used unkeyed, 64 bytes; "
                        "blake2b or sodium:blake2b take others" } },
    .run = gcrypt_blake2b512_run,
    .reference = &kernel_blake2b,
    .unavailable = gcrypt_kernel_unavailable,
};
