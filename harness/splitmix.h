#ifndef CYCLEBENCH_SPLITMIX_H
#define CYCLEBENCH_SPLITMIX_H

#include <stdint.h>

/* splitmix64: a well-mixed sequence from any seed, enough to shuffle the
 * run order and to seed the leak test's generator. */
static inline uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

#endif
