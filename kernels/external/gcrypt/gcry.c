#include "gcry.h"

#include <stdlib.h>

#ifdef CB_HAVE_GCRYPT
#include <pthread.h>
#include <stdio.h>

/* The oldest libgcrypt with every call the kernels make; an algorithm a
 * later version added is probed for on its own, so that an older build
 * loses only that kernel, with the reason. */
#define GCRYPT_OLDEST "1.6.0"

enum gcrypt_kind { CIPHER, MAC, DIGEST };

static const struct {
    const char *name;
    enum gcrypt_kind kind;
    int algo, mode;
    unsigned flags;
} algorithms[GCRYPT_ALGORITHMS] = {
    [GCRYPT_CHACHA20] = { "ChaCha20", CIPHER, GCRY_CIPHER_CHACHA20,
                          GCRY_CIPHER_MODE_STREAM, 0 },
    [GCRYPT_AES128_CTR] = { "AES-128 in CTR mode", CIPHER, GCRY_CIPHER_AES128,
                            GCRY_CIPHER_MODE_CTR, 0 },
    [GCRYPT_AES256_CTR] = { "AES-256 in CTR mode", CIPHER, GCRY_CIPHER_AES256,
                            GCRY_CIPHER_MODE_CTR, 0 },
    [GCRYPT_AES128_CBC] = { "AES-128 in CBC mode", CIPHER, GCRY_CIPHER_AES128,
                            GCRY_CIPHER_MODE_CBC, 0 },
    [GCRYPT_AES256_CBC] = { "AES-256 in CBC mode", CIPHER, GCRY_CIPHER_AES256,
                            GCRY_CIPHER_MODE_CBC, 0 },
    [GCRYPT_AES128_CBC_CTS] = { "AES-128-CBC with ciphertext stealing",
                                CIPHER, GCRY_CIPHER_AES128,
                                GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_CBC_CTS },
    [GCRYPT_AES256_CBC_CTS] = { "AES-256-CBC with ciphertext stealing",
                                CIPHER, GCRY_CIPHER_AES256,
                                GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_CBC_CTS },
    [GCRYPT_AES128_XTS] = { "AES-128 in XTS mode", CIPHER, GCRY_CIPHER_AES128,
                            GCRY_CIPHER_MODE_XTS, 0 },
    [GCRYPT_AES256_XTS] = { "AES-256 in XTS mode", CIPHER, GCRY_CIPHER_AES256,
                            GCRY_CIPHER_MODE_XTS, 0 },
    [GCRYPT_AES128_GCM] = { "AES-128 in GCM mode", CIPHER, GCRY_CIPHER_AES128,
                            GCRY_CIPHER_MODE_GCM, 0 },
    [GCRYPT_AES256_GCM] = { "AES-256 in GCM mode", CIPHER, GCRY_CIPHER_AES256,
                            GCRY_CIPHER_MODE_GCM, 0 },
    [GCRYPT_AES128_GCM_SIV] = { "AES-128 in GCM-SIV mode", CIPHER,
                                GCRY_CIPHER_AES128,
                                GCRY_CIPHER_MODE_GCM_SIV, 0 },
    [GCRYPT_AES256_GCM_SIV] = { "AES-256 in GCM-SIV mode", CIPHER,
                                GCRY_CIPHER_AES256,
                                GCRY_CIPHER_MODE_GCM_SIV, 0 },
    [GCRYPT_POLY1305] = { "Poly1305", MAC, GCRY_MAC_POLY1305, 0, 0 },
    [GCRYPT_CHACHA20_POLY1305] = { "ChaCha20-Poly1305", CIPHER,
                                   GCRY_CIPHER_CHACHA20,
                                   GCRY_CIPHER_MODE_POLY1305, 0 },
    [GCRYPT_BLAKE2B512] = { "BLAKE2b-512", DIGEST, GCRY_MD_BLAKE2B_512, 0, 0 },
    [GCRYPT_SHA3_256] = { "SHA3-256", DIGEST, GCRY_MD_SHA3_256, 0, 0 },
    [GCRYPT_SHAKE256] = { "SHAKE256", DIGEST, GCRY_MD_SHAKE256, 0, 0 },
    [GCRYPT_CAMELLIA128_CBC] = { "Camellia-128 in CBC mode", CIPHER,
                                 GCRY_CIPHER_CAMELLIA128,
                                 GCRY_CIPHER_MODE_CBC, 0 },
    [GCRYPT_CAMELLIA256_CBC] = { "Camellia-256 in CBC mode", CIPHER,
                                 GCRY_CIPHER_CAMELLIA256,
                                 GCRY_CIPHER_MODE_CBC, 0 },
};

static char init_failure[160];
static char missing[GCRYPT_ALGORITHMS][160];
static pthread_once_t initialised = PTHREAD_ONCE_INIT;

/* Opening a handle is what a kernel does, so it is the test: it fails for
 * an algorithm or a mode this build of libgcrypt lacks. */
