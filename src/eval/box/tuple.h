/* tuple: the table recurrence for rule sets with tuple positions (Wythoff, E&D, a token on a
 * board). Values are filled in the order the moves lead: a depth-first evaluation on an
 * explicit stack (never the C stack), in the dense box of dense.h when the rule set allows it
 * (positions indexed by mixed radix, shared option sets), else memoised in a hash table of
 * positions (moves that lead to sums). If a move leads
 * back to a position still under evaluation the rule set is not a recurrence: it is marked
 * not_recurrence and the caller asks the position graph instead, so a table is never wrong. */
#ifndef GRUNDY_TUPLE_H
#define GRUNDY_TUPLE_H
#include "game.h"

/* sg of a position, or -1 if the rule set turned out to have a cycle. The position must be
 * inside the rule set's 'where' (loc is blamed otherwise). */
int64_t gr_tuple_sg(gr_ctx *c, gr_game *g, const int64_t *pos, gr_loc loc);
/* Makes the values of every position in lo..hi ready at once (a dense box, see dense.h), so the
 * lookups that follow cost an index computation. No effect for rule sets the box cannot run. */
void gr_tuple_reserve(gr_ctx *c, gr_game *g, const int64_t *lo, const int64_t *hi);
/* Makes what a pass over lo..hi reads ready at once: a line-move rule set's values from (0, 0)
 * (or with sg 0 only its P-positions, a bit each), else the dense box over the range (as
 * gr_tuple_reserve). Returns 0 if the rule set turned out to have a cycle. */
int gr_tuple_prepare(gr_ctx *c, gr_game *g, const int64_t *lo, const int64_t *hi, int sg);
/* The outcome of pos from the line kernel's values or P bits gr_tuple_prepare made, or -1 where
 * there are none. */
int gr_tuple_outcome_ready(const gr_game *g, const int64_t *pos);
/* The SG value of pos from the line kernel's values, or -1 where there are none. */
int64_t gr_tuple_lines_ready(const gr_game *g, const int64_t *pos);
/* The dense box holding the values under normal play, or NULL: one box per game and
 * convention, kept in its cache (cache.h) for every query that asks, grown with its values
 * kept when a query asks beyond it. */
struct gr_dense *gr_tuple_box(const gr_game *g);
/* How many positions the box evaluators have valued for g so far (dense boxes, the line kernel,
 * the memo), never counting a value read again: what a query added is the difference. */
uint64_t gr_tuple_computed(const gr_game *g);
/* A dense box of g under conv in which every position of lo..hi (or the one position lo, when
 * lo == hi as pointers; it must be a position of g, loc is blamed otherwise) is evaluated, kept
 * in the game for later calls; NULL if the dense box does not support g under conv. Normal,
 * misere, loopy play alike: outcomes, remoteness, and SG values where they exist. */
struct gr_dense *gr_tuple_dense(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *lo, const int64_t *hi, gr_loc loc);
#endif
