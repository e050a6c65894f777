/* every: 'every' sums by step numbers (Smith's Every-SG theorem, Winning Ways' suspense
 * numbers). A move is made in every component that can move; the component that ends last
 * decides the game, so each player keeps the components he wins alive and ends the others.
 * With s_i the step number of component i, the sum is won by the player to move iff
 * max s_i is odd, and the game lasts exactly max s_i moves. Cost: a heap kernel for a heap
 * rule set that never splits (eval/cap_convkernel.h), else one graph per component (shared), never
 * the product of the components. */
#ifndef GRUNDY_EVERY_H
#define GRUNDY_EVERY_H
#include "compgraph.h"

/* Decides the sum (t->decided = 0 with t->why if a component is loopy); winning moves go to
 * fn (child id 0): all of them when there are at most a few thousand combinations, else one. */
void gr_every_solve(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_theory *t,
                    gr_child_fn fn, void *user);
/* Step numbers of positions (out[i] for comps[i]); returns 0 if some component is loopy. */
int gr_every_steps(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, int64_t *out);
#endif
