/* proved: periods proved while a heap table fills; see proved.h. */
#include "eval/heap/proved.h"

static int tb_certifiable(const gr_tbcode *tb) {
    if (tb->period) return 0;
    for (int i = 0; i < tb->ndigits; i++)
        if (tb->d[i].constraint) return 0;
    return 1;
}

int gr_proved_applies(const gr_game *g) {
    if (g->kernel == KER_SUBTRACT) return 1;
    if (g->kernel == KER_OCTAL || g->kernel == KER_TB) return tb_certifiable(&g->tb);
    return 0;
}

/* Values needed to prove (p, e): the window's end plus p (saturating). */
static int64_t need(const gr_game *g, int64_t e, int64_t p) {
    if (g->kernel == KER_SUBTRACT) {
        int64_t m = g->nsub ? g->sub[g->nsub - 1] : 0;
        return e + m + p;
    }
    int64_t k = g->tb.max_heaps > 1 ? g->tb.max_heaps : 1;
    int64_t t = g->tb.last_place > 0 ? g->tb.last_place : 0;
    int64_t e1 = e > 1 ? e : 1;
    return k * e1 + (k - 1) * p + t + p;
}

int64_t gr_proved_find(const gr_game *g, const gr_sgtable *t, int64_t *e_out) {
    if (!gr_proved_applies(g)) return 0;
    int64_t n = t->n;
    int64_t budget = 8 * n + 4096;    /* comparisons: coincidental runs are short */
    for (int64_t p = 1; 2 * p <= n && budget > 0; p++) {
        int64_t e = n - p;
        while (e > 0 && gr_sgt_get(t, e - 1 + p) == gr_sgt_get(t, e - 1)) {
            e--;
            if (--budget <= 0) return 0;
        }
        budget--;
        if (need(g, e, p) <= n) { *e_out = e; return p; }
    }
    return 0;
}
