/* The first round's quarter-rounds on columns 1-3, done once a message for
 * the vector rows' batches. Those columns hold no counter word but 13, so
 * in a batch where no lane's counter carries into word 13 they are the same
 * in every block, and the same from batch to batch while word 13 is: a
 * batch can start them from these words (chacha_first_columns) and run
 * only column 0's quarter-round of its first round. Internal to
 * kernels/chacha/ (chacha_vertical.h, chacha_neon.c). */
#ifndef CYCLEBENCH_CHACHA_PRE_H
#define CYCLEBENCH_CHACHA_PRE_H

#include <stdint.h>
#include <string.h>

#include "chacha.h"

typedef struct chacha_pre {
    uint32_t state[16]; /* the message's words; 12 and 13 as at its start */
    uint32_t w[16];     /* state after columns 1-3's quarter-rounds */
    uint32_t word13;    /* the word 13 that w was made with */
    int have;
} chacha_pre;

static inline void chacha_pre_init(chacha_pre *p, const uint32_t state[16])
{
    memcpy(p->state, state, sizeof p->state);
    p->have = 0;
}

/* pre, or words that the batches' assembly may name as its memory operand
 * without reading them: it branches on pre itself. */
static inline const uint32_t *chacha_pre_operand(const uint32_t *pre)
{
    static const uint32_t none[16];
    return pre ? pre : none;
}

/* The words for a batch of `blocks` blocks from counter `first` (words 12
 * and 13 of its first block), or NULL where the counter carries into word
 * 13 within the batch. */
static inline const uint32_t *chacha_pre_for(chacha_pre *p, uint64_t first,
                                             unsigned blocks)
{
    uint32_t word13 = (uint32_t)(first >> 32);
    if ((uint32_t)first > UINT32_MAX - (blocks - 1))
        return NULL;
    if (!p->have || p->word13 != word13) {
        memcpy(p->w, p->state, sizeof p->w);
        p->w[12] = (uint32_t)first;
        p->w[13] = p->word13 = word13;
        chacha_first_columns(p->w);
        p->have = 1;
    }
    return p->w;
}

#endif
