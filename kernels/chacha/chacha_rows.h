/* The double rounds over one or two sets of row vectors, for the row-wise
 * ChaCha of chacha_xmm.h (one block a set) and chacha_ymm.h (two blocks a
 * set): the same loop at either width, written once. The includer defines
 * ROW_ROUND(a, b, c, d), DIAGONALIZE(a, c, d) and UNDIAGONALIZE(a, c, d)
 * for its vector type first. The second set's rounds interleave with the
 * first's, so that the two chains overlap; both is a run-time flag, the
 * loop the same either way. */
#ifndef CYCLEBENCH_CHACHA_ROWS_H
#define CYCLEBENCH_CHACHA_ROWS_H

#define CHACHA_ROW_DOUBLE_ROUNDS(rounds, both, a0, b0, c0, d0, a1, b1, c1,  \
                                 d1)                                         \
    for (unsigned r_ = 0; r_ < (rounds); r_ += 2) {                          \
        ROW_ROUND(a0, b0, c0, d0);                                           \
        if (both)                                                            \
            ROW_ROUND(a1, b1, c1, d1);                                       \
        DIAGONALIZE(a0, c0, d0);                                             \
        if (both)                                                            \
            DIAGONALIZE(a1, c1, d1);                                         \
        ROW_ROUND(a0, b0, c0, d0);                                           \
        if (both)                                                            \
            ROW_ROUND(a1, b1, c1, d1);                                       \
        UNDIAGONALIZE(a0, c0, d0);                                           \
        if (both)                                                            \
            UNDIAGONALIZE(a1, c1, d1);                                       \
    }

#endif
