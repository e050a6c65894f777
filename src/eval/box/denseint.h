/* denseint: the inside of a dense box (dense.h), shared by its files: dense.c (creation, the
 * depth-first walk, answers), densemoves.c (positions and moves) and denseretro.c (the
 * retrograde analysis of a box with a cycle, serial or across the team). Not for other code. */
#ifndef GRUNDY_DENSEINT_H
#define GRUNDY_DENSEINT_H
#include "eval/box/dense.h"
#include "eval/box/densepar.h"
#include "eval/box/optset.h"
#include "pool.h"

enum { MAX_FRAME = 256, MAX_DELTAS = 255 };

/* The state byte of a position: S_* in densepar.h. */

/* An array of unsigned values that starts one byte wide and widens when a value needs it.
 * Values are stored plus one, so 0 means "none". */
typedef struct wide { int w; void *p; uint64_t n; } wide;

static inline uint64_t wget(const wide *a, uint64_t i) {
    switch (a->w) {
    case 1: return ((const uint8_t *)a->p)[i];
    case 2: return ((const uint16_t *)a->p)[i];
    default: return ((const uint32_t *)a->p)[i];
    }
}

static inline void widen(gr_ctx *c, wide *a, uint64_t v) {
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

static inline void wset(gr_ctx *c, wide *a, uint64_t i, uint64_t v) {
    if (v >> (8 * a->w)) widen(c, a, v);
    switch (a->w) {
    case 1: ((uint8_t *)a->p)[i] = (uint8_t)v; break;
    case 2: ((uint16_t *)a->p)[i] = (uint16_t)v; break;
    default: ((uint32_t *)a->p)[i] = (uint32_t)v; break;
    }
}

static inline void winit(gr_ctx *c, wide *a, uint64_t n) {
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
    uint64_t *tally;              /* the game's count of positions valued (cache.h), or NULL */
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

/* ---- positions ---- */
static inline uint64_t index_of(const gr_dense *b, const int64_t *p) {
    uint64_t i = 0;
    for (int k = 0; k < b->a; k++) i += (uint64_t)(p[k] - b->lo[k]) * b->stride[k];
    return i;
}

static inline void coords_of(const gr_dense *b, uint64_t i, int64_t *p) {
    for (int k = b->a - 1; k >= 0; k--) {
        p[k] = b->lo[k] + (int64_t)(i % (uint64_t)b->ext[k]);
        i /= (uint64_t)b->ext[k];
    }
}

/* 'where' of an in-box position, cached in the state byte. */
int gr_dense_valid_at(gr_dense *b, uint64_t i, const int64_t *p);
/* Records that target t (outside the box, inside 'where') escaped: the grown box covers it and
 * at least doubles each extent it had to move (mv, the move, kept for the first). */
void gr_dense_note_escape(gr_dense *b, const int64_t *t, const gr_rmove *mv);

/* ---- moves ---- */
typedef void (*target_fn)(gr_dense *b, void *user, const int64_t *t, uint64_t ti);
/* The frame of the compiled moves loaded with position p (the parameters first). */
void gr_dense_load_frame(gr_dense *b, const int64_t *p);
/* Runs move bm from the frame loaded with a position: every target inside 'where' goes to fn
 * with its index; a target outside the box is an escape (the caller checks b->escaped). */
void gr_dense_run_move(gr_dense *b, const bmove *bm, target_fn fn, void *user);
/* 1 if move mv is a translation by constant offsets (collected into b->delta), else 0. */
int gr_dense_collect_deltas(gr_dense *b, const gr_rmove *mv);
/* Every option of p (inside the box and 'where') to fn, by the moves or by the offsets. */
void gr_dense_each_child(gr_dense *b, const int64_t *p, target_fn fn, void *user);
/* target_fn adding a valued option to the gr_optacc in user. */
void gr_dense_add_child(gr_dense *b, void *user, const int64_t *t, uint64_t ti);

/* ---- the retrograde analysis (denseretro.c) ---- */
/* Solves the whole box by retrograde analysis (it has a cycle). */
void gr_dense_retrograde(gr_dense *b);
#endif
