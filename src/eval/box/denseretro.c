/* denseretro: a dense box with a cycle, solved whole by retrograde analysis with counters of
 * undecided options (outcomes, draws, remoteness, and SG values on the acyclic part), on the
 * caller or across the thread team (densepar.h); see dense.h and denseint.h. */
#include "eval/box/denseint.h"
#include <setjmp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "eval/rules.h"

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
        if (gr_rules_valid(b->c, b->g, t)) gr_dense_note_escape(b, t, b->delta_mv[d]);
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
static void gr_dense_fill_all_valid(gr_dense *b) {
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
            gr_dense_valid_at(b, v, p);
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
    if (unknown) gr_dense_fill_all_valid(b);
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
    /* SG values by Kahn's levels; the count tells whether the box has a cycle (see gr_dense_retrograde) */
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

/* What the passes of the retrograde analysis below share: the counters of each position's
 * options not yet decided (bytes in a translation box, cnt8, else cnt), the queue of decided
 * positions (queue[head..tail)), and in a box with stored edges the edges themselves (forward
 * CSR off/fwd, made while counting in k; reverse CSR roff/rev). */
typedef struct retro {
    gr_dense *b;
    int implicit, team;         /* a translation box; a thread team solves the rest */
    uint8_t *cnt8;
    uint32_t *cnt, *queue, *off, *fwd, *roff, *rev;
    uint32_t head, tail;
    counter k;
    uint64_t E;                 /* the last coordinate's extent: a row of the box */
    int8_t *termrow;            /* a row's terminal kinds (translation box) */
} retro;

/* Decided at once: a position that is terminal (its rule's outcome, or the convention's when
 * it just ends the game) or has no option; -1 when it is not. */
static int leaf_outcome(const gr_dense *b, int term, uint32_t deg) {
    if (term == TERM_WINS) return GR_WIN;
    if (term == TERM_LOSES) return GR_LOSS;
    if (term >= 0 || deg == 0) return b->conv == CONV_MISERE ? GR_WIN : GR_LOSS;
    return -1;
}

/* A translation box: every position's options counted a row at a time (cnt8), its terminals and
 * leaves decided and queued. 0 if the box escaped (b->escaped). */
static int retro_leaves_rows(retro *r) {
    gr_dense *b = r->b;
    gr_ctx *c = b->c;
    uint64_t n = b->n, E = r->E;
    uint8_t *cnt8 = r->cnt8;
    int64_t p[GR_MAX_ARITY];
    gr_dense_fill_all_valid(b);
    r->termrow = gr_alloc(c, (size_t)E);
    coords_of(b, 0, p);
    for (uint64_t v0 = 0; v0 < n; v0 += E, next_row(b, p)) {
        const int8_t *term = row_terms(b, v0, p, r->termrow);
        row_degrees(b, v0, p, term, cnt8 + v0, 1);
        if (b->escaped) return 0;
        gr_poll(c);
        for (uint64_t y = 0; y < E; y++) {
            uint64_t v = v0 + y;
            if (!(b->st[v] & S_VALID)) continue;
            int out = leaf_outcome(b, term ? term[y] : -1, cnt8[v]);
            if (out < 0) continue;
            b->st[v] |= (uint8_t)(S_DONE | out);
            wset(c, &b->rem, v, 1);
            r->queue[r->tail++] = (uint32_t)v;
        }
    }
    return 1;
}

/* Any other box: every position's options enumerated once and their edges kept (forward CSR:
 * off, and the heads in k.list), its terminals and leaves decided and queued, the others'
 * counters set (cnt). 0 if the box escaped. */
static int retro_leaves_edges(retro *r) {
    gr_dense *b = r->b;
    gr_ctx *c = b->c;
    uint64_t n = b->n;
    counter *k = &r->k;
    int64_t p[GR_MAX_ARITY];
    coords_of(b, 0, p);
    for (uint64_t v = 0; v < n; v++) {
        if (v) /* odometer: the last coordinate fastest */
            for (int j = b->a - 1; j >= 0; j--) {
                if (++p[j] <= b->hi[j]) break;
                p[j] = b->lo[j];
            }
        r->off[v] = (uint32_t)k->nlist;
        if (!gr_dense_valid_at(b, v, p)) continue;
        int term = gr_rules_terminal(c, b->g, p);
        if (r->team) b->st[v] = (uint8_t)(b->st[v] | S_TKNOWN | (term + 1) << S_TSHIFT);   /* for team_csr */
        uint32_t deg = 0;
        if (term < 0) {
            k->n = 0;
            k->stamp = (uint32_t)v;
            gr_dense_each_child(b, p, count_child, k);
            if (b->escaped) return 0;
            deg = k->n;
            if (k->nlist > UINT32_MAX - 1) gr_fail(c, GR_EXIT_LIMIT, "more than 2^32 moves in the box");
        }
        int out = leaf_outcome(b, term, deg);   /* (deg is 0 at a terminal) */
        if (out >= 0) {
            b->st[v] |= (uint8_t)(S_DONE | out);
            wset(c, &b->rem, v, 1);
            r->queue[r->tail++] = (uint32_t)v;
        } else r->cnt[v] = deg;
    }
    r->off[n] = (uint32_t)k->nlist;
    r->fwd = k->list;
    return 1;
}

/* The reverse CSR of the stored edges (roff, rev), by a counting sort of their heads. */
static void retro_reverse(retro *r) {
    gr_ctx *c = r->b->c;
    uint64_t n = r->b->n;
    size_t ne = r->k.nlist;
    const uint32_t *off = r->off, *fwd = r->fwd;
    uint32_t *roff = r->roff = gr_alloc(c, gr_size_mul(c, (size_t)n + 1, sizeof *roff));
    uint32_t *rev = r->rev = gr_alloc(c, gr_size_mul(c, ne ? ne : 1, sizeof *rev));
    for (size_t e = 0; e < ne; e++) roff[fwd[e] + 1]++;
    for (uint64_t v = 0; v < n; v++) roff[v + 1] += roff[v];
    for (uint64_t v = n; v-- > 0;) roff[v + 1] = roff[v];
    for (uint64_t u = 0; u < n; u++)
        for (uint32_t e = off[u]; e < off[u + 1]; e++) rev[roff[fwd[e] + 1]++] = (uint32_t)u;
    roff[0] = 0;
}

/* Outcomes and remoteness from the leaves queued back to their parents: a parent of a lost
 * position is won at once, one whose options are all won is lost when the last is decided. */
static void retro_outcomes(retro *r) {
    gr_dense *b = r->b;
    gr_ctx *c = b->c;
    uint8_t *cnt8 = r->cnt8;
    uint32_t *cnt = r->cnt, *queue = r->queue, head = r->head, tail = r->tail;
    const uint32_t *roff = r->roff, *rev = r->rev;
    int64_t p[GR_MAX_ARITY];
    while (head < tail) {
        gr_poll(c);
        uint32_t v = queue[head++];
        uint64_t rm = wget(&b->rem, v) + 1;   /* (remoteness + 1) + 1 */
        int lost = (b->st[v] & S_OUT) == GR_LOSS;
        if (r->implicit) {
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
                wset(c, &b->rem, u, rm);
                queue[tail++] = (uint32_t)u;
            }
        } else {
            for (uint32_t e = roff[v]; e < roff[v + 1]; e++) {
                uint32_t u = rev[e];
                if (!cnt[u]) continue;
                if (lost) cnt[u] = 0;
                else if (--cnt[u]) continue;
                b->st[u] |= (uint8_t)(S_DONE | (lost ? GR_WIN : GR_LOSS));
                wset(c, &b->rem, u, rm);
                queue[tail++] = u;
            }
        }
    }
    r->head = head;
    r->tail = tail;
}

