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
 * known to have (present) and known not to have (absent), as bits 0..63. Read and written with
 * relaxed atomic operations: with --threads the members of a team share them (bteam.h), and
 * each field only ever gains what is true. */
typedef struct gr_bfact { int32_t exact; uint64_t present, absent; } gr_bfact;
/* The facts are kept in chunks that never move, so a member reads them while another adds. */
enum { GR_BFACT_CHUNK_BITS = 16, GR_BFACT_MAX_CHUNKS = 1 << 15 };

/* What a game keeps between calls (its cache's board entry): the tables. sg maps a canonical
 * form to an index in facts; exact a component's exact set on its board to the same index. */
typedef struct gr_bstore {
    gr_btt sg, misere;
    gr_bfact **chunks; size_t nchunks, nfacts;   /* room for nchunks << GR_BFACT_CHUNK_BITS facts */
    gr_btt exact;                  /* in front of sg: a component by its exact set on its board (no nauty call) */
    gr_btt2 gexact, shape;         /* grids of one word, in front of sg: a component by its cells and
                                    * board, then by its shape (gshape.h) */
    uint64_t twins;                /* components valued 0 by their point symmetry, with no search */
    uint64_t solved;               /* components valued */
    size_t team_room;              /* tests: the room a team starts with (0: 2^18 entries) */
    uint64_t team_rounds;          /* a team started again for room */
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
    /* a member of a team (bteam.h): the shared tables under *lock, no allocation (the tables'
     * room is made before the team starts), no failure: a search that cannot go on sets abort
     * (why: GR_BABORT_*) and every level returns at once, recording nothing */
    struct gr_bteam *team;         /* the caller's team, made at its first use (NULL: serial) */
    int threads;                   /* --threads for this search (the caller's; 1: serial) */
    /* the root's question across the team (set by bteam.h's gr_bteam_use; NULL: serial):
     * 1 or 0, or -1 declined (the root is small); and what frees the team */
    int (*root_team)(struct gr_bsearch *s, uint64_t y, int64_t v);
    void (*team_free)(struct gr_bsearch *s);
    int member;                    /* 1 in a team's member */
    void *lock;                    /* the store's lock while a team runs (pthread_mutex_t) */
    int abort;                     /* a member stops: GR_BABORT_* */
    int *stop;                     /* the team's stop flag (read relaxed) */
    uint32_t polls;
    struct gr_progress *pr;        /* the bar of gr_bsearch_sg's call (members: the caller's) */
    gr_btt2 *gexact;               /* the exact cells' table: the store's, or a member's own */
    gr_btt2 own_gexact;
    gr_gshape gs;                  /* a grid of at most 64 cells: components by shifts, keyed by shape */
    int twins;                     /* the rule answers a move by its mirror image (gshape.h) */
} gr_bsearch;

/* Gives back the store's tables (its memory is tracked: a caller that keeps none may free it). */
void gr_bstore_free(gr_ctx *c, gr_bstore *st);

void gr_bsearch_init(gr_bsearch *s, gr_ctx *c, const gr_board *b, const gr_board_rule *rule, gr_bstore *store,
                     gr_canon_mode mode);
void gr_bsearch_free(gr_bsearch *s);
enum { GR_BABORT_STOP = 1, GR_BABORT_ROOM, GR_BABORT_TIME, GR_BABORT_VALUE };

/* The fact at index i (gr_bfact_at) and a new one (the caller holds the lock in a team; -1
 * when a member finds no room). */
static inline gr_bfact *gr_bfact_at(const gr_bstore *st, int32_t i) {
    return &st->chunks[(uint32_t)i >> GR_BFACT_CHUNK_BITS][(uint32_t)i & ((1u << GR_BFACT_CHUNK_BITS) - 1)];
}
/* Room for at least `more` facts, shape-table and canonical-table entries (and `words` of
 * canonical keys) without allocating: made by the caller before a team starts. */
void gr_bstore_room(gr_ctx *c, gr_bstore *st, size_t more, size_t words);
/* m (made by gr_bsearch_init) as a team's member `member` (from 1; 1 reads the clock): the
 * store's lock, the team's stop flag, every depth's scratch and its own exact cells' table made
 * now, so that it never allocates. */
void gr_bsearch_make_member(gr_bsearch *m, int member, void *lock, int *stop);
/* Whether the option `rem` (a set of b->words words) has value v: one step of a team's member. */
int gr_bsearch_option_is(gr_bsearch *s, const uint64_t *rem, int64_t v);
/* The options of y, easiest first (a grid of one word) or in the rule's order, into opt (one
 * word each: grids of one word only); how many. */
int gr_bsearch_grid_options(gr_bsearch *s, uint64_t y, uint64_t *opt, uint64_t *cost);

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
