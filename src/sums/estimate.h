/* estimate: before a position graph no theory avoided, about how many positions it will hold
 * (an upper estimate: a splitting heap of n leaves about the partitions of 0..n; 1e300 when
 * huge), and one note on the diagnostics' stream (a terminal or not) when that is
 * GR_FALLBACK_NOTE_AT or more, naming the query and why no theory applied: the search may then
 * run for minutes. The misere quotient bounds its own work by the same estimate (misquot.c). */
#ifndef GRUNDY_ESTIMATE_H
#define GRUNDY_ESTIMATE_H
#include "sema.h"

#define GR_FALLBACK_NOTE_AT 1e6
double gr_sum_graph_estimate(const gr_comp *comps, int n, gr_conv conv);
void gr_sum_fallback_note(gr_ctx *c, const char *why, double expected);
#endif
