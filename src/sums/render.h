/* render: the text of positions and sums as a query writes them ("kayles(3) + g.a +
 * wythoff(1, 2)", a coin row by its heads, a Hackenbush figure less its cuts), one renderer for
 * the fixed buffers of messages and for whole texts of any length. */
#ifndef GRUNDY_RENDER_H
#define GRUNDY_RENDER_H
#include "eval/evaluator.h"
#include "textset.h"

/* Writes a sum of components as "kayles(3) + g.a + wythoff(1, 2)" (cut at cap). */
void gr_render_comps(const gr_comp *comps, int n, char *buf, size_t cap);
/* The same text, whole, in the compilation's arena. */
const char *gr_render_sum(gr_ctx *c, const gr_comp *comps, int n);
/* Appends the text of one atom of g (with edge >= 0, a figure less that cut), whole, to t. */
void gr_sum_text_atom(gr_text *t, const gr_game *g, const int64_t *coords, int edge);
#endif
