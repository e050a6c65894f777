/* qcheck: the proof that a candidate monoid is the misere quotient of heaps 0..n-1, or the
 * least sum of heaps it gets wrong.
 *
 * A candidate (K, P, the image of each heap) is correct when for every sum X of heaps,
 * o(X) = P iff phi(X) is in P. By induction on X that holds iff every X is *consistent*:
 * phi(X) in P exactly when X has a move and no option X - h + t (h a heap of X, t an option
 * of h) has its image in P. Whether X is consistent, and whether X + Z is for any Z, depends on
 * X only through its state (phi(X), X has a move, F_X), F_X = { z : some option of X has
 * phi(option) z in P }, and adding heap h (image e, option images O_h) gives
 * F'(z) = F(e z) or (some t in O_h has P(phi(X) t z)). There are finitely many states, so the
 * walk below visits every reachable one: a proof, or an inconsistent sum.
 *
 * The sums are walked in the order that compares the count of the largest heap first, and a
 * sum is not extended when its state was reached before (by a smaller sum, whose extensions
 * are smaller). So the first inconsistent sum found is the least one, and every sum below it
 * is consistent, so correctly classified: the least inconsistent sum is itself misclassified,
 * its true outcome the opposite of its image's (the fact the search in quotient.c relies on;
 * it is how Siegel's MisereSolver certifies a quotient).
 *
 * Bounded (at->bound > 0): only sums X of weight w(X) <= bound, the weight of a sum being the
 * sum of its atoms' (at->weight: the most moves an atom lasts, so every option of X weighs
 * less than X). The induction above runs over those sums alone (their options are among
 * them), so a pass proves the candidate right on every sum of weight <= bound; it says
 * nothing beyond. A sum is not extended when an earlier sum (smaller in the walk's order, which
 * addition keeps) reached its state weighing no more, and a state is extended again when a
 * lighter sum reaches it: then every sum X of weight <= bound has the state of a walked sum
 * that is no larger and no heavier (X = Y + Z cut at Y, Y's state first reached by Y0: Y0 + Z
 * has X's state, is smaller and no heavier, and the same holds of it). So the first
 * inconsistent sum found is still misclassified: its options, and theirs, are smaller and
 * lighter, hence consistent. */
#ifndef GRUNDY_QCHECK_H
#define GRUNDY_QCHECK_H
#include <stdint.h>
#include "eval/heap/qmonoid.h"

/* 1: k with images img is correct for every sum of the atoms; 0: it is not, and fail_exps
 * (at->n entries, may be NULL) holds the least misclassified sum (copies of each atom);
 * -1: more than max_states states. *states counts the states visited. */
int gr_qcheck(gr_ctx *c, const gr_qmon *k, const gr_qatoms *at, const int32_t *img,
              int32_t *fail_exps, int64_t *states, int64_t max_states);
/* Tests: the check's two halves (--threads) from candidates of this many elements (0: the
 * default, 8192). (Its scalar loop instead of AVX-512: gr_simd_force, core/simd.h.) */
void gr_qcheck_split_from(int elements);
#endif
