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

enum { GR_LEVEL_BUF = 512 };

/* Positions appended to the frontier queue[*tail..], a buffer at a time (one atomic add per
 * buffer). */
typedef struct gr_level_out {
    atomic_uint *tail;
    uint32_t *queue;
    uint32_t n;
    uint32_t v[GR_LEVEL_BUF];
} gr_level_out;

static inline void gr_level_flush(gr_level_out *o) {
    if (!o->n) return;
    unsigned at = atomic_fetch_add_explicit(o->tail, o->n, memory_order_relaxed);
    memcpy(o->queue + at, o->v, o->n * sizeof *o->v);
    o->n = 0;
}

static inline void gr_level_emit(gr_level_out *o, uint64_t v) {
    if (o->n == GR_LEVEL_BUF) gr_level_flush(o);
    o->v[o->n++] = (uint32_t)v;
}

/* The next piece [*lo, *hi) of from..to, grain items from the shared counter next; 0 when
 * none is left. */
static inline int gr_level_take(atomic_ullong *next, uint64_t from, uint64_t to, uint64_t grain, uint64_t *lo, uint64_t *hi) {
    uint64_t i = atomic_fetch_add_explicit(next, grain, memory_order_relaxed);
    if (i >= to - from) return 0;
    *lo = from + i;
    *hi = from + (to - from - i < grain ? to - from : i + grain);
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
