/* anyleaf: 'anyleaf' sums by leaf deletion. The game ends as soon as one component is at a
 * leaf, and the player to move there wins; so moving a component into a leaf hands the win
 * over and is never a good move. Delete the leaves of every component: positions left
 * without moves become the new leaves, lost by the player to move, and the reduced games are
 * played under normal play, so their values add by xor. A sum with a component already at a
 * leaf is won by the player to move. The values come from a heap kernel for a heap rule set
 * that never splits (eval/cap_convkernel.h), else from the components' shared graph. */
#ifndef GRUNDY_ANYLEAF_H
#define GRUNDY_ANYLEAF_H
#include "compgraph.h"

void gr_anyleaf_solve(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_theory *t,
                      gr_child_fn fn, void *user);
/* Reduced values (-1 at a leaf) of positions; returns 0 if some component is loopy. */
int gr_anyleaf_values(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, int64_t *out);
#endif
