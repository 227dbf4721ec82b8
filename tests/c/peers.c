#include "peers.h"

#include <stdlib.h>
#include <string.h>

#include "../../kernels/registry.h"
#include "check.h"

#define MAX_LEN 4200
#define SLACK 64 /* room for a tag and a misalignment */

/* A value in arg's accepted set: one of its list, or in its range (capped:
 * AAD, whose range is any length, stays short). */
static uint64_t accepted(const kernel_arg *arg, uint64_t *seed)
{
    if (arg->n_values)
        return arg->values[check_random(seed) % arg->n_values];
    uint64_t hi = arg->max < arg->min + 80 ? arg->max : arg->min + 80;
    return arg->min + check_random(seed) % (hi - arg->min + 1);
}

/* Counters near the 32- and 64-bit carries as well as small ones. */
static uint64_t counter(uint64_t *seed)
{
    uint64_t r = check_random(seed), back = r % 5;
    switch ((r >> 8) % 4) {
    case 0: return back;
    case 1: return 0xffffffffu - back;
    case 2: return UINT64_MAX - back;
    default: return r >> 16;
    }
}

/* Random args for k (its reference's spec), optional ones half the time,
 * bytes drawn into pool. */
static void random_args(const kernel *k, kernel_args *a, uint8_t *pool,
                        uint64_t *seed)
{
    *a = (kernel_args){ 0 };
    for (const kernel_arg *arg = kernel_spec(k); arg->option; arg++) {
        kernel_value *val = kernel_args_value(a, arg->option);
        const kernel_option_info *info = &kernel_options[arg->option];
        if (arg->option == KOPT_DECRYPT ||
            (!arg->required && check_random(seed) % 2))
            continue;
        val->set = 1;
        if (info->kind == KOPT_KIND_HEX) {
            val->len = (size_t)accepted(arg, seed);
            check_fill_random(pool, val->len, seed);
            val->bytes = pool;
            pool += val->len;
        } else if (arg->option == KOPT_COUNTER) {
            val->num = counter(seed);
        } else if (info->kind == KOPT_KIND_NUMBER) {
            val->num = arg->n_values || arg->max < UINT64_MAX
                           ? accepted(arg, seed) : check_random(seed);
        }
    }
}

static size_t random_len(const kernel *k, uint64_t *seed)
{
    size_t min = kernel_min_len(k), r = check_random(seed);
    switch (r % 4) {
    case 0: return min + (r >> 8) % 40;
    case 1: return 16 * ((r >> 8) % 260) + (r >> 20) % 3; /* near blocks */
    default: return min + (r >> 8) % (MAX_LEN - min);
    }
}

/* Runs k at v on in, copied to offset off of an in-place or separate
 * buffer; its output into got. */
static int run_placed(const kernel *k, const isa_variant *v,
                      const kernel_args *a, const uint8_t *in, size_t len,
                      size_t out_len, int in_place, size_t off, uint8_t *got)
{
    uint8_t *buf = malloc(MAX_LEN + 2 * SLACK), *src = buf + off;
    uint8_t *dst = in_place ? src : malloc(MAX_LEN + 2 * SLACK);
    memcpy(src, in, len);
    int rc = k->run(k, v, a, src, len, in_place ? dst : dst + off);
    memcpy(got, in_place ? dst : dst + off, out_len);
    if (!in_place)
        free(dst);
    free(buf);
    return rc;
}

static void differential(const kernel *k, const isa_variant *v, int trials,
                         uint64_t seed)
{
    const kernel *ref_k = k->reference;
    const isa_variant *ref_v = kernel_generic_variant(ref_k);
    static uint8_t pool[4096], in[MAX_LEN + SLACK], want[MAX_LEN + SLACK],
        got[MAX_LEN + SLACK], back[MAX_LEN + SLACK];
    char err[256];
    int failures = 0, decrypts = !!kernel_spec_find(k, KOPT_DECRYPT);
    for (int t = 0; t < trials && failures < 3; t++) {
        kernel_args a;
        size_t len;
        int tries = 0;
        do {
            random_args(k, &a, pool, &seed);
            len = random_len(k, &seed);
        } while (kernel_check(k, &a, len, err, sizeof err) && ++tries < 1000);
        if (!CHECK(tries < 1000, "no valid random args: %s", err))
            return;
        size_t out_len = kernel_out_len(k, &a, len);
        int in_place = (int)(check_random(&seed) % 2);
        size_t off = (size_t)(check_random(&seed) % 16);
        check_fill_random(in, len, &seed);
        int want_rc = ref_k->run(ref_k, ref_v, &a, in, len, want);
        int rc = run_placed(k, v, &a, in, len, out_len, in_place, off, got);
        failures += !CHECK(rc == want_rc && memcmp(got, want, out_len) == 0,
                           "differs from %s at %zu bytes (in place %d, offset "
                           "%zu)", ref_k->name, len, in_place, off);
        if (!decrypts)
            continue;
        a.decrypt = KERNEL_FLAG;
        if (kernel_check(k, &a, out_len, err, sizeof err) != 0)
            continue;
        rc = run_placed(k, v, &a, got, out_len, len, !in_place, off, back);
        failures += !CHECK(rc == 0 && memcmp(back, in, len) == 0,
                           "does not decrypt its own output at %zu bytes",
                           len);
        if (out_len == len)
            continue;
        got[out_len - 1] ^= 1; /* the tag */
        failures += !CHECK(run_placed(k, v, &a, got, out_len, 0, in_place, off,
                                      back) == 1,
                           "accepts a wrong tag at %zu bytes", len);
    }
}

void check_peer(const char *name, int trials, uint64_t seed)
{
    const kernel *k = kernel_find(name);
    const isa_variant *v;
    char err[256], why[256];
    CASE("%s: registered, usable, self-test, %d random messages vs its "
         "reference", name, trials);
    if (!CHECK(k && k->reference, "kernel_find(\"%s\") is NULL or has no "
               "reference", name))
        return;
    for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
        if (!CHECK(!kernel_variant_refusal(k, v, why, sizeof why),
                   "%s@%s unusable: %s (ci/install-deps.sh provides it)",
                   name, v->isa, why))
            continue;
        if (CHECK(kernel_self_test(k, v, err, sizeof err) == 0, "%s", err))
            differential(k, v, trials, seed);
    }
}

void check_gcrypt_peer(const char *name, int trials, uint64_t seed)
{
#ifdef CB_HAVE_GCRYPT
    check_peer(name, trials, seed);
#else
    const kernel *k = kernel_find(name);
    const char *why = k && k->unavailable ? k->unavailable(k) : NULL;
    (void)trials, (void)seed;
    CASE("%s: listed as unavailable in a build without libgcrypt", name);
    CHECK(why && strstr(why, "libgcrypt"), "%s: %s", name,
          why ? why : "available, or not registered");
#endif
}
