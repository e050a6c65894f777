/* tracker: the incremental periodicity tracker, the tests' reference for the detector
 * (src/period/detect.h) and for the pure functions of src/period/period.h; it was the
 * library's once. Periodicity of an integer sequence v[0], v[1], ... (Sprague-Grundy values of heaps
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
#ifndef GRUNDY_TEST_TRACKER_H
#define GRUNDY_TEST_TRACKER_H
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

/* Differences through unsigned arithmetic: exact for values in [0, 2^63). */
static inline int64_t tracker_delta(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }

static void gr_period_init(gr_period_tracker *t, gr_ctx *c) {
    *t = (gr_period_tracker){ .c = c };
}

/* Frees the arrays; the tracker may be reused. */
static void gr_period_free(gr_period_tracker *t) {
    gr_ctx *c = t->c;
    gr_free(c, t->v32); gr_free(c, t->diff32); gr_free(c, t->start32);
    gr_free(c, t->v64); gr_free(c, t->diff64); gr_free(c, t->start64);
    *t = (gr_period_tracker){ .c = c };
}

static void *resize(gr_ctx *c, void *p, int64_t count, size_t elem) {
    return gr_realloc(c, p, gr_size_mul(c, (size_t)count, elem));
}

static int64_t grown(int64_t cap, int64_t need, int64_t first) {
    int64_t n = cap ? cap : first;
    while (n <= need) n *= 2;
    return n;
}

/* Room for value index n. */
static void grow_values(gr_period_tracker *t) {
    if (t->n < t->vcap) return;
    t->vcap = grown(t->vcap, t->n, 256);
    if (t->wide) t->v64 = resize(t->c, t->v64, t->vcap, sizeof *t->v64);
    else t->v32 = resize(t->c, t->v32, t->vcap, sizeof *t->v32);
}

/* Room for candidate p. */
static void grow_candidates(gr_period_tracker *t, int64_t p) {
    if (p < t->ccap) return;
    t->ccap = grown(t->ccap, p, 128);
    if (t->wide) {
        t->diff64 = resize(t->c, t->diff64, t->ccap, sizeof *t->diff64);
        t->start64 = resize(t->c, t->start64, t->ccap, sizeof *t->start64);
    } else {
        t->diff32 = resize(t->c, t->diff32, t->ccap, sizeof *t->diff32);
        t->start32 = resize(t->c, t->start32, t->ccap, sizeof *t->start32);
    }
}

/* Copies a[from..count) into a new 64-bit array of cap entries. */
static int64_t *widen_array(gr_ctx *c, int32_t *a, int64_t from, int64_t count, int64_t cap) {
    int64_t *w = gr_alloc(c, gr_size_mul(c, (size_t)(cap ? cap : 1), sizeof *w));
    for (int64_t i = from; i < count; i++) w[i] = a[i];
    gr_free(c, a);
    return w;
}

/* From 32-bit to 64-bit storage, once and for good. */
static void widen(gr_period_tracker *t) {
    int64_t ncand = t->n / 2 + 1;     /* candidates 1..n/2; index 0 is never used */
    t->v64 = widen_array(t->c, t->v32, 0, t->n, t->vcap);
    t->diff64 = widen_array(t->c, t->diff32, 1, t->diff32 ? ncand : 0, t->ccap);
    t->start64 = widen_array(t->c, t->start32, 1, t->start32 ? ncand : 0, t->ccap);
    t->v32 = t->diff32 = t->start32 = NULL;
    t->wide = 1;
}

/* Candidate p joins when the length reaches 2p: its difference is that of the last pair
 * (p - 1, 2p - 1), and its run extends back over the pairs that share it. */
static void activate(gr_period_tracker *t, int64_t p) {
    grow_candidates(t, p);
    int64_t d = tracker_delta(gr_period_value(t, 2 * p - 1), gr_period_value(t, p - 1));
    int64_t e = p - 1;
    while (e > 0 && tracker_delta(gr_period_value(t, e - 1 + p), gr_period_value(t, e - 1)) == d) e--;
    if (t->wide) { t->diff64[p] = d; t->start64[p] = e; }
    else { t->diff32[p] = (int32_t)d; t->start32[p] = (int32_t)e; }
}

/* The hot loops: one comparison per candidate, branch-free so that the compiler vectorises
 * them (most candidates change difference at most steps, which a branch would mispredict).
 * In 32-bit mode values are in [0, 2^31), so differences and indices fit in int32. */
static void update32(gr_period_tracker *t, int32_t value, int64_t m) {
    const int32_t *restrict w = t->v32 + m;           /* w[-p] = v[m - p] */
    int32_t *restrict diff = t->diff32, *restrict start = t->start32;
    int32_t m32 = (int32_t)m;
    int64_t maxp = m / 2;
    for (int64_t p = 1; p <= maxp; p++) {
        int32_t d = value - w[-p];
        start[p] = d != diff[p] ? m32 - (int32_t)p : start[p];
        diff[p] = d;
    }
}

static void update64(gr_period_tracker *t, int64_t value, int64_t m) {
    const int64_t *restrict w = t->v64 + m;
    int64_t *restrict diff = t->diff64, *restrict start = t->start64;
    int64_t maxp = m / 2;
    for (int64_t p = 1; p <= maxp; p++) {
        int64_t d = tracker_delta(value, w[-p]);
        start[p] = d != diff[p] ? m - p : start[p];
        diff[p] = d;
    }
}

static void gr_period_push(gr_period_tracker *t, int64_t value) {
    if (!t->wide && (value < 0 || value > INT32_MAX || t->n >= INT32_MAX)) widen(t);
    grow_values(t);
    int64_t m = t->n;               /* the index of the new value */
    if (t->wide) {
        t->v64[m] = value;
        update64(t, value, m);
    } else {
        t->v32[m] = (int32_t)value;
        update32(t, (int32_t)value, m);
    }
    t->n = m + 1;
    if (t->n % 2 == 0) activate(t, t->n / 2);
}

#endif
