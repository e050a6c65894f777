/* tuple: memoised table recurrence over tuple positions; see tuple.h. */
#include "eval/box/tuple.h"
#include "eval/cache.h"
#include "eval/box/dense.h"
#include "eval/box/lines.h"
#include "eval/rules.h"
#include "sema.h"
#include "eval/heap/sgtable.h"
#include <stdlib.h>
#include <string.h>

enum { ST_EMPTY = 0, ST_BUSY = 1, ST_DONE = 2 };

typedef struct memo {
    int arity;
    uint64_t cap, count;           /* cap is a power of two */
    int64_t *keys;                 /* cap * arity */
    int64_t *vals;
    uint8_t *state;
} memo;

typedef struct frame {
    size_t pos_off;                /* its position in the scratch stack */
    size_t opt_off, nopt;          /* options: each a count then that many positions */
    size_t scan;                   /* next dependency to make sure of */
    size_t deps_off, ndeps;        /* every part of every option, flattened */
} frame;

typedef struct tuple_state {
    int64_t *lines, lrows, lcols;  /* line-move rule sets: sg of 0..lrows-1 x 0..lcols-1 */
    uint64_t *pbits; int64_t prows, pcols;   /* ... or their P-positions, a bit each */
    memo m;
    int64_t *buf; size_t nbuf, capbuf;   /* scratch stack of int64 */
    frame *frames; size_t nframes, capframes;
    gr_mex mex;
} tuple_state;

static uint64_t hash_pos(const int64_t *p, int arity) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < arity; i++) {
        h ^= (uint64_t)p[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xbf58476d1ce4e5b9ULL;
    }
    return h ^ (h >> 31);
}

static void memo_grow(gr_ctx *c, memo *m);

/* The slot of p: found, or the empty slot where it would go. */
static uint64_t memo_slot(const memo *m, const int64_t *p) {
    uint64_t mask = m->cap - 1, i = hash_pos(p, m->arity) & mask;
    while (m->state[i] != ST_EMPTY && memcmp(m->keys + i * (uint64_t)m->arity, p, (size_t)m->arity * sizeof *p) != 0)
        i = (i + 1) & mask;
    return i;
}

static uint64_t memo_insert(gr_ctx *c, memo *m, const int64_t *p) {
    if ((m->count + 1) * 10 > m->cap * 7) memo_grow(c, m);
    uint64_t i = memo_slot(m, p);
    if (m->state[i] == ST_EMPTY) {
        memcpy(m->keys + i * (uint64_t)m->arity, p, (size_t)m->arity * sizeof *p);
        m->state[i] = ST_BUSY;
        m->count++;
    }
    return i;
}

static void memo_grow(gr_ctx *c, memo *m) {
    memo old = *m;
    m->cap = old.cap ? old.cap * 2 : 1024;
    m->keys = gr_alloc(c, gr_size_mul(c, m->cap, (size_t)m->arity * sizeof *m->keys));
    m->vals = gr_alloc(c, gr_size_mul(c, m->cap, sizeof *m->vals));
    m->state = gr_alloc(c, m->cap);
    m->count = 0;
    for (uint64_t i = 0; i < old.cap; i++) {
        if (old.state[i] == ST_EMPTY) continue;
        uint64_t j = memo_slot(m, old.keys + i * (uint64_t)old.arity);
        memcpy(m->keys + j * (uint64_t)m->arity, old.keys + i * (uint64_t)old.arity, (size_t)m->arity * sizeof *m->keys);
        m->vals[j] = old.vals[i];
        m->state[j] = old.state[i];
        m->count++;
    }
    gr_free(c, old.keys);
    gr_free(c, old.vals);
    gr_free(c, old.state);
}

static void buf_push(gr_ctx *c, tuple_state *t, int64_t v) {
    if (t->nbuf == t->capbuf) {
        t->capbuf = t->capbuf ? t->capbuf * 2 : 4096;
        t->buf = gr_realloc(c, t->buf, gr_size_mul(c, t->capbuf, sizeof *t->buf));
    }
    t->buf[t->nbuf++] = v;
}

typedef struct collect { gr_ctx *c; tuple_state *t; int arity; size_t nopt; } collect;

static void collect_move(void *user, const int64_t *parts, int nparts, const gr_rmove *mv) {
    (void)mv;
    collect *k = user;
    buf_push(k->c, k->t, nparts);
    for (int i = 0; i < nparts * k->arity; i++) buf_push(k->c, k->t, parts[i]);
    k->nopt++;
}

