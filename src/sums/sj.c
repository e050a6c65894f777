/* sj: misere sums by the SJ theorem; see sj.h. */
#include "sj.h"
#include "eval/evaluator.h"
#include "eval/cap_heaptable.h"
#include <string.h>

/* Does the condition hold on every position of the graph g (built from comps)? If not and bad
 * is not NULL, *bad is a position where it fails (value 0, with moves, none to value 1). */
static int gr_sj_condition(const gr_compgraph *g, uint32_t *bad) {
    for (uint32_t v = 0; v < g->n; v++) {
        uint32_t k = gr_pg_nchildren(g->pg, v);
        if (!k || gr_pg_sg(g->pg, v) != 0) continue;
        const uint32_t *ch = gr_pg_children(g->pg, v);
        uint32_t j = 0;
        while (j < k && gr_pg_sg(g->pg, ch[j]) != 1) j++;
        if (j == k) {
            if (bad) *bad = v;
            return 0;
        }
    }
    return 1;
}

/* Is the sum with these facts a win for the player to move (the class W of sj.h)? */
static int sj_wins(int64_t x, int big) { return x != 0 ? big > 0 : big == 0; }

typedef struct sj_moves {
    gr_compgraph *g;
    const gr_comp *comps; int n, at;
    int64_t rest; int rest_big;      /* the other components: xor of g, how many above 1 */
    gr_child_fn fn; void *user;
    char text[8192];
} sj_moves;

static void sj_move(void *user, const char *text, uint32_t id) {
    sj_moves *s = user;
    int64_t v = gr_pg_sg(s->g->pg, id);
    if (sj_wins(s->rest ^ v, s->rest_big + (v > 1))) return;
    gr_theory_text(s->g->c, s->comps, s->n, s->at, text, 0, s->text, sizeof s->text);
    s->fn(s->user, s->text, 0);
}

int gr_sj_decide(gr_ctx *c, gr_compgraph *g, const gr_comp *comps, int n, gr_theory *t,
                 gr_child_fn fn, void *user) {
    uint32_t bad = 0;
    if (!gr_sj_condition(g, &bad)) {
        char pos[512];
        gr_sumgraph_render(g->s, bad, pos, sizeof pos);
        snprintf(t->why, sizeof t->why, "the SJ theorem does not apply: %s, a position within a component, has "
                 "value 0 and moves, none to value 1", pos);
        return 0;
    }
    int64_t x = 0;
    int big = 0;
    for (int i = 0; i < n; i++) {
        int64_t v = gr_pg_sg(g->pg, gr_compgraph_id(g, &comps[i]));
        x ^= v;
        big += v > 1;
    }
    t->decided = 1;
    t->outcome = sj_wins(x, big) ? GR_WIN : GR_LOSS;
    t->value = x;
    t->moves_partial = 0;
    snprintf(t->why, sizeof t->why, "SJ theorem: every value-0 position of the components with a move has a move to "
             "value 1; the xor of the SG values is %lld and %d component%s above 1, so the player to move %s",
             (long long)x, big, big == 1 ? " is" : "s are", t->outcome == GR_WIN ? "wins" : "loses");
    if (t->outcome == GR_WIN && fn) {
        sj_moves *s = gr_alloc(c, sizeof *s);
        s->g = g; s->comps = comps; s->n = n; s->fn = fn; s->user = user;
        for (int i = 0; i < n; i++) {
            if (gr_theory_dup(comps, i)) continue;
            int64_t v = gr_pg_sg(g->pg, gr_compgraph_id(g, &comps[i]));
            s->at = i;
            s->rest = x ^ v;
            s->rest_big = big - (v > 1);
            gr_compgraph_moves(g, &comps[i], sj_move, s);
        }
        gr_free(c, s);
    }
    return 1;
}

void gr_sj_solve(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_theory *t,
                 gr_child_fn fn, void *user) {
    gr_compgraph *g = gr_theory_begin(c, m, comps, n, t, "the SJ theorem does not apply");
    if (!g) return;
    gr_sj_decide(c, g, comps, n, t, fn, user);
    gr_compgraph_free(g);
}

/* ---- heap games from their tables ---- */
enum { SJ_MAX_OPTIONS = 1 << 25 };   /* options looked at per query before giving up */

typedef struct heap_scan {
    gr_ctx *c; gr_game *g;
    int64_t want;              /* the value an option must have: g(h) xor 1 */
    int any, found, split;
    uint64_t options;
} heap_scan;

static void heap_option(void *user, const int64_t *parts, int nparts) {
    heap_scan *h = user;
    h->any = 1;
    h->options++;
    if (nparts > 1) h->split = 1;
    if (h->found) return;
    int64_t x = 0;
    for (int i = 0; i < nparts; i++) x ^= gr_eval_sg(h->c, h->g, parts + i, h->g->decl->name_loc);
    if (x == h->want) h->found = 1;
}

