/* dense: the dense-box evaluator; see box.h. */
#include "dense.h"
#include <setjmp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "densepar.h"
#include "pool.h"
#include "optset.h"
#include "rules.h"

enum { MAX_FRAME = 256, MAX_DELTAS = 255 };

/* The state byte of a position: S_* in densepar.h. */

/* An array of unsigned values that starts one byte wide and widens when a value needs it.
 * Values are stored plus one, so 0 means "none". */
typedef struct wide { int w; void *p; uint64_t n; } wide;

static uint64_t wget(const wide *a, uint64_t i) {
    switch (a->w) {
    case 1: return ((const uint8_t *)a->p)[i];
    case 2: return ((const uint16_t *)a->p)[i];
    default: return ((const uint32_t *)a->p)[i];
    }
}

static void widen(gr_ctx *c, wide *a, uint64_t v) {
    int w = v <= UINT16_MAX ? 2 : 4;
    if (v > UINT32_MAX) gr_fail(c, GR_EXIT_LIMIT, "a value of %llu does not fit in 32 bits", (unsigned long long)v);
    void *np = gr_alloc(c, gr_size_mul(c, (size_t)a->n, (size_t)w));
    for (uint64_t i = 0; i < a->n; i++) {
        uint64_t x = wget(a, i);
        if (w == 2) ((uint16_t *)np)[i] = (uint16_t)x; else ((uint32_t *)np)[i] = (uint32_t)x;
    }
    gr_free(c, a->p);
    a->p = np;
    a->w = w;
}

static void wset(gr_ctx *c, wide *a, uint64_t i, uint64_t v) {
    if (v >> (8 * a->w)) widen(c, a, v);
    switch (a->w) {
    case 1: ((uint8_t *)a->p)[i] = (uint8_t)v; break;
    case 2: ((uint16_t *)a->p)[i] = (uint16_t)v; break;
    default: ((uint32_t *)a->p)[i] = (uint32_t)v; break;
    }
}

static void winit(gr_ctx *c, wide *a, uint64_t n) {
    a->w = 1;
    a->n = n;
    a->p = gr_alloc(c, (size_t)(n ? n : 1));
}

/* A move of the rule set as the box runs it. */
typedef struct bmove {
    const gr_rmove *mv;
    uint32_t deps;                /* coordinates read (optset.h) */
    int shared;                   /* summarised per value of deps */
    int ndep, dep[GR_MAX_ARITY];
    gr_optset set;
} bmove;

struct gr_dense {
    gr_ctx *c;
    gr_game *g;
    gr_conv conv;
    int a;                        /* arity */
    int64_t lo[GR_MAX_ARITY], hi[GR_MAX_ARITY], ext[GR_MAX_ARITY];
    uint64_t stride[GR_MAX_ARITY];
    uint64_t n;
    uint8_t *st;
    wide sg, rem;
    uint64_t nvalued;
    int cyclic;                   /* solved whole by retrograde analysis */
    int norow;                    /* 'where' is evaluated one position at a time (see valid_at) */
    int loopy;                    /* the box has a cycle */
    int escaped;
    int64_t glo[GR_MAX_ARITY], ghi[GR_MAX_ARITY];   /* the grown box after an escape */
    const gr_rmove *esc_mv;       /* the move of the first escape, and its target */
    int64_t esc_to[GR_MAX_ARITY];
    bmove *moves; int nmoves, nshared;
    /* translations: every move is pos + delta for constant deltas */
    int translate;
    int ndelta;
    int64_t *delta;               /* ndelta * a */
    int64_t *dindex;              /* the index offset of each delta */
    const gr_rmove *delta_mv[MAX_DELTAS];   /* the move each delta comes from */
    gr_pool *pool;                /* the thread team while a retrograde analysis runs on it */
    /* the walk */
    uint32_t *stack; size_t nstack, capstack;
    gr_optacc acc;
    /* scratch for enumerating one move */
    int64_t frame[MAX_FRAME];
    const gr_rmove *cur;          /* the move collect_deltas is reading */
};

/* ---- positions ------------------------------------------------------------------------------ */

static uint64_t index_of(const gr_dense *b, const int64_t *p) {
    uint64_t i = 0;
    for (int k = 0; k < b->a; k++) i += (uint64_t)(p[k] - b->lo[k]) * b->stride[k];
    return i;
}

static void coords_of(const gr_dense *b, uint64_t i, int64_t *p) {
    for (int k = b->a - 1; k >= 0; k--) {
        p[k] = b->lo[k] + (int64_t)(i % (uint64_t)b->ext[k]);
        i /= (uint64_t)b->ext[k];
    }
}

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
static int valid_at(gr_dense *b, uint64_t i, const int64_t *p) {
    uint8_t s = b->st[i];
    if (s & S_VKNOWN) return (s & S_VALID) != 0;
    if (fill_valid(b, i, p)) return (b->st[i] & S_VALID) != 0;
    int v = gr_rules_valid(b->c, b->g, p);
    b->st[i] = (uint8_t)(s | S_VKNOWN | (v ? S_VALID : 0));
    return v;
}

int gr_dense_valid(gr_dense *b, const int64_t *p) {
    return gr_dense_contains(b, p) && valid_at(b, index_of(b, p), p);
}

/* Records that target t (outside the box, inside 'where') escaped: the grown box covers it and
 * at least doubles each extent it had to move. */
static void escape(gr_dense *b, const int64_t *t, const gr_rmove *mv) {
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

typedef void (*target_fn)(gr_dense *b, void *user, const int64_t *t, uint64_t ti);

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
        if (valid_at(b, ti, t)) m->fn(b, m->user, t, ti);
    } else if (gr_rules_valid(b->c, b->g, t)) {
        escape(b, t, mv);
    }
    return 0;
}

static void run_move(gr_dense *b, const bmove *bm, target_fn fn, void *user) {
    move_ctx m = { b, bm, fn, user };
    gr_rules_bind(b->c, bm->mv, b->frame, move_at, &m);
}