/* What never settled is a draw (remoteness none); counts the positions valued, returns the draws. */
static uint64_t retro_draws(gr_dense *b) {
    b->nvalued = 0;
    uint64_t ndraws = 0;
    for (uint64_t v = 0; v < b->n; v++) {
        if ((b->st[v] & S_VALID) && !(b->st[v] & S_DONE)) b->st[v] |= S_DONE | GR_DRAW, ndraws++;
        b->nvalued += (b->st[v] & S_DONE) != 0;
    }
    return ndraws;
}

/* The first frontier of Kahn's order: the counters set again to every position's options, the
 * positions with none (and no winning terminal) queued. */
static void retro_sg_leaves(retro *r) {
    gr_dense *b = r->b;
    gr_ctx *c = b->c;
    uint64_t n = b->n, E = r->E;
    int64_t p[GR_MAX_ARITY];
    r->head = r->tail = 0;
    coords_of(b, 0, p);
    if (r->implicit) {
        for (uint64_t v0 = 0; v0 < n; v0 += E, next_row(b, p)) {
            const int8_t *term = row_terms(b, v0, p, r->termrow);
            row_degrees(b, v0, p, term, r->cnt8 + v0, 0);
            gr_poll(c);
            for (uint64_t y = 0; y < E; y++)
                if ((b->st[v0 + y] & S_VALID) && !r->cnt8[v0 + y]) r->queue[r->tail++] = (uint32_t)(v0 + y);
        }
        return;
    }
    for (uint64_t v = 0; v < n; v++) {
        if (v)
            for (int j = b->a - 1; j >= 0; j--) {
                if (++p[j] <= b->hi[j]) break;
                p[j] = b->lo[j];
            }
        if (!(b->st[v] & S_VALID)) continue;
        int term = gr_rules_terminal(c, b->g, p);
        uint32_t deg = term < 0 ? r->off[v + 1] - r->off[v] : 0;
        r->cnt[v] = deg;
        if (deg == 0 && term != TERM_WINS) r->queue[r->tail++] = (uint32_t)v;
    }
}

