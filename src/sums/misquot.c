/* misquot: misere sums from the misere quotient; see misquot.h. */
#include "misquot.h"
#include "misremote.h"
#include "estimate.h"
#include <string.h>

/* The quotient grows a heap at a time to cover a sum's heaps, within this much work (states
 * checked and elements marked, about a second); past it the sum goes to the next theory and
 * the quotient stays as far as it got. */
enum { QUOTIENT_BUDGET = 30000000 };
/* Nim heaps past 3 join the union's quotient within this much more (a few hundredths of a
 * second), else the union is made for the sum alone (bounded, below): beside Kayles to 50, Nim
 * heaps 4 and 5 cost 40000, heap 6 did not settle within 30 million (eight seconds: candidates
 * of order 2928, recalibrated at 12^19 + 20^18 + *6 and still wrong). */
enum { NIM_BUDGET = 100000 };
/* The union's own quotient (kept for later sums) within this much, before the one made for the
 * sum (about a second at most together) */
enum { UNION_BUDGET = 3000000 };
/* A union made for a sum takes every heap below its heaps as an atom (and its weight by their
 * options): not past this heap */
enum { BOUNDED_HEAP = 2000 };

/* The most moves heap h of g lasts (a sum lasts the sum of its heaps'): 1 + the most of its
 * options', by the heaps below it. */
typedef struct wt_collect { const int64_t *w; int64_t best; } wt_collect;
static void on_weight(void *user, const int64_t *parts, int nparts) {
    wt_collect *wc = user;
    int64_t x = 1;
    for (int i = 0; i < nparts; i++) x += wc->w[parts[i]];
    if (x > wc->best) wc->best = x;
}
static int64_t heap_weight(gr_ctx *c, gr_game *g, int64_t h) {
    if (gr_eval_is_nim(g)) return h;
    int64_t *w = gr_alloc(c, (size_t)(h + 1) * sizeof *w);
    for (int64_t k = 0; k <= h; k++) {
        wt_collect wc = { w, 0 };
        int64_t hk = k;
        gr_eval_options(c, g, &hk, on_weight, &wc);
        w[k] = wc.best;
    }
    int64_t out = w[h];
    gr_free(c, w);
    return out;
}