static void load_frame(gr_dense *b, const int64_t *p) {
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
static int collect_deltas(gr_dense *b, const gr_rmove *mv) {
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
    load_frame(b, zero);
    for (int i = 0; i < mv->nbinds; i++)   /* a constant range longer than MAX_DELTAS: not worth it */
        if (mv->binds[i].lo->is_const && mv->binds[i].hi->is_const &&
            (uint64_t)mv->binds[i].hi->value - (uint64_t)mv->binds[i].lo->value >= MAX_DELTAS) return 0;
    return !gr_rules_bind(b->c, mv, b->frame, delta_at, b);
}

/* Every distinct option of in-box position p (index i) to fn, in move order; escapes noted. */
static void each_child(gr_dense *b, const int64_t *p, target_fn fn, void *user) {
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
                if (valid_at(b, ti, t)) fn(b, user, t, ti);
            } else if (gr_rules_valid(b->c, b->g, t)) {
                escape(b, t, b->delta_mv[d]);
            }
        }
        return;
    }
    for (int m = 0; m < b->nmoves; m++) {
        load_frame(b, p);
        run_move(b, &b->moves[m], fn, user);
    }
}

/* ---- creation ------------------------------------------------------------------------------- */

gr_dense *gr_dense_new(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *lo, const int64_t *hi) {
    int a = g->arity;
    uint64_t n = 1;
    int big = 0;
    for (int k = 0; k < a; k++) {
        uint64_t e = (uint64_t)hi[k] - (uint64_t)lo[k] + 1;
        if (hi[k] < lo[k] || e == 0 || __builtin_mul_overflow(n, e, &n)) big = 1;
    }
    char box[256];
    size_t bl = 0;
    for (int k = 0; k < a && bl < sizeof box; k++)
        bl += (size_t)snprintf(box + bl, sizeof box - bl, "%s%lld..%lld", k ? " x " : "", (long long)lo[k], (long long)hi[k]);
    /* A state byte, SG and remoteness from a byte each, a 32-bit stack or queue entry, a counter. */
    const uint64_t per = 8;
    if (big || n >= UINT32_MAX)
        gr_fail(c, GR_EXIT_LIMIT, "the positions of '%s' needed lie in the box %s: more than 2^32 positions, beyond what grundy "
                "indexes; analyse a smaller position", g->name, box);
    if (c->max_positions && n > c->max_positions)
        gr_fail(c, GR_EXIT_LIMIT, "the positions of '%s' needed lie in the box %s: %llu positions, over --max-positions %llu; "
                "nothing was evaluated", g->name, box, (unsigned long long)n, (unsigned long long)c->max_positions);
    if (n * per > c->mem_limit - c->mem_used)
        gr_fail(c, GR_EXIT_LIMIT, "the positions of '%s' needed lie in the box %s: %llu positions, about %llu MiB at %llu bytes "
                "each, over the %zu MiB left of --max-memory; nothing was evaluated", g->name, box, (unsigned long long)n,
                (unsigned long long)((n * per) >> 20), (unsigned long long)per, (c->mem_limit - c->mem_used) >> 20);
    gr_dense *b = gr_alloc(c, sizeof *b);
    b->c = c;
    b->g = g;
    b->conv = conv;
    b->a = a;
    b->n = n;
    for (int k = a - 1; k >= 0; k--) {
        b->lo[k] = lo[k];
        b->hi[k] = hi[k];
        b->ext[k] = hi[k] - lo[k] + 1;
        b->stride[k] = k == a - 1 ? 1 : b->stride[k + 1] * (uint64_t)b->ext[k + 1];
    }
    b->st = gr_alloc(c, (size_t)n);
    winit(c, &b->sg, n);
    winit(c, &b->rem, n);
    const gr_rules *r = g->rules;
    b->nmoves = r->nmoves;
    b->moves = gr_alloc(c, sizeof *b->moves * (size_t)(r->nmoves ? r->nmoves : 1));
    b->delta = gr_alloc(c, sizeof *b->delta * (size_t)MAX_DELTAS * (size_t)a);
    b->translate = 1;
    for (int m = 0; m < r->nmoves; m++) {
        bmove *bm = &b->moves[m];
        bm->mv = &r->moves[m];
        bm->deps = gr_move_coord_deps(r, bm->mv);
        if (b->translate && !collect_deltas(b, bm->mv)) b->translate = 0;
        uint64_t keys = 1;
        for (int k = 0; k < a; k++)
            if (bm->deps >> k & 1) {
                bm->dep[bm->ndep++] = k;
                keys *= (uint64_t)b->ext[k];
            }
        /* Shared when the move ignores some coordinate: one summary per value of the rest. */
        if (bm->ndep < a && keys <= n) {
            bm->shared = 1;
            b->nshared++;
            gr_optset_init(c, &bm->set, keys);
        }
    }
    if (b->translate) {
        b->dindex = gr_alloc(c, sizeof *b->dindex * (size_t)(b->ndelta ? b->ndelta : 1));
        for (int d = 0; d < b->ndelta; d++) {
            int64_t x = 0;
            for (int k = 0; k < a; k++) x += b->delta[d * a + k] * (int64_t)b->stride[k];
            b->dindex[d] = x;
        }
    }
    return b;
}

void gr_dense_free(gr_dense *b) {
    if (!b) return;
    gr_ctx *c = b->c;
    for (int m = 0; m < b->nmoves; m++) gr_optset_free(c, &b->moves[m].set);
    gr_free(c, b->moves);
    gr_free(c, b->delta);
    gr_free(c, b->dindex);
    gr_free(c, b->stack);
    gr_optacc_free(c, &b->acc);
    gr_free(c, b->sg.p);
    gr_free(c, b->rem.p);
    gr_free(c, b->st);
    gr_free(c, b);
}

/* ---- the depth-first walk (acyclic) ----------------------------------------------------------- */

