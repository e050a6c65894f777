/* heapstate: what a heap game's kernels keep between calls (heap.c fills it, heapsave.c saves
 * and restores it for checkpoints), apart from the table of values. */
#ifndef GRUNDY_HEAPSTATE_H
#define GRUNDY_HEAPSTATE_H
#include "eval/cache.h"
#include "eval/heap/heap.h"
#include "eval/heap/sparse.h"

/* What a heap game's kernels keep between calls: the rare-value kernel's choice and, once a
 * theorem proves it, the period that ends the computation. */
struct gr_heap_state {
    gr_sparse *sparse;
    int64_t period, pre;    /* period > 0: sg(n + period) = sg(n) for every n >= pre, proved */
    int64_t next_proof;     /* the table length at which a period is looked for next */
    int64_t sparse_warmup;  /* gr_heap_tune: heaps before the rare-value kernel (-1: never) */
    int no_proof;           /* gr_heap_tune: never stop at a proved period */
    int64_t chunk;          /* with a checkpoint: heaps filled between safe points */
    int64_t opts;           /* the general kernel: options of the last heap (its work per heap) */
    gr_heap_counts counts;  /* heaps each octal kernel computed (gr_heap_count) */
};


static inline struct gr_heap_state *gr_heap_state_of(gr_ctx *c, gr_game *g) {
    struct gr_eval_cache *k = gr_eval_cache_of(c, g);
    if (!k->hstate) {
        k->hstate = gr_alloc(c, sizeof *k->hstate);
        k->hstate->next_proof = 256;
    }
    return k->hstate;
}
#endif