/* Pushes a frame for p (already marked busy): its options, then its dependencies. */
static void push_frame(gr_ctx *c, gr_game *g, tuple_state *t, const int64_t *p) {
    int a = g->arity;
    if (t->nframes == t->capframes) {
        t->capframes = t->capframes ? t->capframes * 2 : 256;
        t->frames = gr_realloc(c, t->frames, gr_size_mul(c, t->capframes, sizeof *t->frames));
    }
    frame f = { .pos_off = t->nbuf };
    for (int i = 0; i < a; i++) buf_push(c, t, p[i]);
    f.opt_off = t->nbuf;
    if (gr_rules_terminal(c, g, p) < 0) {
        int64_t pos[GR_MAX_ARITY];
        memcpy(pos, p, (size_t)a * sizeof *pos);   /* p may point into buf, which can move */
        collect k = { c, t, a, 0 };
        gr_rules_moves(c, g, pos, collect_move, &k);
        f.nopt = k.nopt;
    }
    f.deps_off = f.opt_off;
    f.ndeps = t->nbuf - f.opt_off;   /* scanned in place: counts interleave with positions */
    t->frames[t->nframes++] = f;
}

static tuple_state *tuple_state_of(gr_ctx *c, gr_game *g) {
    tuple_state *t = GR_CACHED(g, tuple);
    if (!t) {
        t = gr_eval_cache_of(c, g)->tuple = gr_alloc(c, sizeof *t);
        t->m.arity = g->arity;
        memo_grow(c, &t->m);
    }
    return t;
}

static void mark_cycle(gr_game *g) {
    g->state->not_recurrence = 1;
    snprintf(g->state->found, sizeof g->state->found, "; a move leads back to a position under evaluation (a cycle), so values come from the position graph");
}

/* A rule set with no 'where' on its positions whose moves leave every box is a modelling slip
 * (coordinates, unlike heaps, do not stop at 0), not a resource limit: once the grown box
 * reaches a million past the position asked, or would be refused for its size, the escaping
 * move is reported where it is written. */
static void check_bounded(gr_ctx *c, gr_game *g, const gr_dense *b, const int64_t *pos, const int64_t *lo, const int64_t *hi) {
    if (g->rules->where) return;
    /* Positions a million past the one asked, reached by moves alone, are no game a table can
     * hold; so is a box refused for its size. */
    enum { FAR = 1 << 20 };
    uint64_t n = 1;
    int big = 0;
    for (int k = 0; k < g->arity; k++) {
        big |= __builtin_mul_overflow(n, (uint64_t)hi[k] - (uint64_t)lo[k] + 1, &n);
        big |= llabs(pos[k]) < FAR / 2 && (lo[k] < -FAR || hi[k] > FAR);
    }
    if (!big && n < UINT32_MAX && (!c->max_positions || n <= c->max_positions) && n <= (c->mem_limit - c->store.mem_used) / 8)
        return;
    int64_t to[GR_MAX_ARITY];
    const gr_rmove *mv = gr_dense_escape(b, to);
    if (!mv) return;
    char at[256], bound[256] = "";
    size_t p = 0, q = 0;
    const char *const *names = g->rules->coord_names;
    int far = 0;                     /* the coordinate that went furthest */
    for (int k = 0; k < g->arity; k++) {
        if (llabs(to[k]) > llabs(to[far])) far = k;
        if (p < sizeof at) p += (size_t)snprintf(at + p, sizeof at - p, "%s%lld", k ? ", " : "", (long long)to[k]);
        if (q < sizeof bound) q += (size_t)snprintf(bound + q, sizeof bound - q, "%s%s >= 0", k ? " && " : "", names && names[k] ? names[k] : "?");
    }
    const char *name = names && names[far] ? names[far] : "the coordinate";
    gr_fail_at(c, mv->loc, GR_EXIT_INPUT,
               "this move of '%s' leads out of every bound (it reached (%s) and goes on): tuple coordinates, unlike heaps, "
               "do not stop at 0, and the position line has no 'where'; guard the move with a 'where' that keeps %s %s, "
               "or bound the positions: position (...) where %s;", g->name, at, name, to[far] < 0 ? ">= 0" : "bounded", bound);
}

/* The box a request for lo..hi grows the kept box old (NULL: none) to: the union of both and,
 * along each coordinate it has to grow, by at least old's extent there. Positions asked one by
 * one across a table (a check over a triangle, a solve after a table) then grow it a
 * logarithmic number of times instead of once a row or a column, each growth valuing the box
 * again; the union alone when the larger box would pass the limits. */
