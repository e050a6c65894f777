/* cap_ready: the capability of making the values of a range ready at once and reading them
 * without computing (evaluator.h explains capabilities). The heap recurrence (a heap table
 * filled to the range's end) and the table recurrence (one dense box over the range, a line
 * kernel's values or its P bits) have it; other evaluators answer position by position. */
#ifndef GRUNDY_CAP_READY_H
#define GRUNDY_CAP_READY_H
#include "eval/evaluator.h"

typedef struct gr_ready_cap {
    /* Makes the values of every position in lo..hi ready for `kinds` under normal play, so
     * that value answers them by a look-up: 1, or 0 declined (not a recurrence after all). */
    int (*ensure)(gr_ctx *c, gr_game *g, const int64_t *lo, const int64_t *hi, unsigned kinds);
    /* The value of pos of kind GR_KIND_SG or GR_KIND_OUTCOME if it is ready now (1), computing
     * and changing nothing, so that threads may ask at once; 0 if it is not. */
    int (*ready)(const gr_game *g, const int64_t *pos, unsigned kind, int64_t *v);
    /* 1 if a pass that reads a box in any order gains from ensuring the whole box first (a
     * dense box, a line kernel); 0 if the values are best made in order as they are asked (a
     * heap table grows from 0 on its own). */
    int ensure_ahead;
} gr_ready_cap;

/* g's capability, or NULL when its evaluator lacks it. */
const gr_ready_cap *gr_cap_ready(const gr_game *g);

/* The calls through it: ensure answers 0 when the evaluator does not answer `kinds` and 1 when
 * it has nothing to prepare (no capability); ready answers 0 without the capability. */
int gr_eval_ensure(gr_ctx *c, gr_game *g, const int64_t *lo, const int64_t *hi, unsigned kinds);
int gr_eval_ready(const gr_game *g, const int64_t *pos, unsigned kind, int64_t *v);
#endif