static void push(gr_dense *b, uint32_t v) {
    if (b->nstack == b->capstack) {
        b->capstack = b->capstack ? b->capstack * 2 : 1024;
        b->stack = gr_realloc(b->c, b->stack, gr_size_mul(b->c, b->capstack, sizeof *b->stack));
    }
    b->stack[b->nstack++] = v;
}

typedef struct walk { int cycle; } walk;

static void expand_child(gr_dense *b, void *user, const int64_t *t, uint64_t ti) {
    (void)t;
    walk *w = user;
    uint8_t s = b->st[ti];
    if (s & S_DONE) return;
    if (s & S_OPEN) { w->cycle = 1; return; }
    push(b, (uint32_t)ti);
}

static void add_child(gr_dense *b, void *user, const int64_t *t, uint64_t ti) {
    (void)t;
    gr_optacc *acc = user;
    uint64_t sg = wget(&b->sg, ti), rem = wget(&b->rem, ti);
    gr_optacc_add(b->c, acc, (int64_t)sg - 1, (b->st[ti] & S_OUT) == GR_LOSS, rem ? (uint32_t)(rem - 1) : 0);
}

static uint64_t key_of(const bmove *bm, const gr_dense *b, const int64_t *p) {
    uint64_t key = 0;
    for (int j = 0; j < bm->ndep; j++) {
        int k = bm->dep[j];
        key = key * (uint64_t)b->ext[k] + (uint64_t)(p[k] - b->lo[k]);
    }
    return key;
}

/* Sets the value of v from its options (all valued) or its terminal rule. */
static void finalize(gr_dense *b, uint64_t v, const int64_t *p) {
    gr_ctx *c = b->c;
    int term = gr_rules_terminal(c, b->g, p);
    uint8_t s = b->st[v] & (S_VKNOWN | S_VALID);
    if (term == TERM_WINS || term == TERM_LOSES) {
        b->st[v] = (uint8_t)(s | S_DONE | (term == TERM_WINS ? GR_WIN : GR_LOSS));
        wset(c, &b->sg, v, term == TERM_LOSES && b->conv == CONV_NORMAL ? 1 : 0);
        wset(c, &b->rem, v, 1);
        b->nvalued++;
        return;
    }
    gr_optacc *acc = &b->acc;
    gr_optacc_clear(acc);
    if (term < 0) {
        if (b->translate && !b->nshared) each_child(b, p, add_child, acc);
        else
            for (int m = 0; m < b->nmoves; m++) {
                bmove *bm = &b->moves[m];
                load_frame(b, p);
                if (!bm->shared) { run_move(b, bm, add_child, acc); continue; }
                uint64_t key = key_of(bm, b, p);
                if (!bm->set.ready[key]) {
                    gr_optacc_clear(&bm->set.sum[key]);
                    run_move(b, bm, add_child, &bm->set.sum[key]);
                    bm->set.ready[key] = 1;
                }
                gr_optacc_merge(c, acc, &bm->set.sum[key]);
            }
    }
    int out;
    uint64_t rem, sg = 0;
    if (acc->nopt == 0 || term >= 0) {
        out = b->conv == CONV_MISERE ? GR_WIN : GR_LOSS;
        rem = 0;
        if (b->conv == CONV_NORMAL) sg = 1;
    } else {
        out = acc->has_loss ? GR_WIN : GR_LOSS;
        rem = (acc->has_loss ? acc->min_loss_rem : acc->max_rem) + 1ull;
        if (b->conv == CONV_NORMAL && !acc->undef) sg = gr_optacc_mex(acc) + 1;
    }
    b->st[v] = (uint8_t)(s | S_DONE | out);
    wset(c, &b->sg, v, sg);
    wset(c, &b->rem, v, rem + 1);
    b->nvalued++;
}

static void retrograde(gr_dense *b);

/* 1: root valued; 0: escaped; -1: a cycle (the walk's marks are cleared). */
static int walk_from(gr_dense *b, uint64_t root) {
    b->nstack = 0;
    push(b, (uint32_t)root);
    walk w = { 0 };
    int64_t p[GR_MAX_ARITY];
    while (b->nstack) {
        uint32_t v = b->stack[b->nstack - 1];
        uint8_t s = b->st[v];
        if (s & S_DONE) { b->nstack--; continue; }
        coords_of(b, v, p);
        if (s & S_OPEN) {
            finalize(b, v, p);
            b->nstack--;
            continue;
        }
        b->st[v] = (uint8_t)(s | S_OPEN);
        if (gr_rules_terminal(b->c, b->g, p) >= 0) continue;
        if (b->translate && !b->nshared) each_child(b, p, expand_child, &w);
        else
            for (int m = 0; m < b->nmoves && !w.cycle && !b->escaped; m++) {
                bmove *bm = &b->moves[m];
                if (bm->shared && bm->set.ready[key_of(bm, b, p)]) continue;
                load_frame(b, p);
                run_move(b, bm, expand_child, &w);
            }
        if (b->escaped) return 0;
        if (w.cycle) {
            for (size_t i = 0; i < b->nstack; i++) b->st[b->stack[i]] &= (uint8_t)~S_OPEN;
            return -1;
        }
    }
    return 1;
}

int gr_dense_eval(gr_dense *b, const int64_t *pos) {
    if (b->escaped) return 0;
    uint64_t i = index_of(b, pos);
    if (b->st[i] & S_DONE) return 1;
    if (b->cyclic) return 1;   /* retrograde valued everything; pos is outside 'where' */
    int r = walk_from(b, i);
    if (r < 0) {
        gr_free(b->c, b->stack);   /* the walk is over: retrograde needs its own queue */
        b->stack = NULL;
        b->nstack = b->capstack = 0;
        retrograde(b);
        return !b->escaped;
    }
    return r;
}

/* ---- retrograde analysis over the whole box (cycles) ------------------------------------------ */

typedef struct counter { uint32_t n; uint32_t stamp; uint32_t *seen; uint32_t *list; size_t nlist, cap; } counter;

