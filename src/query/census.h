/* census: 'census g[c] for c in octal(3) to N'. Every member of the family is computed to heap
 * N with its periodicity check (members.h, spread over processes or MPI ranks when asked), then
 * members are grouped into classes: two members are in one class when their values agree on
 * heaps 0..N, or agree after a shift of one heap (sg_b(n) = sg_a(n + 1) for n < N, as between a
 * code and the same code with a leading 0: 0.07 and 0.137, 0.01 and 0.001), and classes chain.
 * Values are compared by two independent 64-bit fingerprints of each sequence.
 *
 * One row a class, in the order of each class's first member (members in family order), so the
 * answer is the same bytes however the members were spread: the status (proved, with the first
 * member's theorem, when every member's period is proved; else none to N), the first member's
 * period and preperiod, the largest value (and the first heap with it), the members (each
 * marked with its shift d when its values are the first member's from heap n + d). Text, CSV
 * and JSON (one object a class, as docs/language.md gives). */
#ifndef GRUNDY_CENSUS_H
#define GRUNDY_CENSUS_H
#include <stdio.h>
#include "sema.h"
#include "format.h"

/* Runs census query qi of m and prints it. */
void gr_run_census(gr_ctx *c, gr_module *m, int qi, const gr_sink *sk);
#endif
