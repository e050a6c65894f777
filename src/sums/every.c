/* every: 'every' sums by step numbers; see every.h. */
#include "every.h"
#include <stdlib.h>
#include <string.h>

enum { EVERY_MAX_LISTED = 4096 };   /* combinations of moves enumerated for the full list */

/* A move of one component: its text, step number and normal-play outcome. */
typedef struct kid { char *text; int64_t step; int outcome; } kid;
typedef struct kids { gr_ctx *c; gr_compgraph *g; kid *v; size_t n, cap; const gr_comp *comp; } kids;

static void add_kid(kids *k, const char *text, int64_t step, int outcome) {
    if (k->n == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 8;
        k->v = gr_realloc(k->c, k->v, gr_size_mul(k->c, k->cap, sizeof *k->v));
    }
    size_t len = strlen(text);
    char *copy = gr_alloc(k->c, len + 1);
    memcpy(copy, text, len + 1);
    k->v[k->n++] = (kid){ copy, step, outcome };
}

static void graph_kid(void *user, const char *text, uint32_t id) {
    kids *k = user;
    add_kid(k, text, k->g->step[id], (int)gr_pg_outcome(k->g->pg, id));
}

static void kernel_kid(void *user, int64_t heap, const gr_hcval *v) {
    kids *k = user;
    gr_comp child = *k->comp;
    child.c[0] = heap;
    char text[512];
    gr_render_comps(k->c, &child, 1, text, sizeof text);
    add_kid(k, text, v->step, v->outcome);
}

int gr_every_steps(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, int64_t *out) {
    return gr_theory_values(c, m, comps, n, CONV_EVERY, out);
}

static int cmp_text(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Writes the sum where each live component j takes move pick[j] (render.h: a component left
 * with nothing, "*0", is left out: it can never move again). */
static void combo_text(gr_ctx *c, const gr_comp *comps, int n, const kids *kl, const size_t *pick, char *buf, size_t cap) {
    gr_text t;
    gr_text_init(&t, c);
    int first = 1;
    gr_text one;
    gr_text_init(&one, c);
    for (int i = 0, len; i < n; i += len) {
        len = gr_unit_len(comps, n, i);
        if (!kl[i].n) {   /* a unit that cannot move: as it is (a group in parentheses) */
            gr_text_clear(&one);
            int in = 1, parts = 0;
            for (int k = i; k < i + len; k++) parts += gr_sum_text_comp(&one, comps[k].game, comps[k].c, &in);
            if (parts) {
                if (!first) gr_text_printf(&t, " + ");
                first = 0;
                gr_text_printf(&t, parts > 1 ? "(%s)" : "%s", one.s);
            }
            continue;
        }
        const char *p = kl[i].v[pick[i]].text;
        if (strstr(p, " + ")) {
            if (!first) gr_text_printf(&t, " + ");
            first = 0;
            gr_text_printf(&t, "(%s)", p);
        } else gr_sum_text_part(&t, p, &first);
    }
    gr_sum_text_end(&t, first);
    snprintf(buf, cap, "%s", t.s);
    gr_text_free(&t);
    gr_text_free(&one);
}

/* The step numbers of one component's moves, sorted (for counting the winning combinations). */
typedef struct steps { gr_ctx *c; int64_t *v; size_t n, cap; } steps;

static void add_step(steps *s, int64_t step) {
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->v = gr_realloc(s->c, s->v, gr_size_mul(s->c, s->cap, sizeof *s->v));
    }
    s->v[s->n++] = step;
}

static void step_kid(void *user, int64_t heap, const gr_hcval *v) {
    (void)heap;
    add_step(user, v->step);
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* How many of s's steps are < m (or <= m with le). */
static double count_below(const steps *s, int64_t m, int le) {
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->v[mid] < m || (le && s->v[mid] == m)) lo = mid + 1; else hi = mid;
    }
    return (double)lo;
}

enum { EVERY_MAX_COUNTED = 1 << 16 };   /* a kernel heap's moves read for the count */

/* How many combinations of moves win (the largest step after the move even), capped at 2: 1
 * means the strategy's move is the only winning move, so the one shown is the whole list. -1
 * when a huge heap's moves are too many to read. A component that cannot move keeps its
 * step. Combinations, not distinct moves: two may give the same sum, so 2 proves nothing. */
