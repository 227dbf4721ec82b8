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
#define N_OFFSETS (sizeof offsets / sizeof offsets[0])

/* Generic's outputs for one kernel, computed once and compared against
 * each of its variants (generic's run, not the comparisons, was most of
 * this program's time, repeated once per variant). For each input offset
 * and length: what generic sealed from the pattern input there, and what
 * it opened from that (kernels with a decryption). */
typedef struct {
    uint8_t *bytes; /* every output, one after another */
    size_t at[N_OFFSETS][MAX_LEN + 1][2]; /* where each starts */
    size_t len[N_OFFSETS][MAX_LEN + 1][2]; /* and its length */
    int have[N_OFFSETS][MAX_LEN + 1]; /* kernel_check takes this length */
} generic_outputs;

static void fill_input(uint8_t *in, size_t n, size_t len)
{
    for (size_t i = 0; i < n; i++)
        in[i] = (uint8_t)(i * 31 + len);
}

/* Runs generic at every offset and length; 0, or -1 out of memory. The
 * encryption reads the pattern at the offset, the decryption generic's own
 * sealed output copied there, as the variants' runs do. */
static int generic_run_all(const kernel *k, const kernel_args *a,
                           const kernel_args *d, generic_outputs *g)
{
    size_t batch = kernel_batch(k), used = 0, room = 0;
    const isa_variant *ref = kernel_generic_variant(k);
    int opens = kernel_spec_find(k, KOPT_DECRYPT) != NULL;
    uint8_t *in_buf = malloc(MAX_OUT * batch + 16);
    int rc = in_buf ? 0 : -1;
    g->bytes = NULL;
    for (size_t o = 0; rc == 0 && o < N_OFFSETS; o++) {
        for (size_t len = k->min_len; rc == 0 && len <= MAX_LEN; len++) {
            uint8_t *in = in_buf + offsets[o][0];
            char err[256];
            g->have[o][len] = !kernel_check(k, a, len, err, sizeof err);
            if (!g->have[o][len])
                continue;
            if (used + 2 * MAX_OUT * batch > room) {
                room = 2 * room + 4 * MAX_OUT * batch;
                uint8_t *grown = realloc(g->bytes, room);
                if (!grown) {
                    rc = -1;
                    break;
                }
                g->bytes = grown;
            }
            fill_input(in, len * batch, len);
            uint8_t *sealed = g->bytes + used;
            size_t n = kernel_out_len(k, a, len) * batch;
            k->run(k, ref, a, in, len, sealed);
            g->at[o][len][0] = used;
            g->len[o][len][0] = n;
            used += n;
            if (!opens)
                continue;
            memcpy(in, sealed, n);
            g->at[o][len][1] = used;
            g->len[o][len][1] = kernel_out_len(k, d, n / batch) * batch;
            k->run(k, ref, d, in, n / batch, g->bytes + used);
            used += g->len[o][len][1];
        }
    }
    free(in_buf);
    return rc;
}

/* v on the batch of messages of len bytes at in, against generic's output
 * want of want_len bytes: v's output goes to out_buf at the offset (in
 * place when it is -1, where output and input are the same size). Returns
 * 0, or -1 after a failure. (An empty output is no failure.) */
static int compare_at(const kernel *k, const isa_variant *v,
                      const kernel_args *a, uint8_t *in, size_t len,
                      const uint8_t *want, size_t want_len, int out_offset,
                      uint8_t *out_buf, const char *what)
{
    size_t batch = kernel_batch(k);
    int in_place = out_offset < 0;
    size_t out_len = kernel_out_len(k, a, len) * batch;
    if (in_place && out_len != len * batch)
        return 0;
    uint8_t *out = in_place ? in : out_buf + out_offset;
    k->run(k, v, a, in, len, out);
    return CHECK(out_len == want_len && memcmp(out, want, out_len) == 0,
                 "%s len %zu out%+d", what, len, out_offset)
               ? 0
               : -1;
}

/* Every length both ways: kernels with a decryption (CBC, XTS, GCM,
 * LIONESS, the AEADs) also open generic's output, at the same offsets. */
static void compare_variant(const kernel *k, const isa_variant *v,
                            const kernel_args *a, const kernel_args *d,
                            const generic_outputs *g)
{
    size_t batch = kernel_batch(k);
    uint8_t *in_buf = malloc(MAX_OUT * batch + 16),
            *out_buf = malloc(MAX_OUT * batch + 16);
    /* Running out of memory fails the case; it is no check of its own, or
     * a case in which every length is refused would pass having compared
     * nothing (such a case fails now: it ran no checks). */
    if (!in_buf || !out_buf) {
        CHECK(0, "out of memory");
        goto done;
    }
    for (size_t o = 0; o < N_OFFSETS; o++) {
        for (size_t len = k->min_len; len <= MAX_LEN; len++) {
            uint8_t *in = in_buf + offsets[o][0];
            /* run() takes checked lengths only (Tor's cell kernels whole
             * 509-byte cells), as the self-test gate runs it. */
            if (!g->have[o][len])
                continue;
            const uint8_t *sealed = g->bytes + g->at[o][len][0];
            size_t sealed_len = g->len[o][len][0];
            fill_input(in, len * batch, len);
            if (compare_at(k, v, a, in, len, sealed, sealed_len,
                           offsets[o][1], out_buf, "encrypt"))
                goto done;
            if (!(kernel_spec_find(k, KOPT_DECRYPT)))
                continue;
            memcpy(in, sealed, sealed_len);
            if (compare_at(k, v, d, in, sealed_len / batch,
                           g->bytes + g->at[o][len][1], g->len[o][len][1],
                           offsets[o][1], out_buf, "decrypt"))
                goto done;
        }
    }
done:
    free(in_buf);
    free(out_buf);
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
    if (!in || !out) {
        CHECK(0, "out of memory");
        goto done;
    }
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
        kernel_args a, d;
        kernel_bench_args(k, &a);
        d = a;
        d.decrypt = KERNEL_FLAG;
        generic_outputs *g = NULL;
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
            if (!g && (!(g = calloc(1, sizeof *g)) ||
                       generic_run_all(k, &a, &d, g))) {
                CHECK(0, "out of memory");
                break;
            }
            compare_variant(k, v, &a, &d, g);
        }
        if (g)
            free(g->bytes);
        free(g);
    }
#if defined(__x86_64__)
    test_upper_state_clear();
#endif
    return check_finish();
}