static void count_child(gr_dense *b, void *user, const int64_t *t, uint64_t ti) {
    (void)t;
    counter *k = user;
    if (k->seen) {
        if (k->seen[ti] == k->stamp) return;  /* a duplicate option */
        k->seen[ti] = k->stamp;
        if (k->nlist == k->cap) {
            k->cap = k->cap ? k->cap * 2 : 4096;
            k->list = gr_realloc(b->c, k->list, gr_size_mul(b->c, k->cap, sizeof *k->list));
        }
        k->list[k->nlist++] = (uint32_t)ti;
    }
    k->n++;
}

/* The targets of translation d from the row v0.. of prefix p that leave the box (those of
 * positions outside ylo..yhi, or all if ylo >= yhi) from positions of 'where' with no terminal
 * condition (term[y] >= 0; term NULL: the kind in the state byte, see densepar.h): an escape
 * where the target satisfies 'where'. */
static void delta_escapes(gr_dense *b, uint64_t v0, const int64_t *p, const int8_t *term, int d, int64_t ylo, int64_t yhi) {
    int a = b->a, last = a - 1;
    int64_t E = b->ext[last];
    const uint8_t *st = b->st + v0;
    const int64_t *dd = b->delta + d * a;
    for (int64_t y = 0; y < E; y++) {
        if (y == ylo && yhi > ylo) { y = yhi - 1; continue; }
        if (!(st[y] & S_VALID) || (term ? term[y] >= 0 : st[y] >> S_TSHIFT)) continue;
        int64_t t[GR_MAX_ARITY];
        for (int k = 0; k < a; k++) t[k] = (k == last ? b->lo[last] + y : p[k]) + dd[k];
        if (gr_rules_valid(b->c, b->g, t)) escape(b, t, b->delta_mv[d]);
    }
}

/* Translation boxes, one row at a time (the positions v0.. of prefix p, the last coordinate
 * running over the box): the number of options of each position of the row into deg, by one
 * pass per delta over the state bytes of the target row ('where' of the whole box is known).
 * Positions outside 'where' or terminal (term[y] >= 0; term NULL: none) get 0. With
 * escapes set, a target outside the box that satisfies 'where' is an escape. */
static void row_degrees(gr_dense *b, uint64_t v0, int64_t *p, const int8_t *term, uint8_t *deg, int escapes) {
    int a = b->a, last = a - 1;
    int64_t E = b->ext[last];
    const uint8_t *st = b->st + v0;
    memset(deg, 0, (size_t)E);
    for (int d = 0; d < b->ndelta; d++) {
        int64_t ylo, yhi;
        gr_box_span(a, b->lo, b->hi, E, p, b->delta + d * a, &ylo, &yhi);
        if (yhi > ylo) {
            const uint8_t *t = b->st + (int64_t)v0 + b->dindex[d] + ylo;
            uint8_t *dg = deg + ylo;
            for (int64_t y = 0; y < yhi - ylo; y++) dg[y] = (uint8_t)(dg[y] + ((t[y] >> 5) & 1));   /* S_VALID */
        }
        if (escapes) delta_escapes(b, v0, p, term, d, ylo, yhi);
    }
    for (int64_t y = 0; y < E; y++)
        if (!(st[y] & S_VALID) || (term && term[y] >= 0)) deg[y] = 0;
}

/* The terminal kinds of the row v0.. of prefix p (-1: none; positions outside 'where': -1). */
static const int8_t *row_terms(gr_dense *b, uint64_t v0, int64_t *p, int8_t *term) {
    if (!b->g->rules->nterms) return NULL;
    int last = b->a - 1;
    for (int64_t y = 0; y < b->ext[last]; y++) {
        p[last] = b->lo[last] + y;
        term[y] = (int8_t)((b->st[v0 + (uint64_t)y] & S_VALID) ? gr_rules_terminal(b->c, b->g, p) : -1);
    }
    p[last] = b->lo[last];
    return term;
}

/* The next row's prefix (coordinates before the last, odometer); p[last] stays lo. */
static void next_row(const gr_dense *b, int64_t *p) {
    for (int j = b->a - 2; j >= 0; j--) {
        if (++p[j] <= b->hi[j]) break;
        p[j] = b->lo[j];
    }
}

/* 'where' of every position of the box (by rows where the row evaluator runs it). */
static void fill_all_valid(gr_dense *b) {
    int64_t p[GR_MAX_ARITY];
    coords_of(b, 0, p);
    for (uint64_t v = 0; v < b->n; v++) {
        if (v)
            for (int j = b->a - 1; j >= 0; j--) {
                if (++p[j] <= b->hi[j]) break;
                p[j] = b->lo[j];
            }
        if (!(b->st[v] & S_VKNOWN)) {
            gr_poll(b->c);
            valid_at(b, v, p);
        }
    }
}

/* ---- the same across the thread team (densepar.h) -------------------------------------------- */

/* Boxes of at least team_knob.from positions are solved by the team when --threads > 1
 * (levels.h). */
static gr_level_knob team_knob = GR_LEVEL_KNOB;
void gr_dense_team_tune(uint64_t from, uint64_t grain, uint64_t level) { gr_level_tune(&team_knob, from, grain, level); }

enum { TEAM_JOB = 1 << 22 };   /* positions per job: the caller polls --max-time between jobs */

/* Runs fn over from..to (grain items a piece) on the team, or on the caller alone. */
static void team_run(gr_dense *b, gr_boxpass *J, gr_pool_fn fn, uint64_t from, uint64_t to, uint64_t grain, int alone) {
    gr_level_run(alone ? NULL : b->pool, &J->lv, fn, J, from, to, grain);
}

/* Runs fn over items 0..count of size positions each, in jobs of about TEAM_JOB positions with
 * a poll of the clock after each. */
static void team_sweep(gr_dense *b, gr_boxpass *J, gr_pool_fn fn, uint64_t count, uint64_t size) {
    uint64_t step = TEAM_JOB / size ? TEAM_JOB / size : 1;
    for (uint64_t i = 0; i < count; i += step) {
        team_run(b, J, fn, i, count - i < step ? count : i + step, atomic_load(&team_knob.grain) / size, 0);
        gr_poll(b->c);
    }
}

