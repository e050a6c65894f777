/* misquot: misere sums from the misere quotient; see misquot.h. */
#include "misquot.h"
#include "misremote.h"
#include <string.h>

/* The quotient grows a heap at a time to cover a sum's heaps, within this much work (states
 * checked and elements marked, about a second); past it the sum goes to the next theory and
 * the quotient stays as far as it got. */
enum { QUOTIENT_BUDGET = 30000000 };

typedef struct mq {
    gr_ctx *c; const gr_quotient_cap *Q; gr_quotient *q; int32_t *rest;
    const int *gi;                   /* each component's rule set in the union */
    int every; int last;             /* options: keep every move, with its outcome in last */
    gr_option_outcome_fn ofn; void *ouser;
} mq;

static int winning(void *user, int at, const int64_t *parts, int nparts) {
    mq *m = user;
    int32_t x = m->rest[at];
    for (int i = 0; i < nparts; i++)
        x = m->q->mul[(size_t)x * (size_t)m->q->order + (size_t)m->Q->elem_of(m->c, m->q, m->gi[at], parts[i])];
    m->last = m->q->inP[x] ? GR_LOSS : GR_WIN;
    return m->every || m->q->inP[x];
}

/* The quotient of the components' rule sets (one, or their union), heaps up to the largest,
 * grown while the proofs stay cheap; gi[i] is component i's rule set in it, *Qp the capability
 * that answers it. NULL with why. */
static gr_quotient *quotient_for(gr_ctx *c, const gr_comp *comps, int n, int *gi, const gr_quotient_cap **Qp,
                                 char *why, size_t cap) {
    gr_game *games[8];
    int ng = 0;
    int64_t top = 0, tops[8] = { 0 };   /* the largest heap of each rule set in the sum */
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < ng && games[k] != comps[i].game) k++;
        if (k == ng) {
            if (ng == 8) { snprintf(why, cap, "the misere quotient takes heaps of at most 8 rule sets"); return NULL; }
            if (comps[i].game->shape != SHAPE_HEAP) { snprintf(why, cap, "'%s' is not a heap rule set", comps[i].game->name); return NULL; }
            games[ng++] = comps[i].game;
        }
        gi[i] = k;
        if (comps[i].c[0] > top) top = comps[i].c[0];
        if (comps[i].c[0] > tops[k]) tops[k] = comps[i].c[0];
    }
    const gr_quotient_cap *Q = NULL;
    for (int k = 0; k < ng; k++)
        if (!(Q = gr_cap_quotient(games[k], why, cap))) return NULL;
    *Qp = Q;
    if (ng > 1) {
        /* Each rule set only to its own largest heap here: kayles(40) + kayles(50) + *7 needs
         * Kayles to 50 and Nim to 7, whose quotient is small (Nim to 50 beside it is not). */
        int64_t none[8] = { 0 };
        gr_quotient *q = Q->union_of(c, games, ng, none, why, cap);
        if (!q) return NULL;
        q->budget = q->checked_states + QUOTIENT_BUDGET;
        Q->union_of(c, games, ng, tops, why, cap);
        int over = q->over_budget;
        q->budget = 0; q->over_budget = 0;
        if (over) {
            snprintf(why, cap, "the misere quotient of the union of %d rule sets grew to order %d, past the budget of its proofs", ng, q->order);
            return NULL;
        }
        if (q->failed) {
            snprintf(why, cap, "the misere quotient of the union of %d rule sets stops at order %d: no candidate checked", ng, q->order);
            return NULL;
        }
        return q;
    }
    gr_game *g = games[0];
    gr_quotient *q = Q->of(c, g, 0, why, cap);
    if (!q) return NULL;
    q->budget = q->checked_states + QUOTIENT_BUDGET;
    while (!q->proved && !q->failed && !q->over_budget && q->nheaps <= top) {
        Q->of(c, g, q->nheaps, NULL, 0);
        if (q->nheaps % 64 == 0) Q->prove(c, q);
    }
    int over = q->over_budget;
    q->budget = 0; q->over_budget = 0;
    if (over) {
        snprintf(why, cap, "the misere quotient of %s grew to order %d by heap %lld, past the budget of its proofs",
                 g->name, q->order, (long long)q->nheaps - 1);
        return NULL;
    }
    if (q->failed && top >= q->failed) {
        snprintf(why, cap, "the misere quotient of %s stops at heap %lld (order %d): %s",
                 g->name, (long long)q->failed, q->order, q->why_failed);
        return NULL;
    }
    return q;
}

