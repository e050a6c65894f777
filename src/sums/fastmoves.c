/* fastmoves: normal play of sums by values, the fast path: the xor of the components' values,
 * and winning moves (or every option with its value) from each component's evaluator, by the
 * evaluator's own way to a wanted value where it has one (evaluator.h: moves_to). See sums.h. */
#include "sums.h"
#include "figure.h"
#include "movekeys.h"
#include "render.h"
#include "eval/cap_moves.h"
#include <string.h>

enum { HUGE_LISTED = 100 };   /* winning moves listed of a huge heap (found through its period) */

/* ---- values ---- */
/* A component's SG value from its evaluator, or -1 if it has none. */
static int64_t comp_sg(gr_ctx *c, gr_game *g, const int64_t *coords) {
    return gr_eval_sg(c, g, coords, g->decl->name_loc);
}

int gr_sum_sg_fast(gr_ctx *c, const gr_comp *comps, int n, int64_t *sg, int64_t *vals) {
    int64_t x = 0;
    for (int i = 0; i < n; i++) {
        int64_t v = comp_sg(c, comps[i].game, comps[i].c);
        if (v < 0) return 0;
        if (vals) vals[i] = v;
        x ^= v;
    }
    *sg = x;
    return 1;
}

/* ---- winning moves on the fast path ---- */
typedef struct fast_ctx {
    gr_ctx *c;
    const gr_comp *comps; int n, at;
    int64_t want;                 /* the value the moved component must take */
    int64_t rest;                 /* xor of the other components (every option: want < 0) */
    gr_child_fn fn; void *user;
    gr_valued_option_fn ofn;      /* every option, with its value */
    gr_move_keep_fn keep; void *kuser; /* gr_sum_moves_where: which options to report */
    int cut;                      /* >= 0: the move cuts this edge of a Hackenbush figure */
    gr_move_keys keys;
    gr_text text;
} fast_ctx;

static void fast_report(fast_ctx *f, gr_game *g, const int64_t *parts, int nparts, int64_t x) {
    if (!gr_move_is_new(&f->keys, g, f->comps[f->at].c, parts, nparts)) return;
    gr_text *t = &f->text;
    gr_text_clear(t);
    int first = 1;   /* empty heaps are left out (render.h) */
    for (int i = 0; i < f->n; i++) {
        if (i != f->at) {
            gr_sum_text_comp(t, f->comps[i].game, f->comps[i].c, &first);
            continue;
        }
        if (f->cut >= 0) {   /* a Hackenbush cut: the figure less the edge */
            if (!first) gr_text_puts(t, " + ");
            gr_sum_text_atom(t, g, f->comps[f->at].c, f->cut);
            first = 0;
        }
        for (int q = 0; f->cut < 0 && q < nparts; q++) gr_sum_text_comp(t, g, parts + q * g->arity, &first);
    }
    gr_sum_text_end(t, first);
    if (f->ofn) f->ofn(f->user, t->s, f->rest ^ x);
    else f->fn(f->user, t->s, 0);
}

static void fast_option(void *user, const int64_t *parts, int nparts) {
    fast_ctx *f = user;
    gr_game *g = f->comps[f->at].game;
    if (f->keep) {
        if (f->keep(f->kuser, f->at, parts, nparts)) fast_report(f, g, parts, nparts, 0);
        return;
    }
    int64_t x = 0;
    for (int i = 0; i < nparts; i++) x ^= comp_sg(f->c, g, parts + i * g->arity);
    if (x == f->want || f->want < 0) fast_report(f, g, parts, nparts, x);
}