/* Frontier after frontier from queue[head..]: fn on each (with the remoteness the level settles
 * when rem_value), polling between levels. Returns the number of positions queued in all. */
static uint64_t team_levels(gr_dense *b, gr_boxpass *J, gr_pool_fn fn, int rem_value) {
    uint64_t head = 0, tail = atomic_load(&J->lv.tail), value = 2;   /* stored: remoteness + 1 */
    while (head < tail) {
        if (rem_value) {
            if (value >> (8 * b->rem.w)) widen(b->c, &b->rem, value);
            J->rem = b->rem.p;
            J->rem_w = b->rem.w;
            J->value = value++;
        }
        team_run(b, J, fn, head, tail, atomic_load(&team_knob.grain) / 64, tail - head < atomic_load(&team_knob.level) || !b->pool);
        head = tail;
        tail = atomic_load(&J->lv.tail);
        gr_poll(b->c);
    }
    return tail;
}

/* A job description of the box for the team (the pass's fields are set by each pass). */
static gr_boxpass *team_job(gr_dense *b) {
    gr_boxpass *J = gr_alloc(b->c, sizeof *J);
    J->a = b->a;
    memcpy(J->lo, b->lo, sizeof J->lo);
    memcpy(J->hi, b->hi, sizeof J->hi);
    memcpy(J->ext, b->ext, sizeof J->ext);
    J->n = b->n;
    J->E = (uint64_t)b->ext[b->a - 1];
    J->rows = J->n / J->E;
    J->ndelta = b->ndelta;
    J->delta = b->delta;
    J->dindex = b->dindex;
    J->misere = b->conv == CONV_MISERE;
    J->with_sg = b->conv == CONV_NORMAL;
    J->rules = b->g->rules;
    J->params = b->g->params;
    J->owner = b->c;
    J->st = b->st;
    J->rem = b->rem.p;
    J->rem_w = b->rem.w;
    atomic_store(&J->unknown, 0);
    atomic_store(&J->lv.tail, 0);
    atomic_store(&J->done, 0);
    atomic_store(&J->draws, 0);
    return J;
}

/* The retrograde analysis of a translation box (below) by the team: the same passes, each
 * split across the members by rows or by pieces of a frontier, and what needs the caller's
 * context (a 'where' or terminal condition the row evaluator declines, escapes) on the caller in
 * the serial order, so every answer and every error is the serial one. */
static void team_retrograde(gr_dense *b, void *unused) {
    (void)unused;
    gr_ctx *c = b->c;
    uint64_t n = b->n;
    int a = b->a, last = a - 1;
    uint64_t E = (uint64_t)b->ext[last], rows = n / E;
    gr_boxpass *J = team_job(b);
    J->cnt = gr_alloc(c, (size_t)n);
    J->lv.queue = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *J->lv.queue));
    /* 'where' and terminal kinds by rows; then, on the caller, what the row evaluator left and
     * the escapes, row by row as the serial analysis meets them */
    team_sweep(b, J, gr_boxpass_rows, rows, E);
    int unknown = atomic_load(&J->unknown);
    if (unknown) fill_all_valid(b);
    int64_t p[GR_MAX_ARITY];
    coords_of(b, 0, p);
    for (uint64_t v0 = 0; v0 < n; v0 += E, next_row(b, p)) {
        for (uint64_t y = 0; unknown && y < E; y++) {
            uint8_t *s = &b->st[v0 + y];
            if (!(*s & S_VALID) || (*s & S_TKNOWN)) continue;
            p[last] = b->lo[last] + (int64_t)y;
            int t = gr_rules_terminal(c, b->g, p);
            *s = (uint8_t)(*s | S_TKNOWN | (t + 1) << S_TSHIFT);
        }
        p[last] = b->lo[last];
        for (int d = 0; d < b->ndelta; d++) {
            int64_t ylo, yhi;
            gr_box_span(a, b->lo, b->hi, (int64_t)E, p, b->delta + d * a, &ylo, &yhi);
            delta_escapes(b, v0, p, NULL, d, ylo, yhi);
        }
        if (b->escaped) goto out;
        gr_poll(c);
    }
    team_sweep(b, J, gr_boxpass_first, rows, E);
    uint64_t first = atomic_load(&J->lv.tail);
    team_run(b, J, gr_boxpass_start, 0, first, atomic_load(&team_knob.grain), first < atomic_load(&team_knob.level) || !b->pool);
    team_levels(b, J, gr_boxpass_settle, 1);
    team_sweep(b, J, gr_boxpass_draws, n, 1);
    b->nvalued = atomic_load(&J->done);
    uint64_t ndraws = atomic_load(&J->draws);
    /* SG values by Kahn's levels; the count tells whether the box has a cycle (see retrograde) */
    b->loopy = 1;
    if (J->with_sg || !ndraws) {
        if (J->with_sg && b->ndelta >= 255 && b->sg.w == 1) widen(c, &b->sg, 256);   /* a mex of 255 options */
        J->sg = b->sg.p;
        J->sg_w = b->sg.w;
        atomic_store(&J->lv.tail, 0);
        team_sweep(b, J, gr_boxpass_kahn_degrees, rows, E);
        uint64_t done = team_levels(b, J, gr_boxpass_kahn, 0);
        if (!ndraws && done == b->nvalued) b->loopy = 0;
    }
    team_sweep(b, J, gr_boxpass_clear, n, 1);
out:
    gr_free(c, J->cnt);
    gr_free(c, J->lv.queue);
    gr_free(c, J);
}

/* The rest of the retrograde analysis of a box with stored edges (below), by the team: the
 * levels of outcomes and remoteness from the first frontier queue[0..tail), the draws, and the
 * SG values by Kahn's levels (normal play). The terminal kinds are in the state bytes. */
