/* evaluator: the registry of evaluators, the getters of their capabilities and the calls
 * queries and sums make; see evaluator.h. */
#include "eval/evaluator.h"
#include "eval/cap_ready.h"
#include "eval/cache.h"
#include "eval/cap_heaptable.h"
#include "eval/cap_moves.h"
#include "eval/rules.h"
#include "eval/cap_convkernel.h"
#include "eval/figure/hackenbush.h"
#include "board.h"
#include <string.h>

/* The registry: the evaluator of each id lowering may choose (lower/game.h). */
const gr_evaluator_ops *gr_evaluator_of(const gr_game *g) {
    switch (g->evaluator) {
    case EVAL_HEAP: return &gr_heap_evaluator;
    case EVAL_TABLE: return &gr_table_evaluator;
    case EVAL_GRAPH: return &gr_graph_evaluator;
    case EVAL_FIGURE: return &gr_figure_evaluator;
    case EVAL_COINS: return &gr_coins_evaluator;
    case EVAL_BOARD: return &gr_board_evaluator;
    }
    return &gr_graph_evaluator;
}

/* The evaluator of g under conv: a heap rule set that never splits has its own kernel under
 * 'anyleaf' and 'every' (cap_convkernel.h); otherwise gr_evaluator_of. */
static const gr_evaluator_ops *gr_evaluator_for(const gr_game *g, gr_conv conv) {
    if ((conv == CONV_ANYLEAF || conv == CONV_EVERY) && gr_cap_convkernel(g)) return &gr_convkernel_evaluator;
    return gr_evaluator_of(g);
}

unsigned gr_eval_answers(const gr_game *g, gr_conv conv, char *why, size_t cap) {
    if (why && cap) why[0] = '\0';
    return gr_evaluator_for(g, conv)->answers(g, conv, why, cap);
}

/* What the evaluators allocate while they work on g is charged to g's account (its cache's
 * memory; core/ctx.h), so that an engine can drop one game's values (api/engine.h). */
#define ON_GAME(c, g, expr) do { gr_mem_account *prev_ = gr_account_enter((c), &(g)->state->mem); expr; gr_account_leave((c), prev_); } while (0)

int gr_eval_value(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds,
                  gr_loc loc, gr_value *out) {
    const gr_evaluator_ops *ops = gr_evaluator_for(g, conv);
    *out = (gr_value){ -1, -1, -1, -1, -1 };
    if (!ops->value || !(ops->answers(g, conv, NULL, 0) & kinds)) return 0;
    int rc;
    ON_GAME(c, g, rc = ops->value(c, g, conv, pos, kinds, loc, out));
    return rc;
}

int64_t gr_eval_sg(gr_ctx *c, gr_game *g, const int64_t *pos, gr_loc loc) {
    gr_value v;
    if (!gr_eval_value(c, g, CONV_NORMAL, pos, GR_KIND_SG, loc, &v)) return -1;
    return v.sg;
}


