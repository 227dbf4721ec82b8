/* Portable NH: one unit at a time, the four passes side by side. */
#include "nh.h"

#include <string.h>

/* One pass's term for a unit: w holds the pass's key words in pairing
 * order (k0, k2, k1, k3). */
static inline __attribute__((always_inline)) uint64_t
nh_term_generic(const uint32_t m[4], const uint32_t *w)
{
    return (uint64_t)(uint32_t)(m[0] + w[0]) * (uint32_t)(m[2] + w[1]) +
           (uint64_t)(uint32_t)(m[1] + w[2]) * (uint32_t)(m[3] + w[3]);
}

void nh_sums_generic(const uint32_t *key, const uint8_t *msg, size_t len,
                     uint64_t sums[NH_PASSES])
{
    uint64_t s0 = sums[0], s1 = sums[1], s2 = sums[2], s3 = sums[3];
    for (; len; len -= NH_UNIT_BYTES, msg += NH_UNIT_BYTES, key += 4) {
        uint32_t m[4];
        memcpy(m, msg, sizeof m); /* little-endian words, as on x86-64 */
        s0 += nh_term_generic(m, key);
        s1 += nh_term_generic(m, key + 4);
        s2 += nh_term_generic(m, key + 8);
        s3 += nh_term_generic(m, key + 12);
    }
    sums[0] = s0;
    sums[1] = s1;
    sums[2] = s2;
    sums[3] = s3;
}
