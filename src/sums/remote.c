/* remote: remoteness of a sum by a bounded position graph; see remote.h. */
#include "remote.h"
#include "estimate.h"
#include "figure.h"
#include <stdlib.h>
#include <string.h>

int gr_absorb_limits(gr_ctx *c, int (*fn)(gr_ctx *c, void *user), void *user) {
    jmp_buf jb, *saved = c->on_fail;
    int status = c->fail_status;
    char msg[sizeof c->fail_msg];
    memcpy(msg, c->fail_msg, sizeof msg);
    c->on_fail = &jb;
    if (setjmp(jb) != 0) {
        /* Only "too large" (any resource limit but the user's --max-time) is ours to absorb;
         * anything else (a time limit, bad input) goes on to the caller's handler. */
        int limit = c->fail_status == GR_EXIT_LIMIT && !strstr(c->fail_msg, "time limit of");
        c->on_fail = saved;
        if (!limit) {
            if (!saved) { fputs(c->fail_msg, stderr); abort(); }
            longjmp(*saved, 1);
        }
        c->fail_status = status;
        memcpy(c->fail_msg, msg, sizeof msg);
        return -1;
    }
    int r = fn(c, user);
    c->on_fail = saved;
    return r;
}

typedef struct graph_job {
    gr_ctx *c; gr_sumgraph *s; const gr_comp *comps; int n; int64_t r;
    gr_remote_child_fn fn; void *user;    /* the children too, with theirs */
    int64_t *kr; char **kt; size_t nk, capk;   /* kept until the graph answered whole */
} graph_job;

static void keep_child(void *user, const char *text, uint32_t id) {
    graph_job *j = user;
    gr_ctx *c = j->c;
    if (j->nk == j->capk) {
        j->capk = j->capk ? 2 * j->capk : 16;
        j->kr = gr_realloc(c, j->kr, gr_size_mul(c, j->capk, sizeof *j->kr));
        j->kt = gr_realloc(c, j->kt, gr_size_mul(c, j->capk, sizeof *j->kt));
    }
    j->kr[j->nk] = gr_pg_remoteness(gr_sumgraph_pg(j->s), id);
    size_t len = strlen(text);
    char *copy = gr_alloc(c, len + 1);   /* tracked memory, freed below (not the arena) */
    memcpy(copy, text, len + 1);
    j->kt[j->nk++] = copy;
}

static int graph_remoteness(gr_ctx *c, void *user) {
    (void)c;
    graph_job *j = user;
    uint32_t id = gr_sumgraph_add(j->s, j->comps, j->n);
    gr_sumgraph_solve(j->s);
    j->r = gr_pg_remoteness(gr_sumgraph_pg(j->s), id);
    if (j->fn) gr_sumgraph_moves(j->s, j->comps, j->n, keep_child, j);
    return 1;
}

static int bounded(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, uint64_t max,
                   int64_t *out, gr_remote_child_fn fn, void *user);

int gr_sum_remoteness(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv,
                      uint64_t max, int64_t *out) {
    return bounded(c, m, comps, n, conv, max, out, NULL, NULL);
}

int gr_sum_children_remoteness(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv,
                               uint64_t max, gr_remote_child_fn fn, void *user) {
    int64_t r;
    return bounded(c, m, comps, n, conv, max, &r, fn, user);
}

static int bounded(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, uint64_t max,
                   int64_t *out, gr_remote_child_fn fn, void *user) {
    uint64_t saved = c->max_positions;
    if (saved && saved < max) max = saved;
    /* A coordinate past the cap (a heap of 10^12, say) has, in every rule set we meet, more
     * positions below it than the cap or more options than it is worth listing: unknown. */
    for (int i = 0; i < n; i++)
        for (int k = 0; k < comps[i].game->arity; k++)
            if (comps[i].game->shape != SHAPE_FIGURE && comps[i].game->shape != SHAPE_COINS &&   /* masks */
                (comps[i].c[k] > (int64_t)max || comps[i].c[k] < -(int64_t)max)) return 0;
    /* A large Hackenbush figure costs its edges per position: its graph is not worth it. */
    for (int i = 0; i < n; i++)
        if (comps[i].game->shape == SHAPE_FIGURE && comps[i].game->figure->ne > 64) return 0;
    /* Not where the sum's estimated graph (an upper bound: the product of the components'
     * positions) is far past the bound: s(150000) + s(120000) + k(500) would fill the graph's
     * 10 ms of work to learn nothing, 200 times over in a file of such solves. 64 times the
     * bound leaves room for the estimate's slack (splitting heaps counted as every multiset).
     * First, since it is cheaper than counting the first move's options. */
    int counted = 1;   /* (coin rows and figures are estimated by their masks: far too high) */
    for (int i = 0; i < n; i++)
        counted &= comps[i].game->shape == SHAPE_HEAP || comps[i].game->shape == SHAPE_TUPLE;
    if (counted && gr_sum_graph_estimate(comps, n, conv) > 64.0 * (double)max) return 0;
    /* A first move with more than max / 16 choices (a heap of 200000 that splits) grows a
     * graph that meets the bound only after a costly search: declined at once, so that an
     * answer that took milliseconds never takes many more for its remoteness. */
    uint64_t first = 0;
    for (int i = 0; i < n && first <= max / 16; i++)
        if (comps[i].game->shape != SHAPE_FIGURE && comps[i].game->shape != SHAPE_COINS)
            first += gr_eval_count_options(c, comps[i].game, comps[i].c);
    if (first > max / 16) return 0;
    /* Nor with more than ~1450 (kayles(2000) + kayles(5)): the positions two moves deep are
     * about first^2 / 8 already past the bound, and the search spent 30 ms finding it where the
     * answer took 0.15 ms (JSON cost 200 times what text cost). */
    if ((double)first * (double)first / 8 > (double)max) return 0;
    c->max_positions = max;
    gr_sumgraph *s = gr_sumgraph_new(c, m, conv);
    c->max_positions = saved;
    gr_pg_limit_work(gr_sumgraph_pg(s), GR_REMOTENESS_WORK_MAX);
    graph_job j = { .c = c, .s = s, .comps = comps, .n = n, .r = -1, .fn = fn, .user = user };
    int ok = gr_absorb_limits(c, graph_remoteness, &j) == 1;
    gr_sumgraph_free(s);
    if (ok) *out = j.r;
    for (size_t i = 0; i < j.nk; i++) {
        if (ok) fn(user, j.kt[i], j.kr[i]);
        gr_free(c, j.kt[i]);
    }
    gr_free(c, j.kt);
    gr_free(c, j.kr);
    return ok;
}
