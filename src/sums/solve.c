/* solve: one position, or a table, by the fastest sound way; see solve.h. */
#include "solve.h"
#include "estimate.h"
#include "figure.h"
#include "misquot.h"
#include "anyleaf.h"
#include "every.h"
#include "misere.h"
#include "remote.h"
#include <string.h>

gr_conv gr_sum_convention(const gr_comp *comps, int n, int has_conv, gr_conv conv) {
    return !has_conv && n == 1 ? comps[0].game->play : conv;
}

typedef struct graph_moves { gr_pg *pg; gr_child_fn fn; void *user; } graph_moves;

/* A move is winning when it leaves the opponent a loss. */
static void graph_move(void *user, const char *text, uint32_t id) {
    graph_moves *g = user;
    if (gr_pg_outcome(g->pg, id) == GR_LOSS) g->fn(g->user, text, id);
}

/* One component whose evaluator answers outcomes under conv by itself (a dense box, say):
 * its value, and its winning moves from its options' values. 0 if some option is a sum of
 * several positions, which only the position graph combines. */
typedef struct one_moves {
    gr_ctx *c; const gr_comp *comp; gr_conv conv;
    int many;                       /* an option split into several positions */
    int64_t (*parts)[GR_MAX_ARITY]; int nwin, cap;
} one_moves;

static void one_option(void *user, const int64_t *parts, int nparts) {
    one_moves *o = user;
    if (nparts != 1) { o->many = 1; return; }
    gr_value v;
    gr_game *g = o->comp->game;
    if (!gr_eval_value(o->c, g, o->conv, parts, GR_KIND_OUTCOME, g->decl->name_loc, &v)) { o->many = 1; return; }
    if (v.outcome != GR_LOSS) return;
    if (o->nwin == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 8;
        o->parts = gr_realloc(o->c, o->parts, (size_t)o->cap * sizeof *o->parts);
    }
    memcpy(o->parts[o->nwin++], parts, (size_t)g->arity * sizeof *parts);
}

static int solve_one(gr_ctx *c, const gr_comp *comp, gr_conv conv, gr_solution *out,
                     gr_child_fn fn, void *user) {
    gr_game *g = comp->game;
    unsigned kinds = GR_KIND_OUTCOME | GR_KIND_REMOTENESS;
    if ((gr_eval_answers(g, conv, NULL, 0) & kinds) != kinds) return 0;
    gr_value v;
    if (!gr_eval_value(c, g, conv, comp->c, kinds, g->decl->name_loc, &v)) return 0;
    one_moves o = { .c = c, .comp = comp, .conv = conv };
    if (v.outcome == GR_WIN && fn) gr_eval_options(c, g, comp->c, one_option, &o);
    if (o.many) { gr_free(c, o.parts); return 0; }
    out->outcome = v.outcome;
    out->sg = conv == CONV_NORMAL ? v.sg : -1;
    out->remoteness = v.remoteness;
    char text[4096];
    for (int i = 0; i < o.nwin; i++) {
        gr_comp child = { .game = g };
        memcpy(child.c, o.parts[i], (size_t)g->arity * sizeof *child.c);
        gr_render_comps(c, &child, 1, text, sizeof text);
        fn(user, text, 0);
    }
    gr_free(c, o.parts);
    return 1;
}

int gr_sum_theory(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, gr_theory *t,
                  gr_child_fn fn, void *user) {
    memset(t, 0, sizeof *t);
    if (c->no_theory) { snprintf(t->why, sizeof t->why, "--no-theory"); return 0; }
    switch (conv) {
    case CONV_EVERY: gr_every_solve(c, m, comps, n, t, fn, user); break;
    case CONV_ANYLEAF: gr_anyleaf_solve(c, m, comps, n, t, fn, user); break;
    case CONV_MISERE: gr_misere_solve(c, m, comps, n, t, fn, user); break;
    case CONV_NORMAL: break;
    }
    return t->decided;
}

/* The one remoteness rule, whatever face asked (text, CSV, JSON, the C API, Python, the page):
 * a remoteness the answer's own path did not give (a sum answered by values or by a theory) is
 * looked for by a bounded graph of the sum (remote.h: at most 2^18 positions and about 10 ms,
 * declined at once where the sum's estimated graph is far past that); asked for (`solve ...
 * remoteness`), by the sum's whole position graph, within --max-positions, --max-memory and
 * --max-time like any graph (a limit stops the query with status 3). When none is found the
 * answer says why, so every face can say "not computed" where it was not. */
