/* tableeval: the table recurrence over tuples (tuple.h) and its per-line bitset kernel
 * (lines.h) as an evaluator (evaluator.h). Normal play only; a rule set found to have a cycle
 * falls to the dense box (dense.h) where it supports the rule set: outcomes and remoteness
 * under normal and misere play, cycles included; otherwise it is declined (the position graph
 * takes over). A box of a line-move game from (0, 0) is filled by the line kernel, anything
 * else from the game's one dense box over the range (tuple.h: the box a check, a solve or a
 * plot of the same positions reads too), or cell by cell through the memoised recurrence. */
#include "eval/evaluator.h"
#include "eval/cap_ready.h"
#include "eval/box/dense.h"
#include "eval/box/lines.h"
#include "eval/rules.h"
#include "eval/box/tuple.h"

static unsigned table_answers(const gr_game *g, gr_conv conv, char *why, size_t cap) {
    unsigned k = gr_answers_normal_recurrence(g, conv, why, cap);
    char w[128];
    if (gr_dense_supported(g, conv, w, sizeof w)) k |= GR_KIND_OUTCOME | GR_KIND_REMOTENESS;
    return k;
}

/* pos (or the box lo..hi) by the dense box: outcome, remoteness, SG where defined. */
static int dense_value(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds,
                       gr_loc loc, gr_value *out) {
    gr_dense *b = gr_tuple_dense(c, g, conv, pos, pos, loc);
    if (!b) return 0;
    out->outcome = (int)gr_dense_outcome(b, pos);
    out->sg = gr_dense_sg(b, pos);
    out->remoteness = gr_dense_remoteness(b, pos);
    return !((kinds & GR_KIND_SG) && out->sg < 0);
}

static int table_value(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds,
                       gr_loc loc, gr_value *out) {
    if (conv == CONV_NORMAL && !(kinds & GR_KIND_REMOTENESS)) {
        int64_t v = gr_tuple_sg(c, g, pos, loc);
        if (v >= 0) {
            out->sg = v;
            out->outcome = v ? GR_WIN : GR_LOSS;
            return 1;
        }
        if (kinds & GR_KIND_SG) return 0;   /* a cycle: generalised values come from the graph */
    }
    return dense_value(c, g, conv, pos, kinds, loc, out);
}

static int table_fill(gr_ctx *c, gr_game *g, gr_conv conv, const gr_box *box, unsigned kind,
                      int64_t *out) {
    int64_t n = gr_box_cells(box, NULL, NULL), pos[GR_MAX_ARITY];
    if (conv == CONV_NORMAL && kind != GR_KIND_REMOTENESS && g->kernel == KER_LINES && box->lo[0] >= 0 && box->lo[1] >= 0 &&
        box->hi[0] <= INT32_MAX && box->hi[1] <= INT32_MAX) {
        /* The line kernel from (0, 0), kept for later queries: outcomes alone a bit a cell
         * (unless its values are there already), else the values. */
        gr_tuple_prepare(c, g, box->lo, box->hi, kind == GR_KIND_SG);
        for (int64_t i = 0; i < n; i++) {
            gr_box_cell(box, i, pos);
            out[i] = kind == GR_KIND_OUTCOME ? gr_tuple_outcome_ready(g, pos) : gr_tuple_lines_ready(g, pos);
        }
        return 1;
    }
    if (conv == CONV_NORMAL && kind == GR_KIND_SG) {
        /* One box over the whole range first (the box a check or a solve over the same
         * positions reads too): cell by cell, the box would grow from the first cell on. */
        if (!g->state->not_recurrence) gr_tuple_reserve(c, g, box->lo, box->hi);
        for (int64_t i = 0; i < n; i++) {
            gr_value v;
            gr_box_cell(box, i, pos);
            if (!table_value(c, g, conv, pos, kind, box->loc, &v)) return 0;
            out[i] = v.sg;
        }
        return 1;
    }
    if (conv == CONV_NORMAL && kind == GR_KIND_OUTCOME && !g->state->not_recurrence) {
        gr_tuple_reserve(c, g, box->lo, box->hi);
        int ok = 1;
        for (int64_t i = 0; i < n && ok; i++) {
            gr_box_cell(box, i, pos);
            int64_t v = gr_tuple_sg(c, g, pos, box->loc);
            if (v < 0) ok = 0;
            else out[i] = v ? GR_WIN : GR_LOSS;
        }
        if (ok) return 1;
    }
    /* Outcomes or remoteness under any play, cycles included: one dense box over the range. */
    gr_dense *b = gr_tuple_dense(c, g, conv, box->lo, box->hi, box->loc);
    if (!b) return 0;
    for (int64_t i = 0; i < n; i++) {
        gr_box_cell(box, i, pos);
        if (!gr_dense_valid(b, pos)) {
            gr_value v;   /* blames the table for a cell outside 'where' */
            dense_value(c, g, conv, pos, kind, box->loc, &v);
        }
        out[i] = kind == GR_KIND_OUTCOME ? (int64_t)gr_dense_outcome(b, pos)
               : kind == GR_KIND_SG ? gr_dense_sg(b, pos) : gr_dense_remoteness(b, pos);
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

/* Outcomes from the P bits gr_tuple_prepare made for a pass. */
static int table_ready(const gr_game *g, const int64_t *pos, unsigned kind, int64_t *v) {
    int o = kind == GR_KIND_OUTCOME ? gr_tuple_outcome_ready(g, pos) : -1;
    if (o < 0) return 0;
    *v = o;
    return 1;
}

static int table_ensure(gr_ctx *c, gr_game *g, const int64_t *lo, const int64_t *hi, unsigned kinds) {
    return gr_tuple_prepare(c, g, lo, hi, (kinds & GR_KIND_SG) != 0);
}

static const gr_ready_cap table_ready_cap = {
    .ensure = table_ensure,
    .ready = table_ready,
    .ensure_ahead = 1,       /* one dense box or line kernel over the whole range */
};

static const gr_evaluator_caps table_caps = { .ready = &table_ready_cap };

const gr_evaluator_ops gr_table_evaluator = {
    .name = "table recurrence",
    .answers = table_answers,
    .value = table_value,
    .fill = table_fill,
    .options = table_options,
    .terminal = gr_rules_terminal_of,
    .caps = &table_caps,
};

