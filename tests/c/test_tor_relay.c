/* tor-relay-cell on every AES ISA against the same relay crypto composed
 * from OpenSSL alone (EVP AES-128-CTR and SHA-1), over a run of cells on
 * one circuit, so the running digest and counter carry from cell to cell. */
#include <openssl/evp.h>
#include <string.h>

#include "../../kernels/registry.h"
#include "check.h"

#define CELL 509
#define CELLS 6

static const uint8_t seed[20] = "cyclebench relay sha";

/* The expected cells: digest of all cells so far (digest field zeroed),
 * its first 4 bytes at offset 5, then AES-128-CTR from the next whole
 * counter block. */
static int openssl_cells(const uint8_t key[16], uint8_t cells[CELLS][CELL])
{
    EVP_MD_CTX *running = EVP_MD_CTX_new(), *copy = EVP_MD_CTX_new();
    EVP_CIPHER_CTX *aes = EVP_CIPHER_CTX_new();
    uint8_t counter[16] = { 0 }, digest[EVP_MAX_MD_SIZE];
    int ok = running && copy && aes &&
             EVP_DigestInit_ex(running, EVP_sha1(), NULL) &&
             EVP_DigestUpdate(running, seed, sizeof seed);
    for (int c = 0; ok && c < CELLS; c++) {
        int n;
        memset(cells[c] + 5, 0, 4);
        ok = EVP_DigestUpdate(running, cells[c], CELL) &&
             EVP_MD_CTX_copy_ex(copy, running) &&
             EVP_DigestFinal_ex(copy, digest, NULL);
        memcpy(cells[c] + 5, digest, 4);
        ok = ok && EVP_EncryptInit_ex(aes, EVP_aes_128_ctr(), NULL, key,
                                      counter) &&
             EVP_EncryptUpdate(aes, cells[c], &n, cells[c], CELL);
        /* 32 blocks per 509-byte cell: the low byte never carries here. */
        counter[15] = (uint8_t)(counter[15] + (CELL + 15) / 16);
    }
    EVP_MD_CTX_free(running);
    EVP_MD_CTX_free(copy);
    EVP_CIPHER_CTX_free(aes);
    return ok;
}

int main(void)
{
    const kernel *k = &kernel_tor_relay_cell;
    uint64_t rnd = 5;
    uint8_t plain[CELLS][CELL], want[CELLS][CELL], got[CELL];
    kernel_args a;
    kernel_bench_args(k, &a);
    check_fill_random(&plain[0][0], sizeof plain, &rnd);
    memcpy(want, plain, sizeof want);
    int have_reference = openssl_cells(a.key.bytes, want);
    const isa_variant *v;
    for (size_t i = 0; (v = kernel_variant_at(k, i)); i++) {
        CASE("tor-relay-cell@%s == OpenSSL AES-128-CTR + SHA-1, %d cells on "
             "one circuit", v->isa, CELLS);
        if (!kernel_variant_usable(k, v)) {
            SKIP("%s not supported by this CPU", v->isa);
            continue;
        }
        if (!CHECK(have_reference, "OpenSSL reference failed"))
            continue;
        kernel_args circuit = a;
        kernel_prepare(k, v, &circuit);
        for (int c = 0; c < CELLS; c++) {
            CHECK(k->run(k, v, &circuit, plain[c], CELL, got) == 0,
                  "cell %d failed", c);
            CHECK(memcmp(got, want[c], CELL) == 0, "cell %d differs", c);
        }
        kernel_release(k, &circuit);
    }
    return check_finish();
}
