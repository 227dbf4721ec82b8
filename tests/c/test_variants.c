/* Every ISA variant of every kernel against that kernel's generic variant,
 * at every length 0-1100, at odd buffer offsets and in place, through the
 * same registry entry points that `kat` and the benchmarks use; kernels
 * with a decryption are compared opening generic's output too; and every
 * variant returns with the upper halves of the ymm registers clear (on
 * x86-64). */
#include <stdlib.h>
#include <string.h>

#include "../../kernels/registry.h"
#include "check.h"

#define MAX_LEN 1100

/* (input offset, output offset); -1 as output means in place. */
static const int offsets[][2] = { { 0, 0 }, { 1, 3 }, { 7, 5 }, { 3, -1 } };

/* Room for a message of MAX_LEN and what a kernel adds to it (a tag). */
#define MAX_OUT (MAX_LEN + 80)

/* v and generic on the batch of messages of len bytes at in: v's output
 * goes to out, generic's to want, and its length to *out_len. Returns 0,
 * or -1 after a failure. (An empty output is no failure.) */
static int compare_at(const kernel *k, const isa_variant *v,
                      const kernel_args *a, uint8_t *in, size_t len,
                      uint8_t *want, int out_offset, uint8_t *out_buf,
                      const char *what, size_t *out_len)
{
    size_t batch = kernel_batch(k);
    int in_place = out_offset < 0;
    *out_len = kernel_out_len(k, a, len) * batch;
    /* In place only where output and input are the same size. */
    if (in_place && *out_len != len * batch)
        return 0;
    uint8_t *out = in_place ? in : out_buf + out_offset;
    k->run(k, kernel_generic_variant(k), a, in, len, want);
    k->run(k, v, a, in, len, out);
    return CHECK(memcmp(out, want, *out_len) == 0, "%s len %zu out%+d", what,
                 len, out_offset) ? 0 : -1;
}

/* Every length both ways: kernels with a decryption (CBC, XTS, GCM,
 * LIONESS, the AEADs) also open generic's output, at the same offsets. */
static void compare_variant(const kernel *k, const isa_variant *v)
{
    size_t batch = kernel_batch(k);
    uint8_t *in_buf = malloc(MAX_OUT * batch + 16),
            *out_buf = malloc(MAX_OUT * batch + 16),
            *want = malloc(MAX_OUT * batch);
    kernel_args a, d;
    kernel_bench_args(k, &a);
    d = a;
    d.decrypt = KERNEL_FLAG;
    if (!CHECK(in_buf && out_buf && want, "out of memory"))
        goto done;
    for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
        for (size_t len = k->min_len; len <= MAX_LEN; len++) {
            uint8_t *in = in_buf + offsets[o][0];
            char err[256];
            /* run() takes checked lengths only (Tor's cell kernels whole
             * 509-byte cells), as the self-test gate runs it. */
            if (kernel_check(k, &a, len, err, sizeof err))
                continue;
            for (size_t i = 0; i < len * batch; i++)
                in[i] = (uint8_t)(i * 31 + len);
            size_t sealed, opened;
            if (compare_at(k, v, &a, in, len, want, offsets[o][1], out_buf,
                           "encrypt", &sealed))
                goto done;
            if (!(kernel_spec_find(k, KOPT_DECRYPT)))
                continue;
            memcpy(in, want, sealed);
            if (compare_at(k, v, &d, in, sealed / batch, want, offsets[o][1],
                           out_buf, "decrypt", &opened))
                goto done;
        }
    }
done:
    free(in_buf);
    free(out_buf);
    free(want);
}

#if defined(__x86_64__)
#include <cpuid.h>

/* XINUSE (xgetbv with ecx 1) bit 2: ymm0-15's upper halves are not all
 * known zero. Only where the CPU has AVX, the OS saves its state and
 * xgetbv takes ecx 1 (CPUID 0xd.1 eax bit 2). */
static int ymm_upper_trackable(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) ||
        !(c & bit_AVX))
        return 0;
    return __get_cpuid_count(0xd, 1, &a, &b, &c, &d) && (a & (1u << 2));
}

static int ymm_upper_dirty(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
    return lo & (1u << 2);
}

