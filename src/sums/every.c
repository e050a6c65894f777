/* every: 'every' sums by step numbers; see every.h. */
#include "every.h"
#include <stdlib.h>
#include <string.h>

enum { EVERY_MAX_LISTED = 4096 };   /* combinations of moves enumerated for the full list */

typedef struct kid { char *text; uint32_t id; } kid;
typedef struct kids { gr_ctx *c; kid *v; size_t n, cap; } kids;

static void keep_kid(void *user, const char *text, uint32_t id) {
    kids *k = user;
    if (k->n == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 8;
        k->v = gr_realloc(k->c, k->v, gr_size_mul(k->c, k->cap, sizeof *k->v));
    }
    size_t len = strlen(text);
    char *copy = gr_alloc(k->c, len + 1);
    memcpy(copy, text, len + 1);
    k->v[k->n++] = (kid){ copy, id };
}

int gr_every_steps(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, int64_t *out) {
    gr_compgraph *g = gr_compgraph_new(c, m, comps, n);
    int ok = g->acyclic;
    if (ok) {
        gr_compgraph_steps(g);
        for (int i = 0; i < n; i++) out[i] = g->step[gr_compgraph_id(g, &comps[i])];
    }
    gr_compgraph_free(g);
    return ok;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Writes the sum where each live component j takes move pick[j]. */
static void combo_text(const gr_comp *comps, int n, const kids *kl, const size_t *pick, char *buf, size_t cap) {
    size_t pos = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && pos < cap; i++) {
        if (i) pos += (size_t)snprintf(buf + pos, cap - pos, " + ");
        if (pos >= cap) break;
        if (kl[i].n) {
            const char *t = kl[i].v[pick[i]].text;
            pos += (size_t)snprintf(buf + pos, cap - pos, n > 1 && strstr(t, " + ") ? "(%s)" : "%s", t);
        } else {
            char one[256];
            gr_render_comps(&comps[i], 1, one, sizeof one);
            pos += (size_t)snprintf(buf + pos, cap - pos, "%s", one);
        }
    }
}

void gr_every_solve(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_theory *t,
                    gr_child_fn fn, void *user) {
    gr_compgraph *g = gr_theory_begin(c, m, comps, n, t, "it has no step number");
    if (!g) return;
    gr_compgraph_steps(g);
    int64_t top = 0;
    int at = -1;
    for (int i = 0; i < n; i++) {
        int64_t s = g->step[gr_compgraph_id(g, &comps[i])];
        if (s > top) { top = s; at = i; }
    }
    t->decided = 1;
    t->outcome = top & 1 ? GR_WIN : GR_LOSS;
    /* top is how long the game lasts when both play the step strategy; the winner may end it
     * sooner, so it is not the remoteness of the position graph and is not reported as one. */
    char one[256];
    if (at >= 0) gr_render_comps(&comps[at], 1, one, sizeof one);
    snprintf(t->why, sizeof t->why, "every: step numbers (Every-SG); the largest, %lld, is %s's, %s",
             (long long)top, at >= 0 ? one : "none", top & 1 ? "odd: the player to move wins" : "even: the player to move loses");
    if (t->outcome == GR_WIN && fn) {
        kids *kl = gr_alloc(c, sizeof *kl * (size_t)n);
        size_t *pick = gr_alloc(c, sizeof *pick * (size_t)n);
        uint64_t combos = 1;
        for (int i = 0; i < n; i++) {
            kl[i].c = c;
            gr_compgraph_moves(g, &comps[i], keep_kid, &kl[i]);
            if (kl[i].n && combos <= EVERY_MAX_LISTED) combos *= kl[i].n;
        }
        char *buf = gr_alloc(c, 8192);
        if (combos <= EVERY_MAX_LISTED) {
            /* Every combination: P iff the largest step after the move is even. Combinations
             * that give the same multiset of components are one move. */
            uint32_t *seen = gr_alloc(c, gr_size_mul(c, (size_t)combos * (size_t)n + 1, sizeof *seen));
            size_t nseen = 0;
            for (;;) {
                int64_t mx = 0;
                uint32_t *ids = seen + nseen * (size_t)n;
                for (int i = 0; i < n; i++) {
                    ids[i] = kl[i].n ? kl[i].v[pick[i]].id : gr_compgraph_id(g, &comps[i]);
                    int64_t s = g->step[ids[i]];
                    if (s > mx) mx = s;
                }
                if (!(mx & 1)) {
                    qsort(ids, (size_t)n, sizeof *ids, cmp_u32);
                    size_t k = 0;
                    while (k < nseen && memcmp(seen + k * (size_t)n, ids, (size_t)n * sizeof *ids) != 0) k++;
                    if (k == nseen) {
                        nseen++;
                        combo_text(comps, n, kl, pick, buf, 8192);
                        fn(user, buf, 0);
                    }
                }
                int i = n - 1;
                for (; i >= 0; i--) {
                    if (!kl[i].n) continue;
                    if (++pick[i] < kl[i].n) break;
                    pick[i] = 0;
                }
                if (i < 0) break;
            }
            gr_free(c, seen);
        } else {
            /* The strategy: keep the components you win alive as long as possible (a move to
             * a losing position of step s - 1), end the others as fast as possible (a move
             * of step s - 1 too); the largest step then drops from odd to even. */
            for (int i = 0; i < n; i++) {
                if (!kl[i].n) continue;
                int64_t s = g->step[gr_compgraph_id(g, &comps[i])];
                for (size_t j = 0; j < kl[i].n; j++)
                    if (g->step[kl[i].v[j].id] == s - 1 &&
                        (gr_pg_outcome(g->pg, gr_compgraph_id(g, &comps[i])) == GR_LOSS || gr_pg_outcome(g->pg, kl[i].v[j].id) == GR_LOSS)) {
                        pick[i] = j;
                        break;
                    }
            }
            combo_text(comps, n, kl, pick, buf, 8192);
            fn(user, buf, 0);
            t->moves_partial = 1;
        }
        gr_free(c, buf);
        for (int i = 0; i < n; i++) {
            for (size_t j = 0; j < kl[i].n; j++) gr_free(c, kl[i].v[j].text);
            gr_free(c, kl[i].v);
        }
        gr_free(c, kl);
        gr_free(c, pick);
    }
    gr_compgraph_free(g);
}
