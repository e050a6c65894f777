/* genpar: the general heap recurrence across threads; see genpar.h. */
#include "eval/heap/genpar.h"
#include "eval/heap/heapopts.h"
#include "pool.h"
#include "worker.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { PROGRESS_STEP = 1 << 12, MAX_BLOCK = 1024 };
#define BLOCK_WORK (INT64_C(1) << 18)        /* options per block: several ms of interpretation */
#define MAX_P (UINT64_C(1) << 24)            /* larger values: the serial kernel */
#define MAX_SET_BYTES ((size_t)16 << 20)     /* the block's sets of reached values, at most */

/* What a member found for one heap of the block. */
enum { H_OK, H_BAD, H_FAILED, H_SERIAL };
typedef struct heap_rec {
    int state;              /* H_*: done (values marked and kept), a part not smaller, failed, no memory */
    int member;             /* whose buffer holds the kept options */
    int64_t bad;            /* H_BAD: the first part not smaller, as the serial kernel finds it */
    int64_t opts;           /* options enumerated */
    size_t off, len;        /* the kept options in the member's buffer */
} heap_rec;

/* A member's own things: its context, the options it keeps (plain malloc: a member never
 * fails with a longjmp for its own memory; without it the heap goes to the serial kernel), and
 * its first failure. Members take heaps in increasing order, so that is its smallest one. */
typedef struct member_buf {
    gr_worker w;
    int64_t *v;             /* per kept option: the xor of its parts below n0, their count k, the k parts */
    size_t len, cap;
    int64_t failed_at;      /* the block's index of the first failure, or -1 */
    gr_failure fail;
} member_buf;

typedef struct block {
    gr_game *g;
    const gr_sgtable *tab;  /* only heaps below n0 are read by the members */
    int64_t n0, B;
    size_t room;            /* bytes a member may hold for kept options: its share of --max-memory */
    size_t words;           /* 64-bit words of a heap's set: values below n0 are below 64 words */
    uint64_t *sets;
    heap_rec *rec;
    member_buf *mb;
    atomic_llong next;      /* the next heap of the block, taken by whoever is free */
} block;

typedef struct opt_state {
    const block *J;
    member_buf *m;
    int64_t n, bad, count;
    uint64_t *set;
    int nomem;
} opt_state;

/* One option of heap n, as the serial kernel's generic_option sees it: the first part not
 * smaller than n makes the heap not a recurrence; otherwise the parts below n0 are looked up
 * now and the option is marked, or kept for the caller if a part lies in the block. */
static void option(void *user, const int64_t *heaps, int nheaps) {
    opt_state *s = user;
    s->count++;
    if (s->bad >= 0 || s->nomem) return;
    int64_t x = 0;
    int inblock = 0;
    for (int i = 0; i < nheaps; i++) {
        if (heaps[i] >= s->n) { s->bad = heaps[i]; return; }
        if (heaps[i] >= s->J->n0) inblock++;
        else x ^= gr_sgt_get(s->J->tab, heaps[i]);
    }
    if (!inblock) { s->set[(uint64_t)x >> 6] |= UINT64_C(1) << (x & 63); return; }
    member_buf *m = s->m;
    size_t need = m->len + 2 + (size_t)inblock;
    if (need > m->cap) {
        size_t cap = m->cap ? m->cap : 1024;
        while (cap < need) cap *= 2;
        /* plain realloc (see member_buf): the caller's tracked memory is not for other threads.
         * Past its share of the limit the member leaves the heap to the serial kernel, whose
         * tracked memory stops the run with the limit's message if it is really reached */
        int64_t *v = cap <= s->J->room / sizeof *v ? realloc(m->v, cap * sizeof *v) : NULL;
        if (!v) { s->nomem = 1; return; }
        m->v = v;
        m->cap = cap;
    }
    m->v[m->len++] = x;
    m->v[m->len++] = inblock;
    for (int i = 0; i < nheaps; i++)
        if (heaps[i] >= s->J->n0) m->v[m->len++] = heaps[i];
}

