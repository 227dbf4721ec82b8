/* libgcrypt's ChaCha20 as the registry kernel gcrypt:chacha20. Its 16-byte
 * IV is OpenSSL's layout (external.h), so it takes every argument our
 * chacha20 accepts. The key and IV are set per message, as OpenSSL's and
 * libsodium's ChaCha20 take them per call. */
#include "gcry.h"

#ifdef CB_HAVE_GCRYPT
static int gcrypt_chacha20_run(const kernel *k, const isa_variant *v,
                               const kernel_args *a, const uint8_t *in,
                               size_t len, uint8_t *out)
{
    (void)k;
    (void)v;
    uint8_t iv[16];
    gcry_cipher_hd_t h = gcrypt_cipher_handle(GCRYPT_CHACHA20);
    external_chacha20_iv(a, iv);
    gcrypt_must(gcry_cipher_setkey(h, a->key.bytes, a->key.len),
                "gcry_cipher_setkey");
    gcrypt_must(gcry_cipher_setiv(h, iv, sizeof iv), "gcry_cipher_setiv");
    gcrypt_must(gcry_cipher_encrypt(h, out, len, in, len),
                "gcry_cipher_encrypt");
    return 0;
}
#else
#define gcrypt_chacha20_run gcrypt_absent_run
#endif

const kernel kernel_gcrypt_chacha20 = EXTERNAL_KERNEL(
    "gcrypt:chacha20", "chacha", kernel_chacha20, gcrypt_chacha20_run,
    gcrypt_kernel_unavailable, GCRYPT_CHACHA20);