int gr_misere_quotient(gr_ctx *c, const gr_comp *comps, int n, gr_theory *t, gr_child_fn fn, void *user,
                       char *why, size_t cap) {
    int *gi = gr_alloc(c, (size_t)n * sizeof *gi);
    const gr_quotient_cap *Q;
    gr_quotient *q = quotient_for(c, comps, n, gi, &Q, why, cap);
    if (!q) { gr_free(c, gi); return 0; }
    int32_t *e = gr_alloc(c, (size_t)n * sizeof *e), *rest = gr_alloc(c, (size_t)n * sizeof *rest);
    size_t M = (size_t)q->order;
    int32_t total = 0;
    for (int i = 0; i < n; i++) { e[i] = Q->elem_of(c, q, gi[i], comps[i].c[0]); total = q->mul[(size_t)total * M + (size_t)e[i]]; }
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
    if (q->ngames > 1) {
        char heaps[200];
        size_t at = 0;
        heaps[0] = '\0';
        for (int k = 0; k < q->ngames && at < sizeof heaps; k++)
            at += (size_t)snprintf(heaps + at, sizeof heaps - at, "%s%s 0..%lld", k ? ", " : "", q->games[k]->name,
                                   (long long)q->count[k] - 1);
        snprintf(t->why, sizeof t->why, "misere: misere quotient of order %d of the union of %d rule sets (|P| = %d, heaps %s): the product of the heaps' elements is %sin P",
                 q->order, q->ngames, q->p_order, heaps, q->inP[total] ? "" : "not ");
    } else
        snprintf(t->why, sizeof t->why, "misere: misere quotient of order %d (|P| = %d, heaps 0..%lld%s): the product of the heaps' elements is %sin P",
                 q->order, q->p_order, (long long)q->nheaps - 1, q->proved ? ", period proved" : "", q->inP[total] ? "" : "not ");
    /* the remoteness, by a search the quotient steers (bounded: it may give up, and says so) */
    size_t used = strlen(t->why);
    if (gr_misere_remoteness(c, Q, q, comps, n, gi, &t->remoteness, t->remoteness_skipped, sizeof t->remoteness_skipped))
        snprintf(t->why + used, sizeof t->why - used, "; remoteness %lld by a search over the positions of optimal play", (long long)t->remoteness);
    else
        snprintf(t->why + used, sizeof t->why - used, "; remoteness not computed (%s)", t->remoteness_skipped);
    if (t->outcome == GR_WIN && fn) {
        mq m = { c, Q, q, rest, gi, 0, 0, NULL, NULL };
        gr_sum_moves_where(c, comps, n, winning, &m, fn, user);
    }
    gr_free(c, e); gr_free(c, rest); gr_free(c, gi);
    return 1;
}

static void with_outcome(void *user, const char *text, uint32_t id) {
    (void)id;
    mq *m = user;
    m->ofn(m->ouser, text, m->last);
}

int gr_misere_quotient_options(gr_ctx *c, const gr_comp *comps, int n, gr_option_outcome_fn fn, void *user) {
    char why[256];
    int *gi = gr_alloc(c, (size_t)n * sizeof *gi);
    const gr_quotient_cap *Q;
    gr_quotient *q = quotient_for(c, comps, n, gi, &Q, why, sizeof why);
    if (!q) { gr_free(c, gi); return 0; }
    int32_t *rest = gr_alloc(c, (size_t)n * sizeof *rest);
    size_t M = (size_t)q->order;
    for (int i = 0; i < n; i++) {
        int32_t x = 0;
        for (int j = 0; j < n; j++) if (j != i) x = q->mul[(size_t)x * M + (size_t)Q->elem_of(c, q, gi[j], comps[j].c[0])];
        rest[i] = x;
    }
    mq m = { c, Q, q, rest, gi, 1, 0, fn, user };
    gr_sum_moves_where(c, comps, n, winning, &m, with_outcome, &m);
    gr_free(c, rest); gr_free(c, gi);
    return 1;
}

int gr_misere_quotient_table(gr_ctx *c, gr_game *g, const gr_box *box, int64_t *out) {
    if (box->ncoords != 1 || g->shape != SHAPE_HEAP) return 0;
    char why[256];
    int gi;
    gr_comp top = { .game = g };
    top.c[0] = box->hi[0];
    const gr_quotient_cap *Q;
    gr_quotient *q = quotient_for(c, &top, 1, &gi, &Q, why, sizeof why);
    if (!q) return 0;
    int64_t n = gr_box_cells(box, NULL, NULL);
    for (int64_t i = 0; i < n; i++) {
        int64_t h[GR_MAX_ARITY];
        gr_box_cell(box, i, h);
        out[i] = q->inP[Q->elem(c, q, h[0])] ? GR_LOSS : GR_WIN;
    }
    return 1;
}
