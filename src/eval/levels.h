/* levels: the pieces every level-by-level retrograde pass across the thread team shares (the
 * dense box's, densepar.c; the position graph's, pgteam.c): members take pieces of a job's
 * range from a shared counter, append what they settle to the next frontier a buffer at a
 * time, and claim a parent by an atomic operation on its counter of undecided options. Why the
 * levels give the serial queue's answers is argued in densepar.c's banner. */
#ifndef GRUNDY_LEVELS_H
#define GRUNDY_LEVELS_H
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include "pool.h"

/* The job's range and its frontiers (a member `lv` of each pass's job). */
typedef struct gr_level_job {
    uint32_t *queue;               /* frontiers, one after the other */
    uint64_t from, to;             /* positions or rows, or the frontier queue[from..to) */
    uint64_t grain;                /* items a member takes at once */
    atomic_ullong next;
    atomic_uint tail;              /* the next frontier ends here */
} gr_level_job;

/* When the team runs: work of at least `from` positions, members taking `grain` positions (or
 * grain / 64 of a frontier) at once, frontiers below `level` left to the caller (waking the
 * team costs more). Tests lower all three to reach every threaded pass in small work. */
typedef struct gr_level_knob { atomic_ullong from, grain, level; } gr_level_knob;
#define GR_LEVEL_KNOB { 1u << 20, 1u << 14, 1u << 12 }

static inline void gr_level_tune(gr_level_knob *k, uint64_t from, uint64_t grain, uint64_t level) {
    atomic_store(&k->from, from);
    atomic_store(&k->grain, grain ? grain : 1);
    atomic_store(&k->level, level);
}

/* Runs fn(arg) over from..to of the job lv (grain items a piece) on the team, or on the caller
 * alone (pool NULL). */
static inline void gr_level_run(gr_pool *pool, gr_level_job *lv, gr_pool_fn fn, void *arg, uint64_t from, uint64_t to, uint64_t grain) {
    lv->from = from;
    lv->to = to;
    lv->grain = grain ? grain : 1;
    atomic_store(&lv->next, 0);
    gr_pool_run(pool, fn, arg);
}

enum { GR_LEVEL_BUF = 512 };

/* Positions appended to the next frontier of job lv, a buffer at a time (one atomic add per
 * buffer). */
typedef struct gr_level_out {
    gr_level_job *lv;
    uint32_t n;
    uint32_t v[GR_LEVEL_BUF];
} gr_level_out;

static inline void gr_level_flush(gr_level_out *o) {
    if (!o->n) return;
    unsigned at = atomic_fetch_add_explicit(&o->lv->tail, o->n, memory_order_relaxed);
    memcpy(o->lv->queue + at, o->v, o->n * sizeof *o->v);
    o->n = 0;
}

static inline void gr_level_emit(gr_level_out *o, uint64_t v) {
    if (o->n == GR_LEVEL_BUF) gr_level_flush(o);
    o->v[o->n++] = (uint32_t)v;
}

/* The next piece [*lo, *hi) of the job's range from its shared counter; 0 when none is left. */
static inline int gr_level_take(gr_level_job *lv, uint64_t *lo, uint64_t *hi) {
    uint64_t i = atomic_fetch_add_explicit(&lv->next, lv->grain, memory_order_relaxed);
    uint64_t size = lv->to - lv->from;
    if (i >= size) return 0;
    *lo = lv->from + i;
    *hi = lv->from + (size - i < lv->grain ? size : i + lv->grain);
    return 1;
}

/* Takes one from a nonzero counter; 1 if this took it to 0. */
static inline int gr_count_down32(uint32_t *c) {
    uint32_t x = __atomic_load_n(c, __ATOMIC_RELAXED);
    while (x && !__atomic_compare_exchange_n(c, &x, x - 1, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return x == 1;
}

/* A settled child's claim on its parent's counter (0: decided, or not to be settled by
 * counting): a lost child zeroes it, and claims the parent (won) if it was nonzero; a won
 * child takes one from it, and claims the parent (lost) if it took it to 0. Exactly one
 * claim succeeds per parent. */
static inline int gr_claim32(uint32_t *c, int lost) {
    if (!__atomic_load_n(c, __ATOMIC_RELAXED)) return 0;   /* decided: no locked operation */
    return lost ? __atomic_exchange_n(c, 0, __ATOMIC_RELAXED) != 0 : gr_count_down32(c);
}
#endif
