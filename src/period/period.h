/* period: periodicity of an integer sequence v[0], v[1], ... (Sprague-Grundy values of heaps
 * 0, 1, 2, ...). A pair (p, s) holds from e when v[n + p] = v[n] + s for every n >= e; s is
 * the saltus (0: ordinary periodicity, else arithmetic periodicity).
 *
 * The tracker is incremental: values are appended one at a time, and for every candidate
 * period p it keeps the current difference d(p) = v[last] - v[last - p] and the start of the
 * current run of that difference, so appending costs O(1) per candidate and nothing is ever
 * rescanned. Candidate periods are p <= n/2 for n values: a period becomes a candidate once
 * its block could have been seen twice. Each candidate is activated (with one backward scan
 * of p pairs) when the length reaches 2p, so the total work for N values is about N^2/4 + N^2/8
 * simple operations and the memory 12 bytes per value (24 once values need 64 bits).
 *
 * Values must lie in [0, 2^63) (SG values do), so every difference is exact. */
#ifndef GRUNDY_PERIOD_H
#define GRUNDY_PERIOD_H
#include <stdint.h>
#include "ctx.h"

/* Values are kept at 32 bits while every value is below 2^31 (the common case: the hot loop
 * then runs over 32-bit lanes, about three times faster), and widened to 64 bits for good the
 * first time one is not. */
typedef struct gr_period_tracker {
    gr_ctx *c;
    int wide;                    /* 0: the 32-bit arrays are in use; 1: the 64-bit ones */
    int32_t *v32, *diff32, *start32;
    int64_t *v64, *diff64, *start64;
    /* v[0..n): the values; for 1 <= p <= n/2 (index 0 unused): diff[p] = v[n-1] - v[n-1-p],
     * start[p] = the least e with v[i+p] - v[i] = diff[p] for every e <= i < n-p */
    int64_t n, vcap, ccap;
} gr_period_tracker;

void gr_period_init(gr_period_tracker *t, gr_ctx *c);
void gr_period_free(gr_period_tracker *t);   /* frees the arrays; the tracker may be reused */
void gr_period_push(gr_period_tracker *t, int64_t value);

/* The largest candidate period: n / 2. */
static inline int64_t gr_period_maxp(const gr_period_tracker *t) { return t->n / 2; }
/* For a candidate 1 <= p <= n/2: the saltus of the current run and its start, i.e. the least
 * preperiod e for which (p, saltus) agrees with every value seen. */
static inline int64_t gr_period_saltus(const gr_period_tracker *t, int64_t p) {
    return t->wide ? t->diff64[p] : t->diff32[p];
}
static inline int64_t gr_period_start(const gr_period_tracker *t, int64_t p) {
    return t->wide ? t->start64[p] : t->start32[p];
}
static inline int64_t gr_period_value(const gr_period_tracker *t, int64_t i) {
    return t->wide ? t->v64[i] : t->v32[i];
}

/* ---- pure functions on a finite sequence v[0..n) ---- */

/* The least e in [0, max(n - p, 0)] with v[i + p] = v[i] + s for every e <= i < n - p. */
int64_t gr_period_preperiod(const int64_t *v, int64_t n, int64_t p, int64_t s);
/* The first i >= from with i + p < n and v[i + p] != v[i] + s, or -1 if there is none. */
int64_t gr_period_first_mismatch(const int64_t *v, int64_t n, int64_t p, int64_t s, int64_t from);
/* The reporting rule when no theorem proves a period: over n values, a run of (p, s) from e is
 * plausible when it covers the last half of the values (e + p <= n / 2) and at least two whole
 * periods of pairs (n - p - e >= 2p). Spurious short runs at the end of an aperiodic sequence
 * are then not reported. */
int gr_period_plausible(int64_t n, int64_t p, int64_t e);
#endif
