/* misquot: misere sums from the misere quotient; see misquot.h. */
#include "misquot.h"
#include "quotient.h"
#include <string.h>

/* Heaps beyond those computed are added one by one while the proofs stay cheap; past this
 * many checked tuples the quotient declines and the position graph answers. */
enum { QUOTIENT_BUDGET = 4000000 };

typedef struct mq {
    gr_ctx *c; gr_quotient *q; int32_t *rest;
    int every; int last;             /* options: keep every move, with its outcome in last */
    gr_option_outcome_fn ofn; void *ouser;
} mq;

static int winning(void *user, int at, const int64_t *parts, int nparts) {
    mq *m = user;
    int32_t x = m->rest[at];
    for (int i = 0; i < nparts; i++)
        x = m->q->mul[(size_t)x * (size_t)m->q->order + (size_t)gr_quotient_elem(m->c, m->q, parts[i])];
    m->last = m->q->inP[x] ? GR_LOSS : GR_WIN;
    return m->every || m->q->inP[x];
}

/* The quotient of g's heaps up to top, grown while the proofs stay cheap; NULL with why. */
static gr_quotient *quotient_to(gr_ctx *c, gr_game *g, int64_t top, char *why, size_t cap) {
    gr_quotient *q = gr_quotient_of(c, g, 0, why, cap);
    if (!q) return NULL;
    while (!q->proved && !q->failed && q->nheaps <= top) {
        if (q->checked_states > QUOTIENT_BUDGET) {
            snprintf(why, cap, "the misere quotient of %s grew to order %d by heap %lld, past the budget of its proofs",
                     g->name, q->order, (long long)q->nheaps - 1);
            return NULL;
        }
        gr_quotient_of(c, g, q->nheaps, NULL, 0);
        if (q->nheaps % 64 == 0) gr_quotient_prove(c, q);
    }
    if (q->failed && top >= q->failed) {
        snprintf(why, cap, "the misere quotient of %s stops at heap %lld (order %d): no candidate with one new generator checked",
                 g->name, (long long)q->failed, q->order);
        return NULL;
    }
    return q;
}

static gr_game *one_game(const gr_comp *comps, int n, int64_t *top, char *why, size_t cap) {
    gr_game *g = comps[0].game;
    *top = 0;
    for (int i = 0; i < n; i++) {
        if (comps[i].game != g) { snprintf(why, cap, "the misere quotient takes heaps of one rule set"); return NULL; }
        if (comps[i].c[0] > *top) *top = comps[i].c[0];
    }
    return g;
}

int gr_misere_quotient(gr_ctx *c, const gr_comp *comps, int n, gr_theory *t, gr_child_fn fn, void *user,
                       char *why, size_t cap) {
    int64_t top;
    gr_game *g = one_game(comps, n, &top, why, cap);
    gr_quotient *q = g ? quotient_to(c, g, top, why, cap) : NULL;
    if (!q) return 0;
    int32_t *e = gr_alloc(c, (size_t)n * sizeof *e), *rest = gr_alloc(c, (size_t)n * sizeof *rest);
    size_t M = (size_t)q->order;
    int32_t total = 0;
    for (int i = 0; i < n; i++) { e[i] = gr_quotient_elem(c, q, comps[i].c[0]); total = q->mul[(size_t)total * M + (size_t)e[i]]; }
    for (int i = 0; i < n; i++) {
        int32_t x = 0;
        for (int j = 0; j < n; j++) if (j != i) x = q->mul[(size_t)x * M + (size_t)e[j]];
        rest[i] = x;
    }
    memset(t, 0, sizeof *t);
    t->decided = 1;
    t->outcome = q->inP[total] ? GR_LOSS : GR_WIN;
    t->value = -1;
    t->remoteness = -1;
    snprintf(t->why, sizeof t->why, "misere: misere quotient of order %d (|P| = %d, heaps 0..%lld%s): the product of the heaps' elements is %sin P",
             q->order, q->p_order, (long long)q->nheaps - 1, q->proved ? ", period proved" : "", q->inP[total] ? "" : "not ");
    if (t->outcome == GR_WIN && fn) {
        mq m = { c, q, rest, 0, 0, NULL, NULL };
        gr_sum_moves_where(c, comps, n, winning, &m, fn, user);
    }
    gr_free(c, e); gr_free(c, rest);
    return 1;
}

static void with_outcome(void *user, const char *text, uint32_t id) {
    (void)id;
    mq *m = user;
    m->ofn(m->ouser, text, m->last);
}

int gr_misere_quotient_options(gr_ctx *c, const gr_comp *comps, int n, gr_option_outcome_fn fn, void *user) {
    char why[256];
    int64_t top;
    gr_game *g = one_game(comps, n, &top, why, sizeof why);
    gr_quotient *q = g ? quotient_to(c, g, top, why, sizeof why) : NULL;
    if (!q) return 0;
    int32_t *rest = gr_alloc(c, (size_t)n * sizeof *rest);
    size_t M = (size_t)q->order;
    for (int i = 0; i < n; i++) {
        int32_t x = 0;
        for (int j = 0; j < n; j++) if (j != i) x = q->mul[(size_t)x * M + (size_t)gr_quotient_elem(c, q, comps[j].c[0])];
        rest[i] = x;
    }
    mq m = { c, q, rest, 1, 0, fn, user };
    gr_sum_moves_where(c, comps, n, winning, &m, with_outcome, &m);
    gr_free(c, rest);
    return 1;
}

int gr_misere_quotient_table(gr_ctx *c, gr_game *g, const gr_box *box, int64_t *out) {
    if (box->ncoords != 1 || g->shape != SHAPE_HEAP) return 0;
    char why[256];
    gr_quotient *q = quotient_to(c, g, box->hi[0], why, sizeof why);
    if (!q) return 0;
    int64_t n = gr_box_cells(box, NULL, NULL);
    for (int64_t i = 0; i < n; i++) {
        int64_t h[GR_MAX_ARITY];
        gr_box_cell(box, i, h);
        out[i] = q->inP[gr_quotient_elem(c, q, h[0])] ? GR_LOSS : GR_WIN;
    }
    return 1;
}