static int winning_combos(gr_ctx *c, const gr_comp *comps, const kids *kl, const int64_t *step,
                          const int *kernel, int n) {
    steps *st = gr_alloc(c, sizeof *st * (size_t)n);
    int known = 1;
    size_t total_steps = 0;
    for (int i = 0; i < n; i++) {
        st[i] = (steps){ .c = c };
        if (kl[i].n) {
            for (size_t j = 0; j < kl[i].n; j++) add_step(&st[i], kl[i].v[j].step);
        } else if (kernel[i]) {
            int64_t k = gr_cap_convkernel(comps[i].game)->options(c, comps[i].game, comps[i].c[0], NULL, 0, NULL, NULL);
            if (k > EVERY_MAX_COUNTED) { known = 0; continue; }
            if (k) gr_cap_convkernel(comps[i].game)->options(c, comps[i].game, comps[i].c[0], NULL, INT64_MAX, step_kid, &st[i]);
        }
        if (!st[i].n) add_step(&st[i], step[i]);   /* it cannot move: it stays as it is */
        qsort(st[i].v, st[i].n, sizeof *st[i].v, cmp_i64);
        total_steps += st[i].n;
    }
    double total = 0;
    if (known) {
        /* every value m some step takes: combinations with every step <= m, less those < m */
        int64_t *all = gr_alloc(c, gr_size_mul(c, total_steps, sizeof *all));
        size_t na = 0;
        for (int i = 0; i < n; i++) for (size_t j = 0; j < st[i].n; j++) all[na++] = st[i].v[j];
        qsort(all, na, sizeof *all, cmp_i64);
        for (size_t j = 0; j < na && total < 2; j++) {
            if ((j && all[j] == all[j - 1]) || (all[j] & 1)) continue;
            double le = 1, lt = 1;
            for (int i = 0; i < n; i++) { le *= count_below(&st[i], all[j], 1); lt *= count_below(&st[i], all[j], 0); }
            total += le - lt;
        }
        gr_free(c, all);
    }
    for (int i = 0; i < n; i++) gr_free(c, st[i].v);
    gr_free(c, st);
    return !known ? -1 : total >= 2 ? 2 : (int)total;
}

