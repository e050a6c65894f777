/* heapeval: the heap recurrence (heap.h) as an evaluator (evaluator.h). It answers SG values
 * and outcomes under normal play while the rule set is a recurrence, and declines otherwise
 * (the position graph takes over). */
#include "eval/evaluator.h"
#include "eval/heap/heap.h"
#include "eval/rules.h"

static int heap_value(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds,
                      gr_loc loc, gr_value *out) {
    (void)conv; (void)kinds; (void)loc;
    if (gr_heap_ensure(c, g, pos[0]) < 0) return 0;
    out->sg = gr_heap_sg(c, g, pos[0]);
    out->outcome = out->sg ? GR_WIN : GR_LOSS;
    return 1;
}

static int heap_fill(gr_ctx *c, gr_game *g, gr_conv conv, const gr_box *box, unsigned kind,
                     int64_t *out) {
    (void)conv;
    if (gr_heap_ensure(c, g, box->hi[0]) < 0) return 0;
    for (int64_t i = 0, n = box->hi[0] - box->lo[0] + 1; i < n; i++) {
        int64_t v = gr_heap_sg(c, g, box->lo[0] + i);
        out[i] = kind == GR_KIND_OUTCOME ? (v ? GR_WIN : GR_LOSS) : v;
    }
    return 1;
}

static void heap_options(gr_ctx *c, gr_game *g, const int64_t *pos, gr_option_fn fn, void *user) {
    gr_heap_options(c, g, pos[0], fn, user);
}

const gr_evaluator_ops gr_heap_evaluator = {
    .name = "heap recurrence",
    .answers = gr_answers_normal_recurrence,
    .value = heap_value,
    .fill = heap_fill,
    .options = heap_options,
    .terminal = gr_rules_terminal_of,
};
