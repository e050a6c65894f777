/* worker: per-member run-time contexts and failures carried across threads; see worker.h. */
#include "worker.h"
#include "pool.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

void gr_worker_init(gr_worker *w, const gr_ctx *owner) {
    memcpy(&w->c, owner, sizeof w->c);
    gr_ctx *c = &w->c;
    size_t used = owner->store.mem_used;
    memset(&c->store, 0, sizeof c->store);   /* a store of its own: */
    gr_arena_init(&c->store.arena);  /* never the owner's arena: arenas are not thread-safe */
    c->store.mem_used = used;     /* its own tracked memory; mem_used starts at the owner's, */
    c->account = NULL;            /*   charged to no account of the owner's */
    c->no_accounts = 1;
    c->on_fail = &w->jb;          /*   so a limit's message reads as the owner's would */
    c->fail_status = 0;
    c->fail_msg[0] = c->fail_text[0] = '\0';
    c->errors = 0;
    c->diag = NULL;
    c->progress = c->progress_lines = 0;
    c->threads = 1;
    c->ckpt = NULL;
    c->interrupted = NULL;        /* the owner asks between blocks */
    c->poll_left = c->poll_every = 1;
    c->poll_last = 0;
}

static void forget_blocks(gr_ctx *c) {
    size_t used = c->store.mem_used;
    gr_arena arena = c->store.arena;     /* gr_ctx_free frees the arena too: keep it for the next item */
    gr_arena_init(&c->store.arena);
    gr_ctx_free(c);
    c->store.arena = arena;
    c->store.mem_used = used;
}

void gr_worker_catch(gr_worker *w, gr_failure *f) {
    gr_ctx *c = &w->c;
    if (f) {
        f->status = c->fail_status;
        f->located = c->fail_located;
        f->off = c->fail_off;
        memcpy(f->msg, c->fail_msg, sizeof f->msg);
        memcpy(f->text, c->fail_text, sizeof f->text);
    }
    forget_blocks(c);
    c->poll_left = c->poll_every = 1;
}

void gr_worker_free(gr_worker *w) { gr_ctx_free(&w->c); }

_Noreturn static void jump_to(gr_ctx *c, jmp_buf *to) {
    if (!to) {            /* as gr_fail with no exit: a bug */
        fputs(c->fail_msg, stderr);
        abort();
    }
    longjmp(*to, 1);
}

void gr_failure_raise(gr_ctx *c, const gr_failure *f) {
    c->fail_status = f->status;
    c->fail_located = f->located;
    c->fail_off = f->off;
    memcpy(c->fail_msg, f->msg, sizeof c->fail_msg);
    memcpy(c->fail_text, f->text, sizeof c->fail_text);
    jump_to(c, c->on_fail);
}

void gr_guard_rethrow(gr_ctx *c, gr_guard *g) {
    c->on_fail = g->outer;
    jump_to(c, g->outer);
}

_Static_assert(sizeof ((gr_failure *)0)->msg == sizeof ((gr_ctx *)0)->fail_msg, "a failure holds a whole message");
_Static_assert(sizeof ((gr_failure *)0)->text == sizeof ((gr_ctx *)0)->fail_text, "a failure holds a whole text");

/* ---- teams ---- */

/* w first: a member's context is its address (gr_team_leave). */
typedef struct team_member {
    gr_worker w;
    gr_failure fail;
    int failed;
    int leaving, result;     /* gr_team_leave: the item ends with this result, not a failure */
    int64_t cur;             /* the item being run */
} team_member;

struct gr_team {
    gr_ctx *owner;
    gr_pool *pool;
    int members;
    team_member *m;
    /* the current job */
    gr_team_fn fn;
    void *user;
    int *out;
    int64_t count, grain;
    atomic_llong next;
};

gr_team *gr_team_new(gr_ctx *owner) {
    if (owner->threads <= 1) return NULL;
    /* plain calloc, as the pool's: a few hundred bytes a member, not a table, freed by
     * gr_team_free on every way out (NULL here: the caller goes on without a team) */
    gr_team *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->owner = owner;
    if (!(t->pool = gr_pool_new(owner->threads))) { free(t); return NULL; }
    t->members = gr_pool_size(t->pool);
    if (!(t->m = calloc((size_t)t->members, sizeof *t->m))) { gr_pool_free(t->pool); free(t); return NULL; }
    for (int i = 0; i < t->members; i++) gr_worker_init(&t->m[i].w, owner);
    return t;
}

int gr_team_size(const gr_team *t) { return t ? t->members : 1; }

void gr_team_leave(gr_ctx *wc, int result) {
    team_member *m = (team_member *)(void *)wc;    /* the context is the member's first field */
    m->leaving = 1;
    m->result = result;
    longjmp(*wc->on_fail, 1);
}

/* Items in grains taken from a shared counter until none is left. One setjmp serves them all:
 * an item that fails (or leaves) lands here, is recorded, and the member goes on after it.
 * Returns 1 when it stopped on such an item (call again), 0 when the job is done. */
static int team_items(gr_team *t, int member) {
    team_member *m = &t->m[member];
    if (setjmp(m->w.jb)) {
        if (m->leaving) {
            m->leaving = 0;
            t->out[m->cur] = m->result;
        } else {
            t->out[m->cur] = -1 - member;
            gr_worker_catch(&m->w, m->failed ? NULL : &m->fail);
            m->failed = 1;
        }
        m->w.c.on_fail = &m->w.jb;    /* whatever the item's own frames set */
        return 1;
    }
    for (;;) {
        if (m->cur + 1 < t->count && (m->cur + 1) % t->grain) m->cur++;   /* the rest of its grain */
        else if ((m->cur = atomic_fetch_add(&t->next, t->grain)) >= t->count) return 0;
        int r = t->fn(t->user, &m->w.c, member, m->cur);
        t->out[m->cur] = r < 0 ? 0 : r;
    }
}

static void team_job(void *arg, int member, int members) {
    (void)members;
    gr_team *t = arg;
    t->m[member].cur = -1;
    while (team_items(t, member)) {}
}

void gr_team_run(gr_team *t, int64_t count, gr_team_fn fn, void *user, int *out) {
    t->fn = fn;
    t->user = user;
    t->out = out;
    t->count = count;
    /* grains: few counter updates for cheap items, yet a share for every member */
    t->grain = count / ((int64_t)t->members * 32);
    if (t->grain < 1) t->grain = 1;
    if (t->grain > 64) t->grain = 64;
    atomic_store(&t->next, 0);
    for (int i = 0; i < t->members; i++) {
        t->m[i].failed = 0;
        t->m[i].w.c.store.mem_used = t->owner->store.mem_used;    /* as the owner's, for a limit's message */
        t->m[i].w.c.step_done = t->owner->step_done;
    }
    gr_pool_run(t->pool, team_job, t);
}

const gr_failure *gr_team_failure(const gr_team *t, int member) { return &t->m[member].fail; }

void gr_team_free(gr_team *t) {
    if (!t) return;
    gr_pool_free(t->pool);
    for (int i = 0; i < t->members; i++) gr_worker_free(&t->m[i].w);
    free(t->m);
    free(t);
}