typedef struct csr_box { uint32_t *queue, tail, *cnt; const uint32_t *off, *fwd, *roff, *rev; } csr_box;

static void team_csr(gr_dense *b, void *arg) {
    const csr_box *E = arg;
    gr_ctx *c = b->c;
    uint64_t n = b->n;
    gr_boxpass *J = team_job(b);
    J->lv.queue = E->queue;
    J->cnt32 = E->cnt;
    J->off = E->off;
    J->fwd = E->fwd;
    J->roff = E->roff;
    J->rev = E->rev;
    atomic_store(&J->lv.tail, E->tail);
    team_levels(b, J, gr_boxpass_settle, 1);
    team_sweep(b, J, gr_boxpass_draws, n, 1);
    b->nvalued = atomic_load(&J->done);
    b->loopy = 1;
    if (J->with_sg) {
        uint64_t most = 0;   /* options of a position: its SG value is at most that */
        for (uint64_t v = 0; v < n; v++)
            if (E->off[v + 1] - E->off[v] > most) most = E->off[v + 1] - E->off[v];
        if ((most + 1) >> (8 * b->sg.w)) widen(c, &b->sg, most + 1);
        J->sg = b->sg.p;
        J->sg_w = b->sg.w;
        J->swords = (size_t)(most + 1) / 64 + 1;
        J->scratch = gr_alloc(c, gr_size_mul(c, gr_size_mul(c, (size_t)gr_pool_size(b->pool), J->swords), sizeof *J->scratch));
        atomic_store(&J->lv.tail, 0);
        team_sweep(b, J, gr_boxpass_csr_kahn_start, n, 1);
        team_levels(b, J, gr_boxpass_kahn, 0);
        gr_free(c, J->scratch);
    }
    team_sweep(b, J, gr_boxpass_clear, n, 1);
    gr_free(c, J);
}

/* body(b, arg) with the team started, and stopped again before any failure leaves: a failure
 * on the caller lands here first, joins the team, and goes on to the caller's handler. */
static void team_solve(gr_dense *b, void (*body)(gr_dense *, void *), void *arg) {
    gr_ctx *c = b->c;
    jmp_buf jb, *volatile outer = c->on_fail;
    b->pool = gr_pool_new(c->threads);
    if (setjmp(jb)) {
        c->on_fail = outer;
        gr_pool_free(b->pool);
        b->pool = NULL;
        if (!outer) { fputs(c->fail_msg, stderr); abort(); }
        longjmp(*outer, 1);
    }
    c->on_fail = &jb;
    body(b, arg);
    c->on_fail = outer;
    gr_pool_free(b->pool);
    b->pool = NULL;
}

/* Where every move is a translation, parents are found by subtracting the deltas and counters
 * fit a byte; otherwise the edges are stored once (forward CSR while counting, then reverse). */