static void remoteness_by_rule(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, int asked,
                               gr_solution *out) {
    if (out->remoteness >= 0 || out->outcome == GR_DRAW || out->remoteness_skipped[0]) return;
    if (!asked) {
        if (!gr_sum_remoteness(c, m, comps, n, conv, GR_REMOTENESS_GRAPH_MAX, &out->remoteness))
            snprintf(out->remoteness_skipped, sizeof out->remoteness_skipped,
                     "past a solve's bound; 'solve ... remoteness' asks for it");
        return;
    }
    gr_sumgraph *s = gr_sumgraph_new(c, m, conv);
    uint32_t id = gr_sumgraph_add(s, comps, n);
    gr_sumgraph_solve(s);
    out->remoteness = gr_pg_remoteness(gr_sumgraph_pg(s), id);
    gr_sumgraph_free(s);
}

void gr_solution_free(gr_solution *s) { gr_loopy_free(&s->loopy); }

/* A loopy position's value where no path above gave one (one component by its evaluator, which
 * knows only plain SG values): by the gamma values of its own graph, as a table shows it; not
 * where that graph is estimated past LOOPY_GRAPH_MAX positions (the evaluator's answer came
 * without it, and the value is not worth a limit). */
enum { LOOPY_GRAPH_MAX = 1 << 20 };
static void loopy_by_graph(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_solution *out) {
    if (gr_sum_graph_estimate(comps, n, CONV_NORMAL) > LOOPY_GRAPH_MAX) return;
    gr_sumgraph *s = gr_sumgraph_new(c, m, CONV_NORMAL);
    uint32_t id = gr_sumgraph_add(s, comps, n);
    gr_sumgraph_solve(s);
    out->sg = gr_loopy_of_pg(&out->loopy, gr_sumgraph_pg(s), id);
    gr_sumgraph_free(s);
}

void gr_sum_solve(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, int remoteness,
                  gr_solution *out, gr_child_fn fn, void *user) {
    gr_loopy_init(&out->loopy, c);
    out->sg = out->remoteness = -1;
    out->remoteness_skipped[0] = 0;
    out->moves_partial = 0;
    out->moves_unlisted = 0;
    int64_t *vals = gr_alloc(c, sizeof *vals * (size_t)(n ? n : 1));
    gr_theory th;
    int theory = !c->no_theory;
    if (theory && conv == CONV_NORMAL && gr_sum_sg_fast(c, comps, n, &out->sg, vals)) {
        out->outcome = out->sg ? GR_WIN : GR_LOSS;
        /* 2: a search under a work budget (cuts inside large Hackenbush cycles) stopped */
        if (out->sg && fn && !gr_sum_fast_moves(c, comps, n, vals, out->sg, fn, user, &out->moves_unlisted))
            out->moves_partial = 2;
    } else if (theory && conv == CONV_NORMAL && n > 1 &&
               gr_sum_gamma(c, m, comps, n, &out->outcome, &out->sg, &out->loopy, fn, user)) {
        /* decided component by component */
    } else if (conv != CONV_NORMAL && gr_sum_theory(c, m, comps, n, conv, &th, fn, user)) {
        out->outcome = th.outcome;
        out->remoteness = th.remoteness;
        memcpy(out->remoteness_skipped, th.remoteness_skipped, sizeof out->remoteness_skipped);
        out->moves_partial = th.moves_partial;
        out->moves_unlisted = th.moves_unlisted;
    } else if (theory && n == 1 && solve_one(c, comps, conv, out, fn, user)) {
        /* one component, by its own evaluator; a loopy one's value by its graph */
        if (conv == CONV_NORMAL && out->sg < 0) loopy_by_graph(c, m, comps, n, out);
    } else {
        gr_sum_fallback_note(c, c->no_theory ? "--no-theory" : conv != CONV_NORMAL ? th.why :
                             "some component has no SG value its evaluator or gamma values give",
                             gr_sum_graph_estimate(comps, n, conv));
        gr_sumgraph *s = gr_sumgraph_new(c, m, conv);
        uint32_t id = gr_sumgraph_add(s, comps, n);
        gr_sumgraph_solve(s);
        gr_pg *pg = gr_sumgraph_pg(s);
        out->outcome = (int)gr_pg_outcome(pg, id);
        out->sg = conv == CONV_NORMAL ? gr_loopy_of_pg(&out->loopy, pg, id) : -1;
        out->remoteness = gr_pg_remoteness(pg, id);
        graph_moves gm = { pg, fn, user };
        if (out->outcome == GR_WIN && fn) gr_sumgraph_moves(s, comps, n, graph_move, &gm);
        gr_sumgraph_free(s);
    }
    gr_free(c, vals);
    remoteness_by_rule(c, m, comps, n, conv, remoteness, out);
}

