/* What every libgcrypt kernel shares, in one place: the library's
 * initialisation (version check, then "initialization finished", once per
 * process); for each algorithm the kernels use, whether this build of
 * libgcrypt offers it, asked once; and a per-thread handle per algorithm,
 * opened once, as a careful application keeps them, so that no allocation
 * lands in a timed call. What a kernel pays per message (setkey, setiv,
 * setctr, reset) is in docs/method.md.
 *
 * A build without libgcrypt (CB_HAVE_GCRYPT unset: the arm64 cross build,
 * whose multiarch libgcrypt20-dev cannot be installed beside amd64's)
 * still registers the gcrypt:* kernels, listed as unavailable with that
 * reason; their run is then gcrypt_absent_run, never called. */
#ifndef CYCLEBENCH_GCRYPT_GCRY_H
#define CYCLEBENCH_GCRYPT_GCRY_H

#include <stddef.h>
#include <stdint.h>

#include "../external.h"

/* Every algorithm (cipher and mode, MAC or digest) the gcrypt kernels use.
 * A kernel's param is one. */
enum gcrypt_algorithm {
    GCRYPT_CHACHA20,
    GCRYPT_AES128_CTR,
    GCRYPT_AES256_CTR,
    GCRYPT_AES128_CBC,
    GCRYPT_AES256_CBC,
    GCRYPT_AES128_CBC_CTS,
    GCRYPT_AES256_CBC_CTS,
    GCRYPT_AES128_XTS,
    GCRYPT_AES256_XTS,
    GCRYPT_AES128_GCM,
    GCRYPT_AES256_GCM,
    GCRYPT_AES128_GCM_SIV,
    GCRYPT_AES256_GCM_SIV,
    GCRYPT_POLY1305,
    GCRYPT_CHACHA20_POLY1305,
    GCRYPT_BLAKE2B512,
    GCRYPT_SHA3_256,
    GCRYPT_SHAKE256,
    GCRYPT_CAMELLIA128_CBC,
    GCRYPT_CAMELLIA256_CBC,
    GCRYPT_ALGORITHMS
};

/* NULL when libgcrypt initialised and offers the algorithm, else why not. */
const char *gcrypt_unavailable(enum gcrypt_algorithm id);
/* The same for the algorithm that is k's param: an unavailable hook. */
const char *gcrypt_kernel_unavailable(const kernel *k);

#ifdef CB_HAVE_GCRYPT
#include <gcrypt.h>

/* libgcrypt calls on available algorithms and checked arguments do not
 * fail; if one does, libgcrypt is broken and no output can be trusted, so
 * this aborts naming the call and libgcrypt's reason. */
void gcrypt_must(gcry_error_t err, const char *what);

/* A new cipher handle for id (cipher algorithm and mode), no key yet; the
 * caller closes it. id must be available. */
gcry_cipher_hd_t gcrypt_cipher_open(enum gcrypt_algorithm id);
/* This thread's cipher handle for id, opened on first use. */
gcry_cipher_hd_t gcrypt_cipher_handle(enum gcrypt_algorithm id);
/* This thread's handles for the MAC and the digest. */
gcry_mac_hd_t gcrypt_mac_handle(enum gcrypt_algorithm id);
gcry_md_hd_t gcrypt_md_handle(enum gcrypt_algorithm id);
#else
/* The run of every gcrypt kernel in a build without libgcrypt. */
int gcrypt_absent_run(const kernel *k, const isa_variant *v,
                      const kernel_args *a, const uint8_t *in, size_t len,
                      uint8_t *out);
#endif

#endif
