/* turning: coin-turning games by the coin-turning theorem; see turning.h. */
#include "eval/figure/turning.h"
#include "eval/rules.h"
#include <stdlib.h>
#include <string.h>

#include "ir.h"

enum { MAX_FLIPPED = 1 << 16 };

typedef struct flip_ctx {
    gr_ctx *c; gr_game *g; const gr_rmove *mv; int m;
    int64_t x;
    int64_t *coins; size_t n, cap;
    gr_flip_fn fn; void *user;
} flip_ctx;

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void push_coin(flip_ctx *f, int64_t p) {
    if (f->n == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 16;
        f->coins = gr_realloc(f->c, f->coins, f->cap * sizeof *f->coins);
    }
    f->coins[f->n++] = p;
}

/* One combination of the bound variables: the coins of the move, toggled, checked, reported. */
static int flip_frame(void *user, int64_t *frame) {
    flip_ctx *f = user;
    const gr_rmove *mv = f->mv;
    if (mv->guard && !gr_eval(f->c, mv->guard, frame, NULL)) return 0;
    f->n = 0;
    int bad = 0;
    for (int p = 0; p < mv->nparts; p++) {
        int64_t lo = gr_eval(f->c, mv->parts[p].coords[0], frame, NULL);
        const gr_code *hc = f->g->turning->part_hi[f->m][p];
        int64_t hi = hc ? gr_eval(f->c, hc, frame, NULL) : lo;
        if (hi >= lo && (lo < 0 || hi > f->x)) bad = 1;
        if (bad) continue;
        if (hi >= lo && (uint64_t)hi - (uint64_t)lo >= MAX_FLIPPED)
            gr_fail_at(f->c, mv->loc, GR_EXIT_LIMIT, "a move flips more than %d coins", MAX_FLIPPED);
        for (int64_t q = lo; q <= hi; q++) push_coin(f, q);
    }
    if (bad) return 0;   /* a coin off the row or right of x: not a move */
    qsort(f->coins, f->n, sizeof *f->coins, cmp_i64);
    /* A coin flipped an even number of times is not flipped. */
    size_t k = 0;
    for (size_t i = 0; i < f->n;) {
        size_t j = i;
        while (j < f->n && f->coins[j] == f->coins[i]) j++;
        if ((j - i) & 1) f->coins[k++] = f->coins[i];
        i = j;
    }
    if (k == 0 || f->coins[k - 1] != f->x)
        gr_fail_at(f->c, mv->loc, GR_EXIT_INPUT, "at x = %lld this flip does not turn the coin at x; a move turns its rightmost coin, at x, from heads to tails",
                   (long long)f->x);
    f->fn(f->user, f->coins, (int)k - 1);
    return 0;
}

void gr_turning_flips(gr_ctx *c, gr_game *g, int64_t x, gr_flip_fn fn, void *user) {
    const gr_rules *r = g->turning->rules;
    if (r->nslots > GR_MAX_FRAME) gr_fail(c, GR_EXIT_INPUT, "rule set '%s' uses more than %d variables", g->name, GR_MAX_FRAME);
    int64_t frame[GR_MAX_FRAME] = { 0 };
    memcpy(frame, g->params, (size_t)r->nparams * sizeof *frame);
    frame[r->nparams] = x;
    flip_ctx f = { .c = c, .g = g, .x = x, .fn = fn, .user = user };
    for (int m = 0; m < r->nmoves; m++) {
        f.mv = &r->moves[m];
        f.m = m;
        gr_rules_bind(c, f.mv, frame, flip_frame, &f);
    }
    gr_free(c, f.coins);
}

typedef struct mex_ctx { gr_ctx *c; gr_turning *t; int64_t *v; size_t n, cap; } mex_ctx;
static void mex_flip(void *user, const int64_t *others, int n) {
    mex_ctx *m = user;
    int64_t v = 0;
    for (int i = 0; i < n; i++) v ^= m->t->val[others[i]];
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 64;
        m->v = gr_realloc(m->c, m->v, gr_size_mul(m->c, m->cap, sizeof *m->v));
    }
    m->v[m->n++] = v;
}

int64_t gr_turning_value(gr_ctx *c, gr_game *g, int64_t x) {
    gr_turning *t = g->turning;
    if (x < t->nval) return t->val[x];
    if (x >= ((int64_t)1 << 40)) gr_fail(c, GR_EXIT_LIMIT, "a coin at place %lld is past what grundy tabulates", (long long)x);
    if ((size_t)x + 1 > (size_t)t->cap) {
        size_t cap = t->cap ? (size_t)t->cap : 64;
        while (cap < (size_t)x + 1) cap *= 2;
        t->val = gr_realloc(c, t->val, gr_size_mul(c, cap, sizeof *t->val));
        t->cap = (int64_t)cap;
    }
    mex_ctx m = { .c = c, .t = t };
    for (int64_t y = t->nval; y <= x; y++) {
        m.n = 0;
        gr_turning_flips(c, g, y, mex_flip, &m);   /* options use values of places below y only */
        if (m.n) qsort(m.v, m.n, sizeof *m.v, cmp_i64);
        int64_t v = 0;
        for (size_t i = 0; i < m.n && m.v[i] <= v; i++) if (m.v[i] == v) v++;
        t->val[y] = v;
        t->nval = y + 1;
    }
    gr_free(c, m.v);
    return t->val[x];
}
