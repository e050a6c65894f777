/* hackenbush: Green Hackenbush figures, valued by the colon and fusion principles.
 *
 * A figure is a multigraph on named vertices (loops and parallel edges allowed) with one root,
 * 'ground'. A move cuts one edge; whatever is no longer joined to ground falls away. The value:
 * fuse every 2-edge-connected component (the vertices joined by a cycle) into one vertex, each
 * edge inside becoming a loop, worth 1 (a stalk of length one); ground's component fuses into
 * ground. What is left is a tree of bridges with loops at its vertices, and the colon principle
 * values it: v(u) = (loops at u mod 2) xor the xor over child branches c of (v(c) + 1).
 * Bridges and components come from one iterative depth-first search (Tarjan's low links), so
 * the time is linear in the edges and the stack is on the heap, never the C stack.
 *
 * A position of a figure is the figure with some edges cut: a mask of absent edges, one bit an
 * edge, kept in GR_HB_WORDS 64-bit words (the first GR_HB_WORDS * 64 edges can be cut in a
 * written position; the value of the whole figure has no limit). */
#ifndef GRUNDY_HACKENBUSH_H
#define GRUNDY_HACKENBUSH_H
#include "figure.h"




/* The value of the figure with the edges of `mask` absent (NULL: none). */
int64_t gr_hb_value(gr_ctx *c, const gr_figure *f, const int64_t *mask);

/* Every edge whose cut leaves the value `want`; fn gets the edge. Linear for bridges (top
 * down: the value each branch must take). An edge inside a cycle component K costs a recount
 * of K (its size plus its branches), so components are searched smallest first while the work
 * stays under GR_HB_MOVE_WORK; returns 1 if every edge was examined, 0 if the budget stopped it. */
enum { GR_HB_MOVE_WORK = 20000000 };
int gr_hb_moves(gr_ctx *c, const gr_figure *f, const int64_t *mask, int64_t want,
                 void (*fn)(void *user, int edge), void *user);

/* The canonical mask of the position after cutting `edge` (-1: none) from `mask`: every edge
 * cut or fallen away is absent, and of parallel edges the absent ones are the first. Fails (limit) if a fallen edge is past GR_HB_MAX_CUT. */
void gr_hb_child(gr_ctx *c, const gr_figure *f, const int64_t *mask, int edge, int64_t *out);

/* Writes the position as "h - (c - d) - (a - b)": the name, then every absent edge (and `edge`
 * if >= 0) that still touches what is joined to ground; the text parses back to the same
 * position. Returns the new end of the text in buf. */
size_t gr_hb_render(gr_ctx *c, const char *name, const gr_figure *f, const int64_t *mask, int edge,
                    char *buf, size_t cap, size_t pos);
#endif
