/* OpenSSL's BLAKE2b-512 through EVP, as the registry kernel
 * openssl:blake2b512. */
#include "evp.h"

static int openssl_blake2b512_run(const kernel *k, const isa_variant *v,
                                  const kernel_args *a, const uint8_t *in,
                                  size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    (void)a;
    unsigned n;
    EVP_MD_CTX *ctx = openssl_digest_ctx();
    openssl_must(EVP_DigestInit_ex2(ctx, openssl_digest(OPENSSL_BLAKE2B512),
                                    NULL) &&
                     EVP_DigestUpdate(ctx, in, len) &&
                     EVP_DigestFinal_ex(ctx, out, &n),
                 "EVP_Digest*");
    return 0;
}

const kernel kernel_openssl_blake2b512 = {
    .name = "openssl:blake2b512",
    .family = "blake2b",
    .table = external_row,
    .row_size = sizeof external_row[0],
    .param = OPENSSL_BLAKE2B512,
    /* EVP's BLAKE2B-512 has no key and a fixed 64-byte digest. */
    .args = { { KARG_TAKES(OUTLEN, 64),
                .note = "OpenSSL's is unkeyed, 64 bytes; blake2b or "
                        "sodium:blake2b take others" } },
    .run = openssl_blake2b512_run,
    .reference = &kernel_blake2b,
    .unavailable = openssl_kernel_unavailable,
};
