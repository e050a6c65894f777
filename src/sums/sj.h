/* sj: misere sums by the SJ theorem (the anti-SG theorem of the Chinese contest literature,
 * after Jia Zhihao), for sums that genus theory leaves undecided (a wild component).
 *
 * The condition: every position reachable in every component whose normal-play SG value is
 * 0 and which has a move has a move to a position of value 1 (it holds when every value-0
 * position is a leaf). With g_i the components' SG values and S their xor, the player to
 * move in the misere sum then wins iff (S != 0 and some g_i > 1) or (S == 0 and every
 * g_i <= 1). Proof, by induction on the (acyclic) sum; call those positions W, the rest L:
 *   - the end (every component a leaf, every g_i = 0) is in W, and the player to move there
 *     wins under misere play; so every position of L has a move;
 *   - from W, a move to L: S != 0 with one g_j > 1: move it to 0 or 1 (both are options, by
 *     the mex) so that the number of ones is odd (S = 1, all <= 1); S != 0 with two or more
 *     g_i > 1: the nim move to S = 0 leaves one of them above 1; S == 0, all <= 1 and not the
 *     end: move a 1 to 0, or (all 0) a component with a move to 1 (the condition);
 *   - from L every move lands in W: a move changes exactly one g_i. From S != 0, all <= 1 (S
 *     is 1): to a value > 1 gives S > 1 with one above 1, to 0 or 1 gives S = 0 with all
 *     <= 1. From S == 0 with some g_j > 1: the others xor to g_j, so at least two are above
 *     1 and one stays above 1, while the new S is not 0.
 * The condition is checked on the components' own normal-play graph (sums/compgraph.h: a heap
 * that splits is one component, and its positions are multisets of heaps, which the condition
 * must cover too: {2, 2} of a game has value 0 and may have no move to value 1 although
 * every single heap of value 0 does). Winning moves are the moves to a position of L, each
 * classified exactly from the values of its components.
 *
 * Where the condition holds every position is also tame: a position of value g plays, in
 * every sum with such positions and nim heaps, exactly like the nim heap *g (the rule above
 * depends on g only, a value-0 position with moves counting like *0), so its genus is that of
 * *g (0^120, 1^031 or g^(g, g xor 2)) and the tame rule (misere.h) gives the same answers.
 * The SJ test is tried first because it needs only the SG values, not the genus. */
#ifndef GRUNDY_SJ_H
#define GRUNDY_SJ_H
#include "compgraph.h"

/* If the condition holds on g, decides the sum: t->decided, t->outcome, t->value (S), t->why
 * ("SJ theorem: ..."), every winning move to fn (may be NULL); returns 1. Else returns 0 with
 * t untouched but t->why, which says where the condition fails. */
int gr_sj_decide(gr_ctx *c, gr_compgraph *g, const gr_comp *comps, int n, gr_theory *t,
                 gr_child_fn fn, void *user);
/* Heap games from their SG tables alone, no graph (at the cost of the tables of heaps
 * 0..largest and their options: heaps up to 2^20, at most 2^25 options; Nim at any size): decides the sum (1) if every heap of every
 * component's game up to the largest in the sum with a move has a move to its value xor 1
 * (for a game that never splits: every heap of value 0 with a move, a move to 1). 0: not
 * decided; t->why says where the condition fails, or is empty if the tables cannot answer
 * (not heap games, or too many options) and the graph must. */
int gr_sj_heaps(gr_ctx *c, const gr_comp *comps, int n, gr_theory *t, gr_child_fn fn, void *user);
/* The same on its own (the components' graph built here), whatever genus theory says. */
void gr_sj_solve(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_theory *t,
                 gr_child_fn fn, void *user);
#endif
