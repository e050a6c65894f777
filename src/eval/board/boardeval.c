/* boardeval: the evaluator of games on boards in the registry (evaluator.h). SG values and
 * outcomes under normal play, and outcomes under misere play of a board alone, by the search of
 * bsolve.h, its tables kept in the game's cache for every later call; the options of a position
 * (each a board with more vertices removed), so that sums under every convention are answered by
 * the position graph over sums from them. */
#include "eval/evaluator.h"
#include "eval/cache.h"
#include "eval/cap_moves.h"
#include "eval/board/bsolve.h"
#include "eval/board/bteam.h"
#include <string.h>

static unsigned board_answers(const gr_game *g, gr_conv conv, char *why, size_t cap) {
    if (why && cap) snprintf(why, cap, "%s%s", g->explain, g->state->found);
    if (conv == CONV_NORMAL) return GR_KIND_SG | GR_KIND_OUTCOME;
    return conv == CONV_MISERE ? GR_KIND_OUTCOME : 0;
}

static gr_bstore *store_of(gr_ctx *c, gr_game *g) {
    struct gr_eval_cache *cache = gr_eval_cache_of(c, g);
    if (!cache->board) cache->board = gr_alloc(c, sizeof(gr_bstore));
    return cache->board;
}

/* The vertices of pos still on its board. */
static void present(const gr_board *b, const int64_t *pos, uint64_t *set) {
    memset(set, 0, (size_t)b->words * sizeof *set);
    for (int v = 0; v < b->n; v++)
        if (!gr_board_removed(pos, v)) set[v >> 6] |= UINT64_C(1) << (v & 63);
}

/* A position's board, its vertices left and a search over them, the team of --threads at long
 * roots (o must not move while open: the search points at o->b). */
typedef struct open_pos { gr_board b; uint64_t set[GR_BOARD_WORDS]; gr_bsearch s; } open_pos;
static void open_search(gr_ctx *c, gr_game *g, const int64_t *pos, open_pos *o) {
    gr_board_make(c, g, pos, &o->b);
    present(&o->b, pos, o->set);
    gr_bsearch_init(&o->s, c, &o->b, g->board_rule, store_of(c, g), GR_CANON_GRAPH);
    gr_bteam_use(&o->s, c->threads);
}
static void close_search(gr_ctx *c, open_pos *o) {
    gr_bsearch_free(&o->s);
    gr_board_free(c, &o->b);
}

/* The position after a move: pos with the vertices removed gone too. */
static void child_of(const int64_t *pos, const uint64_t *removed, int words, int64_t *child) {
    memcpy(child, pos, GR_MAX_ARITY * sizeof *child);
    for (int i = 0; i < words; i++) child[GR_BPOS_MASK + i] = (int64_t)((uint64_t)child[GR_BPOS_MASK + i] | removed[i]);
}

/* The value of one position: sg (normal) or, misere, the outcome. */
static int64_t board_search(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos) {
    open_pos o;
    open_search(c, g, pos, &o);
    int64_t v = conv == CONV_MISERE ? gr_bsearch_misere(&o.s, o.set) : gr_bsearch_sg(&o.s, o.set);
    close_search(c, &o);
    return v;
}

static int board_value(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds, gr_loc loc,
                       gr_value *out) {
    (void)kinds; (void)loc;
    int64_t v = board_search(c, g, conv, pos);
    if (conv == CONV_MISERE) { out->outcome = v ? GR_WIN : GR_LOSS; return 1; }
    out->sg = v;
    out->outcome = v ? GR_WIN : GR_LOSS;
    return 1;
}

static int board_fill(gr_ctx *c, gr_game *g, gr_conv conv, const gr_box *box, unsigned kind, int64_t *out) {
    int64_t n = gr_box_cells(box, NULL, NULL), cols, pos[GR_MAX_ARITY];
    gr_box_cells(box, NULL, &cols);
    c->step_label = "boards valued";
    c->step_total = (uint64_t)n;
    for (int64_t i = 0; i < n; i++) {
        c->step_done = (uint64_t)i;
        memcpy(pos, box->lo, sizeof pos);   /* the fixed coordinates: the kind, no vertex removed */
        pos[box->dim[0]] = box->lo[box->dim[0]] + (box->ndims == 2 ? i / cols : i);
        if (box->ndims == 2) pos[box->dim[1]] = box->lo[box->dim[1]] + i % cols;
        int64_t v = board_search(c, g, conv, pos);
        out[i] = conv == CONV_MISERE ? (v ? GR_WIN : GR_LOSS) : kind == GR_KIND_OUTCOME ? (v ? GR_WIN : GR_LOSS) : v;
    }
    return 1;
}

