/* misere: misere sums by genus; see misere.h. */
#include "misere.h"
#include "sj.h"
#include "misquot.h"
#include <string.h>

int gr_misere_genus(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, int32_t *out, uint8_t *tame) {
    gr_compgraph *g = gr_compgraph_new(c, m, comps, n);
    int ok = g->acyclic;
    if (ok) {
        gr_compgraph_genus(g);
        for (int i = 0; i < n; i++) {
            uint32_t id = gr_compgraph_id(g, &comps[i]);
            memcpy(out + (size_t)i * (GR_GENUS_K + 1), gr_compgraph_genus_of(g, id), (GR_GENUS_K + 1) * sizeof *out);
            if (tame) tame[i] = g->tame[id];
        }
    }
    gr_compgraph_free(g);
    return ok;
}

/* A tame genus a^{a^1 ...} with a <= 1 (0^120, 1^031): the component plays like *0 or *1. */
static int is_small(const int32_t *gen) { return gen[0] <= 1 && gen[1] == (gen[0] ^ 1); }

/* The misere outcome of a sum of tame components by misere Nim's rule. */
static int tame_outcome(int64_t x, int all_small) {
    return (all_small ? x == 1 : x == 0) ? GR_LOSS : GR_WIN;
}

typedef struct mis_moves {
    gr_compgraph *g;
    const gr_comp *comps; int n, at;
    int64_t rest; int rest_small;     /* the other components: xor of g, all small */
    int single;
    gr_child_fn fn; void *user;
    char text[8192];
} mis_moves;

static void mis_move(void *user, const char *text, uint32_t id) {
    mis_moves *mm = user;
    const int32_t *gen = gr_compgraph_genus_of(mm->g, id);
    int lose = mm->single ? gen[1] == 0 : tame_outcome(mm->rest ^ gen[0], mm->rest_small && is_small(gen)) == GR_LOSS;
    if (!lose) return;
    gr_theory_text(mm->g->c, mm->comps, mm->n, mm->at, text, 0, mm->text, sizeof mm->text);
    mm->fn(mm->user, mm->text, 0);
}

static void misere_why(gr_theory *t) {
    char why[sizeof t->why];
    memcpy(why, t->why, sizeof why);
    snprintf(t->why, sizeof t->why, "misere: %.1000s", why);
}

void gr_misere_solve(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_theory *t,
                     gr_child_fn fn, void *user) {
    /* The SJ theorem first: it needs the SG values only, and where it applies every component
     * is tame too (sj.h), so the tame rule would give the same answer at the cost of the genus.
     * Heap games by their tables (any size), else on the components' graph. */
    if (gr_sj_heaps(c, comps, n, t, fn, user)) { misere_why(t); return; }
    /* Heaps of one rule set: the misere quotient, before the components' graph the genus needs. */
    char qwhy[400];
    if (gr_theory_plain(comps, n, t) && gr_misere_quotient(c, comps, n, t, fn, user, qwhy, sizeof qwhy)) return;
    gr_compgraph *g = gr_theory_begin(c, m, comps, n, t, "it has no genus");
    if (!g) return;
    if (gr_sj_decide(c, g, comps, n, t, fn, user)) {
        misere_why(t);
        gr_compgraph_free(g);
        return;
    }
    char sj_why[sizeof t->why];
    memcpy(sj_why, t->why, sizeof sj_why);
    gr_compgraph_genus(g);
    int64_t x = 0;
    int all_small = 1, wild = -1;
    for (int i = 0; i < n; i++) {
        uint32_t id = gr_compgraph_id(g, &comps[i]);
        const int32_t *gen = gr_compgraph_genus_of(g, id);
        x ^= gen[0];
        all_small &= is_small(gen);
        if (!g->tame[id] && wild < 0) wild = i;
    }
    char one[256], gtext[128];
    mis_moves *mm = NULL;
    if (n == 1) {
        const int32_t *gen = gr_compgraph_genus_of(g, gr_compgraph_id(g, &comps[0]));
        gr_genus_text(gen, gtext, sizeof gtext);
        t->decided = 1;
        t->outcome = gen[1] ? GR_WIN : GR_LOSS;
        t->value = gen[1];
        snprintf(t->why, sizeof t->why, "misere: one component, genus %s: its misere Grundy value %d decides", gtext, gen[1]);
    } else if (wild < 0) {
        t->decided = 1;
        t->outcome = tame_outcome(x, all_small);
        snprintf(t->why, sizeof t->why, "misere: every component is tame; the tame rule on genera (xor of g = %lld%s)",
                 (long long)x, all_small ? ", every component like *0 or *1" : "");
    } else {
        uint32_t id = gr_compgraph_id(g, &comps[wild]);
        gr_render_comps(c, &comps[wild], 1, one, sizeof one);
        gr_genus_text(gr_compgraph_genus_of(g, id), gtext, sizeof gtext);
        snprintf(t->why, sizeof t->why, "misere: %.150s is not tame (genus %.60s%s), so genus theory does not decide the sum, %.400s, and %.300s",
                 one, gtext, gr_genus_is_tame(gr_compgraph_genus_of(g, id)) ? ", but a position below it is wild" : "", qwhy, sj_why);
    }
    if (t->decided && t->outcome == GR_WIN && fn) {
        mm = gr_alloc(c, sizeof *mm);
        mm->g = g; mm->comps = comps; mm->n = n; mm->fn = fn; mm->user = user; mm->single = n == 1;
        for (int i = 0; i < n; i++) {
            if (gr_theory_dup(comps, i)) continue;
            const int32_t *gen = gr_compgraph_genus_of(g, gr_compgraph_id(g, &comps[i]));
            mm->at = i;
            mm->rest = x ^ gen[0];
            mm->rest_small = 1;
            for (int j = 0; j < n; j++)
                if (j != i) mm->rest_small &= is_small(gr_compgraph_genus_of(g, gr_compgraph_id(g, &comps[j])));
            gr_compgraph_moves(g, &comps[i], mis_move, mm);
        }
        gr_free(c, mm);
    }
    gr_compgraph_free(g);
}
