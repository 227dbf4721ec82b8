/* Known answers that gate the nh kernel. The shared vectors hold no NH
 * vectors of their own (Adiantum's are of the whole cipher), so these were
 * computed outside this code, by a direct reading of NH's definition
 * (nh.h: each word read little-endian from the key's bytes, no pairing
 * order), and tests/c/test_nh.c computes them again from that definition
 * in C. Key and messages come from one rule, nh_known_fill, so that no
 * 1072-byte key is written out: a 32-bit linear congruential generator
 * (x = 1103515245 x + 12345 mod 2^32, seeded with 1 for the key and 2 for
 * the message), its top byte after each step. Included by nh.c and
 * test_nh.c only. */
#ifndef CYCLEBENCH_NH_KNOWN_ANSWERS_H
#define CYCLEBENCH_NH_KNOWN_ANSWERS_H

#include <stddef.h>
#include <stdint.h>

#define NH_KNOWN_KEY_SEED 1
#define NH_KNOWN_MESSAGE_SEED 2
#define NH_KNOWN_LEN_MAX 1100

static inline void nh_known_fill(uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (uint8_t)(seed >> 24);
    }
}

/* A message of two pieces, the second ending in a partial unit, and one
 * of a single unit. */
static const struct {
    size_t len;
    const char *hash;
} nh_known[] = {
    { 1100, "5b2e242eccaa2c09ba6b3e9b09b9094705503f13a3eadf097770008fd854d31c"
            "ffaddf41da3368a33147109f6be63a9213c33271c3acf007edc94b1da86b6601" },
    { 16, "dfc860100fc6991ca08a3a1dabc28671ebec6e3937f764ba5850549abc89129c" },
};

#endif