/* Heap n0 + j by one member; a failure inside the enumeration lands here and is recorded. */
static void one_heap(block *J, int member, int64_t j) {
    member_buf *m = &J->mb[member];
    heap_rec *r = &J->rec[j];
    r->member = member;
    r->off = m->len;
    if (setjmp(m->w.jb)) {
        r->state = H_FAILED;
        m->len = r->off;
        if (m->failed_at < 0) {
            m->failed_at = j;
            gr_worker_catch(&m->w, &m->fail);
        } else {
            gr_worker_catch(&m->w, NULL);
        }
        return;
    }
    opt_state s = { J, m, J->n0 + j, -1, 0, J->sets + (size_t)j * J->words, 0 };
    memset(s.set, 0, J->words * sizeof *s.set);
    gr_heap_options(&m->w.c, J->g, s.n, option, &s);
    r->bad = s.bad;
    r->opts = s.count;
    r->len = m->len - r->off;
    r->state = s.bad >= 0 ? H_BAD : s.nomem ? H_SERIAL : H_OK;
}

static void job(void *arg, int member, int members) {
    (void)members;
    block *J = arg;
    for (int64_t j; (j = atomic_fetch_add(&J->next, 1)) < J->B;) one_heap(J, member, j);
}

/* Everything one call holds, released on every way out (a failure raised in the caller too). */
typedef struct run {
    gr_pool *pool;
    int members;
    member_buf *mb;
    uint64_t *sets;
    size_t sets_words;
    heap_rec *rec;
    int64_t rec_cap;
    int64_t *vals;          /* the values of a heap's kept options */
    size_t vals_cap;
} run;

static void release(gr_ctx *c, run *R) {
    gr_pool_free(R->pool);    /* joins the team: its members are idle between blocks */
    for (int i = 0; R->mb && i < R->members; i++) {
        free(R->mb[i].v);     /* a member's own (see option) */
        gr_worker_free(&R->mb[i].w);
    }
    gr_free(c, R->mb);
    gr_free(c, R->sets);
    gr_free(c, R->rec);
    gr_free(c, R->vals);
    gr_free(c, R);
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The caller finishes heap n0 + j: the kept options' values (their parts in the block are done
 * by now), then the mex over those and the heap's set. */
static int64_t finish_heap(gr_ctx *c, run *R, const block *J, const heap_rec *r, const gr_sgtable *tab, uint64_t P) {
    const int64_t *kept = J->mb[r->member].v;    /* NULL while the member kept nothing */
    size_t nv = 0;
    for (size_t at = r->off; at < r->off + r->len;) {
        const int64_t *v = kept + at;
        int64_t x = v[0], k = v[1];
        for (int64_t i = 0; i < k; i++) x ^= gr_sgt_get(tab, v[2 + i]);
        at += 2 + (size_t)k;
        if (nv == R->vals_cap) {
            R->vals_cap = R->vals_cap ? R->vals_cap * 2 : 256;
            R->vals = gr_realloc(c, R->vals, gr_size_mul(c, R->vals_cap, sizeof *R->vals));
        }
        R->vals[nv++] = x;
    }
    if (nv > 1) qsort(R->vals, nv, sizeof *R->vals, cmp_i64);
    const uint64_t *set = J->sets + (size_t)(r - J->rec) * J->words;
    uint64_t m = 0;
    size_t i = 0;
    for (;;) {
        if (m < P && (set[m >> 6] >> (m & 63) & 1u)) { m++; continue; }
        while (i < nv && (uint64_t)R->vals[i] < m) i++;
        if (i < nv && (uint64_t)R->vals[i] == m) { m++; continue; }
        return (int64_t)m;
    }
}

