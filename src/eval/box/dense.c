/* dense: the dense box: creation, the depth-first walk of an acyclic box and the answers; its
 * positions and moves are densemoves.c, a box with a cycle denseretro.c. See dense.h. */
#include "eval/box/denseint.h"
#include <setjmp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "eval/rules.h"

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
    if (n * per > c->mem_limit - c->store.mem_used)
        gr_fail(c, GR_EXIT_LIMIT, "the positions of '%s' needed lie in the box %s: %llu positions, about %llu MiB at %llu bytes "
                "each, over the %zu MiB left of --max-memory; nothing was evaluated", g->name, box, (unsigned long long)n,
                (unsigned long long)((n * per) >> 20), (unsigned long long)per, (c->mem_limit - c->store.mem_used) >> 20);
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
        if (b->translate && !gr_dense_collect_deltas(b, bm->mv)) b->translate = 0;
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

/* ---- growing a box, its values kept -------------------------------------------------------- */

/* A position valued by the walk depends only on its options, all of which were inside the box
 * and valued before it (a move out of the box stops the walk before its source is valued), so
 * its values hold in any larger box. A box solved whole by retrograde analysis (a cycle) is not
 * copied: its values depend on the box being closed, and a larger box is solved whole again. */
gr_dense *gr_dense_regrow(gr_dense **slot, const int64_t *lo, const int64_t *hi) {
    gr_dense *old = *slot;
    gr_ctx *c = old->c;
    uint64_t *tally = old->tally;
    if (old->cyclic || !gr_dense_fits(c, old->a, lo, hi, 0)) {
        /* nothing to keep, or no room for both: the old box goes first, as when a box is
         * made afresh (and the limits say the same) */
        *slot = NULL;
        gr_game *g = old->g;
        gr_conv conv = old->conv;
        gr_dense_free(old);
        gr_dense *b = gr_dense_new(c, g, conv, lo, hi);
        b->tally = tally;
        return *slot = b;
    }
    gr_dense *b = gr_dense_new(c, old->g, old->conv, lo, hi);
    b->tally = tally;
    {
        if (old->sg.w > 1) widen(c, &b->sg, old->sg.w == 2 ? UINT16_MAX : UINT32_MAX);
        if (old->rem.w > 1) widen(c, &b->rem, old->rem.w == 2 ? UINT16_MAX : UINT32_MAX);
        int a = b->a, last = a - 1;
        int64_t p[GR_MAX_ARITY];
        memcpy(p, old->lo, (size_t)a * sizeof *p);
        uint64_t E = (uint64_t)old->ext[last];
        /* one run along the last coordinate at a time: contiguous in both boxes */
        for (uint64_t v0 = 0; v0 < old->n; v0 += E) {
            p[last] = old->lo[last];
            if (gr_dense_contains(b, p) && old->hi[last] <= b->hi[last]) {
                uint64_t u0 = index_of(b, p);
                for (uint64_t y = 0; y < E; y++) {
                    uint8_t s = old->st[v0 + y] & (uint8_t)(S_DONE | S_OUT | S_VKNOWN | S_VALID);
                    if (!(s & S_DONE)) s &= (uint8_t)(S_VKNOWN | S_VALID);
                    b->st[u0 + y] = s;
                    if (!(s & S_DONE)) continue;
                    wset(c, &b->sg, u0 + y, wget(&old->sg, v0 + y));
                    wset(c, &b->rem, u0 + y, wget(&old->rem, v0 + y));
                    b->nvalued++;
                }
            }
            for (int k = last - 1; k >= 0; k--) {    /* the next run */
                if (++p[k] <= old->hi[k]) break;
                p[k] = old->lo[k];
            }
        }
    }
    *slot = NULL;
    gr_dense_free(old);
    return *slot = b;
}

/* Whether a box over lo..hi would pass gr_dense_new's limits, with `spare` bytes also needed. */
int gr_dense_fits(const gr_ctx *c, int arity, const int64_t *lo, const int64_t *hi, size_t spare) {
    uint64_t n = 1;
    for (int k = 0; k < arity; k++) {
        uint64_t e = (uint64_t)hi[k] - (uint64_t)lo[k] + 1;
        if (hi[k] < lo[k] || e == 0 || __builtin_mul_overflow(n, e, &n)) return 0;
    }
    size_t left = c->mem_limit > c->store.mem_used ? c->mem_limit - c->store.mem_used : 0;
    return n < UINT32_MAX && (!c->max_positions || n <= c->max_positions) && n * 8 <= left && n * 8 + spare <= left;
}

