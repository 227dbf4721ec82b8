/* OpenSSL's SHA3-256 and SHAKE256 through EVP, as the registry kernels
 * openssl:sha3-256 and openssl:shake256. They take our sha3-256's and
 * shake256's arguments (--out-len for the XOF) and are checked against
 * them before timing. */
#include "evp.h"

static int openssl_sha3_256_run(const kernel *k, const isa_variant *v,
                                const kernel_args *a, const uint8_t *in,
                                size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    (void)a;
    unsigned n;
    EVP_MD_CTX *ctx = openssl_digest_ctx();
    openssl_must(EVP_DigestInit_ex2(ctx, openssl_digest(OPENSSL_SHA3_256),
                                    NULL) &&
                     EVP_DigestUpdate(ctx, in, len) &&
                     EVP_DigestFinal_ex(ctx, out, &n),
                 "EVP_Digest*");
    return 0;
}

static int openssl_shake256_run(const kernel *k, const isa_variant *v,
                                const kernel_args *a, const uint8_t *in,
                                size_t len, uint8_t *out)
{
    (void)v;
    EVP_MD_CTX *ctx = openssl_digest_ctx();
    openssl_must(EVP_DigestInit_ex2(ctx, openssl_digest(OPENSSL_SHAKE256),
                                    NULL) &&
                     EVP_DigestUpdate(ctx, in, len) &&
                     EVP_DigestFinalXOF(ctx, out, kernel_out_len(k, a, len)),
                 "EVP_Digest*");
    return 0;
}

const kernel kernel_openssl_sha3_256 = EXTERNAL_KERNEL(
    "openssl:sha3-256", "keccak", kernel_sha3_256, openssl_sha3_256_run,
    openssl_kernel_unavailable, OPENSSL_SHA3_256);

const kernel kernel_openssl_shake256 = EXTERNAL_KERNEL(
    "openssl:shake256", "keccak", kernel_shake256, openssl_shake256_run,
    openssl_kernel_unavailable, OPENSSL_SHAKE256);
