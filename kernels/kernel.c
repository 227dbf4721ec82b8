#include "kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aead/aead_kernels.h"
#include "aes/aes_kernels.h"
#include "blake2b/blake2b_kernels.h"
#include "chacha/chacha_kernels.h"
#include "external/aes_external_kernels.h"
#include "external/external_kernels.h"
#include "external/more_external_kernels.h"
#include "lioness/lioness_kernels.h"
#include "memcpy/memcpy_kernels.h"
#include "poly1305/poly1305_kernels.h"
#include "rc4/rc4_kernels.h"
#include "tor/tor_kernels.h"

/* Ours by family, then other libraries' (what users would pick instead). */
const kernel *const kernel_registry[] = {
    &kernel_chacha20, &kernel_chacha12, &kernel_chacha8,
    &kernel_xchacha20, &kernel_xchacha12, &kernel_xchacha8,
    &kernel_blake2b,
    &kernel_lioness, &kernel_lioness12, &kernel_lioness8, &kernel_lioness_x4,
    &kernel_aes128_ctr, &kernel_aes256_ctr, &kernel_aes128_cbc,
    &kernel_aes256_cbc, &kernel_aes128_xts, &kernel_aes256_xts,
    &kernel_aes128_gcm, &kernel_aes256_gcm,
    &kernel_poly1305, &kernel_chacha20_poly1305, &kernel_xchacha20_poly1305,
    &kernel_rc4,
    &kernel_tor_relay_cell,
    &kernel_memcpy,

    &kernel_openssl_chacha20, &kernel_openssl_blake2b512,
    &kernel_openssl_aes128_ctr, &kernel_openssl_aes256_ctr,
    &kernel_openssl_aes128_cbc, &kernel_openssl_aes128_xts,
    &kernel_openssl_aes256_xts, &kernel_openssl_aes128_gcm,
    &kernel_openssl_aes256_gcm, &kernel_openssl_chacha20_poly1305,
    &kernel_openssl_rc4, &kernel_openssl_des_ede3_cbc, &kernel_openssl_bf_cbc,
    &kernel_openssl_camellia_128_cbc, &kernel_openssl_camellia_256_cbc,
    &kernel_sodium_chacha20, &kernel_sodium_blake2b, &kernel_sodium_lioness,
    &kernel_sodium_aes256gcm, &kernel_sodium_poly1305,
    &kernel_sodium_chacha20poly1305_ietf, &kernel_sodium_xchacha20poly1305,
    NULL,
};

uint8_t *kernel_buffer(size_t len)
{
    size_t rounded = (len + 63) / 64 * 64;
    return aligned_alloc(64, rounded ? rounded : 64);
}

size_t kernel_same_length(const kernel *k, const kernel_args *a, size_t len)
{
    (void)k;
    (void)a;
    return len;
}

const kernel *kernel_find(const char *name)
{
    for (size_t i = 0; kernel_registry[i]; i++)
        if (strcmp(kernel_registry[i]->name, name) == 0)
            return kernel_registry[i];
    return NULL;
}

const isa_variant *kernel_variant_at(const kernel *k, size_t i)
{
    return isa_table_row(k->table, k->row_size, i);
}

const isa_variant *kernel_variant_find(const kernel *k, const char *isa)
{
    return isa_table_find(k->table, k->row_size, isa);
}

const isa_variant *kernel_best_variant(const kernel *k)
{
    const isa_variant *v;
    for (size_t i = 0; (v = kernel_variant_at(k, i)); i++)
        if (kernel_variant_usable(k, v))
            return v;
    return kernel_generic_variant(k);
}

const isa_variant *kernel_generic_variant(const kernel *k)
{
    const isa_variant *last = NULL, *v;
    for (size_t i = 0; (v = kernel_variant_at(k, i)); i++)
        last = v;
    return last;
}

/* Lengths around every block and batch boundary a variant may have
 * (64-byte ChaCha blocks in batches of 4, 8, 16; 128-byte BLAKE2b blocks),
 * plus Tor's cell payload. */
static const size_t self_test_lengths[] = {
    0, 1, 7, 63, 64, 65, 127, 128, 129, 255, 256, 257, 509, 511, 512, 513,
    1023, 1024, 1025, 2047, 2049, 4096,
};

size_t kernel_batch(const kernel *k)
{
    return k->batch ? k->batch : 1;
}

