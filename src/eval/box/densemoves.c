/* densemoves: a dense box's positions and moves: 'where' of a position (by rows of the compiled
 * code where it can), targets outside the box, and the options of a position by running each
 * move (or by constant offsets for translations); see denseint.h. Called by the walk (dense.c)
 * and by the retrograde analysis (denseretro.c), calling neither. */
#include "eval/box/denseint.h"
#include <string.h>
#include "eval/rules.h"

/* ---- positions ------------------------------------------------------------------------------ */

int gr_dense_contains(const gr_dense *b, const int64_t *p) {
    for (int k = 0; k < b->a; k++)
        if (p[k] < b->lo[k] || p[k] > b->hi[k]) return 0;
    return 1;
}

/* 'where' of the aligned run of GR_ROW positions along the last coordinate that holds position
 * i (coordinates p), by one row evaluation of the compiled code (expr.h). 0 if the row
 * evaluator declines (a position of the run would fail, or the code uses what it does not
 * run); 'where' is then evaluated one position at a time, so no position is ever evaluated
 * that the walk does not ask for one by one. */
static int fill_valid(gr_dense *b, uint64_t i, const int64_t *p) {
    const gr_rules *r = b->g->rules;
    if (b->norow) return 0;
    int last = b->a - 1;
    int64_t y = p[last] - b->lo[last], y0 = y & ~(int64_t)(GR_ROW - 1);
    int n = b->ext[last] - y0 < GR_ROW ? (int)(b->ext[last] - y0) : GR_ROW;
    int64_t frame[MAX_FRAME], out[GR_ROW];
    memcpy(frame, b->g->params, (size_t)r->nparams * sizeof *frame);
    memcpy(frame + r->nparams, p, (size_t)b->a * sizeof *p);
    if (!r->where) for (int l = 0; l < n; l++) out[l] = 1;
    else if (!gr_eval_row(b->c, r->where, frame, r->nparams + last, b->lo[last] + y0, n, out)) return b->norow = 1, 0;
    uint8_t *st = b->st + (i - (uint64_t)(y - y0));
    for (int l = 0; l < n; l++)
        if (!(st[l] & S_VKNOWN)) st[l] = (uint8_t)(st[l] | S_VKNOWN | (out[l] ? S_VALID : 0));
    return 1;
}

/* 'where' of an in-box position, cached in the state byte. */
int gr_dense_valid_at(gr_dense *b, uint64_t i, const int64_t *p) {
    uint8_t s = b->st[i];
    if (s & S_VKNOWN) return (s & S_VALID) != 0;
    if (fill_valid(b, i, p)) return (b->st[i] & S_VALID) != 0;
    int v = gr_rules_valid(b->c, b->g, p);
    b->st[i] = (uint8_t)(s | S_VKNOWN | (v ? S_VALID : 0));
    return v;
}

int gr_dense_valid(gr_dense *b, const int64_t *p) {
    return gr_dense_contains(b, p) && gr_dense_valid_at(b, index_of(b, p), p);
}

/* Records that target t (outside the box, inside 'where') escaped: the grown box covers it and
 * at least doubles each extent it had to move. */
void gr_dense_note_escape(gr_dense *b, const int64_t *t, const gr_rmove *mv) {
    if (!b->escaped) {
        memcpy(b->glo, b->lo, sizeof b->glo);
        memcpy(b->ghi, b->hi, sizeof b->ghi);
        b->escaped = 1;
        b->esc_mv = mv;
        memcpy(b->esc_to, t, (size_t)b->a * sizeof *t);
    }
    for (int k = 0; k < b->a; k++) {
        int64_t e = b->ext[k];
        if (t[k] < b->glo[k]) {
            int64_t want = b->lo[k] - e;
            b->glo[k] = t[k] < want ? t[k] : want;
        }
        if (t[k] > b->ghi[k]) {
            int64_t want = b->hi[k] + e;
            b->ghi[k] = t[k] > want ? t[k] : want;
        }
    }
}

const gr_rmove *gr_dense_escape(const gr_dense *b, int64_t *to) {
    if (!b->escaped) return NULL;
    memcpy(to, b->esc_to, (size_t)b->a * sizeof *to);
    return b->esc_mv;
}

void gr_dense_grown(const gr_dense *b, int64_t *lo, int64_t *hi) {
    memcpy(lo, b->escaped ? b->glo : b->lo, (size_t)b->a * sizeof *lo);
    memcpy(hi, b->escaped ? b->ghi : b->hi, (size_t)b->a * sizeof *hi);
}

/* ---- moves ---------------------------------------------------------------------------------- */

int gr_dense_supported(const gr_game *g, gr_conv conv, char *why, size_t cap) {
    const gr_rules *r = g->rules;
    if (g->shape != SHAPE_TUPLE || !r) return snprintf(why, cap, "not a rule set with tuple positions"), 0;
    if (conv != CONV_NORMAL && conv != CONV_MISERE) return snprintf(why, cap, "the box plays one component under normal or misere play only"), 0;
    if (r->nslots > MAX_FRAME) return snprintf(why, cap, "too many variables"), 0;
    for (int m = 0; m < r->nmoves; m++)
        if (r->moves[m].is_sum || r->moves[m].nparts != 1)
            return snprintf(why, cap, "move %d leads to a sum of positions", m + 1), 0;
    return 1;
}


/* Runs move bm from the frame loaded with pos: every target inside 'where' goes to fn with its
 * index; a target outside the box is an escape (fn is not called; the caller checks b->escaped). */
typedef struct move_ctx { gr_dense *b; const bmove *bm; target_fn fn; void *user; } move_ctx;