static gcry_error_t probe(enum gcrypt_algorithm id)
{
    gcry_error_t err;
    switch (algorithms[id].kind) {
    case CIPHER: {
        gcry_cipher_hd_t h;
        err = gcry_cipher_open(&h, algorithms[id].algo, algorithms[id].mode,
                               algorithms[id].flags);
        if (!err)
            gcry_cipher_close(h);
        return err;
    }
    case MAC: {
        gcry_mac_hd_t h;
        err = gcry_mac_open(&h, algorithms[id].algo, 0, NULL);
        if (!err)
            gcry_mac_close(h);
        return err;
    }
    default: {
        gcry_md_hd_t h;
        err = gcry_md_open(&h, algorithms[id].algo, 0);
        if (!err)
            gcry_md_close(h);
        return err;
    }
    }
}

/* libgcrypt's rules: gcry_check_version first, which initialises it, then
 * "initialization finished" before any other use; unless the process did
 * both already. No secure memory: nothing here is a long-term secret, and
 * without it libgcrypt warns and may lock pages. */
static void initialise(void)
{
    if (!gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P)) {
        if (!gcry_check_version(GCRYPT_OLDEST)) {
            snprintf(init_failure, sizeof init_failure,
                     "libgcrypt %s is older than %s: install libgcrypt20 "
                     "%s or later", gcry_check_version(NULL), GCRYPT_OLDEST,
                     GCRYPT_OLDEST);
            return;
        }
        gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
        gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    }
    for (int i = 0; i < GCRYPT_ALGORITHMS; i++) {
        gcry_error_t err = probe((enum gcrypt_algorithm)i);
        if (err)
            snprintf(missing[i], sizeof missing[i],
                     "libgcrypt %s offers no %s (%s)", gcry_check_version(NULL),
                     algorithms[i].name, gcry_strerror(err));
    }
}

const char *gcrypt_unavailable(enum gcrypt_algorithm id)
{
    pthread_once(&initialised, initialise);
    if (init_failure[0])
        return init_failure;
    return missing[id][0] ? missing[id] : NULL;
}

void gcrypt_must(gcry_error_t err, const char *what)
{
    if (err) {
        fprintf(stderr, "cyclebench: libgcrypt failed in %s: %s\n", what,
                gcry_strerror(err));
        abort();
    }
}

/* Only kernels that are available run, so opening one that is not is a
 * bug in the caller: said, then aborted, as gcrypt_must does. */
static void must_be_available(enum gcrypt_algorithm id, const char *what)
{
    const char *why = gcrypt_unavailable(id);
    if (why) {
        fprintf(stderr, "cyclebench: %s on an unavailable algorithm: %s\n",
                what, why);
        abort();
    }
}

gcry_cipher_hd_t gcrypt_cipher_open(enum gcrypt_algorithm id)
{
    gcry_cipher_hd_t h = NULL;
    must_be_available(id, "gcry_cipher_open");
    gcrypt_must(gcry_cipher_open(&h, algorithms[id].algo, algorithms[id].mode,
                                 algorithms[id].flags),
                "gcry_cipher_open");
    return h;
}

gcry_cipher_hd_t gcrypt_cipher_handle(enum gcrypt_algorithm id)
{
    static _Thread_local gcry_cipher_hd_t handles[GCRYPT_ALGORITHMS];
    if (!handles[id])
        handles[id] = gcrypt_cipher_open(id);
    return handles[id];
}

gcry_mac_hd_t gcrypt_mac_handle(enum gcrypt_algorithm id)
{
    static _Thread_local gcry_mac_hd_t handles[GCRYPT_ALGORITHMS];
    if (!handles[id]) {
        must_be_available(id, "gcry_mac_open");
        gcrypt_must(gcry_mac_open(&handles[id], algorithms[id].algo, 0, NULL),
                    "gcry_mac_open");
    }
    return handles[id];
}

gcry_md_hd_t gcrypt_md_handle(enum gcrypt_algorithm id)
{
    static _Thread_local gcry_md_hd_t handles[GCRYPT_ALGORITHMS];
    if (!handles[id]) {
        must_be_available(id, "gcry_md_open");
        gcrypt_must(gcry_md_open(&handles[id], algorithms[id].algo, 0),
                    "gcry_md_open");
    }
    return handles[id];
}

#else

const char *gcrypt_unavailable(enum gcrypt_algorithm id)
{
    (void)id;
    return "this build has no libgcrypt (CB_HAVE_GCRYPT unset, as in the "
           "arm64 cross build): build natively with libgcrypt20-dev";
}

int gcrypt_absent_run(const kernel *k, const isa_variant *v,
                      const kernel_args *a, const uint8_t *in, size_t len,
                      uint8_t *out)
{
    (void)k, (void)v, (void)a, (void)in, (void)len, (void)out;
    abort(); /* never called: every gcrypt kernel is unavailable */
}

#endif

const char *gcrypt_kernel_unavailable(const kernel *k)
{
    return gcrypt_unavailable((enum gcrypt_algorithm)k->param);
}
