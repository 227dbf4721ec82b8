/* A 16-byte block as one value (a GCC vector: SSE2 on x86-64, NEON on
 * arm64, which every CPU of either has), loaded and stored at once. A
 * block put together byte by byte, or from narrower pieces, cannot forward
 * its stores to the 16-byte load that reads it next (an AES or POLYVAL
 * row's), which then waits until every store before it has left the core:
 * the portable code that lays out blocks for the ISA rows (AES's modes,
 * AES-GCM-SIV's per-nonce blocks) builds them in a register and stores
 * them once. Lane 0 is bytes 0-7, little-endian. */
#ifndef CYCLEBENCH_BLOCK16_H
#define CYCLEBENCH_BLOCK16_H

#include <stdint.h>
#include <string.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "block16's lanes are little-endian words");

typedef uint64_t block16 __attribute__((vector_size(16)));

static inline __attribute__((always_inline)) block16
block16_load(const uint8_t p[16])
{
    block16 v;
    memcpy(&v, p, 16);
    return v;
}

static inline __attribute__((always_inline)) void block16_store(uint8_t p[16],
                                                                block16 v)
{
    memcpy(p, &v, 16);
}

#endif
