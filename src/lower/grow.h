/* grow: heap rule sets whose moves can lead to larger heaps. Such a game is no recurrence,
 * and its reachable positions may have no bound (move -> n + 1), so lowering sends it to the
 * position graph, and the graph reports how far the heaps grew when a limit stops it. */
#ifndef GRUNDY_GROW_H
#define GRUNDY_GROW_H
#include "game.h"

/* The most positions a graph with growing heaps holds unless --max-positions says otherwise:
 * enough for any game whose heaps stay small, and far below the memory a runaway would eat. */
enum { GR_GROW_MAX_POSITIONS = 1 << 20 };

/* The first move of heap rules g that leads, for large enough heaps, to a heap larger than the
 * one moved from (read from its affine form: n + 1, 2n, n + k for k in 1..3, ...), or NULL
 * if none is found that way. */
const gr_rmove *gr_rules_growing_move(const gr_game *g);

/* Records that heap `from` of g has a move to the larger heap `to` (found while filling). */
void gr_grow_found(gr_game *g, int64_t from, int64_t to);

/* Notes a heap of g reached in a position graph; keeps the largest, and the context's limit
 * note up to date, so a limit message says which move grows and how large heaps got. */
void gr_grow_reached(gr_ctx *c, gr_game *g, int64_t heap);

/* "the move at line 3 ('move -> n + 1;')" into buf. */
void gr_grow_move_text(const gr_ctx *c, const gr_game *g, char *buf, size_t cap);
#endif
