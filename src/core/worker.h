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
 * lands at setjmp(g->jb); the owner releases what it holds and calls gr_guard_rethrow. Enter
 * before the setjmp, so the guard is not modified after it:
 *     gr_guard_enter(c, &g); if (setjmp(g.jb)) { release; gr_guard_rethrow(c, &g); } ... */
typedef struct gr_guard { jmp_buf jb; jmp_buf *outer; } gr_guard;
static inline void gr_guard_enter(gr_ctx *c, gr_guard *g) { g->outer = c->on_fail; c->on_fail = &g->jb; }
static inline void gr_guard_leave(gr_ctx *c, gr_guard *g) { c->on_fail = g->outer; }
_Noreturn void gr_guard_rethrow(gr_ctx *c, gr_guard *g);

/* A team of workers over the items 0 .. count-1 of a job (a stretch of a range): every item is
 * run once, by whichever member is free, with that member's context. out[i] is what fn
 * returned (>= 0), or -1 - m when it failed in member m: gr_team_failure(t, m) is the first
 * failure of member m in this job, and members take items in increasing order, so the first
 * failed item in item order is always its member's first. Members never jump past the team. */
typedef struct gr_team gr_team;
typedef int (*gr_team_fn)(void *user, gr_ctx *wc, int member, int64_t item);
gr_team *gr_team_new(gr_ctx *owner);          /* NULL if owner->threads <= 1 or no thread starts */
int gr_team_size(const gr_team *t);
void gr_team_run(gr_team *t, int64_t count, gr_team_fn fn, void *user, int *out);
const gr_failure *gr_team_failure(const gr_team *t, int member);
/* Ends the item that member context wc runs, at once, with result (>= 0) instead of a failure
 * (for an item that finds it must be left to the owner). Only inside a team's fn. */
_Noreturn void gr_team_leave(gr_ctx *wc, int result);
void gr_team_free(gr_team *t);                /* NULL is fine */
#endif