static int move_at(void *user, int64_t *frame) {
    move_ctx *m = user;
    gr_dense *b = m->b;
    const gr_rmove *mv = m->bm->mv;
    int64_t t[GR_MAX_ARITY];
    if (mv->guard && !gr_eval(b->c, mv->guard, frame, NULL)) return 0;
    for (int k = 0; k < b->a; k++) t[k] = gr_eval(b->c, mv->parts[0].coords[k], frame, NULL);
    if (gr_dense_contains(b, t)) {
        uint64_t ti = index_of(b, t);
        if (gr_dense_valid_at(b, ti, t)) m->fn(b, m->user, t, ti);
    } else if (gr_rules_valid(b->c, b->g, t)) {
        gr_dense_note_escape(b, t, mv);
    }
    return 0;
}

void gr_dense_run_move(gr_dense *b, const bmove *bm, target_fn fn, void *user) {
    move_ctx m = { b, bm, fn, user };
    gr_rules_bind(b->c, bm->mv, b->frame, move_at, &m);
}

void gr_dense_load_frame(gr_dense *b, const int64_t *p) {
    memcpy(b->frame, b->g->params, (size_t)b->g->rules->nparams * sizeof *b->frame);
    memcpy(b->frame + b->g->rules->nparams, p, (size_t)b->a * sizeof *p);
    gr_eval_at(b->c, p, b->a);   /* an arithmetic error from here on names this position */
}

/* One assignment of a translation's 'for' variables: its delta, unless already known. Stops
 * the enumeration (returns 1) when there are too many. */
static int delta_at(void *user, int64_t *frame) {
    gr_dense *b = user;
    const gr_rmove *mv = b->cur;
    if (mv->guard && !gr_eval(b->c, mv->guard, frame, NULL)) return 0;
    int64_t d[GR_MAX_ARITY];
    for (int k = 0; k < b->a; k++) d[k] = gr_eval(b->c, mv->parts[0].coords[k], frame, NULL);
    for (int j = 0; j < b->ndelta; j++)
        if (!memcmp(b->delta + j * b->a, d, (size_t)b->a * sizeof *d)) return 0;
    if (b->ndelta == MAX_DELTAS) return 1;
    memcpy(b->delta + b->ndelta * b->a, d, (size_t)b->a * sizeof *d);
    b->delta_mv[b->ndelta++] = mv;
    return 0;
}

/* Appends the deltas of move mv to b if it is a translation: targets pos + delta with delta
 * fixed by the 'for' variables alone (bounds and guard read no coordinate). */
int gr_dense_collect_deltas(gr_dense *b, const gr_rmove *mv) {
    const gr_rules *r = b->g->rules;
    if (gr_move_coord_deps(r, mv) & ~(uint32_t)0) {
        /* the bounds and guard must not read coordinates; the target reads its own only */
        for (int k = 0; k < b->a; k++) {
            int slot = r->nparams + k;
            if (mv->guard && gr_code_uses_slot(mv->guard, slot)) return 0;
            for (int i = 0; i < mv->nbinds; i++)
                if (gr_code_uses_slot(mv->binds[i].lo, slot) || gr_code_uses_slot(mv->binds[i].hi, slot)) return 0;
        }
    }
    for (int k = 0; k < b->a; k++) {
        gr_affine af;
        if (!gr_code_affine(mv->parts[0].coords[k], b->g->params, r->nparams, &af) || af.div != 1) return 0;
        for (int j = 0; j < b->a; j++)
            if (r->nparams + j < GR_AFFINE_SLOTS && af.coef[r->nparams + j] != (j == k)) return 0;
        if (r->nparams + k >= GR_AFFINE_SLOTS) return 0;
    }
    /* Enumerate the 'for' variables with every coordinate 0: the targets are the deltas. */
    b->cur = mv;
    int64_t zero[GR_MAX_ARITY] = { 0 };
    gr_dense_load_frame(b, zero);
    for (int i = 0; i < mv->nbinds; i++)   /* a constant range longer than MAX_DELTAS: not worth it */
        if (mv->binds[i].lo->is_const && mv->binds[i].hi->is_const &&
            (uint64_t)mv->binds[i].hi->value - (uint64_t)mv->binds[i].lo->value >= MAX_DELTAS) return 0;
    return !gr_rules_bind(b->c, mv, b->frame, delta_at, b);
}

/* Every distinct option of in-box position p (index i) to fn, in move order; escapes noted. */
void gr_dense_each_child(gr_dense *b, const int64_t *p, target_fn fn, void *user) {
    if (b->translate) {
        for (int d = 0; d < b->ndelta; d++) {
            int64_t t[GR_MAX_ARITY];
            const int64_t *dd = b->delta + d * b->a;
            int in = 1;
            for (int k = 0; k < b->a; k++) {
                t[k] = p[k] + dd[k];
                in &= t[k] >= b->lo[k] && t[k] <= b->hi[k];
            }
            if (in) {
                uint64_t ti = index_of(b, t);
                if (gr_dense_valid_at(b, ti, t)) fn(b, user, t, ti);
            } else if (gr_rules_valid(b->c, b->g, t)) {
                gr_dense_note_escape(b, t, b->delta_mv[d]);
            }
        }
        return;
    }
    for (int m = 0; m < b->nmoves; m++) {
        gr_dense_load_frame(b, p);
        gr_dense_run_move(b, &b->moves[m], fn, user);
    }
}

void gr_dense_add_child(gr_dense *b, void *user, const int64_t *t, uint64_t ti) {
    (void)t;
    gr_optacc *acc = user;
    uint64_t sg = wget(&b->sg, ti), rem = wget(&b->rem, ti);
    gr_optacc_add(b->c, acc, (int64_t)sg - 1, (b->st[ti] & S_OUT) == GR_LOSS, rem ? (uint32_t)(rem - 1) : 0);
}