typedef struct opt_ctx { const gr_board *b; const int64_t *pos; gr_option_fn fn; void *user; } opt_ctx;
static void one_option(void *user, const uint64_t *removed) {
    opt_ctx *k = user;
    int64_t child[GR_MAX_ARITY];
    child_of(k->pos, removed, k->b->words, child);
    k->fn(k->user, child, 1);
}

/* Each move of the rule, vertices (edges by their lower end) in order. */
static void board_options(gr_ctx *c, gr_game *g, const int64_t *pos, gr_option_fn fn, void *user) {
    gr_board b;
    gr_board_make(c, g, pos, &b);
    uint64_t set[GR_BOARD_WORDS];
    present(&b, pos, set);
    uint64_t *scratch = gr_alloc(c, gr_size_mul(c, gr_board_moves_scratch(&b), sizeof *scratch));
    opt_ctx k = { &b, pos, fn, user };
    gr_board_moves(&b, g->board_rule, set, scratch, one_option, &k);
    gr_free(c, scratch);
    gr_board_free(c, &b);
}

/* The options of value `want`: each option asked only whether it has that value (the nimber
 * search's question, most often refuted at once), not valued: a solve's winning moves cost
 * about what the value does. Reported in the options' order, the first `limit`. */
typedef struct want_ctx {
    gr_bsearch *s; const uint64_t *set; const int64_t *pos; int64_t want, limit, count;
    const gr_moves_sink *sink; uint64_t rem[GR_BOARD_WORDS];
} want_ctx;
static void want_option(void *user, const uint64_t *removed) {
    want_ctx *k = user;
    int w = k->s->b->words;
    for (int i = 0; i < w; i++) k->rem[i] = k->set[i] & ~removed[i];
    if (!gr_bsearch_option_is(k->s, k->rem, k->want)) return;
    if (k->count++ >= k->limit) return;
    int64_t child[GR_MAX_ARITY];
    child_of(k->pos, removed, w, child);
    k->sink->option(k->sink->user, child, 1);
}

static int board_moves_to(gr_ctx *c, gr_game *g, const int64_t *pos, int64_t want, int64_t limit,
                          const gr_moves_sink *sink, int64_t *count) {
    *count = 0;
    if (want < 0) return -1;   /* every option with its value: they are walked and valued */
    open_pos o;
    open_search(c, g, pos, &o);   /* (an option's largest part across the team) */
    uint64_t *scratch = gr_alloc(c, gr_size_mul(c, gr_board_moves_scratch(&o.b), sizeof *scratch));
    want_ctx k = { .s = &o.s, .set = o.set, .pos = pos, .want = want, .limit = limit, .sink = sink };
    gr_board_moves(&o.b, g->board_rule, o.set, scratch, want_option, &k);
    gr_free(c, scratch);
    close_search(c, &o);
    *count = k.count;
    return 1;
}

static const gr_moves_cap board_moves_cap = { .moves_to = board_moves_to };
static const gr_evaluator_caps board_caps = { .moves = &board_moves_cap };

static int64_t board_describe(const gr_game *g, char *buf, size_t cap) {
    const gr_bstore *st = GR_CACHED(g, board);
    if (st && st->solved && cap)
        snprintf(buf, cap, "%llu components valued, %zu kept under canonical forms",
                 (unsigned long long)st->solved, st->sg.used);
    return 0;
}

const gr_evaluator_ops gr_board_evaluator = {
    .name = "games on boards (components under canonical forms)",
    .answers = board_answers,
    .value = board_value,
    .fill = board_fill,
    .options = board_options,
    .describe = board_describe,
    .caps = &board_caps,
};
