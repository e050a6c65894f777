/* grapheval: the position-graph evaluator's entry in the registry (evaluator.h). Games lowered
 * to the position graph (explicit graphs, heap rules with 'terminal' or 'where', fixed-outcome
 * terminals) get their values from the position graph over sums (sums/), which holds sums of
 * parts as canonical multisets; this table gives what that graph needs from the game itself:
 * its options (by the form of its positions) and its terminals. It declines every value (its
 * value says so: the graph over sums answers them, a later stage than eval/). */
#include "eval/evaluator.h"
#include "eval/rules.h"

static unsigned graph_answers(const gr_game *g, gr_conv conv, char *why, size_t cap) {
    (void)conv;
    if (why && cap) snprintf(why, cap, "%s%s", g->explain, g->state->found);
    return 0;
}

static int graph_value(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds,
                       gr_loc loc, gr_value *out) {
    (void)c; (void)g; (void)conv; (void)pos; (void)kinds; (void)loc; (void)out;
    return 0;
}

/* The moves of a position come from the evaluator that knows its shape (gr_evaluator_of_shape,
 * eval/shapes.c); an explicit graph's are its own edges. */
static void graph_options(gr_ctx *c, gr_game *g, const int64_t *pos, gr_option_fn fn, void *user) {
    const gr_evaluator_ops *moves = gr_evaluator_of_shape(g->shape);
    if (moves) {
        moves->options(c, g, pos, fn, user);
        return;
    }
    for (int32_t e = g->adj_off[pos[0]]; e < g->adj_off[pos[0] + 1]; e++) {
        int64_t to = g->adj[e];
        fn(user, &to, 1);
    }
}

const gr_evaluator_ops gr_graph_evaluator = {
    .name = "position graph",
    .answers = graph_answers,
    .value = graph_value,
    .options = graph_options,
    .terminal = gr_rules_terminal_of,
};