static int compare_on_length(const kernel *k, const isa_variant *v,
                             const kernel *ref_k, const kernel_args *a,
                             size_t len, char *err, size_t errlen)
{
    const isa_variant *ref = kernel_generic_variant(ref_k);
    size_t batch = kernel_batch(k);
    size_t out_len = k->out_len(k, a, len) * batch;
    uint8_t *in = malloc(len * batch + 1), *want = malloc(out_len + 1),
            *got = malloc(out_len + 1);
    int rc = -1;
    if (!in || !want || !got) {
        snprintf(err, errlen, "out of memory at %zu bytes", len);
        goto done;
    }
    for (size_t i = 0; i < len * batch; i++)
        in[i] = (uint8_t)(i * 7 + 3);
    int want_rc = ref_k->run(ref_k, ref, a, in, len, want);
    int got_rc = k->run(k, v, a, in, len, got);
    if (want_rc != got_rc || memcmp(want, got, out_len) != 0) {
        snprintf(err, errlen, "%s@%s differs from %s@%s at %zu bytes",
                 k->name, v->isa, ref_k->name, ref->isa, len);
        goto done;
    }
    rc = 0;
done:
    free(in);
    free(want);
    free(got);
    return rc;
}

int kernel_check_known_answer(const kernel *k, const isa_variant *v,
                              const kernel_args *a, const uint8_t *in,
                              size_t len, const uint8_t *want, size_t want_len,
                              const char *source, char *err, size_t errlen)
{
    uint8_t *got = malloc(want_len + 1);
    int ok = got && k->out_len(k, a, len) * kernel_batch(k) == want_len &&
             k->run(k, v, a, in, len, got) == 0 &&
             memcmp(got, want, want_len) == 0;
    free(got);
    if (ok)
        return 0;
    snprintf(err, errlen, "%s@%s fails its known answer (%s)", k->name,
             v->isa, source);
    return -1;
}

void kernel_prepare(const kernel *k, const isa_variant *v, kernel_args *a)
{
    a->n_secret = 0;
    if (k->prepare)
        k->prepare(k, v, a);
}

void kernel_release(const kernel *k, kernel_args *a)
{
    if (k->release && a->prepared)
        k->release(k, a);
    a->prepared = NULL;
    a->n_secret = 0;
}

void kernel_add_secret(kernel_args *a, const void *p, size_t len)
{
    /* A prepare hook that notes more regions than there is room for is a
     * bug in that hook: found by the first `make ctgrind`, never silent. */
    if (a->n_secret == KERNEL_MAX_SECRET_REGIONS) {
        fprintf(stderr, "cyclebench: more than %d secret regions in a "
                "prepared key: raise KERNEL_MAX_SECRET_REGIONS\n",
                KERNEL_MAX_SECRET_REGIONS);
        abort();
    }
    a->secret[a->n_secret++] = (kernel_region){ p, len };
}

/* Any fixed key serves; 32 bytes is a length BLAKE2b (1-64) accepts. */
static const uint8_t fixed_key[32] = "cyclebench fixed secret key.....";

void kernel_keyed_args(const kernel *k, kernel_args *a)
{
    k->bench_args(k, a);
    if ((k->options & KOPT_KEY) && !a->has_key) {
        a->key = fixed_key;
        a->key_len = sizeof fixed_key;
        a->has_key = 1;
    }
}

int kernel_variant_usable(const kernel *k, const isa_variant *v)
{
    return cpu_supports(v->required) && !(k->unavailable && k->unavailable(k));
}

int kernel_self_test(const kernel *k, const isa_variant *v, char *err,
                     size_t errlen)
{
    const kernel *ref_k = k->reference ? k->reference : k;
    kernel_args a;
    if (!kernel_variant_usable(k, v)) {
        snprintf(err, errlen, "%s@%s cannot run on this machine", k->name,
                 v->isa);
        return -1;
    }
    if (k->known_answer && k->known_answer(k, v, err, errlen))
        return -1;
    k->bench_args(k, &a);
    for (size_t i = 0; i < sizeof self_test_lengths / sizeof *self_test_lengths; i++) {
        size_t len = self_test_lengths[i];
        /* Lengths the kernel refuses (under LIONESS's 41 bytes, partial
         * blocks for a CBC cipher) are never run, so are not compared. */
        if (len < k->min_len || k->check(k, &a, len, err, errlen) != 0)
            continue;
        if (compare_on_length(k, v, ref_k, &a, len, err, errlen))
            return -1;
    }
    return 0;
}
