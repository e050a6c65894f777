/* solve: the answer for one position (a sum of components) under a convention, and tables of
 * one game, each by the fastest sound way: the evaluators (eval/evaluator.h) first, then
 * generalised SG values for loopy normal-play sums, then the position graph over sums, which
 * answers everything. Queries and the public API both call these, so they never pick an
 * evaluator themselves. */
#ifndef GRUNDY_SOLVE_H
#define GRUNDY_SOLVE_H
#include "eval/evaluator.h"
#include "sums.h"
#include "compgraph.h"
#include "estimate.h"
#include "loopy.h"

typedef struct gr_solution {
    int outcome;            /* gr_outcome: GR_LOSS (P), GR_WIN (N), GR_DRAW (D) */
    int64_t sg;             /* -1: none (not normal play, or a win by a terminal); <= -2: loopy,
                             * its set in loopy (loopy.h) */
    int64_t remoteness;     /* -1: not computed (then remoteness_skipped says why) or a draw */
    char remoteness_skipped[96];  /* remoteness -1 because a bounded search gave up or was declined:
                                   * why ("over N positions"), as every face prints it */
    int moves_partial;      /* 1: one winning move, others not searched for (a theory's strategy); 2: a search under a
                             * work budget stopped (cuts inside large Hackenbush cycles); 0: all */
    int64_t moves_unlisted; /* winning moves of huge heaps beyond those listed (100 a heap) */
    gr_loopy loopy;         /* the set of a loopy sg; the caller frees it (gr_solution_free) */
} gr_solution;
void gr_solution_free(gr_solution *s);

/* The theory of a convention other than normal play (every, anyleaf, misere; sums/every.h,
 * anyleaf.h, misere.h): 1 if it decided the sum, with winning moves to fn; t->why says what
 * applied or why nothing did (for --explain). Never with --no-theory. */
int gr_sum_theory(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, gr_theory *t,
                  gr_child_fn fn, void *user);

/* The tables only a theory of another convention answers, one dispatcher for them: per
 * position the genus (kind TK_GENUS, any convention: GR_GENUS_K + 1 values each in gen), the
 * step numbers of 'every' (TK_REMOTENESS under CONV_EVERY) or the values of 'anyleaf' after
 * leaf deletion (TK_SG under CONV_ANYLEAF) in out. Returns -1 when no theory answers the kind
 * under conv (gr_sum_theory_tables says so beforehand), 0 when the game has cycles (*why then
 * says what needs a game that ends), 1 when filled. */
int gr_sum_theory_tables(const gr_ctx *c, gr_conv conv, gr_table_kind kind);
int gr_sum_theory_table(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, gr_table_kind kind,
                        int64_t *out, int32_t *gen, const char **why);


/* The convention a query means: as written, else a lone component's own play. */
gr_conv gr_sum_convention(const gr_comp *comps, int n, int has_conv, gr_conv conv);
/* Solves comps[0..n) under conv; every winning move (rendered as the position is written)
 * goes to fn, which may be NULL. The remoteness follows one rule for every face: found where
 * it is cheap (by the answer's own path, or a bounded graph), or where asked for (remoteness
 * 1: the whole position graph, within the limits); else out->remoteness_skipped says why. */
void gr_sum_solve(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, int remoteness,
                  gr_solution *out, gr_child_fn fn, void *user);
/* A table of one game: out[cell] for each cell of box (or of the vertex list, when vertices
 * is not NULL), SG values (-1 where none; a loopy value's set added to loopy, or -1 when loopy
 * is NULL), outcomes or remoteness (-1 for a draw) (kind GR_KIND_SG, GR_KIND_OUTCOME or
 * GR_KIND_REMOTENESS). */
void gr_sum_table(gr_ctx *c, gr_module *m, gr_game *g, gr_conv conv, const gr_box *box,
                  const int32_t *vertices, int nvertices, unsigned kind, int64_t *out, gr_loopy *loopy);
#endif
