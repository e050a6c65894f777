/* heapopts: the options of a heap, by the rules as lowered (a subtraction set, a take-and-break
 * code, a rule block): what every heap kernel's values are the mex of, and what the threaded
 * general kernel (genpar.c) enumerates. Kept apart from heap.c so that the kernels and their
 * threaded twins call it without calling each other. */
#ifndef GRUNDY_HEAPOPTS_H
#define GRUNDY_HEAPOPTS_H
#include "game.h"

/* Every option of heap n, as a list of heap sizes (a sum; possibly empty), in a stable order:
 * by amount removed, then by the sizes of the parts. */
typedef void (*gr_heap_option_fn)(void *user, const int64_t *heaps, int nheaps);
void gr_heap_options(gr_ctx *c, gr_game *g, int64_t n, gr_heap_option_fn fn, void *user);
/* Grows a generated subtraction set until it holds every element <= upto. */
void gr_sub_extend(gr_ctx *c, gr_game *g, int64_t upto);
#endif
