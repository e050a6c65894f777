/* sums: combines components by convention.
 *
 * Fast path (normal play, fastmoves.c): the Sprague-Grundy value of a sum is the xor of its
 * components' values, each from its own evaluator; loopy components by gamma values (gamma.c).
 * Ground truth: the position graph over sums. A position is a multiset of components, a
 * component a multiset of atoms (one heap, one tuple, one graph token); a move in an atom that
 * splits it leaves the parts in the same component. Under normal and misere play components
 * do not matter and the position is one multiset of atoms; under anyleaf and every they do:
 *   normal   no move anywhere: the player to move loses
 *   misere   no move anywhere: the player to move wins
 *   anyleaf  some component has no move: the player to move wins
 *   every    a move is made in every component that can move; none can: the mover loses
 * Canonical encodings sort atoms within a component and components within the position, so
 * equal multisets are one position; heaps of 0 of a game with no move from 0 are dropped. */
#ifndef GRUNDY_SUMS_H
#define GRUNDY_SUMS_H
#include "eval/evaluator.h"
#include "eval/cap_graph.h"
#include "render.h"
#include "sema.h"

/* Normal play by recurrences: 1 and the xor in *sg if every component has one, else 0. */
int gr_sum_sg_fast(gr_ctx *c, const gr_comp *comps, int n, int64_t *sg, int64_t *vals);

typedef void (*gr_child_fn)(void *user, const char *text, uint32_t child_id);
/* Winning moves by values: every move of some component to the value total ^ vals[i].
 * Returns 0 if some were not searched (cuts inside large Hackenbush cycles), else 1. A heap
 * past 2^20 answered through its period may have ~h winning moves: the first 100 of each are
 * listed and *unlisted (if not NULL) counts the rest. */
int gr_sum_fast_moves(gr_ctx *c, const gr_comp *comps, int n, const int64_t *vals, int64_t total,
                      gr_child_fn fn, void *user, int64_t *unlisted);

/* Every option of the sum once (distinct results), with its SG value, in move order; of a heap
 * past 2^20 answered through its period only the first 100, *unlisted (if not NULL) counting
 * the rest. */
typedef void (*gr_valued_option_fn)(void *user, const char *text, int64_t sg);
void gr_sum_fast_options(gr_ctx *c, const gr_comp *comps, int n, const int64_t *vals, int64_t total,
                         gr_valued_option_fn fn, void *user, int64_t *unlisted);

/* Every option of the sum once (distinct results, in move order) for which keep(kuser,
 * component, parts, nparts) holds, rendered as the position is written (the misere quotient's
 * winning moves). huge (may be NULL) answers a component whose options are too many to walk
 * (a huge heap through a proved period): it reports the first `limit` kept options to ofn and
 * returns how many there are in all, or -1 to have them walked; the kept ones past the first
 * 100 of each such component are counted in *unlisted (if not NULL). */
typedef int (*gr_move_keep_fn)(void *kuser, int at, const int64_t *parts, int nparts);
typedef int64_t (*gr_move_huge_fn)(void *kuser, int at, int64_t limit, gr_option_fn ofn, void *ouser);
void gr_sum_moves_where(gr_ctx *c, const gr_comp *comps, int n, gr_move_keep_fn keep, gr_move_huge_fn huge,
                        void *kuser, gr_child_fn fn, void *user, int64_t *unlisted);

typedef struct gr_sumgraph gr_sumgraph;
gr_sumgraph *gr_sumgraph_new(gr_ctx *c, gr_module *m, gr_conv conv);
void gr_sumgraph_free(gr_sumgraph *s);
/* Adds a start position (each gr_comp its own component, with those joined to it: a group);
 * returns its id after solving. */
uint32_t gr_sumgraph_add(gr_sumgraph *s, const gr_comp *comps, int n);
void gr_sumgraph_solve(gr_sumgraph *s);
gr_pg *gr_sumgraph_pg(gr_sumgraph *s);
/* Writes position id (after solve) in canonical order, as a move list writes it. */
void gr_sumgraph_render(gr_sumgraph *s, uint32_t id, char *buf, size_t cap);
/* The id of a start added earlier (valid after solve). */
uint32_t gr_sumgraph_id(gr_sumgraph *s, const gr_comp *comps, int n);

/* Every move from a start position, in a stable order (by component, then by target),
 * rendered as the position is written, whole, each with the canonical id of the child in the
 * solved graph. Moves that lead to the same position (equal as multisets of components under
 * the convention) are reported once, at the first. The fast-path and loopy lists below keep
 * the same rule. */
void gr_sumgraph_moves(gr_sumgraph *s, const gr_comp *comps, int n, gr_child_fn fn, void *user);
/* The atoms of position id (after solve), their coordinates flattened into *parts (grown to
 * *cap): a loopy component's move, read back from the graph. */
void gr_sumgraph_atoms(gr_sumgraph *s, uint32_t id, int64_t **parts, size_t *cap, int *nparts);

/* Normal play on components that may be loopy, by generalised SG values (gamma): each
 * component's own graph is solved, never the product. Returns 0 (and nothing else) if some
 * component has no gamma value (a terminal that wins). sg is the xor when every value is
 * finite, else the sum's infinite value (loopy.h) added to loopy, or -1 when loopy is NULL.
 * Winning moves go to fn (child_id 0). */
typedef struct gr_loopy gr_loopy;
int gr_sum_gamma(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, int *outcome, int64_t *sg,
                 gr_loopy *loopy, gr_child_fn fn, void *user);

#endif
