/* The vertical layout's message loop, for every width: the sixteen state
 * words each broadcast across a vector, one block per 32-bit lane, whole
 * batches through the includer's batch function, then a last batch of more
 * than half a batch as the bare keystream (so nothing past len is read or
 * written). Returns the bytes done: all of len, or the whole batches when
 * at most half a batch is left, which the includer's row-wise code takes.
 *
 * Included once per width, after defining (and undefined here):
 *   VERTICAL_NAME          the function's name
 *   VERTICAL_VEC           the vector type
 *   VERTICAL_LANES         its 32-bit lanes: blocks per batch
 *   VERTICAL_SET1(x)       x in every lane
 *   VERTICAL_LANE_INDEX    0, 1, ... VERTICAL_LANES - 1 in the lanes
 *   VERTICAL_COUNTER_ADD   counter_add(lo, hi, n) at that width
 *   VERTICAL_BATCH         blocks(out, in, s, rounds) at that width
 * and optionally
 *   VERTICAL_PRE           (defined) VERTICAL_BATCH is then
 *                          blocks(out, in, s, pre, rounds): pre, when not
 *                          NULL, words to start columns 1-3 of the first
 *                          round from (chacha_pre.h), which the batch may
 *                          use or ignore.
 * pre is NULL for a message's first batch: that batch's vectors would wait
 * on the scalar quarter-rounds, a loss where the message is one batch,
 * while the second's are done in the first's shadow. */
#include <stdint.h>
#include <string.h>

#include "chacha_pre.h"

static inline __attribute__((always_inline)) size_t
VERTICAL_NAME(uint8_t *out, const uint8_t *in, size_t len, const uint8_t *key,
              __m128i row3, unsigned rounds)
{
    enum { BATCH = 64 * VERTICAL_LANES };
    static const uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32,
                                       0x6b206574 };
    uint32_t words[12];
    memcpy(words, key, 32); /* little-endian, as x86 loads them */
    _mm_storeu_si128((__m128i *)(words + 8), row3);
    VERTICAL_VEC s[16];
    for (int i = 0; i < 4; i++)
        s[i] = VERTICAL_SET1((int)sigma[i]);
    for (int i = 0; i < 12; i++)
        s[4 + i] = VERTICAL_SET1((int)words[i]);
    VERTICAL_COUNTER_ADD(&s[12], &s[13], VERTICAL_LANE_INDEX);
#ifdef VERTICAL_PRE
    chacha_pre pre;
    uint32_t state[16];
    memcpy(state, sigma, sizeof sigma);
    memcpy(state + 4, words, sizeof words);
    chacha_pre_init(&pre, state);
    /* The batch's first counter, lane 0's words 12 and 13. */
    uint64_t first = (uint64_t)words[8] | (uint64_t)words[9] << 32;
#define VERTICAL_CALL(o, i)                                                   \
    do {                                                                      \
        VERTICAL_BATCH(o, i, s,                                               \
                       done ? chacha_pre_for(&pre, first, VERTICAL_LANES)     \
                            : NULL,                                           \
                       rounds);                                               \
        first += VERTICAL_LANES;                                              \
    } while (0)
#else
#define VERTICAL_CALL(o, i) VERTICAL_BATCH(o, i, s, rounds)
#endif

    size_t done = 0;
    for (; len - done >= BATCH; done += BATCH) {
        VERTICAL_CALL(out + done, in + done);
        VERTICAL_COUNTER_ADD(&s[12], &s[13], VERTICAL_SET1(VERTICAL_LANES));
    }
    if (len - done > BATCH / 2) {
        /* xored with zeros: the bare keystream. */
        static const uint8_t zeros[BATCH];
        uint8_t ks[BATCH];
        VERTICAL_CALL(ks, zeros);
        for (size_t i = 0; done + i < len; i++)
            out[done + i] = in[done + i] ^ ks[i];
        done = len;
    }
    return done;
}

#undef VERTICAL_NAME
#undef VERTICAL_VEC
#undef VERTICAL_LANES
#undef VERTICAL_SET1
#undef VERTICAL_LANE_INDEX
#undef VERTICAL_COUNTER_ADD
#undef VERTICAL_BATCH
#undef VERTICAL_PRE
#undef VERTICAL_CALL
