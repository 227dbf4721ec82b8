/* libgcrypt's SHA3-256 and SHAKE256 as the registry kernels
 * gcrypt:sha3-256 and gcrypt:shake256: the thread's digest handle, reset
 * per message as EVP's DigestInit is. They take our sha3-256's and
 * shake256's arguments and are checked against them before timing. */
#include <string.h>

#include "gcry.h"

#ifdef CB_HAVE_GCRYPT
static int gcrypt_sha3_256_run(const kernel *k, const isa_variant *v,
                               const kernel_args *a, const uint8_t *in,
                               size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    (void)a;
    gcry_md_hd_t h = gcrypt_md_handle(GCRYPT_SHA3_256);
    gcry_md_reset(h);
    gcry_md_write(h, in, len);
    /* gcry_md_read finishes the digest in the handle and returns it. */
    memcpy(out, gcry_md_read(h, GCRY_MD_SHA3_256), 32);
    return 0;
}

static int gcrypt_shake256_run(const kernel *k, const isa_variant *v,
                               const kernel_args *a, const uint8_t *in,
                               size_t len, uint8_t *out)
{
    (void)v;
    gcry_md_hd_t h = gcrypt_md_handle(GCRYPT_SHAKE256);
    gcry_md_reset(h);
    gcry_md_write(h, in, len);
    /* An XOF is read with gcry_md_extract, which finishes it first. */
    gcrypt_must(gcry_md_extract(h, GCRY_MD_SHAKE256, out,
                                kernel_out_len(k, a, len)),
                "gcry_md_extract");
    return 0;
}
#else
#define gcrypt_sha3_256_run gcrypt_absent_run
#define gcrypt_shake256_run gcrypt_absent_run
#endif

const kernel kernel_gcrypt_sha3_256 = EXTERNAL_KERNEL(
    "gcrypt:sha3-256", "keccak", kernel_sha3_256, gcrypt_sha3_256_run,
    gcrypt_kernel_unavailable, GCRYPT_SHA3_256);

const kernel kernel_gcrypt_shake256 = EXTERNAL_KERNEL(
    "gcrypt:shake256", "keccak", kernel_shake256, gcrypt_shake256_run,
    gcrypt_kernel_unavailable, GCRYPT_SHAKE256);
