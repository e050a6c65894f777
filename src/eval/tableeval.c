/* tableeval: the table recurrence over tuples (tuple.h) and its per-line bitset kernel
 * (lines.h) as an evaluator (evaluator.h). Normal play only; a rule set found to have a cycle
 * is declined (the position graph takes over). A box of a line-move game from (0, 0) is
 * filled by the line kernel, anything else cell by cell through the memoised recurrence. */
#include "evaluator.h"
#include "lines.h"
#include "rules.h"
#include "tuple.h"

static int table_value(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds,
                       gr_loc loc, gr_value *out) {
    (void)conv; (void)kinds;
    int64_t v = gr_tuple_sg(c, g, pos, loc);
    if (v < 0) return 0;
    out->sg = v;
    out->outcome = v ? GR_WIN : GR_LOSS;
    return 1;
}

static int table_fill(gr_ctx *c, gr_game *g, gr_conv conv, const gr_box *box, unsigned kind,
                      int64_t *out) {
    int64_t n = gr_box_cells(box, NULL, NULL), pos[GR_MAX_ARITY];
    if (g->kernel == KER_LINES && box->lo[0] >= 0 && box->lo[1] >= 0) {
        /* The whole box from (0, 0), in order, then the requested cells. */
        int64_t rows = box->hi[0] + 1, cols = box->hi[1] + 1;
        int64_t *all = gr_alloc(c, gr_size_mul(c, gr_size_mul(c, (size_t)rows, (size_t)cols), sizeof *all));
        gr_lines_fill(c, g, rows, cols, all);
        for (int64_t i = 0; i < n; i++) {
            gr_box_cell(box, i, pos);
            int64_t v = all[pos[0] * cols + pos[1]];
            out[i] = kind == GR_KIND_OUTCOME ? (v ? GR_WIN : GR_LOSS) : v;
        }
        gr_free(c, all);
        return 1;
    }
    for (int64_t i = 0; i < n; i++) {
        gr_value v;
        gr_box_cell(box, i, pos);
        if (!table_value(c, g, conv, pos, kind, box->loc, &v)) return 0;
        out[i] = kind == GR_KIND_OUTCOME ? v.outcome : v.sg;
    }
    return 1;
}

typedef struct rules_adapter { gr_option_fn fn; void *user; } rules_adapter;
static void rules_option(void *user, const int64_t *parts, int nparts, const gr_rmove *mv) {
    (void)mv;
    rules_adapter *a = user;
    a->fn(a->user, parts, nparts);
}

static void table_options(gr_ctx *c, gr_game *g, const int64_t *pos, gr_option_fn fn, void *user) {
    rules_adapter a = { fn, user };
    gr_rules_moves(c, g, pos, rules_option, &a);
}

const gr_evaluator_ops gr_table_evaluator = {
    .name = "table recurrence",
    .answers = gr_answers_normal_recurrence,
    .value = table_value,
    .fill = table_fill,
    .options = table_options,
    .terminal = gr_rules_terminal_of,
};

