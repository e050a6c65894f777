/* figure: the positions of Green Hackenbush figures and coin-turning rows as the IR holds
 * them (the algorithms are eval/figure/hackenbush.h and eval/figure/turning.h).
 *
 * A figure is a multigraph on named vertices (loops and parallel edges allowed) with one root,
 * 'ground'; a position is the figure with some edges cut, a mask of absent edges in GR_HB_WORDS
 * 64-bit words. A coin-turning position is a mask of heads in GR_COIN_WORDS words. */
#ifndef GRUNDY_FIGURE_H
#define GRUNDY_FIGURE_H
#include "game.h"

enum { GR_HB_WORDS = 16, GR_HB_MAX_CUT = GR_HB_WORDS * 64 };

typedef struct gr_figure {
    const char **names; int nv;    /* vertex names; ground is vertex `ground` (-1: none) */
    int32_t *eu, *ev; int ne;      /* edge i joins eu[i] and ev[i] (eu == ev: a loop) */
    int ground;
    gr_ctx *c;                     /* the compilation's context, for scratch memory when rendering */
    int32_t *twin;                 /* per edge: the least edge with the same two ends (gr_hb_prepare) */
} gr_figure;

/* Finishes a figure whose vertices and edges are set: the classes of parallel edges. */
void gr_hb_prepare(gr_ctx *c, gr_figure *f);

static inline int gr_hb_absent(const int64_t *mask, int e) {
    return mask && e < GR_HB_MAX_CUT && ((uint64_t)mask[e >> 6] >> (e & 63) & 1);
}

enum { GR_COIN_WORDS = 16, GR_COIN_PLACES = GR_COIN_WORDS * 64 };

typedef struct gr_turning {
    gr_rules *rules;               /* arity 1 (x); parts[p].coords[0] the low end of part p */
    gr_code ***part_hi;            /* part_hi[m][p]: the high end of a range part, NULL for one coin */
    int64_t *val; int64_t nval, cap;   /* single-head values known so far */
} gr_turning;

static inline int gr_coin_heads(const int64_t *mask, int64_t p) {
    return p >= 0 && p < GR_COIN_PLACES && ((uint64_t)mask[p >> 6] >> (p & 63) & 1);
}
static inline void gr_coin_flip(int64_t *mask, int64_t p) {
    mask[p >> 6] = (int64_t)((uint64_t)mask[p >> 6] ^ UINT64_C(1) << (p & 63));
}
#endif