void gr_every_solve(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_theory *t,
                    gr_child_fn fn, void *user) {
    gr_theory_parts p;
    if (!gr_theory_split(c, m, comps, n, CONV_EVERY, t, "it has no step number", &p)) return;
    gr_compgraph *g = p.g;
    int64_t top = 0, *step = gr_alloc(c, sizeof *step * (size_t)(n + 1));
    int *outc = gr_alloc(c, sizeof *outc * (size_t)(n + 1));
    int at = -1;
    for (int i = 0, len; i < n; i += len) {   /* by units: a group is one component */
        len = gr_unit_len(comps, n, i);
        for (int k = i + 1; k < i + len; k++) { step[k] = 0; outc[k] = GR_LOSS; }   /* the unit's own are at i */
        uint32_t id = p.kernel[i] ? 0 : gr_compgraph_id_n(g, &comps[i], len);
        step[i] = p.kernel[i] ? p.kv[i].step : g->step[id];
        outc[i] = p.kernel[i] ? p.kv[i].outcome : (int)gr_pg_outcome(g->pg, id);
        if (step[i] > top) { top = step[i]; at = i; }
    }
    t->decided = 1;
    t->outcome = top & 1 ? GR_WIN : GR_LOSS;
    /* top is how long the game lasts when both play the step strategy; the winner may end it
     * sooner, so it is not the remoteness of the position graph and is not reported as one. */
    char one[256];
    if (at >= 0) gr_render_comps(c, &comps[at], gr_unit_len(comps, n, at), one, sizeof one);
    snprintf(t->why, sizeof t->why, "every: step numbers (Every-SG); the largest, %lld, is %s's, %s",
             (long long)top, at >= 0 ? one : "none", top & 1 ? "odd: the player to move wins" : "even: the player to move loses");
    gr_theory_kernels_why(comps, n, &p, t);
    if (t->outcome == GR_WIN && fn) {
        kids *kl = gr_alloc(c, sizeof *kl * (size_t)n);
        size_t *pick = gr_alloc(c, sizeof *pick * (size_t)n);
        uint64_t combos = 1;
        for (int i = 0; i < n; i++) kl[i] = (kids){ .c = c, .g = g, .comp = &comps[i] };
        for (int i = 0, len; i < n; i += len) {   /* a unit's moves are at its first comp */
            len = gr_unit_len(comps, n, i);
            uint64_t k;
            if (p.kernel[i]) {
                /* a huge heap may have more options than are worth listing: count them first */
                k = (uint64_t)gr_cap_convkernel(comps[i].game)->options(c, comps[i].game, comps[i].c[0], NULL, 0, NULL, NULL);
                if (k && k <= EVERY_MAX_LISTED && combos * k <= EVERY_MAX_LISTED)
                    gr_cap_convkernel(comps[i].game)->options(c, comps[i].game, comps[i].c[0], NULL, INT64_MAX, kernel_kid, &kl[i]);
            } else {
                gr_compgraph_moves_n(g, &comps[i], len, graph_kid, &kl[i]);
                k = kl[i].n;
            }
            if (k && combos <= EVERY_MAX_LISTED) combos = k > EVERY_MAX_LISTED ? EVERY_MAX_LISTED + 1 : combos * k;
        }
        char *buf = gr_alloc(c, 8192);
        if (combos <= EVERY_MAX_LISTED) {
            /* Every combination: P iff the largest step after the move is even. Combinations
             * that give the same multiset of components are one move. */
            const char **seen = gr_alloc(c, gr_size_mul(c, (size_t)combos * (size_t)n + 1, sizeof *seen));
            size_t nseen = 0;
            for (;;) {
                int64_t mx = 0;
                const char **key = seen + nseen * (size_t)n;
                for (int i = 0; i < n; i++) {
                    int64_t s = kl[i].n ? kl[i].v[pick[i]].step : step[i];
                    key[i] = kl[i].n ? kl[i].v[pick[i]].text : NULL;
                    if (s > mx) mx = s;
                }
                if (!(mx & 1)) {
                    /* a component that cannot move is the same on both sides: its slot is i */
                    for (int i = 0; i < n; i++) if (!key[i]) key[i] = "";
                    qsort(key, (size_t)n, sizeof *key, cmp_text);
                    size_t k = 0;
                    while (k < nseen) {
                        int same = 1;
                        for (int i = 0; i < n && same; i++) same = !strcmp(seen[k * (size_t)n + (size_t)i], key[i]);
                        if (same) break;
                        k++;
                    }
                    if (k == nseen) {
                        nseen++;
                        combo_text(c, comps, n, kl, pick, buf, 8192);
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
            int only = winning_combos(c, comps, kl, step, p.kernel, n);   /* before the kernels' lists are replaced */
            /* The strategy: keep the components you win alive as long as possible (a move to
             * a losing position of step s - 1), end the others as fast as possible (a move
             * of step s - 1 too); the largest step then drops from odd to even. */
            for (int i = 0; i < n; i++) {
                if (p.kernel[i]) {
                    for (size_t j = 0; j < kl[i].n; j++) gr_free(c, kl[i].v[j].text);
                    kl[i].n = 0;
                    if (step[i] == 0) continue;
                    gr_hcval want = { -1, step[i] - 1, outc[i] == GR_LOSS ? -1 : GR_LOSS };
                    gr_cap_convkernel(comps[i].game)->options(c, comps[i].game, comps[i].c[0], &want, 1, kernel_kid, &kl[i]);
                    pick[i] = 0;
                    continue;
                }
                if (!kl[i].n) continue;
                for (size_t j = 0; j < kl[i].n; j++)
                    if (kl[i].v[j].step == step[i] - 1 && (outc[i] == GR_LOSS || kl[i].v[j].outcome == GR_LOSS)) {
                        pick[i] = j;
                        break;
                    }
            }
            combo_text(c, comps, n, kl, pick, buf, 8192);
            fn(user, buf, 0);
            t->moves_partial = only != 1;   /* the one move shown is the whole list when it is the only one */
        }
        gr_free(c, buf);
        for (int i = 0; i < n; i++) {
            for (size_t j = 0; j < kl[i].n; j++) gr_free(c, kl[i].v[j].text);
            gr_free(c, kl[i].v);
        }
        gr_free(c, kl);
        gr_free(c, pick);
    }
    gr_free(c, step);
    gr_free(c, outc);
    gr_theory_parts_free(c, &p);
}
