/* window: the window theorems of periodicity; see window.h. */
#include "window.h"

static int64_t sat_add(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }
static int64_t sat_mul(int64_t a, int64_t b) { return a && b > INT64_MAX / a ? INT64_MAX : a * b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static int tb_certifiable(const gr_tbcode *tb) {
    if (tb->period) return 0;                 /* repeating digits: unboundedly many tokens */
    for (int i = 0; i < tb->ndigits; i++)
        if (tb->d[i].constraint) return 0;    /* '!?=': parts cannot be shifted by p */
    return 1;
}

gr_window gr_window_of(const gr_game *g) {
    gr_window w = { GR_WINDOW_NONE, 0, 0, 0 };
    if (g->kernel == KER_NIM) w.kind = GR_WINDOW_NIM;
    else if (g->kernel == KER_SUBTRACT) {
        w.kind = GR_WINDOW_SUBTRACT;
        w.m = g->nsub ? g->sub[g->nsub - 1] : 0;
    } else if ((g->kernel == KER_OCTAL || g->kernel == KER_TB) && tb_certifiable(&g->tb)) {
        w.kind = GR_WINDOW_TB;
        w.t = max64(g->tb.last_place, 0);
        w.k = max64(g->tb.max_heaps, 1);
    }
    return w;
}

int64_t gr_window_end(const gr_window *w, int64_t e, int64_t p) {
    if (w->kind == GR_WINDOW_SUBTRACT) return sat_add(e, w->m);
    /* k e' + (k - 1) p + t with e' = max(e, 1): parts of a move must stay nonempty */
    int64_t end = sat_mul(w->k, max64(e, 1));
    end = sat_add(end, sat_mul(w->k - 1, p));
    return sat_add(end, w->t);
}

int64_t gr_window_need(const gr_window *w, int64_t e, int64_t p) { return sat_add(gr_window_end(w, e, p), p); }

int64_t gr_window_emax(const gr_window *w, int64_t p, int64_t n) {
    if (w->kind == GR_WINDOW_SUBTRACT) return n - p - w->m >= 0 ? n - p - w->m : -1;
    if (n < w->t || p > (n - w->t) / w->k) return -1;
    int64_t rest = n - w->t - w->k * p;      /* k e' <= rest, e' = max(e, 1) */
    return rest < w->k ? -1 : rest / w->k;
}

int64_t gr_window_pmax(const gr_window *w, int64_t n) {
    if (w->kind == GR_WINDOW_SUBTRACT) return n - w->m > 0 ? n - w->m : 0;
    if (w->kind != GR_WINDOW_TB) return n;
    int64_t room = n - w->t - w->k;          /* k p <= n - t - k: the rest holds e' >= 1 */
    return room >= w->k ? room / w->k : 0;
}
