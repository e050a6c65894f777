/* tuple: the table recurrence for rule sets with tuple positions (Wythoff, E&D, a token on a
 * board). Values are filled in the order the moves lead: a depth-first evaluation on an
 * explicit stack (never the C stack), memoised in a hash table of positions. If a move leads
 * back to a position still under evaluation the rule set is not a recurrence: it is marked
 * not_recurrence and the caller asks the position graph instead, so a table is never wrong. */
#ifndef GRUNDY_TUPLE_H
#define GRUNDY_TUPLE_H
#include "game.h"

/* sg of a position, or -1 if the rule set turned out to have a cycle. The position must be
 * inside the rule set's 'where' (loc is blamed otherwise). */
int64_t gr_tuple_sg(gr_ctx *c, gr_game *g, const int64_t *pos, gr_loc loc);
/* How many positions the memo holds (for benchmarks and --explain). */
uint64_t gr_tuple_count(const gr_game *g);
#endif