static void retrograde(gr_dense *b) {
    gr_ctx *c = b->c;
    uint64_t n = b->n;
    b->cyclic = 1;
    b->nvalued = 0;
    for (int m = 0; m < b->nmoves; m++) {
        bmove *bm = &b->moves[m];
        if (bm->shared) memset(bm->set.ready, 0, (size_t)bm->set.nkeys);
    }
    int implicit = b->translate;
    int team = c->threads > 1 && n >= atomic_load(&team_knob.from);
    if (implicit && team) { team_solve(b, team_retrograde, NULL); return; }
    for (uint64_t v = 0; v < n; v++) b->st[v] &= S_VKNOWN | S_VALID;
    uint8_t *cnt8 = implicit ? gr_alloc(c, (size_t)n) : NULL;
    uint32_t *cnt = implicit ? NULL : gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *cnt));
    uint32_t *queue = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *queue));
    uint32_t *off = NULL, *rev = NULL;
    counter k = { 0 };
    if (!implicit) {
        off = gr_alloc(c, gr_size_mul(c, (size_t)n + 1, sizeof *off));
        k.seen = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *k.seen));
        for (uint64_t v = 0; v < n; v++) k.seen[v] = UINT32_MAX;
    }
    uint32_t head = 0, tail = 0;
    uint32_t *fwd = NULL, *roff = NULL;
    int64_t p[GR_MAX_ARITY];
    int last = b->a - 1;
    uint64_t E = (uint64_t)b->ext[last];
    int8_t *termrow = NULL;
    if (implicit) {
        fill_all_valid(b);
        termrow = gr_alloc(c, (size_t)E);
        coords_of(b, 0, p);
        for (uint64_t v0 = 0; v0 < n; v0 += E, next_row(b, p)) {
            const int8_t *term = row_terms(b, v0, p, termrow);
            row_degrees(b, v0, p, term, cnt8 + v0, 1);
            if (b->escaped) goto out;
            gr_poll(c);
            for (uint64_t y = 0; y < E; y++) {
                uint64_t v = v0 + y;
                if (!(b->st[v] & S_VALID)) continue;
                int t = term ? term[y] : -1, out = -1;
                if (t == TERM_WINS) out = GR_WIN;
                else if (t == TERM_LOSES) out = GR_LOSS;
                else if (t >= 0 || !cnt8[v]) out = b->conv == CONV_MISERE ? GR_WIN : GR_LOSS;
                if (out < 0) continue;
                b->st[v] |= (uint8_t)(S_DONE | out);
                wset(c, &b->rem, v, 1);
                queue[tail++] = (uint32_t)v;
            }
        }
    }
    coords_of(b, 0, p);
    for (uint64_t v = 0; v < n && !implicit; v++) {
        if (v) /* odometer: the last coordinate fastest */
            for (int j = b->a - 1; j >= 0; j--) {
                if (++p[j] <= b->hi[j]) break;
                p[j] = b->lo[j];
            }
        if (!implicit) off[v] = (uint32_t)k.nlist;
        if (!valid_at(b, v, p)) continue;
        int term = gr_rules_terminal(c, b->g, p);
        if (team) b->st[v] = (uint8_t)(b->st[v] | S_TKNOWN | (term + 1) << S_TSHIFT);   /* for team_csr */
        uint32_t deg = 0;
        if (term < 0) {
            k.n = 0;
            k.stamp = (uint32_t)v;
            each_child(b, p, count_child, &k);
            if (b->escaped) goto out;
            deg = k.n;
            if (!implicit && k.nlist > UINT32_MAX - 1) gr_fail(c, GR_EXIT_LIMIT, "more than 2^32 moves in the box");
        }
        int out = -1;
        if (term == TERM_WINS) out = GR_WIN;
        else if (term == TERM_LOSES) out = GR_LOSS;
        else if (deg == 0) out = b->conv == CONV_MISERE ? GR_WIN : GR_LOSS;
        if (out >= 0) {
            b->st[v] |= (uint8_t)(S_DONE | out);
            wset(c, &b->rem, v, 1);
            queue[tail++] = (uint32_t)v;
        } else if (implicit) cnt8[v] = (uint8_t)deg;
        else cnt[v] = deg;
    }
    fwd = k.list;
    if (!implicit) {
        off[n] = (uint32_t)k.nlist;
        /* reverse CSR by counting sort of the heads */
        roff = gr_alloc(c, gr_size_mul(c, (size_t)n + 1, sizeof *roff));
        rev = gr_alloc(c, gr_size_mul(c, k.nlist ? k.nlist : 1, sizeof *rev));
        for (size_t e = 0; e < k.nlist; e++) roff[fwd[e] + 1]++;
        for (uint64_t v = 0; v < n; v++) roff[v + 1] += roff[v];
        for (uint64_t v = n; v-- > 0;) roff[v + 1] = roff[v];
        for (uint64_t u = 0; u < n; u++)
            for (uint32_t e = off[u]; e < off[u + 1]; e++) rev[roff[fwd[e] + 1]++] = (uint32_t)u;
        roff[0] = 0;
        if (team) {
            csr_box box = { queue, tail, cnt, off, fwd, roff, rev };
            team_solve(b, team_csr, &box);
            goto out;
        }
    }
    while (head < tail) {
        gr_poll(c);
        uint32_t v = queue[head++];
        uint64_t r = wget(&b->rem, v) + 1;   /* (remoteness + 1) + 1 */
        int lost = (b->st[v] & S_OUT) == GR_LOSS;
        if (implicit) {
            coords_of(b, v, p);
            for (int d = 0; d < b->ndelta; d++) {
                const int64_t *dd = b->delta + d * b->a;
                int in = 1;
                int64_t q[GR_MAX_ARITY];
                for (int j = 0; j < b->a; j++) {
                    q[j] = p[j] - dd[j];
                    in &= q[j] >= b->lo[j] && q[j] <= b->hi[j];
                }
                if (!in) continue;
                uint64_t u = (uint64_t)((int64_t)v - b->dindex[d]);
                if (!cnt8[u]) continue;   /* decided, terminal, outside 'where' */
                if (lost) cnt8[u] = 0;
                else if (--cnt8[u]) continue;
                b->st[u] |= (uint8_t)(S_DONE | (lost ? GR_WIN : GR_LOSS));
                wset(c, &b->rem, u, r);
                queue[tail++] = (uint32_t)u;
            }
        } else {
            for (uint32_t e = roff[v]; e < roff[v + 1]; e++) {
                uint32_t u = rev[e];
                if (!cnt[u]) continue;
                if (lost) cnt[u] = 0;
                else if (--cnt[u]) continue;
                b->st[u] |= (uint8_t)(S_DONE | (lost ? GR_WIN : GR_LOSS));
                wset(c, &b->rem, u, r);
                queue[tail++] = u;
            }
        }
    }
    /* What never settled is a draw (remoteness none). */
    b->nvalued = 0;
    uint64_t ndraws = 0;
    for (uint64_t v = 0; v < n; v++) {
        if ((b->st[v] & S_VALID) && !(b->st[v] & S_DONE)) b->st[v] |= S_DONE | GR_DRAW, ndraws++;
        b->nvalued += (b->st[v] & S_DONE) != 0;
    }
    /* SG values on the acyclic part (normal play): Kahn's order, a position once all its options
     * are valued; positions that reach a cycle or a winning terminal stay undefined. In a
     * translation box (solved this way whether or not it has cycles) the same order, every
     * position included, also tells whether the box has a cycle at all. */
    int with_sg = b->conv == CONV_NORMAL;
    b->loopy = 1;
    if (with_sg || (implicit && !ndraws)) {
        head = tail = 0;
        coords_of(b, 0, p);
        if (implicit)
            for (uint64_t v0 = 0; v0 < n; v0 += E, next_row(b, p)) {
                const int8_t *term = row_terms(b, v0, p, termrow);
                row_degrees(b, v0, p, term, cnt8 + v0, 0);
                gr_poll(c);
                for (uint64_t y = 0; y < E; y++)
                    if ((b->st[v0 + y] & S_VALID) && !cnt8[v0 + y]) queue[tail++] = (uint32_t)(v0 + y);
            }
        coords_of(b, 0, p);
        for (uint64_t v = 0; v < n && !implicit; v++) {
            if (v)
                for (int j = b->a - 1; j >= 0; j--) {
                    if (++p[j] <= b->hi[j]) break;
                    p[j] = b->lo[j];
                }
            if (!(b->st[v] & S_VALID)) continue;
            int term = gr_rules_terminal(c, b->g, p);
            uint32_t deg = term < 0 ? off[v + 1] - off[v] : 0;
            cnt[v] = deg;
            if (deg == 0 && term != TERM_WINS) queue[tail++] = (uint32_t)v;
        }
        gr_optacc *acc = &b->acc;
        while (head < tail) {
            gr_poll(c);
            uint32_t v = queue[head++];
            coords_of(b, v, p);
            if (with_sg) {
                gr_optacc_clear(acc);
                int term = gr_rules_terminal(c, b->g, p);
                if (term < 0) {
                    if (implicit) each_child(b, p, add_child, acc);
                    else for (uint32_t e = off[v]; e < off[v + 1]; e++) add_child(b, acc, NULL, fwd[e]);
                }
                if (term != TERM_WINS && !acc->undef) wset(c, &b->sg, v, gr_optacc_mex(acc) + 1);
            }
            if (implicit) {
                for (int d = 0; d < b->ndelta; d++) {
                    const int64_t *dd = b->delta + d * b->a;
                    int in = 1;
                    for (int j = 0; j < b->a; j++) { int64_t q = p[j] - dd[j]; in &= q >= b->lo[j] && q <= b->hi[j]; }
                    if (!in) continue;
                    uint64_t u = (uint64_t)((int64_t)v - b->dindex[d]);
                    if (cnt8[u] && --cnt8[u] == 0) queue[tail++] = (uint32_t)u;
                }
            } else {
                for (uint32_t e = roff[v]; e < roff[v + 1]; e++)
                    if (cnt[rev[e]] && --cnt[rev[e]] == 0) queue[tail++] = rev[e];
            }
        }
    }
    if (implicit && !ndraws && tail == b->nvalued) b->loopy = 0;   /* every position in topological order */
