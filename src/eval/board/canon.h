/* canon: the key a set of a board's vertices is kept under in the transposition table. By
 * nauty's canonical labelling (when grundy is built with nauty, GRUNDY_HAVE_NAUTY), the key
 * of the subgraph the set induces is the same for every isomorphic subgraph of every board: the
 * same shape is solved once wherever it appears (the board's own symmetries included). Without
 * nauty, or when asked (GR_CANON_EXACT, the tests' and the bench's baseline), the key is the
 * exact set on its board, the least of its images under the board's symmetries (a path's
 * reversal, a grid's reflections and, square, its rotations). */
#ifndef GRUNDY_CANON_H
#define GRUNDY_CANON_H
#include "board.h"

typedef enum { GR_CANON_GRAPH, GR_CANON_EXACT } gr_canon_mode;

typedef struct gr_canon {
    gr_canon_mode mode;
    int maxn;                      /* the scratch below holds subgraphs of up to maxn vertices */
    uint64_t *g, *cg;              /* nauty's graphs (setwords) */
    int *lab, *ptn, *orbits, *verts;
    uint64_t *img;                 /* exact mode: a set's image under a symmetry */
} gr_canon;

/* 1 when built with nauty (GR_CANON_GRAPH is then the default). */
int gr_canon_have_graph(void);
void gr_canon_init(gr_ctx *c, gr_canon *k, gr_canon_mode mode, int maxn);
void gr_canon_free(gr_ctx *c, gr_canon *k);
/* The key of set (b->words words) into out, its length in words returned; out holds at least
 * gr_canon_cap(b) words. */
size_t gr_canon_key(gr_canon *k, const gr_board *b, const uint64_t *set, uint64_t *out);
size_t gr_canon_cap(const gr_board *b);
/* nauty keeps its work space per thread: a thread of a team gives it back before it ends
 * (else it is lost with the thread). */
void gr_canon_thread_done(void);
#endif
