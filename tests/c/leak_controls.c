#include "leak_controls.h"

#include <stdlib.h>

#define TABLE_LINES (1u << 16) /* 64 KiB lines of 64 bytes: 4 MiB */

int control_early_exit_equal(const uint8_t *secret, const uint8_t *guess)
{
    for (size_t i = 0; i < CONTROL_SECRET_BYTES; i++)
        if (secret[i] != guess[i])
            return 0;
    return 1;
}

/* Written once, so that every page is its own (untouched pages would all
 * be the one zero page, which the caches hold as a single page). */
static const uint8_t *table(void)
{
    static uint8_t *t;
    if (!t && (t = malloc((size_t)TABLE_LINES * 64)))
        for (size_t i = 0; i < (size_t)TABLE_LINES * 64; i++)
            t[i] = (uint8_t)(i * 2654435761u >> 13);
    return t;
}

uint32_t control_table_lookup(const uint8_t *secret)
{
    const uint8_t *t = table();
    uint32_t sum = 0;
    if (!t)
        abort();
    for (size_t i = 0; i < CONTROL_SECRET_BYTES; i += 2) {
        size_t line = (size_t)secret[i] | (size_t)secret[i + 1] << 8;
        sum += t[line * 64];
    }
    return sum;
}

int control_constant_time_equal(const uint8_t *secret, const uint8_t *guess)
{
    unsigned diff = 0;
    for (size_t i = 0; i < CONTROL_SECRET_BYTES; i++)
        diff |= (unsigned)(secret[i] ^ guess[i]);
    /* 1 when diff is 0: (diff - 1) borrows into bit 8 only then. */
    return (int)(((diff - 1) >> 8) & 1);
}
