/* period: pure functions on a finite sequence v[0..n) of integers (Sprague-Grundy values of heaps
 * 0, 1, 2, ...). A pair (p, s) holds from e when v[n + p] = v[n] + s for every n >= e; s is
 * the saltus (0: ordinary periodicity, else arithmetic periodicity). The least preperiod of a
 * pair, its first mismatch, and the reporting rule for periods no theorem proves. (Every
 * candidate at once is detect.h's; the incremental tracker that once did it in production is
 * the tests' reference now, tests/tracker.h.) Values must lie in [0, 2^63), so every
 * difference is exact. */
#ifndef GRUNDY_PERIOD_H
#define GRUNDY_PERIOD_H
#include <stdint.h>

/* The least e in [0, max(n - p, 0)] with v[i + p] = v[i] + s for every e <= i < n - p. */
int64_t gr_period_preperiod(const int64_t *v, int64_t n, int64_t p, int64_t s);
/* The first i >= from with i + p < n and v[i + p] != v[i] + s, or -1 if there is none. */
int64_t gr_period_first_mismatch(const int64_t *v, int64_t n, int64_t p, int64_t s, int64_t from);
/* The reporting rule when no theorem proves a period: over n values, a run of (p, s) from e is
 * plausible when it covers the last half of the values (e + p <= n / 2) and at least two whole
 * periods of pairs (n - p - e >= 2p). Spurious short runs at the end of an aperiodic sequence
 * are then not reported. */
int gr_period_plausible(int64_t n, int64_t p, int64_t e);

/* ---- over values read one at a time (a heap table through its capability) ---- */
typedef int64_t (*gr_value_fn)(const void *user, int64_t n);
/* The least preperiod of period p (saltus 0) reached from e by walking back while
 * v(n - 1 + p) = v(n - 1). */
int64_t gr_period_back(gr_value_fn v, const void *user, int64_t p, int64_t e);
/* The least divisor d of p with v(n + d) = v(n) for e <= n < e + p: when p is a period from
 * e, the least period from e (a period of the part from e repeats within one block of p). p if
 * none is smaller. Reads values up to e + 2p - 1. */
int64_t gr_period_least_divisor(gr_value_fn v, const void *user, int64_t p, int64_t e);
#endif
