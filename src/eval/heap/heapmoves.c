/* heapmoves: moves of a huge heap that reach a wanted value, through a proved period; see heapmoves.h. */
#include "eval/heap/heapmoves.h"

int gr_heap_moves_fast(gr_ctx *c, gr_game *g, int64_t n) {
    int64_t p, e;
    if (g->kernel == KER_NIM) return 1;
    if (!gr_heap_moves_shape(g)) return 0;
    if (gr_heap_ensure(c, g, n) < 0) return 0;
    return gr_heap_period(g, &p, &e);
}

int gr_heap_moves_shape(const gr_game *g) {
    return g->kernel == KER_SUBTRACT || (g->kernel == KER_OCTAL && g->tb.max_heaps <= 2 && !g->tb.period);
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

static int split_hits(const gr_heap_valuation *v, int64_t a, int64_t b) {
    return v->hit(v->user, v->combine(v->user, v->value(v->user, a), v->value(v->user, b)));
}

/* The splits of r into (a, r - a), a <= half, that hit. */
static void splits(const gr_heap_valuation *v, int64_t r, int64_t half, emitter *m) {
    int64_t p = v->period, e = v->preperiod;
    /* periodic middle: a >= e and r - a >= e */
    int64_t mlo = e > 1 ? e : 1, mhi = r - e < half ? r - e : half;
    int64_t direct_hi = mlo - 1 < half ? mlo - 1 : half;
    int64_t parts[2];
    for (int64_t a = 1; a <= direct_hi; a++)
        if (split_hits(v, a, r - a)) { parts[0] = a; parts[1] = r - a; emit(m, parts, 2); }
    if (mlo <= mhi) {
        /* which residues of a hit, and how many split points in all */
        int64_t matches = 0;
        for (int64_t rho = 0; rho < p; rho++) {
            int64_t a0 = e + rho;
            int64_t b0 = e + (((r - e - a0) % p) + p) % p;   /* a0 + b0 == r (mod p) */
            if (!split_hits(v, a0, b0)) continue;
            matches++;
            m->total = sat_add(m->total, in_class(mlo, mhi, e, p, rho));
        }
        /* list the first ones, a by a: each run of p split points holds a match */
        for (int64_t a = mlo; matches && a <= mhi && m->left > 0; a++)
            if (split_hits(v, a, r - a)) {
                parts[0] = a; parts[1] = r - a;
                m->left--;
                m->fn(m->user, parts, 2);
            }
    }
    for (int64_t a = (mhi + 1 > mlo ? mhi + 1 : mlo); a <= half; a++)
        if (split_hits(v, a, r - a)) { parts[0] = a; parts[1] = r - a; emit(m, parts, 2); }
}

int64_t gr_heap_moves_where(gr_ctx *c, gr_game *g, int64_t n, const gr_heap_valuation *v, int64_t limit,
                            gr_heap_option_fn fn, void *user) {
    (void)c;
    emitter m = { limit, 0, fn, user };
    int64_t h;
    if (g->kernel == KER_SUBTRACT) {
        for (size_t j = 0; j < g->nsub && g->sub[j] <= n; j++) {
            h = n - g->sub[j];
            if (v->hit(v->user, v->value(v->user, h))) emit(&m, &h, 1);
        }
        return m.total;
    }
    const gr_tbcode *t = &g->tb;
    int64_t last = t->last_place < n ? t->last_place : n;
    for (int64_t k = 0; k <= last; k++) {
        gr_tbdigit d = gr_tb_digit(t, k);
        int64_t r = n - k;
        if ((d.mask & 1u) && r == 0 && v->hit(v->user, v->value(v->user, 0))) { h = 0; emit(&m, &h, 1); }
        if ((d.mask & 2u) && r >= 1 && v->hit(v->user, v->value(v->user, r))) emit(&m, &r, 1);
        if ((d.mask & 4u) && r >= 2) {
            if (d.constraint == TB_EQUAL) {
                if (r % 2 == 0 && split_hits(v, r / 2, r / 2)) { int64_t parts[2] = { r / 2, r / 2 }; emit(&m, parts, 2); }
            } else {
                splits(v, r, d.constraint ? (r - 1) / 2 : r / 2, &m);
            }
        }
    }
    return m.total;
}

/* Normal play: the SG values, combined by xor, hitting want (every option: want < 0). */
typedef struct sg_want { gr_game *g; int64_t want; } sg_want;
static int64_t sg_value(void *u, int64_t h) { return gr_heap_value(((sg_want *)u)->g, h); }
static int64_t sg_xor(void *u, int64_t x, int64_t y) { (void)u; return x ^ y; }
static int sg_hit(void *u, int64_t x) { return ((sg_want *)u)->want < 0 || x == ((sg_want *)u)->want; }

int64_t gr_heap_moves_to(gr_ctx *c, gr_game *g, int64_t n, int64_t want, int64_t limit,
                         gr_heap_option_fn fn, void *user) {
    if (g->kernel == KER_NIM) {
        emitter m = { limit, 0, fn, user };
        if (want < n) emit(&m, &want, 1);
        return m.total;
    }
    if (!gr_heap_moves_fast(c, g, n)) return 0;
    sg_want w = { g, want };
    gr_heap_valuation v = { sg_value, sg_xor, sg_hit, &w, 0, 0 };
    gr_heap_period(g, &v.period, &v.preperiod);
    return gr_heap_moves_where(c, g, n, &v, limit, fn, user);
}