static void grow_target(gr_ctx *c, int a, const gr_dense *old, const int64_t *lo, const int64_t *hi, int64_t *blo, int64_t *bhi) {
    memcpy(blo, lo, (size_t)a * sizeof *blo);
    memcpy(bhi, hi, (size_t)a * sizeof *bhi);
    if (!old) return;
    int64_t olo[GR_MAX_ARITY], ohi[GR_MAX_ARITY], xlo[GR_MAX_ARITY], xhi[GR_MAX_ARITY];
    gr_dense_grown(old, olo, ohi);
    int wider = 1;
    for (int k = 0; k < a; k++) {
        if (olo[k] < blo[k]) blo[k] = olo[k];
        if (ohi[k] > bhi[k]) bhi[k] = ohi[k];
        int64_t e = ohi[k] - olo[k] + 1, x;
        xlo[k] = blo[k];
        xhi[k] = bhi[k];
        if (blo[k] < olo[k]) {
            if (__builtin_sub_overflow(olo[k], e, &x)) wider = 0;
            else if (x < xlo[k]) xlo[k] = x;
        }
        if (bhi[k] > ohi[k]) {
            if (__builtin_add_overflow(ohi[k], e, &x)) wider = 0;
            else if (x > xhi[k]) xhi[k] = x;
        }
    }
    if (wider && gr_dense_fits(c, a, xlo, xhi, gr_dense_bytes(old))) {
        memcpy(blo, xlo, (size_t)a * sizeof *blo);
        memcpy(bhi, xhi, (size_t)a * sizeof *bhi);
    }
}

/* The one box of g under conv, kept in the game's cache for every query that asks (a table, a
 * check, a solve, a plot), in which every position of lo..hi inside 'where' is valued, or only
 * `one` (a position of lo..hi) when it is not NULL: the kept box when it holds them, else the
 * kept box grown with its values kept (gr_dense_regrow), grown again while moves lead out of it.
 * A rule set without 'where' whose moves leave every box is reported at the move. */
static gr_dense *box_reach(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *lo, const int64_t *hi, const int64_t *one) {
    struct gr_eval_cache *k = gr_eval_cache_of(c, g);
    gr_dense **slot = (gr_dense **)&k->dense[conv];
    int a = g->arity;
    int64_t blo[GR_MAX_ARITY], bhi[GR_MAX_ARITY], far[GR_MAX_ARITY];
    /* the position check_bounded measures escapes from: lo..hi's corner farthest from 0 */
    for (int j = 0; j < a; j++) far[j] = lo[j] < 0 && lo[j] > INT64_MIN && -lo[j] > hi[j] ? lo[j] : hi[j];
    if (!*slot || !gr_dense_contains(*slot, lo) || !gr_dense_contains(*slot, hi)) {
        grow_target(c, a, *slot, lo, hi, blo, bhi);
        if (*slot) gr_dense_regrow(slot, blo, bhi);
        else *slot = gr_dense_new(c, g, conv, blo, bhi);
        gr_dense_set_tally(*slot, &k->computed);
    }
    for (;;) {
        gr_dense *b = *slot;
        if (one ? gr_dense_eval(b, one) : gr_dense_fill(b, lo, hi)) return b;
        gr_dense_grown(b, blo, bhi);
        check_bounded(c, g, b, one ? one : far, blo, bhi);
        gr_dense_regrow(slot, blo, bhi);
    }
}

/* The box below pos (every coordinate from min(0, x) to max(0, x)), which is what a position of
 * a rule set whose moves go down needs, with pos valued. */
static gr_dense *box_at(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos) {
    int64_t lo[GR_MAX_ARITY], hi[GR_MAX_ARITY];
    for (int k = 0; k < g->arity; k++) {
        lo[k] = pos[k] < 0 ? pos[k] : 0;
        hi[k] = pos[k] < 0 ? 0 : pos[k];
    }
    return box_reach(c, g, conv, lo, hi, pos);
}

static int64_t box_sg(gr_ctx *c, gr_game *g, const int64_t *pos) {
    gr_dense *b = box_at(c, g, CONV_NORMAL, pos);
    if (gr_dense_cyclic(b)) {
        mark_cycle(g);
        return -1;
    }
    return gr_dense_sg(b, pos);
}

/* The extents of a line kernel's box grown from rows x cols (0 x 0: none yet) to hold
 * pos, doubling each extent it must grow (as grow_target does for the dense box) when `bytes`
 * a cell of the larger box fit the memory left, else just to pos. */
