/* poly1305_blocks_avx512 compiled against tests/c/emulated/immintrin.h (and
 * linked with the real avx2 variant it hands mid-length calls to), checked
 * against the generic variant: lengths 0-2100 and beyond, random
 * and all-0xff keys and messages, misaligned, and fed in pieces that mix
 * the vector and scalar paths. Prints "# counts: P F S" as check.h does. */
#include <stdio.h>
#include <string.h>

#include "../../../kernels/poly1305/poly1305.h"

#define MAX_LEN 20000

static uint64_t seed = 99;

static uint64_t next(void) /* splitmix64 */
{
    uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)next();
}

static void auth_in_pieces(const poly1305_impl *impl, uint8_t tag[16],
                           const uint8_t *in, size_t len, const uint8_t *key)
{
    poly1305_state st;
    size_t full = len - len % 16, done = 0;
    poly1305_init(&st, key);
    while (done < full) {
        size_t step = (next() % 40) * 16;
        if (step > full - done)
            step = full - done;
        impl->blocks(&st, in + done, step, 1);
        done += step;
    }
    if (full < len) {
        uint8_t last[16] = { 0 };
        memcpy(last, in + full, len - full);
        last[len - full] = 1;
        impl->blocks(&st, last, 16, 0);
    }
    poly1305_finish(&st, tag);
}

int main(void)
{
    static const poly1305_impl emulated = { { "avx512", 0 },
                                            poly1305_blocks_avx512 };
    static const poly1305_impl generic = { { "generic", 0 },
                                           poly1305_blocks_generic };
    static uint8_t buf[MAX_LEN + 16];
    uint8_t key[32], got[16], want[16];
    int passed = 0, failed = 0;
    /* Mid-length calls go to the real poly1305_blocks_avx2. */
    if (!__builtin_cpu_supports("avx2")) {
        printf("SKIP poly1305@avx512 with emulated intrinsics: it hands "
               "mid-length calls to avx2, which this CPU lacks\n");
        printf("# counts: 0 0 1\n");
        return 0;
    }
    for (size_t len = 0; len <= MAX_LEN; len += len < 2100 ? 1 : 97) {
        for (int ones = 0; ones < 2; ones++) {
            uint8_t *in = buf + (ones ? 0 : next() % 16);
            if (ones) {
                memset(key, 0xff, sizeof key);
                memset(in, 0xff, len);
            } else {
                fill(key, sizeof key);
                fill(in, len);
            }
            poly1305_auth(&generic, want, in, len, key);
            poly1305_auth(&emulated, got, in, len, key);
            if (memcmp(got, want, 16) == 0) {
                auth_in_pieces(&emulated, got, in, len, key);
                if (memcmp(got, want, 16) == 0) {
                    passed++;
                    continue;
                }
            }
            if (failed++ < 10)
                printf("FAIL poly1305@avx512 (emulated) len %zu %s\n", len,
                       ones ? "all 0xff" : "random");
        }
    }
    printf("ok   poly1305@avx512 with emulated intrinsics == generic "
           "(%d lengths and keys)\n", passed);
    printf("# counts: %d %d 0\n", failed ? 0 : 1, failed ? 1 : 0);
    return failed != 0;
}
