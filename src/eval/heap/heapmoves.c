/* heapmoves: moves of a huge heap to a given value, through the proved period; see heapmoves.h. */
#include "eval/heap/heapmoves.h"

int gr_heap_moves_fast(gr_ctx *c, gr_game *g, int64_t n) {
    int64_t p, e;
    if (g->kernel == KER_NIM) return 1;
    if (g->kernel != KER_SUBTRACT && !(g->kernel == KER_OCTAL && g->tb.max_heaps <= 2 && !g->tb.period)) return 0;
    if (gr_heap_ensure(c, g, n) < 0) return 0;
    return gr_heap_period(g, &p, &e);
}

static int64_t sat_add(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

/* How many x in [lo, hi] have (x - e) mod p == rho (lo >= e). */
static int64_t in_class(int64_t lo, int64_t hi, int64_t e, int64_t p, int64_t rho) {
    if (hi < lo) return 0;
    int64_t first = lo + ((rho - (lo - e) % p) % p + p) % p;
    return first > hi ? 0 : (hi - first) / p + 1;
}

typedef struct emitter { int64_t left, total; gr_heap_option_fn fn; void *user; } emitter;

static void emit(emitter *m, const int64_t *parts, int nparts) {
    m->total = sat_add(m->total, 1);
    if (m->left > 0) { m->left--; m->fn(m->user, parts, nparts); }
}

/* The splits of r into (a, r - a), a <= half, that reach want. */
static void splits(const gr_game *g, int64_t r, int64_t half, int64_t want, int64_t p, int64_t e, emitter *m) {
    /* periodic middle: a >= e and r - a >= e */
    int64_t mlo = e > 1 ? e : 1, mhi = r - e < half ? r - e : half;
    int64_t direct_hi = mlo - 1 < half ? mlo - 1 : half;
    int64_t parts[2];
    for (int64_t a = 1; a <= direct_hi; a++)
        if ((gr_heap_value(g, a) ^ gr_heap_value(g, r - a)) == want) { parts[0] = a; parts[1] = r - a; emit(m, parts, 2); }
    if (mlo <= mhi) {
        /* which residues of a reach want, and how many split points in all */
        int64_t matches = 0;
        for (int64_t rho = 0; rho < p; rho++) {
            int64_t a0 = e + rho;
            int64_t b0 = e + (((r - e - a0) % p) + p) % p;   /* a0 + b0 == r (mod p) */
            if ((gr_heap_value(g, a0) ^ gr_heap_value(g, b0)) != want) continue;
            matches++;
            int64_t k = in_class(mlo, mhi, e, p, rho);
            m->total = sat_add(m->total, k);
        }
        /* list the first ones, a by a: each run of p split points holds a match */
        for (int64_t a = mlo; matches && a <= mhi && m->left > 0; a++)
            if ((gr_heap_value(g, a) ^ gr_heap_value(g, r - a)) == want) {
                parts[0] = a; parts[1] = r - a;
                m->left--;
                m->fn(m->user, parts, 2);
            }
    }
    for (int64_t a = (mhi + 1 > mlo ? mhi + 1 : mlo); a <= half; a++)
        if ((gr_heap_value(g, a) ^ gr_heap_value(g, r - a)) == want) { parts[0] = a; parts[1] = r - a; emit(m, parts, 2); }
}

int64_t gr_heap_moves_to(gr_ctx *c, gr_game *g, int64_t n, int64_t want, int64_t limit,
                         gr_heap_option_fn fn, void *user) {
    emitter m = { limit, 0, fn, user };
    int64_t h;
    if (g->kernel == KER_NIM) {
        if (want < n) { h = want; emit(&m, &h, 1); }
        return m.total;
    }
    if (!gr_heap_moves_fast(c, g, n)) return 0;
    int64_t p, e;
    gr_heap_period(g, &p, &e);
    if (g->kernel == KER_SUBTRACT) {
        for (size_t j = 0; j < g->nsub && g->sub[j] <= n; j++) {
            h = n - g->sub[j];
            if (gr_heap_value(g, h) == want) emit(&m, &h, 1);
        }
        return m.total;
    }
    const gr_tbcode *t = &g->tb;
    int64_t last = t->last_place < n ? t->last_place : n;
    for (int64_t k = 0; k <= last; k++) {
        gr_tbdigit d = gr_tb_digit(t, k);
        int64_t r = n - k;
        if ((d.mask & 1u) && r == 0 && want == 0) { h = 0; emit(&m, &h, 1); }
        if ((d.mask & 2u) && r >= 1 && gr_heap_value(g, r) == want) emit(&m, &r, 1);
        if ((d.mask & 4u) && r >= 2) {
            if (d.constraint == TB_EQUAL) {
                if (r % 2 == 0 && want == 0) { int64_t parts[2] = { r / 2, r / 2 }; emit(&m, parts, 2); }
            } else {
                splits(g, r, d.constraint ? (r - 1) / 2 : r / 2, want, p, e, &m);
            }
        }
    }
    return m.total;
}
