/* libgcrypt's AES-GCM-SIV (RFC 8452, libgcrypt 1.10's
 * GCRY_CIPHER_MODE_GCM_SIV) as the registry kernels gcrypt:aes-128-gcm-siv
 * and gcrypt:aes-256-gcm-siv: the thread's handle, keyed per message, as
 * gcrypt:chacha20-poly1305 is; libgcrypt's nonce setting replaces the
 * handle's key with the nonce's derived one, so a handle keyed once would
 * need its key again for every message anyway. Decryption takes the tag
 * before the ciphertext and fails on a bad one, having wiped the
 * plaintext it wrote. */
#include "gcry.h"

#ifdef CB_HAVE_GCRYPT
static int gcrypt_gcm_siv_run(const kernel *k, const isa_variant *v,
                              const kernel_args *a, const uint8_t *in,
                              size_t len, uint8_t *out)
{
    (void)v;
    gcry_cipher_hd_t h = gcrypt_cipher_handle(k->param);
    size_t msg_len = a->decrypt.set ? len - 16 : len;
    gcry_error_t err;
    gcrypt_must(gcry_cipher_setkey(h, a->key.bytes, a->key.len),
                "gcry_cipher_setkey");
    gcrypt_must(gcry_cipher_setiv(h, a->nonce.bytes, a->nonce.len),
                "gcry_cipher_setiv");
    gcrypt_must(gcry_cipher_authenticate(h, a->aad.bytes, a->aad.len),
                "gcry_cipher_authenticate");
    if (!a->decrypt.set) {
        gcrypt_must(gcry_cipher_encrypt(h, out, msg_len, in, msg_len),
                    "gcry_cipher_encrypt");
        gcrypt_must(gcry_cipher_gettag(h, out + msg_len, 16),
                    "gcry_cipher_gettag");
        return 0;
    }
    gcrypt_must(gcry_cipher_set_decryption_tag(h, in + msg_len, 16),
                "gcry_cipher_set_decryption_tag");
    err = gcry_cipher_decrypt(h, out, msg_len, in, msg_len);
    if (gcry_err_code(err) == GPG_ERR_CHECKSUM)
        return 1;
    gcrypt_must(err, "gcry_cipher_decrypt");
    return 0;
}
#else
#define gcrypt_gcm_siv_run gcrypt_absent_run
#endif

const kernel kernel_gcrypt_aes128_gcm_siv = EXTERNAL_KERNEL(
    "gcrypt:aes-128-gcm-siv", "aes-gcm-siv", kernel_aes128_gcm_siv,
    gcrypt_gcm_siv_run, gcrypt_kernel_unavailable, GCRYPT_AES128_GCM_SIV);
const kernel kernel_gcrypt_aes256_gcm_siv = EXTERNAL_KERNEL(
    "gcrypt:aes-256-gcm-siv", "aes-gcm-siv", kernel_aes256_gcm_siv,
    gcrypt_gcm_siv_run, gcrypt_kernel_unavailable, GCRYPT_AES256_GCM_SIV);
