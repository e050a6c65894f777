/* loopy: infinite generalised Sprague-Grundy values as answers carry them. A position of a
 * graph with cycles whose gamma value (Smith) is infinite has the value "infinity(K)", K the set
 * of the finite gamma values of its options (eval/cap_graph.h's gr_pg_gamma_set). Every face
 * shows K (text ∞{K}, CSV inf{K}, JSON {"loopy":[K]}), so a value stays an int64 as before
 * (>= 0 a number, -1 none) and a loopy one is -2 - j, j the index of K in a store of sets kept
 * beside the values (a table's cells, a solution, a list of options). Equal sets share an
 * index, so equal values compare equal. */
#ifndef GRUNDY_LOOPY_H
#define GRUNDY_LOOPY_H
#include "textset.h"
#include "eval/cap_graph.h"

typedef struct gr_loopy { gr_byteset sets; } gr_loopy;

static inline int gr_is_loopy(int64_t v) { return v <= -2; }
void gr_loopy_init(gr_loopy *l, gr_ctx *c);
void gr_loopy_free(gr_loopy *l);
/* The value infinity(K) for the nk values of k (any order, repeats allowed; k is sorted in place). */
int64_t gr_loopy_value(gr_loopy *l, int64_t *k, size_t nk);
/* The set K of loopy value v (a view into l, valid until l changes); *nk its size. */
const int64_t *gr_loopy_set(const gr_loopy *l, int64_t v, size_t *nk);
/* The value of position id of pg under normal play, as every query shows it: its SG value, else
 * its gamma value (gr_pg_solve_gamma run here when not yet), a loopy one added to l; -1 where
 * there is none (a position that reaches a terminal that wins). */
int64_t gr_loopy_of_pg(gr_loopy *l, gr_pg *pg, uint32_t id);
#endif
