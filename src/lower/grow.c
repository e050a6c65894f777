/* grow: finding heap moves that grow the heap; see grow.h. */
#include "grow.h"
#include <stdio.h>
#include <string.h>

/* The largest value of the affine part over the binding's range, as an affine function of
 * the heap n: coefficient *a and constant *k. 0 when it cannot be read. */
static int part_max(const gr_game *g, const gr_rmove *mv, const gr_code *code, int64_t *a, int64_t *k) {
    const gr_rules *r = g->rules;
    int n = r->nparams;
    gr_affine f;
    if (!gr_code_affine(code, g->params, r->nparams, &f) || f.div != 1) return 0;
    int64_t ca = f.coef[n], ck = f.k;
    for (int i = 0; i < GR_AFFINE_SLOTS; i++) {
        if (i == n || f.coef[i] == 0) continue;
        /* a bound variable: take the end of its range that makes the part largest */
        const gr_rbinding *b = NULL;
        for (int j = 0; j < mv->nbinds; j++) if (mv->binds[j].slot == i) b = &mv->binds[j];
        if (!b) return 0;
        gr_affine e;
        if (!gr_code_affine(f.coef[i] > 0 ? b->hi : b->lo, g->params, r->nparams, &e) || e.div != 1) return 0;
        for (int j = 0; j < GR_AFFINE_SLOTS; j++) if (j != n && e.coef[j]) return 0;
        int64_t x, y;
        if (__builtin_mul_overflow(f.coef[i], e.coef[n], &x) || __builtin_add_overflow(ca, x, &ca)) return 0;
        if (__builtin_mul_overflow(f.coef[i], e.k, &y) || __builtin_add_overflow(ck, y, &ck)) return 0;
    }
    *a = ca;
    *k = ck;
    return 1;
}

const gr_rmove *gr_rules_growing_move(const gr_game *g) {
    const gr_rules *r = g->rules;
    if (!r || g->shape != SHAPE_HEAP) return NULL;
    for (int m = 0; m < r->nmoves; m++) {
        const gr_rmove *mv = &r->moves[m];
        if (mv->guard) continue;   /* a guard may forbid the growing heaps: not provable here */
        for (int p = 0; p < mv->nparts; p++) {
            int64_t a, k;
            if (!part_max(g, mv, mv->parts[p].coords[0], &a, &k)) continue;
            if (a > 1 || (a == 1 && k > 0)) return mv;
        }
    }
    return NULL;
}

void gr_grow_found(gr_game *g, int64_t from, int64_t to) {
    if (to <= from || g->state->grow_move || !g->rules) return;
    /* which move: the first whose part can exceed the heap (else the first move) */
    const gr_rmove *mv = gr_rules_growing_move(g);
    g->state->grow_move = mv ? mv : &g->rules->moves[0];
    if (to > g->state->grow_max) g->state->grow_max = to;
}

void gr_grow_move_text(const gr_ctx *c, const gr_game *g, char *buf, size_t cap) {
    const gr_rmove *mv = g->state->grow_move;
    int line, col;
    gr_line_col(c, mv->loc.off, &line, &col);
    uint32_t len = mv->loc.len > 80 ? 80 : mv->loc.len;
    const char *s = c->src + mv->loc.off;
    snprintf(buf, cap, "the move at line %d ('%.*s%s')", line, (int)len, s, mv->loc.len > 80 ? "..." : "");
    for (char *p = buf; *p; p++) if (*p == '\n' || *p == '\t') *p = ' ';
}

void gr_grow_reached(gr_ctx *c, gr_game *g, int64_t heap) {
    if (heap <= g->state->grow_max) return;
    g->state->grow_max = heap;
    char mv[160];
    gr_grow_move_text(c, g, mv, sizeof mv);
    snprintf(c->limit_note, sizeof c->limit_note, "the heaps of '%s' grow: %s leads to larger heaps, and the largest heap reached is %lld",
             g->name, mv, (long long)heap);
}
