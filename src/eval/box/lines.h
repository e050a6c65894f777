/* lines: a per-line bitset kernel for "line-move" tuple games such as Wythoff.
 *
 * A rule set qualifies when its positions are pairs (a, b) and every move is
 *     move -> (a - k*da, b - k*db) for k in 1..LIMIT;
 * with (da, db) a direction in {(1, 0), (0, 1), (1, 1)} and LIMIT exactly the expression that
 * keeps the target non-negative: a, b, or min(a, b) (either order). No 'where', no guards, no
 * terminals, no sums. (Wythoff uses all three directions; Nim in two heaps the first two.)
 *
 * A move slides a token along a line, so the options of (a, b) are exactly the earlier cells of
 * each line through it that is in use: its row (a fixed), its column (b fixed), its diagonal
 * (a - b fixed). Filling the box in row-major order and keeping, for each line, the bitset of
 * the values seen so far on it, sg(a, b) is the mex of the OR of (at most three) bitsets.
 * Values grow (Wythoff's about like a + b), so the bitsets grow too; each line also remembers
 * how many of its leading words are full, and no mex can lie below the fullest of them.
 *
 * Outcomes alone need far less: (a, b) is a P-position exactly when no line through it has a
 * P-position earlier on it (a move along that line would reach it), so one flag per line and
 * one bit per cell settle the box in a single pass, whatever the values grow to. */
#ifndef GRUNDY_LINES_H
#define GRUNDY_LINES_H
#include <stddef.h>
#include "lineshape.h"

/* Fills out[a * cols + b] = sg(a, b) (normal play) for 0 <= a < rows, 0 <= b < cols. g must
 * be recognised. Memory is tracked: a box too large for --max-memory fails with status 3. */
void gr_lines_fill(gr_ctx *c, const gr_game *g, int64_t rows, int64_t cols, int64_t *out);

/* The outcomes of the same box (normal play), one bit a cell: bit a * cols + b of p is set when
 * (a, b) is a P-position. p holds gr_lines_pbits_words(rows, cols) words. */
size_t gr_lines_pbits_words(int64_t rows, int64_t cols);
void gr_lines_outcomes(gr_ctx *c, const gr_game *g, int64_t rows, int64_t cols, uint64_t *p);
static inline int gr_lines_is_p(const uint64_t *p, int64_t cols, int64_t a, int64_t b) {
    uint64_t i = (uint64_t)a * (uint64_t)cols + (uint64_t)b;
    return (int)(p[i >> 6] >> (i & 63) & 1u);
}
#endif
