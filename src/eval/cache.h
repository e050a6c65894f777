/* cache: what the evaluators keep of a game between calls (heap tables and their kernels'
 * state, an infinite subtraction set's look-ups, tuple memos, dense boxes, the 'anyleaf' and
 * 'every' heap kernels, the misere quotient). The IR holds only
 * an opaque pointer to it in the game's run-time state (gr_game.state->cache: the IR itself is
 * not changed after lowering), so no stage after eval/ can read kernel state; the evaluators
 * reach it through these. It is tracked memory of the context that made it: an engine's
 * (api/engine.h) lives for many calls. Every block of it is charged to the game's memory
 * account (gr_game_state.mem, core/ctx.h): gr_eval_cache_of makes the game's account current
 * (what an evaluator allocates next is the game's; the gr_eval_* calls restore the one before
 * when they return), so an engine can drop one game's cache (what the evaluators made of it)
 * and keep the others'. Whoever computes into a game's cache reaches it by gr_eval_cache_of
 * first, never by GR_CACHED alone. */
#ifndef GRUNDY_EVAL_CACHE_H
#define GRUNDY_EVAL_CACHE_H
#include "game.h"
#include "eval/heap/sgtable.h"

struct gr_eval_cache {
    gr_sgtable *sg;                /* heap SG table, grown on demand (heap/heap.c) */
    struct gr_heap_state *hstate;  /* heap kernels: rare-value kernel, proved period (heap/heapstate.h) */
    void *inf;                     /* an infinite subtraction set's look-ups (heap/heap.c) */
    void *tuple;                   /* the table recurrence's memo (box/tuple.c) */
    void *dense[4];                /* dense boxes by convention (box/tuple.c gr_tuple_dense) */
    struct gr_convkernel *convkernel; /* 'anyleaf' and 'every' heap kernels (heap/convkernel.c) */
    struct gr_quotient *quotient;  /* misere quotient of the heaps, grown on demand (heap/quotient.c) */
    void *board;                   /* games on boards: the transposition tables (board/bsolve.h) */
    /* Positions the box evaluators valued (dense boxes, the line kernel, the tuple memo), never
     * those read again or copied into a grown box: a second query over the same positions must
     * add nothing (box/tuple.h gr_tuple_computed, read by tests). */
    uint64_t computed;
};

/* g's cache, made on first need (tracked memory of c, freed with the context). */
static inline struct gr_eval_cache *gr_eval_cache_of(gr_ctx *c, gr_game *g) {
    gr_account_enter(c, &g->state->mem);
    if (!g->state->cache) g->state->cache = gr_alloc(c, sizeof *g->state->cache);   /* zeroed */
    return g->state->cache;
}
/* Reading without making: NULL where nothing is kept yet. */
#define GR_CACHED(g, field) ((g)->state->cache ? (g)->state->cache->field : NULL)
#endif
