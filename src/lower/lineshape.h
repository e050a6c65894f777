/* lineshape: the lowering test for the per-line bitset kernel (eval/box/lines.h): positions are
 * pairs (a, b) and every move is (a - k*da, b - k*db) for k in 1..LIMIT, (da, db) one of
 * (1, 0), (0, 1), (1, 1), LIMIT exactly what keeps the target non-negative. Lowering decides
 * with it; the kernel reads the directions back. */
#ifndef GRUNDY_LINESHAPE_H
#define GRUNDY_LINESHAPE_H
#include <stddef.h>
#include "game.h"

/* Directions in use. A move in direction (da, db) stays on one line: */
enum {
    DIR_COL = 1,    /* (1, 0): b fixed, along a column */
    DIR_ROW = 2,    /* (0, 1): a fixed, along a row */
    DIR_DIAG = 4    /* (1, 1): a - b fixed, along a diagonal */
};

/* The directions of g's moves as DIR_* bits, or 0 with the reason in why (why may be NULL). */
int gr_lines_dirs(const gr_game *g, char *why, size_t cap);
/* 1 if g is a line-move rule set, with a short description in why ("line moves along rows,
 * columns and diagonals"); 0 if not, with the reason in why. why may be NULL. */
int gr_lines_recognise(const gr_game *g, char *why, size_t cap);

#endif
