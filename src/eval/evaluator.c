/* evaluator: the registry of evaluators and the calls queries and sums make; see evaluator.h. */
#include "evaluator.h"
#include "rules.h"
#include "heapconv.h"
#include <string.h>

/* The registry: the evaluator of each id lowering may choose (lower/game.h). */
const gr_evaluator_ops *gr_evaluator_of(const gr_game *g) {
    switch (g->evaluator) {
    case EVAL_HEAP: return &gr_heap_evaluator;
    case EVAL_TABLE: return &gr_table_evaluator;
    case EVAL_GRAPH: return &gr_graph_evaluator;
    case EVAL_FIGURE: return &gr_figure_evaluator;
    case EVAL_COINS: return &gr_coins_evaluator;
    }
    return &gr_graph_evaluator;
}

const gr_evaluator_ops *gr_evaluator_for(const gr_game *g, gr_conv conv) {
    if ((conv == CONV_ANYLEAF || conv == CONV_EVERY) && gr_heapconv_fits(g)) return &gr_heapconv_evaluator;
    return gr_evaluator_of(g);
}

unsigned gr_eval_answers(const gr_game *g, gr_conv conv, char *why, size_t cap) {
    if (why && cap) why[0] = '\0';
    return gr_evaluator_for(g, conv)->answers(g, conv, why, cap);
}

int gr_eval_value(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds,
                  gr_loc loc, gr_value *out) {
    const gr_evaluator_ops *ops = gr_evaluator_for(g, conv);
    *out = (gr_value){ -1, -1, -1, -1, -1 };
    if (!ops->value || !(ops->answers(g, conv, NULL, 0) & kinds)) return 0;
    return ops->value(c, g, conv, pos, kinds, loc, out);
}

int64_t gr_eval_sg(gr_ctx *c, gr_game *g, const int64_t *pos, gr_loc loc) {
    gr_value v;
    if (!gr_eval_value(c, g, CONV_NORMAL, pos, GR_KIND_SG, loc, &v)) return -1;
    return v.sg;
}

int64_t gr_box_cells(const gr_box *box, int64_t *rows, int64_t *cols) {
    int64_t r = box->hi[box->dim[0]] - box->lo[box->dim[0]] + 1;
    int64_t k = box->ndims == 2 ? box->hi[box->dim[1]] - box->lo[box->dim[1]] + 1 : 1;
    if (rows) *rows = r;
    if (cols) *cols = k;
    if (r <= 0 || k <= 0 || r > (INT64_C(1) << 62) / k) return 0;
    return r * k;
}

void gr_box_cell(const gr_box *box, int64_t i, int64_t *pos) {
    int64_t cols;
    gr_box_cells(box, NULL, &cols);
    for (int k = 0; k < box->ncoords; k++) pos[k] = box->lo[k];
    pos[box->dim[0]] = box->lo[box->dim[0]] + i / cols;
    if (box->ndims == 2) pos[box->dim[1]] = box->lo[box->dim[1]] + i % cols;
}

int gr_eval_fill(gr_ctx *c, gr_game *g, gr_conv conv, const gr_box *box, unsigned kind,
                 int64_t *out) {
    const gr_evaluator_ops *ops = gr_evaluator_for(g, conv);
    if (!(ops->answers(g, conv, NULL, 0) & kind)) return 0;
    if (ops->fill) return ops->fill(c, g, conv, box, kind, out);
    int64_t n = gr_box_cells(box, NULL, NULL), pos[GR_MAX_ARITY];
    for (int64_t i = 0; i < n; i++) {
        gr_value v;
        gr_box_cell(box, i, pos);
        if (!ops->value(c, g, conv, pos, kind, box->loc, &v)) return 0;
        out[i] = kind == GR_KIND_OUTCOME ? v.outcome : kind == GR_KIND_SG ? v.sg :
                 kind == GR_KIND_LEAFLESS ? v.leafless : kind == GR_KIND_STEPS ? v.steps : v.remoteness;
    }
    return 1;
}

int gr_eval_terminal(gr_ctx *c, const gr_game *g, const int64_t *pos) {
    const gr_evaluator_ops *ops = gr_evaluator_of(g);
    return ops->terminal ? ops->terminal(c, g, pos) : -1;
}

void gr_eval_options(gr_ctx *c, gr_game *g, const int64_t *pos, gr_option_fn fn, void *user) {
    if (gr_eval_terminal(c, g, pos) >= 0) return;
    gr_evaluator_of(g)->options(c, g, pos, fn, user);
}

unsigned gr_answers_normal_recurrence(const gr_game *g, gr_conv conv, char *why, size_t cap) {
    if (why && cap) snprintf(why, cap, "%s", g->explain);
    if (conv != CONV_NORMAL || g->not_recurrence) return 0;
    return GR_KIND_SG | GR_KIND_OUTCOME;
}

int gr_rules_terminal_of(gr_ctx *c, const gr_game *g, const int64_t *pos) {
    return g->rules ? gr_rules_terminal(c, g, pos) : -1;
}
