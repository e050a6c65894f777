/* misremote: the remoteness of a misere sum of heaps whose outcome the misere quotient gave.
 * Remoteness (moves to the end, the winner hurrying, the loser delaying) is not a function of
 * the quotient's elements, so it is searched over multisets of heaps, asking the quotient P or
 * N at each one and following, from an N-position, only its winning moves (remoteness: 1 + the
 * least of theirs) and, from a P-position, every move (1 + the greatest): the position graph's
 * rules (eval/graph/pgsolve.c) on the positions optimal play reaches, far fewer than the whole
 * graph. It runs as tests "remoteness <= d" (an N-position passes when one winning move leaves
 * a position within d - 1, a P-position when every move does) that keep bounds on each
 * position met, so a later test reuses them and a winning move that passes ends the look at
 * its position. It stops at an explicit budget. */
#ifndef GRUNDY_MISREMOTE_H
#define GRUNDY_MISREMOTE_H
#include "compgraph.h"
#include "eval/cap_quotient.h"

/* The most positions the search may keep, and the most heaps it may write building children
 * (a child costs about its number of heaps): about a fifth of a second at most. */
#define GR_MISREMOTE_POSITIONS ((uint64_t)1 << 18)
#define GR_MISREMOTE_WORK ((uint64_t)1 << 23)
/* ... and the most wall clock it may take whatever the counts say (seconds): a safeguard far
 * past what the counts allow (a fifth of a second; a second or two under the sanitizers), so the
 * answer does not depend on the machine */
#define GR_MISREMOTE_SECONDS 5.0

/* The remoteness of comps[0..n) (component i is heap comps[i].c[0] of q->games[gi[i]]; Q answers q) into
 * *out: 1 if found; 0 with why ("over 262144 positions") if the search passed its budget
 * (at most --max-positions positions, GR_MISREMOTE_WORK steps, GR_MISREMOTE_SECONDS) or met --max-memory (absorbed: the answer stands without
 * it). Other failures (--max-time) still fail. */
int gr_misere_remoteness(gr_ctx *c, const gr_quotient_cap *Q, gr_quotient *q, const gr_comp *comps, int n, const int *gi,
                         int64_t *out, char *why, size_t cap);
#endif