typedef struct mq {
    gr_ctx *c; const gr_quotient_cap *Q; gr_quotient *q; int32_t *rest;
    const gr_comp *comps;
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

/* A quotient that has to grow for a sum never costs much more than the position graph the sum
 * falls back to: its work (the quotient's unit, states checked and elements marked, 10 to 30
 * million a second) is bounded by this many units per position the graph is estimated to hold
 * (about the graph's time), and never below GRAPH_WORK_FLOOR (cheap quotients are always tried:
 * they are kept for every later sum). */
enum { GRAPH_WORK_PER_POSITION = 32, GRAPH_WORK_FLOOR = 1000000 };
static int64_t graph_bound(const gr_comp *comps, int n) {
    double est = gr_sum_graph_estimate(comps, n, CONV_MISERE) * GRAPH_WORK_PER_POSITION;
    return est >= 1e15 ? INT64_MAX : est < GRAPH_WORK_FLOOR ? GRAPH_WORK_FLOOR : (int64_t)est;
}
static int64_t at_most(int64_t budget, int64_t bound) { return budget < bound ? budget : bound; }

/* A huge heap's kept options through the quotient's proved period (cap_quotient.h), -1 to walk
 * them: every option for options, else the winning ones (into P). */
static int64_t huge(void *user, int at, int64_t limit, gr_option_fn ofn, void *ouser) {
    mq *m = user;
    return m->Q->moves_where(m->c, m->q, m->comps[at].c[0], m->rest[at], m->every ? -1 : 1, limit, ofn, ouser);
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
    int64_t bound = graph_bound(comps, n);
    if (ng > 1) {
        /* Each rule set only to its own largest heap here: kayles(40) + kayles(50) + *7 needs
         * Kayles to 50 and Nim to 7, whose quotient is small (Nim to 50 beside it is not). */
        int64_t none[8] = { 0 };
        gr_quotient *q = Q->union_of(c, games, ng, none, 0, why, cap);
        if (!q) return NULL;
        /* The quotient of the union (kept for every later sum) within UNION_BUDGET, Nim heaps
         * past 3 (misere Nim's T2) last within NIM_BUDGET; a heap a budget refused is not tried
         * again (refused) */
        int big = -1;
        for (int i = 0; i < n; i++)
            if (gr_eval_is_nim(comps[i].game) && (big < 0 || comps[i].c[0] > comps[big].c[0])) big = i;
        int64_t mine[8];
        memcpy(mine, tops, sizeof mine);
        if (big >= 0 && mine[gi[big]] > 3) mine[gi[big]] = 3;
        for (int k = 0; k < ng; k++)
            if (q->refused[k] && q->refused[k] <= mine[k]) mine[k] = q->refused[k] - 1;
        for (int phase = 0; phase < 2 && !q->failed; phase++) {
            if (phase == 1) {
                if (big < 0) break;
                int nk = gi[big];
                mine[nk] = q->refused[nk] && q->refused[nk] <= tops[nk] ? q->refused[nk] - 1 : tops[nk];
            }
            q->budget = q->checked_states + at_most(phase ? NIM_BUDGET : UNION_BUDGET, bound);
            Q->union_of(c, games, ng, mine, 0, why, cap);
            if (q->over_budget)
                for (int k = 0; k < ng; k++) if (q->count[k] <= mine[k]) { q->refused[k] = q->count[k]; break; }
            int over = q->over_budget;
            q->budget = 0; q->over_budget = 0;
            if (over) break;
        }
        int covers = 1;
        for (int k = 0; k < ng; k++) covers &= q->count[k] > tops[k];
        if (covers) return q;
        /* Not within them (or past the search's limits): the union is made for this sum alone,
         * checked only on the sums that last at most as many moves as it (cap_quotient.h), which
         * are all the positions it reaches: all its outcome, its winning moves and its
         * remoteness ask of the quotient. */
        int64_t W = 0;
        for (int i = 0; i < n; i++)
            if (comps[i].c[0] > BOUNDED_HEAP && !gr_eval_is_nim(comps[i].game)) {
                snprintf(why, cap, "the misere quotient of the union of %d rule sets passed its budget, and heap %lld of '%s' is past %d, too large to make one for the sum",
                         ng, (long long)comps[i].c[0], comps[i].game->name, BOUNDED_HEAP);
                return NULL;
            }
        for (int i = 0; i < n; i++) W += heap_weight(c, comps[i].game, comps[i].c[0]);
        gr_quotient *b = Q->union_of(c, games, ng, none, W, why, cap);
        if (!b) return NULL;
        b->budget = b->checked_states + at_most(QUOTIENT_BUDGET, bound);
        Q->union_of(c, games, ng, tops, W, why, cap);
        int over = b->over_budget;
        b->budget = 0; b->over_budget = 0;
        q = b;
        if (over) {
            snprintf(why, cap, "the misere quotient of the union of %d rule sets, even made for the sum's %lld moves, grew to order %d, past the budget of its proofs%s",
                     ng, (long long)W, q->order, bound < QUOTIENT_BUDGET ? " (bounded by the work of the position graph it falls back to)" : "");
            return NULL;
        }
        if (q->failed) {
            snprintf(why, cap, "the misere quotient of the union of %d rule sets, even made for the sum's %lld moves, stops at order %d: %s", ng, (long long)W, q->order, q->why_failed);
            return NULL;
        }
        return q;
    }
    gr_game *g = games[0];
    gr_quotient *q = Q->of(c, g, 0, why, cap);
    if (!q) return NULL;
    q->budget = q->checked_states + at_most(QUOTIENT_BUDGET, bound);
    while (!q->proved && !q->failed && !q->over_budget && q->nheaps <= top) {
        Q->of(c, g, q->nheaps, NULL, 0);
        if (q->nheaps % 64 == 0) Q->prove(c, q);
    }
    int over = q->over_budget;
    q->budget = 0; q->over_budget = 0;
    if (over) {
        snprintf(why, cap, "the misere quotient of %s grew to order %d by heap %lld, past the budget of its proofs%s",
                 g->name, q->order, (long long)q->nheaps - 1,
                 bound < QUOTIENT_BUDGET ? " (bounded by the work of the position graph it falls back to)" : "");
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
        if (q->bound)
            snprintf(t->why, sizeof t->why, "misere: a monoid of order %d for the union of %d rule sets (|P| = %d, heaps %s), checked on the sums that last at most %lld moves (this sum's positions): the product of the heaps' elements is %sin P",
                     q->order, q->ngames, q->p_order, heaps, (long long)q->bound, q->inP[total] ? "" : "not ");
        else
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
        mq m = { c, Q, q, rest, comps, gi, 0, 0, NULL, NULL };
        gr_sum_moves_where(c, comps, n, winning, huge, &m, fn, user, &t->moves_unlisted);
    }
    gr_free(c, e); gr_free(c, rest); gr_free(c, gi);
    return 1;
}

static void with_outcome(void *user, const char *text, uint32_t id) {
    (void)id;
    mq *m = user;
    m->ofn(m->ouser, text, m->last);
}

int gr_misere_quotient_options(gr_ctx *c, const gr_comp *comps, int n, gr_option_outcome_fn fn, void *user,
                               int64_t *unlisted) {
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
    mq m = { c, Q, q, rest, comps, gi, 1, 0, fn, user };
    gr_sum_moves_where(c, comps, n, winning, huge, &m, with_outcome, &m, unlisted);
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
