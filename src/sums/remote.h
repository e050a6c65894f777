/* remote: the remoteness of a sum (moves to the end under optimal play: the winner hurries,
 * the loser delays) where the fast path answered without a position graph. Remoteness does
 * not follow from the components' values, so it needs the sum's own graph: built only while
 * it stays under a bound, so an answer that took microseconds never takes minutes for it. */
#ifndef GRUNDY_REMOTE_H
#define GRUNDY_REMOTE_H
#include "sums.h"

/* The most positions a graph built only for remoteness may hold. */
#define GR_REMOTENESS_GRAPH_MAX ((uint64_t)1 << 18)
/* The work allowed for it, in bytes of children written (duplicates included): a child costs
 * about its length (it is built, sorted, encoded and looked up), so this is about 10 ms
 * whatever the number of components (a sum of 300 heaps took 76 s without it). A JSON solve
 * pays it where text does not: 2^22 made 100 solves of kayles(30..1000) + kayles(b) cost 4 s
 * in JSON against 0.01 s in text; the goldens' largest, kayles(5) + kayles(7) + kayles(11),
 * needs between 2^18 and 2^19. */
#define GR_REMOTENESS_WORK_MAX ((uint64_t)1 << 20)

/* 1 and *out set (-1 for a draw) if the graph of the sum has at most max positions (and at
 * most --max-positions) and GR_REMOTENESS_WORK_MAX of work; 0 and *out untouched if it is
 * larger. Other failures still fail. */
int gr_sum_remoteness(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv,
                      uint64_t max, int64_t *out);
/* The moves of a sum, each with the remoteness of the position it leaves (-1 a draw), to fn
 * (texts in the printed form, one a distinct position), by the same bounded graph: 1 if it
 * answered, 0 (nothing to fn) if the graph is larger. The longest defence of a lost sum is the
 * move of greatest remoteness. */
typedef void (*gr_remote_child_fn)(void *user, const char *text, int64_t remoteness);
int gr_sum_children_remoteness(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv,
                               uint64_t max, gr_remote_child_fn fn, void *user);
/* Runs fn(c, user) and returns what it returns, or -1 if it stopped at a resource limit
 * (memory, --max-positions; not --max-time), which is absorbed: the work was optional. Other
 * failures go on to the caller's handler. */
int gr_absorb_limits(gr_ctx *c, int (*fn)(gr_ctx *c, void *user), void *user);
#endif
