/* misremote: the remoteness of a misere sum of heaps whose outcome the misere quotient gave.
 * Remoteness (moves to the end, the winner hurrying, the loser delaying) is not a function of
 * the quotient's elements, so it is searched: a memoized walk over multisets of heaps that asks
 * the quotient P or N at each node and follows, from an N-position, only its winning moves (the
 * least of their remotenesses, plus one) and, from a P-position, every move (the greatest, plus
 * one). That is the position graph's remoteness (graph/pgsolve.c) restricted to the positions
 * optimal play can reach, far fewer than the whole graph; it stops at an explicit budget. */
#ifndef GRUNDY_MISREMOTE_H
#define GRUNDY_MISREMOTE_H
#include "compgraph.h"
#include "eval/evaluator.h"

/* The most positions the search may keep, and the most heaps it may write building children
 * (a child costs about its number of heaps): about a fifth of a second at most. */
#define GR_MISREMOTE_POSITIONS ((uint64_t)1 << 18)
#define GR_MISREMOTE_WORK ((uint64_t)1 << 23)

/* The remoteness of comps[0..n) (component i is heap comps[i].c[0] of q->games[gi[i]]) into
 * *out: 1 if found; 0 with why ("over 262144 positions") if the search passed its budget
 * (at most --max-positions positions) or a resource limit. Other failures still fail. */
int gr_misere_remoteness(gr_ctx *c, gr_quotient *q, const gr_comp *comps, int n, const int *gi,
                         int64_t *out, char *why, size_t cap);
#endif
