/* posgraph: the explicit position graph, the ground truth of grundy.
 *
 * Positions are opaque canonical byte strings chosen by the client (equal positions must have
 * equal encodings). Starting from the positions added with gr_pg_add, gr_pg_solve enumerates
 * everything reachable (breadth first, a hash table of encodings, edges stored compactly as
 * CSR arrays of 32-bit ids), then runs retrograde analysis with counters of undecided children:
 *   - a position the client declares WIN or LOSS (a leaf, or a terminal with a fixed outcome)
 *     is decided;
 *   - a position with a child that is LOSS is WIN; a position whose children are all WIN is LOSS;
 *   - whatever never settles is DRAW (optimal play never ends).
 * It also gives remoteness (the winner hurries, the loser delays; draws have none) and, where
 * the reachable graph is acyclic and every leaf is a loss, Sprague-Grundy values.
 * A client that needs no children (gr_pg_store_edges(g, 0)) gets the same answers from a
 * depth-first search that stores no edges, while the graph is acyclic.
 * No recursion anywhere: the depth of a game never touches the C stack. */
#ifndef GRUNDY_POSGRAPH_H
#define GRUNDY_POSGRAPH_H
#include <stddef.h>
#include <stdint.h>
#include "ctx.h"
#include "game.h"      /* gr_outcome */
#include "eval/graph/pgexpand.h"   /* gr_expand_kind: MOVES, WIN, LOSS */

typedef struct gr_pg gr_pg;
typedef struct gr_pg_sink gr_pg_sink;

/* Called once per position. Emits each child's canonical encoding with gr_pg_emit (duplicates
 * are merged), and returns what kind of position this is. May call gr_fail on bad input. */
typedef gr_expand_kind (*gr_pg_expand_fn)(void *user, const uint8_t *pos, size_t len,
                                          gr_pg_sink *sink);
void gr_pg_emit(gr_pg_sink *sink, const uint8_t *child, size_t len);

/* max_positions: the most positions the graph may hold; past it gr_pg_solve fails with
 * GR_EXIT_LIMIT and a message saying how many positions and edges it had reached. */
gr_pg *gr_pg_new(gr_ctx *c, gr_pg_expand_fn expand, void *user, uint64_t max_positions);
void gr_pg_free(gr_pg *g);
/* Also fail (GR_EXIT_LIMIT) once the children emitted, duplicates included, pass max_bytes
 * bytes of encoding (0: no limit): a bound on the work of a graph built only if it is cheap
 * (sums/remote.c); writing a child costs about its length. */
void gr_pg_limit_work(gr_pg *g, uint64_t max_bytes);

/* store = 0, before anything is expanded: the client needs values and gr_pg_find, not
 * children. An acyclic graph is then solved depth first with no edges stored (about 45 bytes
 * a position for a sum of a few heaps, against about 140 with edges); a cycle switches it to
 * stored edges and retrograde analysis (having expanded what it searched once more). The
 * answers are the same either way, ids are in depth-first discovery order; children and
 * gamma values, if asked for anyway, cost one more expansion of every position (once).
 * store = 1 (the default) keeps today's path: breadth first, ids in that order, edges stored. */
void gr_pg_store_edges(gr_pg *g, int store);
int gr_pg_stores_edges(const gr_pg *g);   /* 1 once the graph holds its edges */
uint32_t gr_pg_add(gr_pg *g, const uint8_t *pos, size_t len);   /* a start; returns its id */
/* Expands everything not yet expanded and (re)computes outcomes, remoteness, SG values.
 * May be called again after more gr_pg_add calls. */
void gr_pg_solve(gr_pg *g);
/* With --threads > 1, a graph of at least `from` positions is solved (after its serial
 * expansion) by the thread team: members take `grain` positions at once, and frontiers of
 * fewer than `level` positions stay on the caller (defaults 2^20, 2^14, 2^12). The answers
 * are the same for every thread count. An internal knob: tests lower it to thread small
 * graphs; process-wide. */
void gr_pg_team_tune(uint64_t from, uint64_t grain, uint64_t level);

int64_t gr_pg_find(const gr_pg *g, const uint8_t *pos, size_t len); /* id, or -1 */
const uint8_t *gr_pg_key(const gr_pg *g, uint32_t id, size_t *len);
uint32_t gr_pg_count(const gr_pg *g);          /* positions */
uint64_t gr_pg_edges(const gr_pg *g);          /* edges after merging duplicates */
size_t gr_pg_bytes(const gr_pg *g);            /* memory held by the graph */

gr_outcome gr_pg_outcome(const gr_pg *g, uint32_t id);
int64_t gr_pg_remoteness(const gr_pg *g, uint32_t id);   /* -1 for a draw */
/* SG value, or -1 where it is undefined: the position reaches a cycle or a WIN leaf. */
int64_t gr_pg_sg(const gr_pg *g, uint32_t id);
/* Children in emission order (first emission of each), valid until the next gr_pg_solve. */
uint32_t gr_pg_nchildren(const gr_pg *g, uint32_t id);
const uint32_t *gr_pg_children(const gr_pg *g, uint32_t id);
/* Generalised Sprague-Grundy values (Smith; Fraenkel and Yesha) for graphs with cycles. A
 * value is a finite number g, or infinity with the set K of finite values among the children
 * ("infinity_K"). For normal play they give the outcome: 0 is LOSS, finite > 0 is WIN,
 * infinity_K is WIN if 0 is in K and DRAW otherwise; on the acyclic part they equal the SG
 * values. Sums: g + h = g xor h, infinity_K + h = infinity_{K xor h}, and the sum of two
 * infinities is infinity_{} (a draw). Positions that reach a GR_EXPAND_WIN terminal are
 * outside the theory and get -1.
 * gr_pg_solve_gamma solves first if needed, then labels every position, in time
 * O((largest finite value + 2) * (V + E)); any later gr_pg_solve discards the values. */
#define GR_GAMMA_INF (-2)
void gr_pg_solve_gamma(gr_pg *g);
/* A finite value >= 0, GR_GAMMA_INF, or -1 (undefined, or gr_pg_solve_gamma not run). */
int64_t gr_pg_gamma(const gr_pg *g, uint32_t id);
/* The distinct finite values of the children of id in increasing order (for an infinite
 * position this is K): writes the first min(count, cap) to out and returns the count. */
size_t gr_pg_gamma_set(const gr_pg *g, uint32_t id, uint32_t *out, size_t cap);
#endif

