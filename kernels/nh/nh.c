/* The NH implementation table, the key in pairing order, and the padding
 * of a last partial unit, the same for every ISA. */
#include "nh.h"

#include <string.h>

const nh_impl nh_impls[] = {
    { { "avx512", CPU_AVX512 }, nh_sums_avx512 },
    { { "avx2", CPU_AVX2 }, nh_sums_avx2 },
    { { "sse2", CPU_SSE2 }, nh_sums_sse2 },
    { { "generic", 0 }, nh_sums_generic },
    { { NULL, 0 }, NULL },
};

void nh_setup(nh_key *k, const uint8_t bytes[NH_KEY_BYTES])
{
    static const unsigned pairing[4] = { 0, 2, 1, 3 };
    /* x86-64 is little-endian, as NH's words are. */
    for (size_t i = 0; i < NH_KEY_WORDS; i++)
        memcpy(&k->w[i], bytes + 4 * (i - i % 4 + pairing[i % 4]), 4);
}

void nh_hash(const nh_impl *impl, const nh_key *k, const uint8_t *msg,
             size_t len, uint8_t hash[NH_HASH_BYTES])
{
    uint64_t sums[NH_PASSES] = { 0 };
    size_t full = len - len % NH_UNIT_BYTES;
    if (full)
        impl->sums(k->w, msg, full, sums);
    if (full < len) {
        uint8_t last[NH_UNIT_BYTES] = { 0 };
        memcpy(last, msg + full, len - full);
        impl->sums(k->w + full / 4, last, sizeof last, sums);
    }
    for (int p = 0; p < NH_PASSES; p++)
        for (int i = 0; i < 8; i++)
            hash[8 * p + i] = (uint8_t)(sums[p] >> (8 * i));
}