/* A variant that leaves them dirty (a vector path that tail-calls
 * without vzeroupper) makes every later legacy-SSE instruction of its
 * caller pay a state transition: on the Xeon (family 6, model 207) that
 * made a 64-byte Poly1305 1.6 to 7 times slower, and nothing else shows
 * it. */
static void check_upper_clear(const kernel *k, const isa_variant *v)
{
    static const size_t lens[] = { 0, 64, 509, 1100, 16389 };
    size_t batch = kernel_batch(k);
    uint8_t *in = calloc(16389 * batch, 1), *out = malloc(16500 * batch);
    kernel_args a;
    kernel_bench_args(k, &a);
    if (!CHECK(in && out, "out of memory"))
        goto done;
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t len = lens[i] < k->min_len ? k->min_len : lens[i];
        char err[256];
        if (kernel_check(k, &a, len, err, sizeof err))
            continue;
        __asm__ volatile("vzeroupper");
        k->run(k, v, &a, in, len, out);
        if (!CHECK(!ymm_upper_dirty(), "len %zu: upper halves left dirty",
                   len))
            break;
    }
done:
    free(in);
    free(out);
}

/* aarch64 has no state a variant could leave dirty this way. */
static void test_upper_state_clear(void)
{
    for (size_t i = 0; kernel_registry[i]; i++) {
        const kernel *k = kernel_registry[i];
        const isa_variant *v;
        if (k->reference)
            continue; /* other libraries' code is theirs to fix */
        for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
            CASE("%s@%s returns with the ymm upper halves clear", k->name,
                 v->isa);
            if (!kernel_variant_usable(k, v))
                SKIP("%s not supported by this CPU", v->isa);
            else if (!ymm_upper_trackable())
                SKIP("this CPU cannot report the ymm state (XINUSE)");
            else
                check_upper_clear(k, v);
        }
    }
}
#endif

/* chacha20, except that every variant but generic flips one output bit
 * of messages longer than 100 bytes; generic fails its known answer when
 * known_answers_break is set. */
static int known_answers_break;

static int flipping_run(const kernel *k, const isa_variant *v,
                        const kernel_args *a, const uint8_t *in, size_t len,
                        uint8_t *out)
{
    int rc = kernel_chacha20.run(k, v, a, in, len, out);
    int generic = v == kernel_generic_variant(k);
    if ((!generic && len > 100) || (generic && known_answers_break))
        out[len / 2] ^= 1;
    return rc;
}

static void test_self_test_refuses_broken_variants(void)
{
    kernel broken = kernel_chacha20;
    char err[256];
    broken.run = flipping_run;
    CASE("the gate before timing refuses a variant that differs or fails "
         "its known answer");
    for (size_t j = 0; kernel_variant_at(&broken, j); j++) {
        const isa_variant *v = kernel_variant_at(&broken, j);
        if (!kernel_variant_usable(&broken, v))
            continue;
        int is_generic = v == kernel_generic_variant(&broken);
        known_answers_break = 0;
        CHECK((kernel_self_test(&broken, v, err, sizeof err) != 0) ==
                  !is_generic,
              "%s: self-test %s", v->isa, is_generic ? "refused" : "passed");
        known_answers_break = 1;
        CHECK(!is_generic || kernel_self_test(&broken, v, err, sizeof err),
              "generic with a wrong known answer passed");
    }
}

int main(void)
{
    test_self_test_refuses_broken_variants();
    for (size_t i = 0; kernel_registry[i]; i++) {
        const kernel *k = kernel_registry[i];
        const isa_variant *v, *ref = kernel_generic_variant(k);
        if (k->reference)
            continue; /* external kernels are compared in their own tests */
        for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
            if (v == ref)
                continue;
            CASE("%s@%s == %s@%s, lengths 0-%d, odd offsets, in place%s",
                 k->name, v->isa, k->name, ref->isa, MAX_LEN,
                 kernel_spec_find(k, KOPT_DECRYPT) ? ", both ways" : "");
            if (!kernel_variant_usable(k, v)) {
                SKIP("%s not supported by this CPU", v->isa);
                continue;
            }
            compare_variant(k, v);
        }
    }
#if defined(__x86_64__)
    test_upper_state_clear();
#endif
    return check_finish();
}
