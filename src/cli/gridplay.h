/* gridplay: grid boards in `grundy play`: the board of a position drawn in text before its
 * moves, and a move typed as the cells it takes ("(0, 0) (0, 1)", "0,0 0,1"; one cell for a
 * rule set that chooses a vertex). It reads positions as play prints them
 * ("ak(grid(2, 3) - {(0, 0), (0, 1)})"), so the same text that is listed is what is drawn. */
#ifndef GRUNDY_GRIDPLAY_H
#define GRUNDY_GRIDPLAY_H
#include <stddef.h>
#include <stdio.h>
#include "board.h"
#include "sema.h"

/* Draws every grid board of the position text (row and column numbers, '.' a cell on the
 * board, '#' a cell removed) and every path of at most 40 vertices (one row); nothing when it
 * has none. */
void gr_grid_draw(FILE *out, const char *position);
/* The rule of the position's one grid board (q's parts), or NULL when it has none or more. */
const gr_board_rule *gr_grid_rule(const gr_rquery *q);
/* Is the line a move written as cells (two numbers or more, with commas or parentheses)? */
int gr_grid_is_cells(const char *line);
/* The move of options[0..n) that takes the typed cells from the position cur (rule: its one
 * grid board's, gr_grid_rule), or -1 with why (a sentence) in msg. */
int gr_grid_pick(const gr_board_rule *rule, const char *cur, char *const *options, int n, const char *line,
                 char *msg, size_t cap);
#endif
