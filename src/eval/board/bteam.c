/* bteam: the root of a board search across the --threads team; see bteam.h. */
#include "eval/board/bteam.h"
#include "pool.h"
#include <pthread.h>
#include <string.h>

enum { TEAM_OPTIONS = 128 };        /* a grid of one word has at most 2 x 64 edges */

typedef struct gr_bteam {
    gr_pool *pool;
    int members;
    gr_bsearch *m;                  /* the members' searches */
    pthread_mutex_t lock;           /* the store's tables while the team runs */
    int stop;                       /* a member found it, or stopped: the others stop */
} gr_bteam;

/* One round: the options of the root (done[i]: known not to have value v). */
typedef struct round {
    gr_bteam *t;
    const uint64_t *opt;
    uint8_t *done;
    int n;
    int64_t v;
    int next;                       /* the next option to take */
    int found;
    int why;                        /* the first member's reason to stop (GR_BABORT_*) */
} round;

static void member_job(void *arg, int member, int members) {
    (void)members;
    round *R = arg;
    gr_bsearch *s = &R->t->m[member];
    s->abort = 0;
    for (;;) {
        if (__atomic_load_n(&R->t->stop, __ATOMIC_RELAXED)) break;
        int i = __atomic_fetch_add(&R->next, 1, __ATOMIC_RELAXED);
        if (i >= R->n) break;
        if (R->done[i]) continue;
        int has = gr_bsearch_option_is(s, &R->opt[i], R->v);
        if (s->abort) {
            if (s->abort != GR_BABORT_STOP) {
                int none = 0;
                __atomic_compare_exchange_n(&R->why, &none, s->abort, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
            }
            __atomic_store_n(&R->t->stop, 1, __ATOMIC_RELAXED);
            break;
        }
        if (has) {
            __atomic_store_n(&R->found, 1, __ATOMIC_RELAXED);
            __atomic_store_n(&R->t->stop, 1, __ATOMIC_RELAXED);
            break;
        }
        R->done[i] = 1;             /* (option i was this member's alone; read after the join) */
    }
    gr_canon_thread_done();
}

static gr_bteam *team_new(gr_bsearch *s) {
    gr_ctx *c = s->c;
    gr_bteam *t = gr_alloc(c, sizeof *t);
    t->pool = gr_pool_new(s->threads);
    t->members = gr_pool_size(t->pool);
    pthread_mutex_init(&t->lock, NULL);
    t->m = gr_alloc(c, gr_size_mul(c, (size_t)t->members, sizeof *t->m));
    for (int i = 0; i < t->members; i++) {
        gr_bsearch_init(&t->m[i], c, s->b, s->rule, s->store, s->canon.mode);
        gr_bsearch_make_member(&t->m[i], i + 1, &t->lock, &t->stop);
    }
    s->team = t;
    return t;
}

static void team_free(gr_bsearch *s) {
    gr_bteam *t = s->team;
    s->team = NULL;
    for (int i = 0; i < t->members; i++) gr_bsearch_free(&t->m[i]);
    gr_free(s->c, t->m);
    gr_pool_free(t->pool);
    pthread_mutex_destroy(&t->lock);
    gr_free(s->c, t);
}

/* Whether some option of the grid component y (one word) has value v: -1 (declined) for a
 * root under GR_BTEAM_MIN_CELLS cells. */
static int team_has_option(gr_bsearch *s, uint64_t y, int64_t v) {
    if (__builtin_popcountll(y) < GR_BTEAM_MIN_CELLS) return -1;
    gr_ctx *c = s->c;
    gr_bteam *t = s->team ? s->team : team_new(s);
    uint64_t opt[TEAM_OPTIONS], cost[TEAM_OPTIONS];
    uint8_t done[TEAM_OPTIONS] = { 0 };
    round R = { .t = t, .opt = opt, .done = done, .v = v };
    R.n = gr_bsearch_grid_options(s, y, opt, cost);
    /* room for half as many new components again as are known (at least 2^20: a restart for
     * room loses the round's unfinished work), and their keys (a canonical form of a
     * 40-vertex component is 14 words) */
    gr_bstore *st = s->store;
    size_t room = st->team_room ? st->team_room : (size_t)1 << 20;
    for (;;) {
        if (room < st->nfacts / 2 && !st->team_room) room = st->nfacts / 2;
        gr_bstore_room(c, st, room, 16 * room);
        R.next = 0;
        R.found = 0;
        R.why = 0;
        t->stop = 0;
        for (int i = 0; i < t->members; i++) t->m[i].pr = s->pr;   /* (member 1 draws it) */
        gr_pool_run(t->pool, member_job, &R);
        if (R.found) return 1;
        if (R.why == GR_BABORT_VALUE)
            gr_fail(c, GR_EXIT_LIMIT, "a component of a board with a value past %d: more than the board search keeps", 63);
        if (R.why == GR_BABORT_TIME) gr_poll_clock(c);   /* past --max-time: fails here */
        gr_poll(c);
        int left = 0;
        for (int i = 0; i < R.n; i++) left += !done[i];
        if (!left) return 0;
        if (R.why == GR_BABORT_ROOM) {
            room *= 2;
            st->team_rounds++;
        }
    }
}

void gr_bteam_use(gr_bsearch *s, int threads) {
    s->threads = threads > 1 ? threads : 1;
    s->root_team = s->threads > 1 ? team_has_option : NULL;
    s->team_free = team_free;
}
