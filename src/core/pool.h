/* pool: a fixed team of worker threads for --threads. The caller runs a job on every member of
 * the team at once (itself included, as member 0) and waits until all have returned; a job
 * splits its work by member number, so results never depend on timing. No allocation that can
 * fail with a longjmp happens while the team exists, and the team is joined before any such
 * failure can be raised by its owner. */
#ifndef GRUNDY_POOL_H
#define GRUNDY_POOL_H
#include "ctx.h"

typedef struct gr_pool gr_pool;
typedef void (*gr_pool_fn)(void *arg, int member, int members);

/* A team of `threads` members (threads - 1 new threads); NULL if threads <= 1 or no thread
 * could be started (the work then runs serially). Plain malloc: never fails with a longjmp. */
gr_pool *gr_pool_new(int threads);
int gr_pool_size(const gr_pool *p);       /* members; 1 for NULL */
/* Runs fn(arg, i, members) on the caller (i = 0) and on every member that wakes before the
 * caller's call returns; returns when all that started have returned. So a job must take its
 * work from a shared counter until none is left: whoever runs, all of it is done. */
void gr_pool_run(gr_pool *p, gr_pool_fn fn, void *arg);
void gr_pool_free(gr_pool *p);            /* joins the threads; NULL is fine */
#endif
