/* gshape: the components of a grid board of at most 64 cells, one word each. Why: on grids
 * (Cram, Node Kayles on grids) the search spends most of its time finding components and
 * keying them; on a word a component is a flood fill by shifts (a breadth-first layer in five
 * operations) and a shape's key is the least of its eight images under the square's
 * symmetries, translated to its bounding box: the same shape anywhere on any grid board is met
 * again without nauty. And a shape with a point symmetry that moves every cell to a cell
 * neither itself nor its neighbour is a second player's win (Tweedledum and Tweedledee: each
 * move answered by its image), so value 0 under both rules that qualify (arckayles, and
 * nodekayles: a vertex and its neighbours) with no search at all. */
#ifndef GRUNDY_GSHAPE_H
#define GRUNDY_GSHAPE_H
#include "board.h"
#include <stdint.h>

typedef struct gr_gshape {
    int on;                        /* a grid of at most 64 cells */
    int rows, cols, vshift;        /* vshift: cols, 0 on one row */
    uint64_t vmask;                /* the cells (0 on one row: no cell above or below) */
    uint64_t notfirst, notlast;    /* the cells not in column 0; not in the last column */
    uint8_t row[64], col[64];      /* each cell's coordinates */
} gr_gshape;

void gr_gshape_init(gr_gshape *g, const gr_board *b);

/* The cells of set next to a cell of f (f's own included when they are next to each other). */
static inline uint64_t gr_gshape_next(const gr_gshape *g, uint64_t f) {
    return ((f << 1) & g->notfirst) | ((f >> 1) & g->notlast) | ((f << g->vshift) & g->vmask) |
           ((f >> g->vshift) & g->vmask);
}

/* The component of rem (nonzero) holding its lowest cell. */
static inline uint64_t gr_gshape_component(const gr_gshape *g, uint64_t rem) {
    uint64_t comp = rem & (0 - rem), f = comp;
    while (f) {
        f = gr_gshape_next(g, f) & rem & ~comp;
        comp |= f;
    }
    return comp;
}

/* The key of a component (two words: its cells in its bounding box, row after row, and the
 * box's height and width), the same for its eight images; returns 1 when the component is
 * invariant under the half turn about its box's centre and no cell is at or next to the centre
 * (the Tweedledum-Tweedledee shapes above). */
int gr_gshape_key(const gr_gshape *g, uint64_t comp, uint64_t key[2]);
#endif