static void lines_target(const gr_ctx *c, int64_t rows, int64_t cols, const int64_t *pos, double bytes, int64_t *nr, int64_t *nc) {
    *nr = pos[0] + 1 > rows ? pos[0] + 1 : rows;
    *nc = pos[1] + 1 > cols ? pos[1] + 1 : cols;
    if (!rows || !cols) return;
    int64_t xr = *nr > rows && 2 * rows > *nr ? 2 * rows : *nr;
    int64_t xc = *nc > cols && 2 * cols > *nc ? 2 * cols : *nc;
    if (xr > INT32_MAX + 1LL) xr = *nr;
    if (xc > INT32_MAX + 1LL) xc = *nc;
    double left = c->mem_limit > c->store.mem_used ? (double)(c->mem_limit - c->store.mem_used) : 0;
    if ((double)xr * (double)xc * bytes + (double)rows * (double)cols * bytes <= left / 2) { *nr = xr; *nc = xc; }
}

/* Line-move rule sets: the per-line bitset kernel over the box from (0, 0), which is what any
 * position of them needs; a larger position refills a larger box (the kernel runs row by row
 * from (0, 0) and cannot resume), grown as lines_target says so that positions asked one by
 * one are not each a refill. */
static int64_t lines_sg(gr_ctx *c, gr_game *g, tuple_state *t, const int64_t *pos) {
    if (pos[0] >= t->lrows || pos[1] >= t->lcols) {
        int64_t rows, cols;
        lines_target(c, t->lrows, t->lcols, pos, sizeof *t->lines, &rows, &cols);
        gr_free(c, t->lines);
        t->lines = NULL;
        t->lrows = t->lcols = 0;
        t->lines = gr_alloc(c, gr_size_mul(c, gr_size_mul(c, (size_t)rows, (size_t)cols), sizeof *t->lines));
        gr_lines_fill(c, g, rows, cols, t->lines);
        t->lrows = rows;
        t->lcols = cols;
        gr_eval_cache_of(c, g)->computed += (uint64_t)rows * (uint64_t)cols;
    }
    return t->lines[pos[0] * t->lcols + pos[1]];
}

void gr_tuple_reserve(gr_ctx *c, gr_game *g, const int64_t *lo, const int64_t *hi) {
    char why[128];
    if (g->kernel == KER_LINES && lo[0] >= 0 && lo[1] >= 0) {
        lines_sg(c, g, tuple_state_of(c, g), hi);
        return;
    }
    if (g->state->not_recurrence || !gr_dense_supported(g, CONV_NORMAL, why, sizeof why)) return;
    if (gr_dense_cyclic(box_reach(c, g, CONV_NORMAL, lo, hi, NULL))) mark_cycle(g);
}

int gr_tuple_prepare(gr_ctx *c, gr_game *g, const int64_t *lo, const int64_t *hi, int sg) {
    if (g->kernel == KER_LINES) {
        if (lo[0] < 0 || lo[1] < 0 || hi[0] > INT32_MAX || hi[1] > INT32_MAX) return 1;
        tuple_state *t = tuple_state_of(c, g);
        if (sg) {
            lines_sg(c, g, t, hi);
            return 1;
        }
        /* outcomes: the values a table made answer them too */
        if (hi[0] < t->lrows && hi[1] < t->lcols) return 1;
        if (hi[0] < t->prows && hi[1] < t->pcols) return 1;
        int64_t rows, cols;
        lines_target(c, t->prows, t->pcols, hi, 1.0 / 8, &rows, &cols);
        gr_free(c, t->pbits);
        t->pbits = NULL;
        t->prows = t->pcols = 0;
        t->pbits = gr_alloc(c, gr_size_mul(c, gr_lines_pbits_words(rows, cols), sizeof *t->pbits));
        gr_lines_outcomes(c, g, rows, cols, t->pbits);
        t->prows = rows;
        t->pcols = cols;
        gr_eval_cache_of(c, g)->computed += (uint64_t)rows * (uint64_t)cols;
        return 1;
    }
    if (!gr_rules_valid(c, g, lo) || !gr_rules_valid(c, g, hi)) return 1;
    gr_tuple_reserve(c, g, lo, hi);
    return !g->state->not_recurrence;
}

int gr_tuple_outcome_ready(const gr_game *g, const int64_t *pos) {
    const tuple_state *t = GR_CACHED(g, tuple);
    if (!t || pos[0] < 0 || pos[1] < 0) return -1;
    if (pos[0] < t->lrows && pos[1] < t->lcols) return t->lines[pos[0] * t->lcols + pos[1]] ? GR_WIN : GR_LOSS;
    if (pos[0] < t->prows && pos[1] < t->pcols) return gr_lines_is_p(t->pbits, t->pcols, pos[0], pos[1]) ? GR_LOSS : GR_WIN;
    return -1;
}

