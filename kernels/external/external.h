/* What every external kernel shares: the one-row table, and the argument
 * handling of its reference kernel, which decides what is valid. The
 * kernels are in openssl/, sodium/ and gcrypt/, a file per primitive;
 * what the OpenSSL ones share besides is openssl/evp.h, the libgcrypt
 * ones gcrypt/gcry.h. */
#ifndef CYCLEBENCH_EXTERNAL_H
#define CYCLEBENCH_EXTERNAL_H

#include "../registry.h"

/* { "external", 0 }, then the terminating row. */
extern const isa_variant external_row[2];
/* The same row for a library that implements its kernel only with AES-NI
 * and PCLMULQDQ (libsodium's AES-256-GCM): on a CPU without them the row
 * is refused for the CPU's sake, as a variant of ours would be, and not
 * for the library's. */
extern const isa_variant external_aesni_row[2];
/* Nonzero for another library's kernel (whichever of the rows above). */
int external_kernel(const kernel *k);

/* NULL when libsodium initialised, else why not (sodium_init is
 * idempotent and thread-safe, so every call may ask). */
const char *external_sodium_unavailable(const kernel *k);

/* ChaCha20's state words 12-15 as OpenSSL's and libgcrypt's 16-byte IV
 * take them: the block counter in little-endian, carried from word 12
 * into word 13, then the nonce. So the DJB layout (64-bit counter, 8-byte
 * nonce) and the IETF one (32-bit counter, 12-byte nonce) are both the
 * counter followed by the nonce, from our chacha20's args. */
void external_chacha20_iv(const kernel_args *a, uint8_t iv[16]);

/* An external kernel checked against, and taking the arguments of, our
 * kernel ref (kernel.h: what it leaves unset is ref's); p is its param
 * (the OpenSSL kernels': their algorithm, openssl/evp.h). */
#define EXTERNAL_KERNEL(kname, fam, ref, run_fn, unavailable_fn, p)          \
    {                                                                        \
        .name = kname, .family = fam, .table = external_row,                 \
        .row_size = sizeof external_row[0], .param = p, .run = run_fn,       \
        .reference = &ref, .unavailable = unavailable_fn,                    \
    }

#endif