/* The condition for heaps 0..hmax of g, from its SG table: 1 holds, 0 fails (a heap in *bad),
 * -1 not answered (no table, or too many options). A heap game's positions are multisets of
 * heaps; one of value 0 with a move has a heap h with a move, and a move of h to a value
 * g(h) xor 1 gives the multiset value 1. So it is enough that every heap with a move has one
 * to g(h) xor 1 (always so for odd g(h), by the mex); a game that never splits has single
 * heaps only, and there only the heaps of value 0 need it. */
static int heap_condition(gr_ctx *c, gr_game *g, int64_t hmax, uint64_t *budget, int64_t *bad, int *splits) {
    if (g->shape != SHAPE_HEAP || g->arity != 1 || g->state->grow_move) return -1;
    const gr_heap_table_cap *table = gr_cap_heap_table(g);
    int64_t per, pre, saltus;
    if (table && table->period(g, &per, &pre, &saltus) && per == 1 && pre == 0 && saltus == 1)
        return 1;                                /* sg(n) = n: value 0 only at heap 0, which has no move */
    if ((uint64_t)hmax >= *budget) return -1;    /* each heap with a move has an option */
    if (hmax > (1 << 20)) return -1;             /* past it the fast path lists moves in part */
    gr_loc loc = g->decl->name_loc;
    int split = 0;
    int64_t first_even = -1, first_zero = -1;    /* the first heap lacking the move */
    for (int64_t h = 0; h <= hmax; h++) {
        gr_poll(c);
        int64_t v = gr_eval_sg(c, g, &h, loc);
        if (v < 0) return -1;
        heap_scan s = { .c = c, .g = g, .want = v ^ 1 };
        gr_eval_options(c, g, &h, heap_option, &s);
        split |= s.split;
        if (s.options > *budget) return -1;
        *budget -= s.options;
        if (!s.any || s.found || (v & 1)) continue;
        if (v == 0 && first_zero < 0) first_zero = h;
        if (first_even < 0) first_even = h;
        /* the heap that fails it is known whatever the heaps above show: the first even one once
         * the game splits, else the first zero (no earlier even one) */
        if (split ? first_even >= 0 : first_zero >= 0 && first_even == first_zero) break;
    }
    *splits |= split;
    int64_t b = split ? first_even : first_zero;
    if (b < 0) return 1;
    *bad = b;
    return 0;
}

int gr_sj_heaps(gr_ctx *c, const gr_comp *comps, int n, gr_theory *t, gr_child_fn fn, void *user) {
    memset(t, 0, sizeof *t);
    t->remoteness = t->value = -1;
    if (n < 1 || !gr_theory_plain(comps, n, t)) return 0;
    uint64_t budget = SJ_MAX_OPTIONS;
    int splits = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++) seen |= comps[j].game == comps[i].game;
        if (seen) continue;
        int64_t hmax = 0;
        for (int j = i; j < n; j++)
            if (comps[j].game == comps[i].game && comps[j].c[0] > hmax) hmax = comps[j].c[0];
        int64_t bad = 0;
        int ok = heap_condition(c, comps[i].game, hmax, &budget, &bad, &splits);
        if (ok < 0) { t->why[0] = '\0'; return 0; }
        if (!ok) {
            snprintf(t->why, sizeof t->why, "the SJ theorem does not apply: %s(%lld) has value %lld and moves, none to value %lld",
                     comps[i].game->name, (long long)bad, (long long)gr_eval_sg(c, comps[i].game, &bad, comps[i].game->decl->name_loc),
                     (long long)(gr_eval_sg(c, comps[i].game, &bad, comps[i].game->decl->name_loc) ^ 1));
            return 0;
        }
    }
    int64_t x = 0;
    int big = 0;
    int64_t *want = gr_alloc(c, sizeof *want * (size_t)n);
    for (int i = 0; i < n; i++) {
        want[i] = gr_eval_sg(c, comps[i].game, comps[i].c, comps[i].game->decl->name_loc);
        x ^= want[i];
        big += want[i] > 1;
    }
    t->decided = 1;
    t->outcome = sj_wins(x, big) ? GR_WIN : GR_LOSS;
    t->value = x;
    snprintf(t->why, sizeof t->why, "SJ theorem: %s has a move to value 1; the xor of the SG values is %lld and %d "
             "component%s above 1, so the player to move %s",
             splits ? "every heap with a move has a move to its value xor 1, so every value-0 position with a move"
                    : "every heap of value 0 with a move",
             (long long)x, big, big == 1 ? " is" : "s are", t->outcome == GR_WIN ? "wins" : "loses");
    if (t->outcome == GR_WIN && fn) {
        /* From W the moves to L take one component to a single value: with the others' xor r
         * and some other above 1, to r (xor 0, one still above 1); with none above 1, to
         * r xor 1 (xor 1, all at most 1). Any other value leaves a position of W. */
        for (int i = 0; i < n; i++) {
            int64_t rest = x ^ want[i];
            int rest_big = big - (want[i] > 1);
            want[i] = rest_big > 0 ? rest : rest ^ 1;
        }
        /* the fast path lists every move of component i to the value total ^ vals[i] */
        gr_sum_fast_moves(c, comps, n, want, 0, fn, user, NULL);
    }
    gr_free(c, want);
    return 1;
}
