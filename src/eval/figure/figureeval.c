/* figureeval: the evaluators of Green Hackenbush figures and coin-turning rule sets in the
 * registry (evaluator.h). Both answer SG values and outcomes under normal play from a theorem
 * (the colon and fusion principles, hackenbush.h; the coin-turning theorem, turning.h) and give
 * the options of a position, so that every other convention is answered by the position graph
 * over sums from them. A position of either is a mask of GR_HB_WORDS (GR_COIN_WORDS) words. */
#include "eval/evaluator.h"
#include "eval/cap_moves.h"
#include "eval/figure/hackenbush.h"
#include "eval/figure/turning.h"
#include <string.h>

static unsigned normal_only(const gr_game *g, gr_conv conv, char *why, size_t cap) {
    if (why && cap) snprintf(why, cap, "%s%s", g->explain, g->state->found);
    return conv == CONV_NORMAL ? GR_KIND_SG | GR_KIND_OUTCOME : 0;
}

static void put(gr_value *out, int64_t sg) {
    out->sg = sg;
    out->outcome = sg ? GR_WIN : GR_LOSS;
}

/* ---- Green Hackenbush ---- */
static int figure_value(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds, gr_loc loc,
                        gr_value *out) {
    (void)conv; (void)kinds; (void)loc;
    put(out, gr_hb_value(c, g->figure, pos));
    return 1;
}

/* Cutting each edge still joined to ground, in edge order; each option in canonical form. */
static void figure_options(gr_ctx *c, gr_game *g, const int64_t *pos, gr_option_fn fn, void *user) {
    int64_t now[GR_HB_WORDS], child[GR_HB_WORDS];
    gr_hb_child(c, g->figure, pos, -1, now);
    for (int e = 0; e < g->figure->ne; e++) {
        if (gr_hb_absent(now, e)) continue;
        gr_poll(c);
        gr_hb_child(c, g->figure, now, e, child);
        fn(user, child, 1);
    }
}

/* The cuts that leave the wanted value, found top down (linear for bridges). */
static int figure_moves_to(gr_ctx *c, gr_game *g, const int64_t *pos, int64_t want, int64_t limit,
                           const gr_moves_sink *sink, int64_t *count) {
    (void)limit;
    *count = 0;
    if (want < 0) return -1;   /* every option: the cuts are walked */
    return gr_hb_moves(c, g->figure, pos, want, sink->cut, sink->user);
}

static const gr_moves_cap figure_moves_cap = { .moves_to = figure_moves_to };
static const gr_evaluator_caps figure_caps = { .moves = &figure_moves_cap };

const gr_evaluator_ops gr_figure_evaluator = {
    .name = "Green Hackenbush (colon and fusion principles)",
    .answers = normal_only,
    .value = figure_value,
    .options = figure_options,
    .caps = &figure_caps,
};

/* ---- coin turning ---- */
/* A position is the sum of its heads; a 1-D table ranges over places and gives a single head. */
static int coins_value(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds, gr_loc loc,
                       gr_value *out) {
    (void)conv; (void)kinds; (void)loc;
    int64_t x = 0;
    for (int i = 0; i < GR_COIN_PLACES; i++)
        if (gr_coin_heads(pos, i)) x ^= gr_turning_value(c, g, i);
    put(out, x);
    return 1;
}

static int coins_fill(gr_ctx *c, gr_game *g, gr_conv conv, const gr_box *box, unsigned kind, int64_t *out) {
    (void)conv;
    int64_t n = gr_box_cells(box, NULL, NULL), pos[GR_MAX_ARITY];
    for (int64_t i = 0; i < n; i++) {
        gr_box_cell(box, i, pos);
        int64_t v = gr_turning_value(c, g, pos[0]);
        out[i] = kind == GR_KIND_OUTCOME ? (v ? GR_WIN : GR_LOSS) : v;
    }
    return 1;
}

typedef struct coins_ctx { const int64_t *pos; int64_t x; gr_option_fn fn; void *user; } coins_ctx;
static void coins_flip(void *user, const int64_t *others, int n) {
    coins_ctx *k = user;
    int64_t m[GR_COIN_WORDS];
    memcpy(m, k->pos, sizeof m);
    gr_coin_flip(m, k->x);
    for (int i = 0; i < n; i++) gr_coin_flip(m, others[i]);
    k->fn(k->user, m, 1);
}

/* Each flip set at each heads, heads from the left. */
static void coins_options(gr_ctx *c, gr_game *g, const int64_t *pos, gr_option_fn fn, void *user) {
    coins_ctx k = { pos, 0, fn, user };
    for (k.x = 0; k.x < GR_COIN_PLACES; k.x++)
        if (gr_coin_heads(pos, k.x)) gr_turning_flips(c, g, k.x, coins_flip, &k);
}

const gr_evaluator_ops gr_coins_evaluator = {
    .name = "coin turning (coin-turning theorem)",
    .answers = normal_only,
    .value = coins_value,
    .fill = coins_fill,
    .options = coins_options,
};
