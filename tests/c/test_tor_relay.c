/* tor1, Tor's relay crypto before CGO, on every AES ISA against the same
 * crypto composed from OpenSSL alone (EVP AES-128-CTR and SHA-1), over runs
 * of cells on one circuit, so the running digest and counter carry from
 * cell to cell: tor1-relay-originate (and tor-relay-cell, its old name)
 * digest then encrypt; tor1-relay-forward decrypts and checks the digest
 * only of cells whose recognized field is zero, keeping it (field zeroed)
 * when it matches and restoring both when it does not. */
#include <openssl/evp.h>
#include <string.h>

#include "../../kernels/registry.h"
#include "check.h"

#define CELL 509
#define CELLS 6
/* 32 blocks per 509-byte cell. */
#define CELL_BLOCKS ((CELL + 15) / 16)

static const uint8_t seed[20] = "cyclebench relay sha";

/* AES-128-CTR over a cell from counter block cell_index * CELL_BLOCKS (the
 * low byte never carries in the runs here). */
static int openssl_ctr(const uint8_t key[16], uint8_t *cell, int cell_index)
{
    uint8_t counter[16] = { 0 };
    EVP_CIPHER_CTX *aes = EVP_CIPHER_CTX_new();
    int n, ok;
    counter[15] = (uint8_t)(cell_index * CELL_BLOCKS);
    counter[14] = (uint8_t)(cell_index * CELL_BLOCKS >> 8);
    ok = aes && EVP_EncryptInit_ex(aes, EVP_aes_128_ctr(), NULL, key, counter) &&
         EVP_EncryptUpdate(aes, cell, &n, cell, CELL);
    EVP_CIPHER_CTX_free(aes);
    return ok;
}

/* The running digest: seeded, then updated with each digested cell. */
typedef struct reference_digest {
    EVP_MD_CTX *running, *copy;
} reference_digest;

static int digest_start(reference_digest *d)
{
    d->running = EVP_MD_CTX_new();
    d->copy = EVP_MD_CTX_new();
    return d->running && d->copy &&
           EVP_DigestInit_ex(d->running, EVP_sha1(), NULL) &&
           EVP_DigestUpdate(d->running, seed, sizeof seed);
}

/* The cell's digest field set as the originator sets it. */
static int digest_cell(reference_digest *d, uint8_t *cell)
{
    uint8_t digest[EVP_MAX_MD_SIZE];
    memset(cell + 5, 0, 4);
    int ok = EVP_DigestUpdate(d->running, cell, CELL) &&
             EVP_MD_CTX_copy_ex(d->copy, d->running) &&
             EVP_DigestFinal_ex(d->copy, digest, NULL);
    memcpy(cell + 5, digest, 4);
    return ok;
}

static void digest_free(reference_digest *d)
{
    EVP_MD_CTX_free(d->running);
    EVP_MD_CTX_free(d->copy);
}

/* The expected originated cells: digested, then encrypted. */
static int openssl_cells(const uint8_t key[16], uint8_t cells[CELLS][CELL])
{
    reference_digest d;
    int ok = digest_start(&d);
    for (int c = 0; ok && c < CELLS; c++)
        ok = digest_cell(&d, cells[c]) && openssl_ctr(key, cells[c], c);
    digest_free(&d);
    return ok;
}

/* k on every ISA over n cells of one circuit (prepared: the state
 * carries), each against its expected output. */
static void test_circuit(const kernel *k, const char *what, const uint8_t *in,
                         const uint8_t *want, int n, int have_reference)
{
    const isa_variant *v;
    uint8_t got[CELL];
    kernel_args a;
    kernel_bench_args(k, &a);
    for (size_t i = 0; (v = kernel_variant_at(k, i)); i++) {
        CASE("%s@%s == %s, %d cells on one circuit", k->name, v->isa, what,
             n);
        if (!kernel_variant_usable(k, v)) {
            SKIP("%s not supported by this CPU", v->isa);
            continue;
        }
        if (!CHECK(have_reference, "OpenSSL reference failed"))
            continue;
        kernel_args circuit = a;
        kernel_prepare(k, v, &circuit);
        for (int c = 0; c < n; c++) {
            CHECK(k->run(k, v, &circuit, in + CELL * c, CELL, got) == 0,
                  "cell %d failed", c);
            CHECK(memcmp(got, want + CELL * c, CELL) == 0, "cell %d differs",
                  c);
        }
        kernel_release(k, &circuit);
    }
}

/* Four cells at a middle relay: originated for it (recognized, digest
 * matches: field zeroed), someone else's (recognized field not zero: only
 * decrypted), a forged one (recognized field zero, digest wrong: field kept
 * and the digest restored), originated again (matches only if the forged
 * cell left the digest as it was). */
enum { ORIGINATED, OTHERS, FORGED, ORIGINATED_AGAIN, FORWARD_CELLS };

static int forward_reference(const uint8_t key[16],
                             uint8_t plain[FORWARD_CELLS][CELL],
                             uint8_t cipher[FORWARD_CELLS][CELL],
                             uint8_t want[FORWARD_CELLS][CELL])
{
    reference_digest d;
    uint64_t rnd = 17;
    int ok = digest_start(&d);
    check_fill_random(&plain[0][0], FORWARD_CELLS * CELL, &rnd);
    for (int c = 0; c < FORWARD_CELLS; c++) {
        plain[c][1] = c == OTHERS ? 0x5a : 0;
        plain[c][2] = 0;
    }
    ok = ok && digest_cell(&d, plain[ORIGINATED]) &&
         digest_cell(&d, plain[ORIGINATED_AGAIN]);
    for (int c = 0; c < FORWARD_CELLS; c++) {
        memcpy(want[c], plain[c], CELL);
        memcpy(cipher[c], plain[c], CELL);
        ok = ok && openssl_ctr(key, cipher[c], c);
    }
    memset(want[ORIGINATED] + 5, 0, 4);
    memset(want[ORIGINATED_AGAIN] + 5, 0, 4);
    digest_free(&d);
    return ok;
}

static void test_forward(void)
{
    uint8_t plain[FORWARD_CELLS][CELL], cipher[FORWARD_CELLS][CELL],
        want[FORWARD_CELLS][CELL];
    kernel_args a;
    kernel_bench_args(&kernel_tor1_relay_forward, &a);
    int have_reference = forward_reference(a.key.bytes, plain, cipher, want);
    test_circuit(&kernel_tor1_relay_forward,
                 "OpenSSL AES-128-CTR then the digest check of recognized "
                 "cells", cipher[0], want[0], FORWARD_CELLS, have_reference);
}

int main(void)
{
    uint64_t rnd = 5;
    uint8_t plain[CELLS][CELL], want[CELLS][CELL];
    kernel_args a;
    kernel_bench_args(&kernel_tor1_relay_originate, &a);
    check_fill_random(&plain[0][0], sizeof plain, &rnd);
    memcpy(want, plain, sizeof want);
    int have_reference = openssl_cells(a.key.bytes, want);
    test_circuit(&kernel_tor1_relay_originate, "OpenSSL SHA-1 then "
                 "AES-128-CTR", plain[0], want[0], CELLS, have_reference);
    test_circuit(&kernel_tor_relay_cell, "OpenSSL SHA-1 then AES-128-CTR",
                 plain[0], want[0], CELLS, have_reference);
    test_forward();
    return check_finish();
}
