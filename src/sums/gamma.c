/* gamma: normal play of sums of loopy components by generalised SG values; see sums.h. */
#include "sums.h"
#include "movekeys.h"
#include "render.h"
#include "loopy.h"
#include <string.h>

/* Smith's theory for sums of loopy impartial games: with gamma values g_i (finite, or
 * infinite with the set K_i of finite values of the options),
 *   all finite                 gamma = xor, a P-position iff it is 0
 *   one infinite, xor x of the rest   N if x is in K, else a draw
 *   two or more infinite       a draw
 * so each component's own graph is solved once and the product graph is never built. */
typedef struct gamma_comp { gr_sumgraph *s; uint32_t id; int64_t gamma; } gamma_comp;

typedef struct gamma_moves {
    gr_ctx *c;
    const gr_comp *comps; int n, at;
    gamma_comp *g;
    int64_t rest;                 /* xor of the other components, all finite */
    gr_child_fn fn; void *user;
    gr_move_keys keys;
    gr_text text;
    int64_t *parts; size_t cap;
} gamma_moves;

static void gamma_move(void *user, const char *text, uint32_t child) {
    gamma_moves *m = user;
    int64_t v = gr_pg_gamma(gr_sumgraph_pg(m->g[m->at].s), child);
    if (v < 0 || (v ^ m->rest) != 0) return;
    /* the component's new atoms, from the child's canonical encoding */
    gr_game *g = m->comps[m->at].game;
    int nparts;
    gr_sumgraph_atoms(m->g[m->at].s, child, &m->parts, &m->cap, &nparts);
    if (!gr_move_is_new(&m->keys, g, m->comps[m->at].c, m->parts, nparts)) return;
    gr_text_clear(&m->text);
    int first = 1;   /* empty heaps are left out (render.h) */
    for (int i = 0; i < m->n; i++) {
        if (i == m->at) gr_sum_text_part(&m->text, text, &first);
        else gr_sum_text_comp(&m->text, m->comps[i].game, m->comps[i].c, &first);
    }
    gr_sum_text_end(&m->text, first);
    m->fn(m->user, m->text.s, 0);
}

int gr_sum_gamma(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, int *outcome, int64_t *sg,
                 gr_loopy *loopy, gr_child_fn fn, void *user) {
    gamma_comp *g = gr_alloc(c, sizeof *g * (size_t)n);
    int ok = 1, ninf = 0, inf_at = -1;
    int64_t x = 0;
    for (int i = 0; i < n && ok; i++) {
        g[i].s = gr_sumgraph_new(c, m, CONV_NORMAL);
        g[i].id = gr_sumgraph_add(g[i].s, &comps[i], 1);
        gr_sumgraph_solve(g[i].s);
        gr_pg_solve_gamma(gr_sumgraph_pg(g[i].s));
        g[i].gamma = gr_pg_gamma(gr_sumgraph_pg(g[i].s), g[i].id);
        if (g[i].gamma == GR_GAMMA_INF) { ninf++; inf_at = i; }
        else if (g[i].gamma < 0) ok = 0;
        else x ^= g[i].gamma;
    }
    if (ok) {
        *sg = -1;
        if (ninf == 0) {
            *sg = x;
            *outcome = x ? GR_WIN : GR_LOSS;
        } else if (ninf == 1) {
            gr_pg *pg = gr_sumgraph_pg(g[inf_at].s);
            size_t nk = gr_pg_gamma_set(pg, g[inf_at].id, NULL, 0);
            uint32_t *k = gr_alloc(c, sizeof *k * (nk + 1));
            gr_pg_gamma_set(pg, g[inf_at].id, k, nk);
            *outcome = GR_DRAW;
            for (size_t i = 0; i < nk; i++) if ((int64_t)k[i] == x) *outcome = GR_WIN;
            /* the sum's value: infinity(K xor x), the finite values of its options */
            int64_t *kx = gr_alloc(c, sizeof *kx * (nk + 1));
            for (size_t i = 0; i < nk; i++) kx[i] = (int64_t)k[i] ^ x;
            if (loopy) *sg = gr_loopy_value(loopy, kx, nk);
            gr_free(c, kx);
            gr_free(c, k);
        } else {
            *outcome = GR_DRAW;
            /* every option keeps an infinite component: infinity of the empty set */
            if (loopy) *sg = gr_loopy_value(loopy, NULL, 0);
        }
        /* A winning move leaves every component finite with xor 0: the infinite one (if any)
         * must move, else any component may. */
        if (*outcome == GR_WIN && fn) {
            gamma_moves *gm = gr_alloc(c, sizeof *gm);
            *gm = (gamma_moves){ .c = c, .comps = comps, .n = n, .g = g, .fn = fn, .user = user };
            gr_move_keys_init(&gm->keys, c);
            gr_text_init(&gm->text, c);
            for (int i = 0; i < n; i++) {
                if (ninf == 1 && i != inf_at) continue;
                gm->at = i;
                gm->rest = ninf == 1 ? x : x ^ g[i].gamma;
                gr_sumgraph_moves(g[i].s, &comps[i], 1, gamma_move, gm);
            }
            gr_move_keys_free(&gm->keys);
            gr_text_free(&gm->text);
            gr_free(c, gm->parts);
            gr_free(c, gm);
        }
    }
    for (int i = 0; i < n; i++) if (g[i].s) gr_sumgraph_free(g[i].s);
    gr_free(c, g);
    return ok;
}