/* SG values on the acyclic part (normal play): Kahn's order, a position once all its options
 * are valued; positions that reach a cycle or a winning terminal stay undefined. In a
 * translation box (solved this way whether or not it has cycles) the same order, every
 * position included, also tells whether the box has a cycle at all. */
static void retro_sg(retro *r, uint64_t ndraws) {
    gr_dense *b = r->b;
    gr_ctx *c = b->c;
    int with_sg = b->conv == CONV_NORMAL, implicit = r->implicit;
    b->loopy = 1;
    if (!with_sg && !(implicit && !ndraws)) return;
    retro_sg_leaves(r);
    uint8_t *cnt8 = r->cnt8;
    uint32_t *cnt = r->cnt, *queue = r->queue, head = r->head, tail = r->tail;
    const uint32_t *off = r->off, *fwd = r->fwd, *roff = r->roff, *rev = r->rev;
    int64_t p[GR_MAX_ARITY];
    gr_optacc *acc = &b->acc;
    while (head < tail) {
        gr_poll(c);
        uint32_t v = queue[head++];
        coords_of(b, v, p);
        if (with_sg) {
            gr_optacc_clear(acc);
            int term = gr_rules_terminal(c, b->g, p);
            if (term < 0) {
                if (implicit) gr_dense_each_child(b, p, gr_dense_add_child, acc);
                else for (uint32_t e = off[v]; e < off[v + 1]; e++) gr_dense_add_child(b, acc, NULL, fwd[e]);
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
    r->head = head;
    r->tail = tail;
    if (implicit && !ndraws && tail == b->nvalued) b->loopy = 0;   /* every position in topological order */
}

/* Where every move is a translation, parents are found by subtracting the deltas and counters
 * fit a byte; otherwise the edges are stored once (forward CSR while counting, then reverse).
 * The passes: the leaves, the outcomes back from them, the draws, the SG values (above). */
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
    retro r = { .b = b, .implicit = implicit, .team = team, .E = (uint64_t)b->ext[b->a - 1] };
    r.cnt8 = implicit ? gr_alloc(c, (size_t)n) : NULL;
    r.cnt = implicit ? NULL : gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *r.cnt));
    r.queue = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *r.queue));
    if (!implicit) {
        r.off = gr_alloc(c, gr_size_mul(c, (size_t)n + 1, sizeof *r.off));
        r.k.seen = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *r.k.seen));
        for (uint64_t v = 0; v < n; v++) r.k.seen[v] = UINT32_MAX;
    }
    if (implicit ? retro_leaves_rows(&r) : retro_leaves_edges(&r)) {
        if (!implicit) retro_reverse(&r);
        if (!implicit && team) {
            csr_box box = { r.queue, r.tail, r.cnt, r.off, r.fwd, r.roff, r.rev };
            team_solve(b, team_csr, &box);
        } else {
            retro_outcomes(&r);
            retro_sg(&r, retro_draws(b));
        }
    }
    gr_free(c, r.termrow);
    gr_free(c, r.cnt8);
    gr_free(c, r.cnt);
    gr_free(c, r.queue);
    gr_free(c, r.off);
    gr_free(c, r.roff);
    gr_free(c, r.rev);
    gr_free(c, r.k.seen);
    gr_free(c, r.k.list);
}

/* The analysis, and the positions it valued added to the game's tally (dense.h). */
void gr_dense_retrograde(gr_dense *b) {
    retrograde(b);
    if (b->tally) *b->tally += b->nvalued;
}
