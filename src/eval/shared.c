/* shared: what the evaluators share and the interface also offers (evaluator.h): the answers
 * of a recurrence, 'terminal' rules, the cells of a box. Apart from evaluator.c, whose registry
 * names every evaluator, so that no evaluator calls back into it. */
#include "eval/evaluator.h"
#include "eval/rules.h"

unsigned gr_answers_normal_recurrence(const gr_game *g, gr_conv conv, char *why, size_t cap) {
    if (why && cap) snprintf(why, cap, "%s%s", g->explain, g->state->found);
    if (conv != CONV_NORMAL || g->state->not_recurrence) return 0;
    return GR_KIND_SG | GR_KIND_OUTCOME;
}

int gr_rules_terminal_of(gr_ctx *c, const gr_game *g, const int64_t *pos) {
    return g->rules ? gr_rules_terminal(c, g, pos) : -1;
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
