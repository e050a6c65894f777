/* misere: misere sums by the SJ theorem (sj.h), tried first, then by Conway's genus theory.
 *   SJ theorem         every value-0 position of the components with a move has a move to
 *                      value 1: the SG values decide (sj.h);
 *   one component      its misere Grundy value lambda_0 decides: P iff it is 0 (exact);
 *   tame components    every position of every component has the genus of a misere Nim
 *                      position (0^120, 1^031 or a^{a,a^2}); such games play like misere
 *                      Nim: with x the xor of the g's, the sum is P iff x == 1 when every
 *                      component is of the kind 0^120 / 1^031, else iff x == 0;
 *   otherwise          the theory does not decide; t->why names a wild component and where
 *                      the SJ condition fails, and the caller asks the position graph. */
#ifndef GRUNDY_MISERE_H
#define GRUNDY_MISERE_H
#include "compgraph.h"

void gr_misere_solve(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_theory *t,
                     gr_child_fn fn, void *user);
/* Genus of positions: out[i] holds GR_GENUS_K + 1 values for comps[i]; tame[i] (may be NULL)
 * whether it is hereditarily tame. Returns 0 if some component is loopy. */
int gr_misere_genus(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, int32_t *out, uint8_t *tame);
#endif