static int blocks(gr_ctx *c, gr_game *g, gr_sgtable *tab, int64_t to, gr_progress *pr, int64_t *opts, int64_t *bad,
                  int tentative, run *R) {
    int64_t start = tab->n;
    while (tab->n <= to) {
        int64_t n0 = tab->n;
        uint64_t P = 64;
        while (P <= (uint64_t)tab->max) P <<= 1;
        if (P > MAX_P || *opts < GR_GENPAR_OPTIONS) break;
        size_t words = (size_t)(P / 64);
        if (!R->pool) {
            if (!(R->pool = gr_pool_new(c->threads))) break;
            R->members = gr_pool_size(R->pool);
            R->mb = gr_alloc(c, gr_size_mul(c, (size_t)R->members, sizeof *R->mb));
            for (int i = 0; i < R->members; i++) gr_worker_init(&R->mb[i].w, c);
        }
        int64_t B = BLOCK_WORK / *opts;
        if (B < 2 * R->members) B = 2 * R->members;
        if (B > MAX_BLOCK) B = MAX_BLOCK;
        if (B > n0 / 8) B = n0 / 8;               /* options reaching into the block stay few */
        if ((size_t)B > MAX_SET_BYTES / (words * sizeof(uint64_t))) B = (int64_t)(MAX_SET_BYTES / (words * sizeof(uint64_t)));
        if (B > to - n0 + 1) B = to - n0 + 1;
        if (B < 2) break;
        /* the caller's tracked memory: --max-memory counts the block's sets */
        if (R->sets_words < (size_t)B * words) {
            R->sets_words = (size_t)B * words;
            R->sets = gr_realloc(c, R->sets, gr_size_mul(c, R->sets_words, sizeof *R->sets));
        }
        if (R->rec_cap < B) {
            R->rec_cap = B;
            R->rec = gr_realloc(c, R->rec, gr_size_mul(c, (size_t)B, sizeof *R->rec));
        }
        size_t room = c->store.mem_used < c->mem_limit ? (c->mem_limit - c->store.mem_used) / (size_t)R->members : 0;
        block J = { g, tab, n0, B, room, words, R->sets, R->rec, R->mb, 0 };
        for (int i = 0; i < R->members; i++) {
            member_buf *m = &R->mb[i];
            m->len = 0;
            m->failed_at = -1;
            m->w.c.store.mem_used = c->store.mem_used;        /* as the caller's, for a limit's message */
            m->w.c.step_done = c->step_done;
        }
        gr_pool_run(R->pool, job, &J);
        for (int64_t j = 0; j < B; j++) {
            const heap_rec *r = &R->rec[j];
            int64_t n = n0 + j;
            gr_poll(c);
            if (r->state == H_SERIAL || (tentative && r->state != H_OK)) return tab->n > start ? 0 : -1;
            /* the position the serial kernel's enumeration would have named last */
            if (g->kernel == KER_RULES) gr_eval_at(c, &n, g->rules->arity);
            if (r->state == H_FAILED) gr_failure_raise(c, &R->mb[r->member].fail);
            if (r->state == H_BAD) { *bad = r->bad; return -2; }
            int64_t v = finish_heap(c, R, &J, r, tab, P);
            gr_sgt_push(c, tab, v);
            *opts = r->opts;
            if ((tab->n & (PROGRESS_STEP - 1)) == 0) gr_progress_update(pr, (uint64_t)tab->n);
        }
    }
    return tab->n > start ? 0 : -1;
}

int gr_genpar_fill(gr_ctx *c, gr_game *g, gr_sgtable *tab, int64_t to, gr_progress *pr, int64_t *opts, int64_t *bad,
                   int tentative) {
    if (c->threads <= 1 || tab->n < GR_GENPAR_FROM || tab->n > to || *opts < GR_GENPAR_OPTIONS) return -1;
    if (g->kernel != KER_TB && g->kernel != KER_RULES) return -1;
    if (to - tab->n + 1 < 2 * (c->threads < 64 ? c->threads : 64)) return -1;   /* too few heaps to share */
    run *const R = gr_alloc(c, sizeof *R);
    gr_guard guard;
    gr_guard_enter(c, &guard);     /* before setjmp: nothing the handler reads changes after it */
    if (setjmp(guard.jb)) {
        release(c, R);
        gr_guard_rethrow(c, &guard);
    }
    int rc = blocks(c, g, tab, to, pr, opts, bad, tentative, R);
    gr_guard_leave(c, &guard);
    release(c, R);
    return rc;
}
