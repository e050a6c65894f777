/* posgraph: the position graph's own calls beyond its interface (eval/cap_graph.h, where the
 * graph is described): the thread team's knob, which tests and benchmarks turn. */
#ifndef GRUNDY_POSGRAPH_H
#define GRUNDY_POSGRAPH_H
#include "eval/cap_graph.h"

/* With --threads > 1, a graph of at least `from` positions is solved (after its serial
 * expansion) by the thread team: members take `grain` positions at once, and frontiers of
 * fewer than `level` positions stay on the caller (defaults 2^20, 2^14, 2^12). The answers
 * are the same for every thread count. An internal knob: tests lower it to thread small
 * graphs; process-wide. */
void gr_pg_team_tune(uint64_t from, uint64_t grain, uint64_t level);

#endif
