/* pggamma: generalised Sprague-Grundy values (gamma) of the position graph; see posgraph.h. */
#include "eval/graph/pgint.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "worker.h"

/* ---- generalised Sprague-Grundy values ------------------------------------------------------
 * The labelling algorithm of Fraenkel and Yesha, stage m = 0, 1, 2, ...:
 *   (a) while some unlabelled u has no child labelled m and every child of u that is
 *       unlabelled or labelled infinity has a child labelled m, label u with m;
 *   (b) label infinity every unlabelled u with no child labelled m.
 * Step (a) is a retrograde analysis in which "labelled m" plays LOSS and "has a child labelled
 * m" (hit) plays WIN, restricted to children that are unlabelled or infinite; it runs with
 * counters in time linear in the edges it touches. Each stage labels something m or ends the
 * loop, so there are at most (largest finite value) + 2 stages. Positions that reach a WIN
 * terminal are outside the theory (no game-sum meaning) and stay undefined. */

static int open_label(uint32_t l) { return l == GAMMA_UNL || l == GAMMA_INF; }

/* Marks undefined every position that reaches a WIN terminal (a search up the reverse graph);
 * everything else starts unlabelled. Returns the unlabelled ones in list. */
static uint32_t gamma_init(gr_pg *g, uint32_t n, const uint64_t *roff, const uint32_t *rev,
                           uint32_t *queue, uint32_t *list) {
    uint32_t head = 0, tail = 0, count = 0;
    for (uint32_t v = 0; v < n; v++) {
        g->gamma[v] = GAMMA_UNL;
        if (g->kind[v] == GR_EXPAND_WIN) {
            g->gamma[v] = NONE;
            queue[tail++] = v;
        }
    }
    while (head < tail) {
        uint32_t v = queue[head++];
        for (uint64_t e = roff[v]; e < roff[v + 1]; e++)
            if (g->gamma[rev[e]] != NONE) {
                g->gamma[rev[e]] = NONE;
                queue[tail++] = rev[e];
            }
    }
    for (uint32_t v = 0; v < n; v++)
        if (g->gamma[v] == GAMMA_UNL) list[count++] = v;
    return count;
}

/* One stage: labels m where step (a) allows and infinity where step (b) says; compacts list
 * to what is still unlabelled and returns its length. hit[v] == m + 1 means v has a child
 * labelled m (stamps, so nothing is cleared between stages). */
static uint32_t gamma_stage(gr_pg *g, uint32_t m, const uint64_t *roff, const uint32_t *rev,
                            uint32_t *list, uint32_t count, uint32_t *cnt, uint32_t *hit,
                            uint32_t *queue) {
    uint32_t *lab = g->gamma, stamp = m + 1, head = 0, tail = 0;
    /* Count before seeding: a seed labelled m is no longer open, and counting after it would
     * let its parents (which have a child labelled m) reach zero as well. */
    for (uint32_t k = 0; k < count; k++) {
        uint32_t u = list[k], open = 0;
        const uint32_t *ch = g->children + g->child_off[u];
        for (uint32_t j = 0, deg = gr_pgi_degree(g, u); j < deg; j++) open += open_label(lab[ch[j]]);
        cnt[u] = open;
    }
    for (uint32_t k = 0; k < count; k++)
        if (cnt[list[k]] == 0) {
            lab[list[k]] = m;
            queue[tail++] = list[k];
        }
    while (head < tail) {
        uint32_t x = queue[head++];
        for (uint64_t e = roff[x]; e < roff[x + 1]; e++) {
            uint32_t p = rev[e];
            if (!open_label(lab[p]) || hit[p] == stamp) continue;
            hit[p] = stamp; /* p has a child labelled m, so its open parents lose a need */
            for (uint64_t f = roff[p]; f < roff[p + 1]; f++) {
                uint32_t q = rev[f];
                if (lab[q] != GAMMA_UNL || hit[q] == stamp) continue;
                if (--cnt[q] == 0) {
                    lab[q] = m;
                    queue[tail++] = q;
                }
            }
        }
    }
    uint32_t left = 0;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t u = list[k];
        if (lab[u] != GAMMA_UNL) continue;
        if (hit[u] == stamp) list[left++] = u;
        else lab[u] = GAMMA_INF;
    }
    return left;
}

void gr_pg_solve_gamma(gr_pg *g) {
    if (g->gamma && g->n_gamma == g->n) return;   /* labelled already, and the graph has not grown */
    if (g->n_solved != g->n) gr_pg_solve(g);
    gr_pgi_materialize(g);   /* the labelling walks edges both ways */
    uint32_t n = g->n;
    gr_ctx *c = g->c;
    if (!g->gamma || g->gamma_cap < n) {
        g->gamma_cap = n ? n : 1;
        g->gamma = gr_pgi_resize(c, g->gamma, sizeof *g->gamma, g->gamma_cap);
    }
    uint64_t *roff;
    uint32_t *rev;
    gr_pgi_build_reverse(g, n, &roff, &rev);
    uint32_t *queue = gr_pgi_resize(c, NULL, sizeof *queue, n ? n : 1);
    uint32_t *list = gr_pgi_resize(c, NULL, sizeof *list, n ? n : 1);
    uint32_t *cnt = gr_pgi_resize(c, NULL, sizeof *cnt, n ? n : 1);
    uint32_t *hit = gr_alloc(c, gr_size_mul(c, sizeof *hit, n ? n : 1)); /* zeroed: no stamp */
    uint32_t count = gamma_init(g, n, roff, rev, queue, list);
    for (uint32_t m = 0; count > 0; m++) {
        gr_poll(c);
        count = gamma_stage(g, m, roff, rev, list, count, cnt, hit, queue);
    }
    gr_free(c, hit);
    gr_free(c, cnt);
    gr_free(c, list);
    gr_free(c, queue);
    gr_free(c, rev);
    gr_free(c, roff);
    g->n_gamma = n;
}

int64_t gr_pg_gamma(const gr_pg *g, uint32_t id) {
    if (id >= g->n_gamma) return -1;
    uint32_t v = g->gamma[id];
    return v == NONE ? -1 : v == GAMMA_INF ? GR_GAMMA_INF : (int64_t)v;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

size_t gr_pg_gamma_set(const gr_pg *g, uint32_t id, uint32_t *out, size_t cap) {
    if (id >= g->n_gamma || g->gamma[id] == NONE) return 0;
    uint32_t deg = gr_pgi_degree(g, id), k = 0;
    uint32_t *vals = gr_pgi_resize(g->c, NULL, sizeof *vals, deg ? deg : 1);
    const uint32_t *ch = g->children + g->child_off[id];
    for (uint32_t j = 0; j < deg; j++)
        if (g->gamma[ch[j]] < GAMMA_UNL) vals[k++] = g->gamma[ch[j]];
    qsort(vals, k, sizeof *vals, cmp_u32);
    size_t distinct = 0;
    for (uint32_t j = 0; j < k; j++) {
        if (j > 0 && vals[j] == vals[j - 1]) continue;
        if (distinct < cap) out[distinct] = vals[j];
        distinct++;
    }
    gr_free(g->c, vals);
    return distinct;
}