void gr_dense_set_tally(gr_dense *b, uint64_t *tally) { b->tally = tally; }

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
        if (b->tally) ++*b->tally;
        return;
    }
    gr_optacc *acc = &b->acc;
    gr_optacc_clear(acc);
    if (term < 0) {
        if (b->translate && !b->nshared) gr_dense_each_child(b, p, gr_dense_add_child, acc);
        else
            for (int m = 0; m < b->nmoves; m++) {
                bmove *bm = &b->moves[m];
                gr_dense_load_frame(b, p);
                if (!bm->shared) { gr_dense_run_move(b, bm, gr_dense_add_child, acc); continue; }
                uint64_t key = key_of(bm, b, p);
                if (!bm->set.ready[key]) {
                    gr_optacc_clear(&bm->set.sum[key]);
                    gr_dense_run_move(b, bm, gr_dense_add_child, &bm->set.sum[key]);
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
    if (b->tally) ++*b->tally;
}


/* 1: root valued; 0: escaped; -1: a cycle (the walk's marks are cleared). */
static int walk_from(gr_dense *b, uint64_t root) {
    b->nstack = 0;
    push(b, (uint32_t)root);
    walk w = { 0 };
    int64_t p[GR_MAX_ARITY];
    while (b->nstack) {
        gr_poll(b->c);   /* --max-time, an interrupt: a walk may value a whole box */
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
        if (b->translate && !b->nshared) gr_dense_each_child(b, p, expand_child, &w);
        else
            for (int m = 0; m < b->nmoves && !w.cycle && !b->escaped; m++) {
                bmove *bm = &b->moves[m];
                if (bm->shared && bm->set.ready[key_of(bm, b, p)]) continue;
                gr_dense_load_frame(b, p);
                gr_dense_run_move(b, bm, expand_child, &w);
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
    /* The box outlives a query (the game's cache): a walk a failure stopped (a time limit, an
     * interrupt) left its path marked, which the next walk would take for a cycle. */
    for (size_t k = 0; k < b->nstack; k++) b->st[b->stack[k]] &= (uint8_t)~S_OPEN;
    b->nstack = 0;
    uint64_t i = index_of(b, pos);
    if (b->st[i] & S_DONE) return 1;
    if (b->cyclic) return 1;   /* retrograde valued everything; pos is outside 'where' */
    int r = walk_from(b, i);
    if (r < 0) {
        gr_free(b->c, b->stack);   /* the walk is over: retrograde needs its own queue */
        b->stack = NULL;
        b->nstack = b->capstack = 0;
        gr_dense_retrograde(b);
        return !b->escaped;
    }
    return r;
}

/* ---- answers ---------------------------------------------------------------------------------- */

int gr_dense_fill(gr_dense *b, const int64_t *lo, const int64_t *hi) {
    if (b->escaped) return 0;
    if (b->cyclic) return 1;   /* retrograde valued the whole box */
    int a = b->a;
    int64_t p[GR_MAX_ARITY];
    if (b->translate && !b->nshared) {
        /* A token game over the whole box: retrograde analysis by rows values every position
         * (cycles or not) with no walk, whose stack would grow with the longest path; not
         * when the walk valued lo..hi already. */
        memcpy(p, lo, (size_t)a * sizeof *p);
        for (;;) {
            if (gr_dense_valid(b, p) && !(b->st[index_of(b, p)] & S_DONE)) {
                gr_dense_retrograde(b);
                return !b->escaped;
            }
            int j = a - 1;
            for (; j >= 0; j--) {
                if (++p[j] <= hi[j]) break;
                p[j] = lo[j];
            }
            if (j < 0) return 1;
        }
    }
    memcpy(p, lo, (size_t)a * sizeof *p);
    for (;;) {
        if (gr_dense_valid(b, p) && !gr_dense_eval(b, p)) return 0;
        if (b->cyclic) return 1;
        int j = a - 1;
        for (; j >= 0; j--) {
            if (++p[j] <= hi[j]) break;
            p[j] = lo[j];
        }
        if (j < 0) return 1;
    }
}

gr_dense *gr_dense_range(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *lo, const int64_t *hi) {
    int64_t blo[GR_MAX_ARITY], bhi[GR_MAX_ARITY];
    memcpy(blo, lo, (size_t)g->arity * sizeof *lo);
    memcpy(bhi, hi, (size_t)g->arity * sizeof *hi);
    for (;;) {
        gr_dense *b = gr_dense_new(c, g, conv, blo, bhi);
        if (gr_dense_fill(b, lo, hi)) return b;
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

uint64_t gr_dense_size(const gr_dense *b) { return b->n; }
uint64_t gr_dense_evaluated(const gr_dense *b) { return b->nvalued; }
int gr_dense_shared_moves(const gr_dense *b) { return b->nshared; }

size_t gr_dense_bytes(const gr_dense *b) {
    size_t s = sizeof *b + (size_t)b->n * (1 + (size_t)b->sg.w + (size_t)b->rem.w) + b->capstack * sizeof *b->stack;
    for (int m = 0; m < b->nmoves; m++)
        if (b->moves[m].shared) s += (size_t)b->moves[m].set.nkeys * (1 + sizeof(gr_optacc));
    return s;
}
