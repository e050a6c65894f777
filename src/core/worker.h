/* worker: a run-time context for one member of a thread team (pool.h), so that a member can run
 * code that fails with a longjmp (the rule interpreter: an overflow at run time, a binding range
 * too large, --max-time) without ever jumping past the team. The member's failures jump to its
 * own jmp_buf; it records them (status and the very text gr_fail wrote) for the item where they
 * happened, and the owner, finishing the items in order, raises the first one again with the
 * same text: the first failure in item order wins, whatever the timing, exactly as serially.
 *
 * A worker's context is a copy of its owner's (source, file name, limits, the query for a time
 * limit's message) with its own failure exit, its own tracked memory and arena (freed with the
 * worker), no diagnostics stream, no progress and no interruption hook. Workers read shared
 * state only: whatever the code they run could write must be prepared by the owner first. */
#ifndef GRUNDY_WORKER_H
#define GRUNDY_WORKER_H
#include "ctx.h"

typedef struct gr_worker {
    gr_ctx c;        /* pass &w->c to the code the member runs */
    jmp_buf jb;      /* where its failures land: if (setjmp(w->jb)) { gr_worker_catch(...); } */
} gr_worker;

/* A failure as gr_fail* left it in a context, ready to be raised again elsewhere. */
typedef struct gr_failure {
    int status, located;
    uint32_t off;
    char msg[1024];    /* c->fail_msg: the diagnostic, ready to print */
    char text[512];    /* c->fail_text: the message alone */
} gr_failure;

void gr_worker_init(gr_worker *w, const gr_ctx *owner);
/* After setjmp(w->jb) returned nonzero: the failure into f (NULL: dropped), and the member's
 * tracked memory freed, so the worker can go on with its next item. */
void gr_worker_catch(gr_worker *w, gr_failure *f);
void gr_worker_free(gr_worker *w);

/* Raises f in c (status, message and location exactly as recorded): jumps to c->on_fail. */
_Noreturn void gr_failure_raise(gr_ctx *c, const gr_failure *f);

/* A catch-and-rethrow frame for an owner that holds resources a failure must release (a thread
 * team, plain malloc buffers): between gr_guard_enter and gr_guard_leave, a failure raised in c
 * lands at setjmp(g->jb); the owner releases what it holds and calls gr_guard_rethrow. */
typedef struct gr_guard { jmp_buf jb; jmp_buf *outer; } gr_guard;
static inline void gr_guard_enter(gr_ctx *c, gr_guard *g) { g->outer = c->on_fail; c->on_fail = &g->jb; }
static inline void gr_guard_leave(gr_ctx *c, gr_guard *g) { c->on_fail = g->outer; }
_Noreturn void gr_guard_rethrow(gr_ctx *c, gr_guard *g);
#endif
