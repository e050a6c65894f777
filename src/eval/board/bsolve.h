/* bsolve: the search of games on boards. A position is the sum of its connected components
 * (a move's removal never reaches past a component), so its SG value is the xor of theirs;
 * each component's value is kept in a transposition table under its canonical form
 * (eval/board/canon.h), shared by every board of the game and every call. The value of a
 * component is the mex of its options' values; small components (up to two vertices) need no
 * table; in front of it a second table keyed by the component's exact set on its board, which
 * answers a component met again on the same board without computing its canonical form (that
 * costs more than the rest of a look-up). Misere outcomes are searched over whole positions (misere values do not add), kept
 * under the canonical form of the whole (possibly disconnected) position.
 *
 * The recursion follows moves and each move removes at least one vertex, so its depth is at
 * most the board's vertices, bounded by GR_BOARD_MAXV; its scratch is one block per depth. */
#ifndef GRUNDY_BSOLVE_H
#define GRUNDY_BSOLVE_H
#include "board.h"
#include "eval/board/btt.h"
#include "eval/board/canon.h"
#include "eval/board/gshape.h"

/* What is known of one component: its value (-1: not yet), and the values some option of it is
 * known to have (present) and known not to have (absent), as bits 0..63. */
typedef struct gr_bfact { int32_t exact; uint64_t present, absent; } gr_bfact;

/* What a game keeps between calls (its cache's board entry): the tables. sg maps a canonical
 * form to an index in facts; exact a component's exact set on its board to the same index. */
typedef struct gr_bstore {
    gr_btt sg, misere;
    gr_bfact *facts; size_t nfacts, capfacts;
    gr_btt exact;                  /* in front of sg: a component by its exact set on its board (no nauty call) */
    gr_btt2 gexact, shape;         /* grids of one word, in front of sg: a component by its cells and
                                    * board, then by its shape (gshape.h) */
    uint64_t twins;                /* components valued 0 by their point symmetry, with no search */
    uint64_t solved;               /* components valued */
} gr_bstore;

/* One search over one board. */
typedef struct gr_bsearch {
    gr_ctx *c;
    const gr_board *b;
    const gr_board_rule *rule;
    gr_bstore *store;
    gr_canon canon;
    uint64_t *key, *ekey;          /* a component's canonical form and exact key, while it is looked up */
    uint64_t **scratch;            /* per depth: see bsolve.c */
    int depth;
    gr_gshape gs;                  /* a grid of at most 64 cells: components by shifts, keyed by shape */
    int twins;                     /* the rule answers a move by its mirror image (gshape.h) */
} gr_bsearch;

/* Gives back the store's tables (its memory is tracked: a caller that keeps none may free it). */
void gr_bstore_free(gr_ctx *c, gr_bstore *st);

void gr_bsearch_init(gr_bsearch *s, gr_ctx *c, const gr_board *b, const gr_board_rule *rule, gr_bstore *store,
                     gr_canon_mode mode);
void gr_bsearch_free(gr_bsearch *s);
/* The SG value of the vertices in set (normal play). */
int64_t gr_bsearch_sg(gr_bsearch *s, const uint64_t *set);
/* Under misere play: 1 when the player to move wins. */
int gr_bsearch_misere(gr_bsearch *s, const uint64_t *set);

/* Every move of the rule from set: fn gets the vertices it removes, in a stable order (vertex
 * order; edges by their lower end, then the higher). */
typedef void (*gr_bmove_fn)(void *user, const uint64_t *removed);
void gr_board_moves(const gr_board *b, const gr_board_rule *r, const uint64_t *set, uint64_t *scratch,
                    gr_bmove_fn fn, void *user);
/* The scratch gr_board_moves needs, in words. */
size_t gr_board_moves_scratch(const gr_board *b);
#endif