out:
    gr_free(c, termrow);
    gr_free(c, cnt8);
    gr_free(c, cnt);
    gr_free(c, queue);
    gr_free(c, off);
    gr_free(c, roff);
    gr_free(c, rev);
    gr_free(c, k.seen);
    gr_free(c, k.list);
}

/* ---- answers ---------------------------------------------------------------------------------- */

gr_dense *gr_dense_range(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *lo, const int64_t *hi) {
    int64_t blo[GR_MAX_ARITY], bhi[GR_MAX_ARITY];
    memcpy(blo, lo, (size_t)g->arity * sizeof *lo);
    memcpy(bhi, hi, (size_t)g->arity * sizeof *hi);
    for (;;) {
        gr_dense *b = gr_dense_new(c, g, conv, blo, bhi);
        if (b->translate && !b->nshared) {
            /* A token game over the whole box: retrograde analysis by rows values every position
             * (cycles or not) with no walk, whose stack would grow with the longest path. */
            retrograde(b);
            if (!b->escaped) return b;
            gr_dense_grown(b, blo, bhi);
            gr_dense_free(b);
            continue;
        }
        int64_t p[GR_MAX_ARITY];
        memcpy(p, lo, (size_t)g->arity * sizeof *p);
        int ok = 1;
        for (;;) {
            if (gr_dense_valid(b, p) && !gr_dense_eval(b, p)) { ok = 0; break; }
            if (b->cyclic) break;
            int j = g->arity - 1;
            for (; j >= 0; j--) {
                if (++p[j] <= hi[j]) break;
                p[j] = lo[j];
            }
            if (j < 0) break;
        }
        if (ok) return b;
        gr_dense_grown(b, blo, bhi);
        gr_dense_free(b);
    }
}

gr_dense *gr_dense_at(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos) {
    int64_t lo[GR_MAX_ARITY], hi[GR_MAX_ARITY];
    for (int k = 0; k < g->arity; k++) {
        lo[k] = pos[k] < 0 ? pos[k] : 0;
        hi[k] = pos[k] < 0 ? 0 : pos[k];
    }
    for (;;) {
        gr_dense *b = gr_dense_new(c, g, conv, lo, hi);
        if (gr_dense_eval(b, pos)) return b;
        gr_dense_grown(b, lo, hi);
        gr_dense_free(b);
    }
}

int gr_dense_cyclic(const gr_dense *b) { return b->loopy; }

gr_outcome gr_dense_outcome(const gr_dense *b, const int64_t *pos) {
    uint8_t s = b->st[index_of(b, pos)];
    return s & S_DONE ? (gr_outcome)(s & S_OUT) : GR_DRAW;
}

int64_t gr_dense_sg(const gr_dense *b, const int64_t *pos) {
    uint64_t i = index_of(b, pos);
    return (b->st[i] & S_DONE) ? (int64_t)wget(&b->sg, i) - 1 : -1;
}

int64_t gr_dense_remoteness(const gr_dense *b, const int64_t *pos) {
    uint64_t i = index_of(b, pos);
    return (b->st[i] & S_DONE) ? (int64_t)wget(&b->rem, i) - 1 : -1;
}

typedef struct optcb { gr_dense_option_fn fn; void *user; uint32_t *seen; size_t n, cap; } optcb;

static void option_child(gr_dense *b, void *user, const int64_t *t, uint64_t ti) {
    optcb *o = user;
    for (size_t i = 0; i < o->n; i++)
        if (o->seen[i] == ti) return;
    if (o->n == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 64;
        o->seen = gr_realloc(b->c, o->seen, gr_size_mul(b->c, o->cap, sizeof *o->seen));
    }
    o->seen[o->n++] = (uint32_t)ti;
    o->fn(o->user, t);
}

void gr_dense_options(gr_dense *b, const int64_t *pos, gr_dense_option_fn fn, void *user) {
    if (gr_rules_terminal(b->c, b->g, pos) >= 0) return;
    optcb o = { fn, user, NULL, 0, 0 };
    each_child(b, pos, option_child, &o);
    gr_free(b->c, o.seen);
}

uint64_t gr_dense_size(const gr_dense *b) { return b->n; }
uint64_t gr_dense_evaluated(const gr_dense *b) { return b->nvalued; }
int gr_dense_shared_moves(const gr_dense *b) { return b->nshared; }

size_t gr_dense_bytes(const gr_dense *b) {
    size_t s = sizeof *b + (size_t)b->n * (1 + (size_t)b->sg.w + (size_t)b->rem.w) + b->capstack * sizeof *b->stack;
    for (int m = 0; m < b->nmoves; m++)
        if (b->moves[m].shared) s += (size_t)b->moves[m].set.nkeys * (1 + sizeof(gr_optacc));
    return s;
}
