/* worker: per-member run-time contexts and failures carried across threads; see worker.h. */
#include "worker.h"
#include <stdlib.h>
#include <string.h>

void gr_worker_init(gr_worker *w, const gr_ctx *owner) {
    memcpy(&w->c, owner, sizeof w->c);
    gr_ctx *c = &w->c;
    gr_arena_init(&c->arena);     /* never the owner's: arenas are not thread-safe */
    c->blocks = NULL;             /* its own tracked memory; mem_used starts at the owner's, */
    c->on_fail = &w->jb;          /*   so a limit's message reads as the owner's would */
    c->fail_status = 0;
    c->fail_msg[0] = c->fail_text[0] = '\0';
    c->errors = 0;
    c->diag = NULL;
    c->progress = 0;
    c->threads = 1;
    c->ckpt = NULL;
    c->interrupted = NULL;        /* the owner asks between blocks */
    c->poll_left = c->poll_every = 1;
    c->poll_last = 0;
}

static void forget_blocks(gr_ctx *c) {
    size_t used = c->mem_used;
    gr_arena arena = c->arena;     /* gr_ctx_free frees the arena too: keep it for the next item */
    gr_arena_init(&c->arena);
    gr_ctx_free(c);
    c->arena = arena;
    c->mem_used = used;
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
