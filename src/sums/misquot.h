/* misquot: misere sums of heaps of one rule set answered by its misere quotient
 * (eval/quotient.h): the sum is a P-position iff the product of its heaps' elements lies in
 * P, and a move is winning iff the product after it does. */
#ifndef GRUNDY_MISQUOT_H
#define GRUNDY_MISQUOT_H
#include "compgraph.h"

/* 1 if decided (t filled, winning moves to fn); 0 with why (for --explain) otherwise. */
int gr_misere_quotient(gr_ctx *c, const gr_comp *comps, int n, gr_theory *t, gr_child_fn fn, void *user,
                       char *why, size_t cap);
#endif
