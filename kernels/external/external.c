#include "external.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>

const isa_variant external_row[2] = { { "external", 0 }, { NULL, 0 } };

int external_check(const kernel *k, const kernel_args *a, size_t len,
                   char *err, size_t errlen)
{
    return k->reference->check(k->reference, a, len, err, errlen);
}

size_t external_out_len(const kernel *k, const kernel_args *a, size_t len)
{
    return k->reference->out_len(k->reference, a, len);
}

void external_bench_args(const kernel *k, kernel_args *a)
{
    k->reference->bench_args(k->reference, a);
}

const char *external_sodium_unavailable(const kernel *k)
{
    (void)k;
    return sodium_init() < 0 ? "libsodium failed to initialise" : NULL;
}

void external_openssl_must(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "cyclebench: OpenSSL failed in %s\n", what);
        abort();
    }
}
