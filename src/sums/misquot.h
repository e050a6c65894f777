/* misquot: misere sums of heaps of one rule set answered by its misere quotient
 * (eval/cap_quotient.h): the sum is a P-position iff the product of its heaps' elements lies in
 * P, and a move is winning iff the product after it does. */
#ifndef GRUNDY_MISQUOT_H
#define GRUNDY_MISQUOT_H
#include "compgraph.h"
#include "eval/evaluator.h"

/* 1 if decided (t filled, winning moves to fn); 0 with why (for --explain) otherwise. */
int gr_misere_quotient(gr_ctx *c, const gr_comp *comps, int n, gr_theory *t, gr_child_fn fn, void *user,
                       char *why, size_t cap);
/* Every option of the sum once, with its misere outcome (options misere ...): 1 if applied. Of
 * a heap past 2^20 answered through the quotient's period, the first 100 (*unlisted counts the
 * rest); winning moves likewise (t->moves_unlisted). */
typedef void (*gr_option_outcome_fn)(void *user, const char *text, int outcome);
int gr_misere_quotient_options(gr_ctx *c, const gr_comp *comps, int n, gr_option_outcome_fn fn, void *user,
                               int64_t *unlisted);
/* A misere outcome table of single heaps (table misere G(a..b) outcome): 1 if applied. */
int gr_misere_quotient_table(gr_ctx *c, gr_game *g, const gr_box *box, int64_t *out);
#endif