static int fill_cells(gr_ctx *c, gr_game *g, gr_conv conv, const gr_box *box, unsigned kind,
                      int64_t *out) {
    const gr_evaluator_ops *ops = gr_evaluator_for(g, conv);
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

int gr_eval_fill(gr_ctx *c, gr_game *g, gr_conv conv, const gr_box *box, unsigned kind,
                 int64_t *out) {
    if (!(gr_evaluator_for(g, conv)->answers(g, conv, NULL, 0) & kind)) return 0;
    int rc;
    ON_GAME(c, g, rc = fill_cells(c, g, conv, box, kind, out));
    return rc;
}

int gr_eval_terminal(gr_ctx *c, const gr_game *g, const int64_t *pos) {
    const gr_evaluator_ops *ops = gr_evaluator_of(g);
    return ops->terminal ? ops->terminal(c, g, pos) : -1;
}

void gr_eval_options(gr_ctx *c, gr_game *g, const int64_t *pos, gr_option_fn fn, void *user) {
    if (gr_eval_terminal(c, g, pos) >= 0) return;
    ON_GAME(c, g, gr_evaluator_of(g)->options(c, g, pos, fn, user));
}


/* ---- capabilities (eval/cap_*.h) ---- */
static const gr_evaluator_caps *caps_of(const gr_game *g) {
    return gr_evaluator_of(g)->caps;
}

const gr_ready_cap *gr_cap_ready(const gr_game *g) {
    const gr_evaluator_caps *caps = caps_of(g);
    return caps ? caps->ready : NULL;
}

const gr_heap_table_cap *gr_cap_heap_table(const gr_game *g) {
    const gr_evaluator_caps *caps = caps_of(g);
    return caps ? caps->heap_table : NULL;
}

const gr_moves_cap *gr_cap_moves(const gr_game *g) {
    const gr_evaluator_caps *caps = caps_of(g);
    return caps ? caps->moves : NULL;
}

int gr_eval_ensure(gr_ctx *c, gr_game *g, const int64_t *lo, const int64_t *hi, unsigned kinds) {
    if (!(gr_evaluator_of(g)->answers(g, CONV_NORMAL, NULL, 0) & kinds)) return 0;
    const gr_ready_cap *r = gr_cap_ready(g);
    if (!r) return 1;
    int rc;
    ON_GAME(c, g, rc = r->ensure(c, g, lo, hi, kinds));
    return rc;
}

int gr_eval_ready(const gr_game *g, const int64_t *pos, unsigned kind, int64_t *v) {
    const gr_ready_cap *r = gr_cap_ready(g);
    return r ? r->ready(g, pos, kind, v) : 0;
}

int gr_eval_moves_to(gr_ctx *c, gr_game *g, const int64_t *pos, int64_t want, int64_t limit,
                     const gr_moves_sink *sink, int64_t *count) {
    const gr_moves_cap *m = gr_cap_moves(g);
    *count = 0;
    if (!m) return -1;
    int rc;
    ON_GAME(c, g, rc = m->moves_to(c, g, pos, want, limit, sink, count));
    return rc;
}

int64_t gr_eval_describe(const gr_game *g, char *buf, size_t cap) {
    const gr_evaluator_ops *ops = gr_evaluator_of(g);
    if (cap) buf[0] = '\0';
    return ops->describe ? ops->describe(g, buf, cap) : 0;
}

/* snprintf's contract (the length the whole text needs, buf cut and terminated at cap) for the
 * two pieces a position is made of, without printf: a solve writes its winning moves by the
 * thousand, and formatting them was most of its time. */
static size_t put_text(char *buf, size_t cap, size_t at, const char *s) {
    size_t n = strlen(s);
    if (at < cap) {
        size_t k = n < cap - at ? n : cap - at - 1;
        memcpy(buf + at, s, k);
        buf[at + k] = '\0';
    }
    return at + n;
}

static size_t put_int(char *buf, size_t cap, size_t at, int64_t v) {
    char d[24], *p = d + sizeof d;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    *--p = '\0';
    do *--p = (char)('0' + u % 10); while (u /= 10);
    if (v < 0) *--p = '-';
    return put_text(buf, cap, at, p);
}

size_t gr_eval_render(const gr_game *g, const int64_t *pos, int edge, char *buf, size_t cap, size_t at) {
    if (at >= cap) return at;
    if (g->shape == SHAPE_GRAPH) return at + (size_t)snprintf(buf + at, cap - at, "%s.%s", g->name, g->vertices[pos[0]]);
    if (g->shape == SHAPE_FIGURE) return gr_hb_render(g->figure->c, g->name, g->figure, pos, edge, buf, cap, at);
    if (g->shape == SHAPE_BOARD) return gr_board_render(g, pos, buf, cap, at);
    if (g->name[0] == '*') return at + (size_t)snprintf(buf + at, cap - at, "*%lld", (long long)pos[0]);   /* the prelude's nim heap */
    at = put_text(buf, cap, at, g->name);
    at = put_text(buf, cap, at, "(");
    for (int i = 0, k = 0; g->shape == SHAPE_COINS && i < GR_COIN_PLACES && at < cap; i++)   /* the heads */
        if (gr_coin_heads(pos, i)) at = put_int(buf, cap, put_text(buf, cap, at, k++ ? ", " : ""), i);
    for (int i = 0; g->shape != SHAPE_COINS && i < g->arity && at < cap; i++)
        at = put_int(buf, cap, put_text(buf, cap, at, i ? ", " : ""), pos[i]);
    return put_text(buf, cap, at, ")");
}

int gr_eval_is_nim(const gr_game *g) {
    return g->kernel == KER_NIM;
}

int gr_eval_splits(const gr_game *g) {
    if (g->shape != SHAPE_HEAP) return 0;
    if (g->kernel == KER_OCTAL || g->kernel == KER_TB) return g->tb.max_heaps >= 2;
    if (g->rules)
        for (int i = 0; i < g->rules->nmoves; i++) if (g->rules->moves[i].nparts > 1) return 1;
    return 0;
}

static void count_one(void *user, const int64_t *parts, int nparts) {
    (void)parts; (void)nparts;
    ++*(uint64_t *)user;
}

uint64_t gr_eval_computed(const gr_game *g) {
    return g->state->cache ? g->state->cache->computed : 0;
}

uint64_t gr_eval_kept(const gr_game *g) {
    const gr_sgtable *t = GR_CACHED(g, sg);
    return (t && t->n > 0 ? (uint64_t)t->n : 0) + gr_eval_computed(g);
}

uint64_t gr_eval_count_options(gr_ctx *c, gr_game *g, const int64_t *pos) {
    uint64_t k = 0;
    gr_eval_options(c, g, pos, count_one, &k);
    return k;
}
