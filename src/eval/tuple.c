/* tuple: memoised table recurrence over tuple positions; see tuple.h. */
#include "tuple.h"
#include "rules.h"
#include "sema.h"
#include "sgtable.h"
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

int64_t gr_tuple_sg(gr_ctx *c, gr_game *g, const int64_t *pos, gr_loc loc) {
    if (g->not_recurrence) return -1;
    if (!gr_rules_valid(c, g, pos)) {
        char buf[256];
        size_t n = (size_t)snprintf(buf, sizeof buf, "(");
        for (int i = 0; i < g->arity && n < sizeof buf; i++) n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%lld", i ? ", " : "", (long long)pos[i]);
        gr_fail_at(c, loc, GR_EXIT_INPUT, "%s%s is not a position of '%s': it fails the rule set's 'where'", buf, n < sizeof buf ? ")" : "", g->name);
    }
    tuple_state *t = g->table;
    if (!t) {
        t = g->table = gr_alloc(c, sizeof *t);
        t->m.arity = g->arity;
        memo_grow(c, &t->m);
    }
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
                    g->not_recurrence = 1;
                    size_t len = strlen(g->explain);
                    snprintf(g->explain + len, sizeof g->explain - len, "; a move leads back to a position under evaluation (a cycle), so values come from the position graph");
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
        t->nbuf = f->pos_off;
        t->nframes--;
    }
    return t->m.vals[memo_slot(&t->m, pos)];
}

uint64_t gr_tuple_count(const gr_game *g) {
    const tuple_state *t = g->table;
    return t ? t->m.count : 0;
}