/* The position of cell i: a vertex, the box's coordinates, or for coin turning (whose tables
 * range over places) a single heads at the place. */
static void table_cell(const gr_box *box, const int32_t *vertices, int64_t i, gr_comp *comp) {
    if (vertices) comp->c[0] = vertices[i];
    else if (comp->game->shape == SHAPE_COINS) {
        int64_t x[GR_MAX_ARITY];
        gr_box_cell(box, i, x);
        memset(comp->c, 0, sizeof comp->c);
        gr_coin_flip(comp->c, x[0]);
    } else gr_box_cell(box, i, comp->c);
}

void gr_sum_table(gr_ctx *c, gr_module *m, gr_game *g, gr_conv conv, const gr_box *box,
                  const int32_t *vertices, int nvertices, unsigned kind, int64_t *out, gr_loopy *loopy) {
    /* A coin-turning table lists single heads by their recurrence even under --no-theory: the
     * graph below a heads at x holds up to 2^x sets of heads (a solve checks the theorem). */
    int theory = !c->no_theory || (g->shape == SHAPE_COINS && conv == CONV_NORMAL);
    if (!vertices && theory && gr_eval_fill(c, g, conv, box, kind, out)) return;
    if (!vertices && !c->no_theory && conv == CONV_MISERE && kind == GR_KIND_OUTCOME && gr_misere_quotient_table(c, g, box, out)) return;
    /* The position graph: every cell a start of one shared graph. */
    int64_t n = vertices ? nvertices : gr_box_cells(box, NULL, NULL);
    gr_comp comp = { .game = g };
    if (!vertices) {   /* the far corner of the box reaches about every position below */
        memcpy(comp.c, box->hi, sizeof comp.c < sizeof box->hi ? sizeof comp.c : sizeof box->hi);
        gr_sum_fallback_note(c, c->no_theory ? "--no-theory" : "no evaluator fills this table",
                             gr_sum_graph_estimate(&comp, 1, conv));
    }
    gr_sumgraph *s = gr_sumgraph_new(c, m, conv);
    for (int64_t i = 0; i < n; i++) {
        table_cell(box, vertices, i, &comp);
        gr_sumgraph_add(s, &comp, 1);
    }
    gr_sumgraph_solve(s);
    gr_pg *pg = gr_sumgraph_pg(s);
    /* Under normal play a loopy position may still have a (generalised) SG value. */
    int gamma = kind == GR_KIND_SG && conv == CONV_NORMAL;
    if (gamma) gr_pg_solve_gamma(pg);
    for (int64_t i = 0; i < n; i++) {
        table_cell(box, vertices, i, &comp);
        uint32_t id = gr_sumgraph_id(s, &comp, 1);
        if (kind == GR_KIND_OUTCOME) out[i] = (int64_t)gr_pg_outcome(pg, id);
        else if (kind == GR_KIND_REMOTENESS) out[i] = gr_pg_remoteness(pg, id);
        else if (gamma && loopy) out[i] = gr_loopy_of_pg(loopy, pg, id);
        else {
            int64_t v = gamma ? gr_pg_gamma(pg, id) : gr_pg_sg(pg, id);
            out[i] = v >= 0 ? v : -1;
        }
    }
    gr_sumgraph_free(s);
}

/* With --no-theory, only genus and step numbers, which the position graph does not give. */
int gr_sum_theory_tables(const gr_ctx *c, gr_conv conv, gr_table_kind kind) {
    int genus = kind == TK_GENUS, steps = kind == TK_REMOTENESS && conv == CONV_EVERY;
    int leafless = conv == CONV_ANYLEAF && kind == TK_SG;
    return genus || steps || (leafless && !c->no_theory);
}

int gr_sum_theory_table(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, gr_table_kind kind,
                        int64_t *out, int32_t *gen, const char **why) {
    int genus = kind == TK_GENUS, steps = kind == TK_REMOTENESS && conv == CONV_EVERY;
    if (!gr_sum_theory_tables(c, conv, kind)) return -1;
    *why = genus ? "genus is defined for games that end" : steps ? "step numbers are defined for games that end"
                                                        : "leaf deletion needs a game that ends";
    if (genus) return gr_misere_genus(c, m, comps, n, gen, NULL);
    if (steps) return gr_every_steps(c, m, comps, n, out);
    return gr_anyleaf_values(c, m, comps, n, out);
}