int64_t gr_tuple_lines_ready(const gr_game *g, const int64_t *pos) {
    const tuple_state *t = GR_CACHED(g, tuple);
    if (!t || pos[0] < 0 || pos[1] < 0 || pos[0] >= t->lrows || pos[1] >= t->lcols) return -1;
    return t->lines[pos[0] * t->lcols + pos[1]];
}

gr_dense *gr_tuple_box(const gr_game *g) {
    return g->state->cache ? g->state->cache->dense[CONV_NORMAL] : NULL;
}

uint64_t gr_tuple_computed(const gr_game *g) {
    return g->state->cache ? g->state->cache->computed : 0;
}

/* Fails (status 2, at loc) unless pos is a position of g. */
static void require_valid(gr_ctx *c, const gr_game *g, const int64_t *pos, gr_loc loc) {
    if (gr_rules_valid(c, g, pos)) return;
    char buf[256];
    size_t n = (size_t)snprintf(buf, sizeof buf, "(");
    for (int i = 0; i < g->arity && n < sizeof buf; i++) n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%lld", i ? ", " : "", (long long)pos[i]);
    gr_fail_at(c, loc, GR_EXIT_INPUT, "%s%s is not a position of '%s': it fails the rule set's 'where'", buf, n < sizeof buf ? ")" : "", g->name);
}

gr_dense *gr_tuple_dense(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *lo, const int64_t *hi, gr_loc loc) {
    char why[128];
    if (!gr_dense_supported(g, conv, why, sizeof why)) return NULL;
    if (lo != hi) return box_reach(c, g, conv, lo, hi, NULL);
    require_valid(c, g, lo, loc);
    return box_at(c, g, conv, lo);
}

int64_t gr_tuple_sg(gr_ctx *c, gr_game *g, const int64_t *pos, gr_loc loc) {
    if (g->state->not_recurrence) return -1;
    require_valid(c, g, pos, loc);
    tuple_state *t = tuple_state_of(c, g);
    char why[128];
    if (g->kernel == KER_LINES && pos[0] >= 0 && pos[1] >= 0) return lines_sg(c, g, t, pos);
    if (gr_dense_supported(g, CONV_NORMAL, why, sizeof why)) return box_sg(c, g, pos);
    int a = g->arity;
    uint64_t s = memo_slot(&t->m, pos);
    if (t->m.state[s] == ST_DONE) return t->m.vals[s];
    memo_insert(c, &t->m, pos);
    t->nbuf = 0;
    t->nframes = 0;
    push_frame(c, g, t, pos);
    while (t->nframes) {
        gr_poll(c);
        frame *f = &t->frames[t->nframes - 1];
        /* Walk the options; descend into the first part not yet known. */
        int descended = 0;
        while (f->scan < f->ndeps) {
            int64_t nparts = t->buf[f->deps_off + f->scan];
            size_t at = f->deps_off + f->scan + 1;
            for (int64_t i = 0; i < nparts && !descended; i++, at += (size_t)a) {
                uint64_t slot = memo_slot(&t->m, t->buf + at);
                if (t->m.state[slot] == ST_DONE) continue;
                if (t->m.state[slot] == ST_BUSY) {   /* a cycle: not a recurrence */
                    mark_cycle(g);
                    t->nbuf = 0;
                    t->nframes = 0;
                    return -1;
                }
                int64_t child[GR_MAX_ARITY];
                memcpy(child, t->buf + at, (size_t)a * sizeof *child);
                memo_insert(c, &t->m, child);
                push_frame(c, g, t, child);
                descended = 1;
            }
            if (descended) break;
            f->scan += 1 + (size_t)nparts * (size_t)a;
        }
        if (descended) continue;
        /* Every part is known: the value is the mex of the options' xors. */
        gr_mex_reserve(c, &t->mex, f->nopt);
        size_t at = f->opt_off;
        for (size_t o = 0; o < f->nopt; o++) {
            int64_t nparts = t->buf[at++], x = 0;
            for (int64_t i = 0; i < nparts; i++, at += (size_t)a) x ^= t->m.vals[memo_slot(&t->m, t->buf + at)];
            gr_mex_add(&t->mex, f->nopt, (uint64_t)x);
        }
        uint64_t slot = memo_slot(&t->m, t->buf + f->pos_off);
        t->m.vals[slot] = (int64_t)gr_mex_take(&t->mex, f->nopt);
        t->m.state[slot] = ST_DONE;
        gr_eval_cache_of(c, g)->computed++;
        t->nbuf = f->pos_off;
        t->nframes--;
    }
    return t->m.vals[memo_slot(&t->m, pos)];
}

