/* render: the text of positions and sums as a query writes them ("kayles(3) + g.a +
 * wythoff(1, 2)", a coin row by its heads, a Hackenbush figure less its cuts), one renderer for
 * the fixed buffers of messages and for whole texts of any length.
 *
 * One printed form, so that every printed position parses back to the same position: an
 * empty heap (heap 0 of a heap rule set with no move from it: kayles(0), *0) is left out, and
 * a position of nothing is written *0. Under 'anyleaf' and 'every' a component of several
 * positions is written in parentheses, "(k(1) + k(5))"; there a component left with nothing
 * is left out under 'every' (it can never move, so it changes nothing) and kept under
 * 'anyleaf' (it is a leaf: the player to move has won), written as its first empty heap. */
#ifndef GRUNDY_RENDER_H
#define GRUNDY_RENDER_H
#include "eval/evaluator.h"
#include "textset.h"

/* Writes a sum of components as "kayles(3) + g.a + wythoff(1, 2)" (cut at cap), empty heaps
 * left out ("*0" if nothing is left). */
void gr_render_comps(gr_ctx *c, const gr_comp *comps, int n, char *buf, size_t cap);
/* A position as a query's answer writes it, in the printed form above (groups, comps[i].joined,
 * in parentheses under 'anyleaf' and 'every'), whole, in the compilation's arena. */
const char *gr_render_position(gr_ctx *c, const gr_comp *comps, int n, gr_conv conv);
/* Appends the text of one atom of g (with edge >= 0, a figure less that cut), whole, to t. */
void gr_sum_text_atom(gr_text *t, const gr_game *g, const int64_t *coords, int edge);

/* Is this an empty heap (heap 0 of a heap rule set with no move from it)? */
int gr_atom_empty(gr_ctx *c, gr_game *g, const int64_t *coords);
/* Writing a sum part by part: *first is 1 before the first part. An atom is appended unless
 * it is an empty heap (returns 1 if it was written); a part already written as text unless
 * it is "*0"; the end writes "*0" if no part was. */
int gr_sum_text_comp(gr_text *t, gr_game *g, const int64_t *coords, int *first);
void gr_sum_text_part(gr_text *t, const char *part, int *first);
void gr_sum_text_end(gr_text *t, int first);
#endif
