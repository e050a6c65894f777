/* sj: misere sums by the SJ theorem; see sj.h. */
#include "sj.h"
#include <string.h>

int gr_sj_condition(const gr_compgraph *g, uint32_t *bad) {
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
    gr_theory_text(s->comps, s->n, s->at, text, 0, s->text, sizeof s->text);
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