/* A cut of a Hackenbush figure that leaves the wanted value: the canonical position after it. */
static void fast_cut(void *user, int edge) {
    fast_ctx *f = user;
    gr_game *g = f->comps[f->at].game;
    /* Named by the edge (its class of parallel edges: cutting any of them is one position),
     * not by the position's mask, which holds only the first GR_HB_MAX_CUT edges. The key
     * is negative, unlike a mask's first word where only edges 0..62 count. */
    int64_t key[GR_HB_WORDS] = { -1 - (int64_t)g->figure->twin[edge] };
    key[GR_HB_WORDS - 1] = INT64_MIN;
    f->cut = edge;
    fast_report(f, g, key, 1, f->want);
    f->cut = -1;
}

/* Every move of component after component to a result of value 0 (to fn), or with ofn every
 * option and its value. */
static int fast_options(gr_ctx *c, const gr_comp *comps, int n, const int64_t *vals, int64_t total,
                        gr_child_fn fn, gr_valued_option_fn ofn, void *user, int64_t *unlisted) {
    int complete = 1;
    fast_ctx *f = gr_alloc(c, sizeof *f);
    f->c = c; f->comps = comps; f->n = n; f->fn = fn; f->ofn = ofn; f->user = user; f->cut = -1;
    gr_move_keys_init(&f->keys, c);
    gr_text_init(&f->text, c);
    int every = ofn != NULL;
    for (int i = 0; i < n; i++) {
        gr_game *g = comps[i].game;
        gr_poll(c);
        f->at = i;
        f->want = every ? -1 : total ^ vals[i];
        f->rest = total ^ vals[i];
        {
            /* the evaluator's own way to the wanted value: nim, a huge heap through its proved
             * period (~h winning moves, or every option of it: the first are listed), a
             * figure's cuts found top down */
            gr_moves_sink sink = { fast_option, fast_cut, f };
            int64_t all;
            int r = gr_eval_moves_to(c, g, comps[i].c, f->want, HUGE_LISTED, &sink, &all);
            if (r >= 0) {
                complete &= r;
                if (all > HUGE_LISTED && unlisted) *unlisted += all - HUGE_LISTED;
                continue;
            }
        }
        gr_eval_options(c, g, comps[i].c, fast_option, f);
    }
    gr_move_keys_free(&f->keys);
    gr_text_free(&f->text);
    gr_free(c, f);
    return complete;
}

int gr_sum_fast_moves(gr_ctx *c, const gr_comp *comps, int n, const int64_t *vals, int64_t total,
                      gr_child_fn fn, void *user, int64_t *unlisted) {
    if (unlisted) *unlisted = 0;
    return fast_options(c, comps, n, vals, total, fn, NULL, user, unlisted);
}

void gr_sum_fast_options(gr_ctx *c, const gr_comp *comps, int n, const int64_t *vals, int64_t total,
                         gr_valued_option_fn fn, void *user, int64_t *unlisted) {
    if (unlisted) *unlisted = 0;
    (void)fast_options(c, comps, n, vals, total, NULL, fn, user, unlisted);
}

void gr_sum_moves_where(gr_ctx *c, const gr_comp *comps, int n, gr_move_keep_fn keep, gr_move_huge_fn huge,
                        void *kuser, gr_child_fn fn, void *user, int64_t *unlisted) {
    fast_ctx *f = gr_alloc(c, sizeof *f);
    f->c = c; f->comps = comps; f->n = n; f->fn = fn; f->user = user; f->cut = -1;
    f->keep = keep; f->kuser = kuser;
    gr_move_keys_init(&f->keys, c);
    gr_text_init(&f->text, c);
    if (unlisted) *unlisted = 0;
    for (int i = 0; i < n; i++) {
        gr_poll(c);
        f->at = i;
        int64_t all = huge ? huge(kuser, i, HUGE_LISTED, fast_option, f) : -1;
        if (all >= 0) {   /* the first ones went through fast_option (keep still decides) */
            if (all > HUGE_LISTED && unlisted) *unlisted += all - HUGE_LISTED;
            continue;
        }
        gr_eval_options(c, comps[i].game, comps[i].c, fast_option, f);
    }
    gr_move_keys_free(&f->keys);
    gr_text_free(&f->text);
    gr_free(c, f);
}
