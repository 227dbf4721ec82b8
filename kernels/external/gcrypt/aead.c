/* libgcrypt's ChaCha20-Poly1305 (RFC 8439) as the registry kernel
 * gcrypt:chacha20-poly1305: the thread's handle, keyed per message as
 * OpenSSL's is. libgcrypt writes the plaintext before it checks the tag,
 * so a failed decryption wipes it: no plaintext is released. */
#include <string.h>

#include "gcry.h"

#ifdef CB_HAVE_GCRYPT
static int gcrypt_chacha20_poly1305_run(const kernel *k, const isa_variant *v,
                                        const kernel_args *a,
                                        const uint8_t *in, size_t len,
                                        uint8_t *out)
{
    (void)k;
    (void)v;
    gcry_cipher_hd_t h = gcrypt_cipher_handle(GCRYPT_CHACHA20_POLY1305);
    int encrypt = !a->decrypt.set;
    size_t msg_len = encrypt ? len : len - 16;
    gcrypt_must(gcry_cipher_setkey(h, a->key.bytes, a->key.len),
                "gcry_cipher_setkey");
    gcrypt_must(gcry_cipher_setiv(h, a->nonce.bytes, a->nonce.len),
                "gcry_cipher_setiv");
    gcrypt_must(gcry_cipher_authenticate(h, a->aad.bytes, a->aad.len),
                "gcry_cipher_authenticate");
    if (encrypt) {
        gcrypt_must(gcry_cipher_encrypt(h, out, msg_len, in, msg_len),
                    "gcry_cipher_encrypt");
        gcrypt_must(gcry_cipher_gettag(h, out + msg_len, 16),
                    "gcry_cipher_gettag");
        return 0;
    }
    gcrypt_must(gcry_cipher_decrypt(h, out, msg_len, in, msg_len),
                "gcry_cipher_decrypt");
    if (!gcry_cipher_checktag(h, in + msg_len, 16))
        return 0;
    memset(out, 0, msg_len);
    return 1;
}
#else
#define gcrypt_chacha20_poly1305_run gcrypt_absent_run
#endif

const kernel kernel_gcrypt_chacha20_poly1305 = EXTERNAL_KERNEL(
    "gcrypt:chacha20-poly1305", "chacha20-poly1305", kernel_chacha20_poly1305,
    gcrypt_chacha20_poly1305_run, gcrypt_kernel_unavailable,
    GCRYPT_CHACHA20_POLY1305);
