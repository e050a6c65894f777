/* compgraph: values of components on their own normal-play graphs; see compgraph.h. */
#include "compgraph.h"
#include "eval/evaluator.h"
#include <string.h>

gr_compgraph *gr_compgraph_new(gr_ctx *c, gr_module *m, const gr_comp *comps, int n) {
    gr_compgraph *g = gr_alloc(c, sizeof *g);
    g->c = c;
    g->s = gr_sumgraph_new(c, m, CONV_NORMAL);
    gr_pg_store_edges(gr_sumgraph_pg(g->s), 1);   /* every theory walks the children */
    for (int i = 0; i < n; i++) gr_sumgraph_add(g->s, &comps[i], 1);
    /* a group is one start too: its atoms are one multiset under normal play */
    for (int i = 0, len; i < n; i += len)
        if ((len = gr_unit_len(comps, n, i)) > 1) gr_sumgraph_add(g->s, &comps[i], len);
    gr_sumgraph_solve(g->s);
    g->pg = gr_sumgraph_pg(g->s);
    g->n = gr_pg_count(g->pg);
    /* Kahn's algorithm on the reversed edges: a position is ready once all its children are. */
    uint32_t N = g->n;
    uint32_t *left = gr_alloc(c, gr_size_mul(c, N + 1, sizeof *left));
    uint32_t *poff = gr_alloc(c, gr_size_mul(c, N + 2, sizeof *poff));
    for (uint32_t v = 0; v < N; v++) {
        uint32_t k = gr_pg_nchildren(g->pg, v);
        const uint32_t *ch = gr_pg_children(g->pg, v);
        left[v] = k;
        for (uint32_t j = 0; j < k; j++) poff[ch[j] + 1]++;
    }
    for (uint32_t v = 0; v < N; v++) poff[v + 1] += poff[v];
    uint64_t ne = poff[N];
    uint32_t *par = gr_alloc(c, gr_size_mul(c, (size_t)ne + 1, sizeof *par));
    uint32_t *fill = gr_alloc(c, gr_size_mul(c, N + 1, sizeof *fill));
    for (uint32_t v = 0; v < N; v++) {
        uint32_t k = gr_pg_nchildren(g->pg, v);
        const uint32_t *ch = gr_pg_children(g->pg, v);
        for (uint32_t j = 0; j < k; j++) par[poff[ch[j]] + fill[ch[j]]++] = v;
    }
    g->order = gr_alloc(c, gr_size_mul(c, N + 1, sizeof *g->order));
    uint32_t head = 0, tail = 0;
    for (uint32_t v = 0; v < N; v++) if (!left[v]) g->order[tail++] = v;
    while (head < tail) {
        uint32_t v = g->order[head++];
        for (uint32_t e = poff[v]; e < poff[v + 1]; e++)
            if (--left[par[e]] == 0) g->order[tail++] = par[e];
    }
    g->acyclic = tail == N;
    gr_free(c, left); gr_free(c, poff); gr_free(c, par); gr_free(c, fill);
    return g;
}

void gr_compgraph_free(gr_compgraph *g) {
    gr_ctx *c = g->c;
    gr_sumgraph_free(g->s);
    gr_free(c, g->order); gr_free(c, g->step); gr_free(c, g->leafless);
    gr_free(c, g->genus); gr_free(c, g->tame);
    gr_free(c, g);
}

uint32_t gr_compgraph_id(gr_compgraph *g, const gr_comp *comp) { return gr_sumgraph_id(g->s, comp, 1); }

int gr_unit_len(const gr_comp *comps, int n, int i) {
    int k = i + 1;
    while (k < n && comps[k].joined) k++;
    return k - i;
}

uint32_t gr_compgraph_id_n(gr_compgraph *g, const gr_comp *comps, int len) { return gr_sumgraph_id(g->s, comps, len); }

/* Step numbers (Smith; Winning Ways' suspense numbers): 0 at a leaf. The player who wins a
 * component wants it to last (the last component to end decides an 'every' sum), the loser
 * wants it over: a winning position is one more than the largest step of its moves to losing
 * positions, a losing one is one more than the smallest step of its moves. */
void gr_compgraph_steps(gr_compgraph *g) {
    if (g->step || !g->acyclic) return;
    g->step = gr_alloc(g->c, gr_size_mul(g->c, g->n + 1, sizeof *g->step));
    for (uint32_t i = 0; i < g->n; i++) {
        uint32_t v = g->order[i];
        uint32_t k = gr_pg_nchildren(g->pg, v);
        const uint32_t *ch = gr_pg_children(g->pg, v);
        if (!k) { g->step[v] = 0; continue; }
        int64_t best = -1;
        if (gr_pg_outcome(g->pg, v) == GR_WIN) {
            for (uint32_t j = 0; j < k; j++)
                if (gr_pg_outcome(g->pg, ch[j]) == GR_LOSS && g->step[ch[j]] > best) best = g->step[ch[j]];
        } else {
            for (uint32_t j = 0; j < k; j++)
                if (best < 0 || g->step[ch[j]] < best) best = g->step[ch[j]];
        }
        g->step[v] = best + 1;
    }
}

/* A small mex over int32 values (the number of children bounds the answer). */
typedef struct mexbuf { uint8_t *seen; size_t cap; } mexbuf;
static void mex_need(gr_ctx *c, mexbuf *m, size_t n) {
    if (n + 3 > m->cap) {
        m->cap = (n + 3) * 2;
        m->seen = gr_realloc(c, m->seen, m->cap);
    }
    memset(m->seen, 0, n + 3);
}
static void mex_add(mexbuf *m, size_t bound, int64_t v) { if (v >= 0 && (uint64_t)v <= bound) m->seen[v] = 1; }
static int64_t mex_take(const mexbuf *m) { int64_t v = 0; while (m->seen[v]) v++; return v; }

/* Leaf deletion ('anyleaf'): moving into a leaf hands the opponent the win, so such moves
 * are never made; what remains is a normal-play game whose leaves are the positions all of
 * whose moves led to leaves. leafless[v] = -1 for a leaf, else mex over non-leaf children. */
void gr_compgraph_leafless(gr_compgraph *g) {
    if (g->leafless || !g->acyclic) return;
    g->leafless = gr_alloc(g->c, gr_size_mul(g->c, g->n + 1, sizeof *g->leafless));
    mexbuf m = { 0 };
    for (uint32_t i = 0; i < g->n; i++) {
        uint32_t v = g->order[i];
        uint32_t k = gr_pg_nchildren(g->pg, v);
        const uint32_t *ch = gr_pg_children(g->pg, v);
        if (!k) { g->leafless[v] = -1; continue; }
        mex_need(g->c, &m, k);
        for (uint32_t j = 0; j < k; j++) mex_add(&m, k, g->leafless[ch[j]]);
        g->leafless[v] = mex_take(&m);
    }
    gr_free(g->c, m.seen);
}

/* Genus (Conway): g is the normal SG value; lambda_k the misere Grundy value of the position
 * plus k copies of *2. Since the misere Grundy value of H + *1 is that of H xor 1 for every H
 * (induction on H), the options of G + k.*2 give
 *   lambda_0 = mex of the children's lambda_0 (1 with no children),
 *   lambda_k = mex of the children's lambda_k, lambda_{k-1} and lambda_{k-1} xor 1 (k >= 1),
 * so the genus of every position follows from its children's, with no sum enumerated. */
void gr_compgraph_genus(gr_compgraph *g) {
    if (g->genus || !g->acyclic) return;
    enum { W = GR_GENUS_K + 1 };
    g->genus = gr_alloc(g->c, gr_size_mul(g->c, gr_size_mul(g->c, g->n + 1, W), sizeof *g->genus));
    g->tame = gr_alloc(g->c, g->n + 1);
    mexbuf m = { 0 };
    for (uint32_t i = 0; i < g->n; i++) {
        uint32_t v = g->order[i];
        uint32_t k = gr_pg_nchildren(g->pg, v);
        const uint32_t *ch = gr_pg_children(g->pg, v);
        int32_t *gv = g->genus + (size_t)v * W;
        size_t bound = (size_t)k + 2;
        mex_need(g->c, &m, bound);
        for (uint32_t j = 0; j < k; j++) mex_add(&m, bound, g->genus[(size_t)ch[j] * W]);
        gv[0] = (int32_t)mex_take(&m);
        for (int q = 0; q < GR_GENUS_K; q++) {
            mex_need(g->c, &m, bound);
            for (uint32_t j = 0; j < k; j++) mex_add(&m, bound, g->genus[(size_t)ch[j] * W + 1 + q]);
            if (q == 0) { if (!k) m.seen[0] = 1; }
            else { mex_add(&m, bound, gv[q]); mex_add(&m, bound, gv[q] ^ 1); }
            gv[1 + q] = (int32_t)mex_take(&m);
        }
        int tame = gr_genus_is_tame(gv);
        for (uint32_t j = 0; j < k && tame; j++) tame = g->tame[ch[j]];
        g->tame[v] = (uint8_t)tame;
    }
    gr_free(g->c, m.seen);
}

int gr_genus_is_tame(const int32_t *gen) {
    int32_t a = gen[0];
    /* a^{a, a^2, a, a^2, ...}, and for a <= 1 also a^{a^1, a^2, a, ...} (0^120, 1^031) */
    if (gen[1] != a && !(a <= 1 && gen[1] == (a ^ 1))) return 0;
    for (int q = 1; q < GR_GENUS_K; q++)
        if (gen[1 + q] != ((q & 1) ? (a ^ 2) : a)) return 0;
    return 1;
}

int gr_genus_len(const int32_t *gen) {
    int n = GR_GENUS_K;
    while (n > 2 && gen[n] == gen[n - 2]) n--;   /* gen[1 + i] is lambda_i */
    return n;
}

void gr_genus_text(const int32_t *gen, char *buf, size_t cap) {
    int n = gr_genus_len(gen), wide = 0;
    for (int i = 0; i <= n; i++) wide |= gen[i] > 9;
    size_t pos = (size_t)snprintf(buf, cap, "%d^%s", gen[0], wide ? "{" : "");
    for (int i = 1; i <= n && pos < cap; i++)
        pos += (size_t)snprintf(buf + pos, cap - pos, wide && i > 1 ? ",%d" : "%d", gen[i]);
    if (wide && pos < cap) snprintf(buf + pos, cap - pos, "}");
}

void gr_compgraph_moves(gr_compgraph *g, const gr_comp *comp, gr_child_fn fn, void *user) {
    gr_sumgraph_moves(g->s, comp, 1, fn, user);
}

void gr_compgraph_moves_n(gr_compgraph *g, const gr_comp *comps, int len, gr_child_fn fn, void *user) {
    gr_sumgraph_moves(g->s, comps, len, fn, user);
}

int gr_theory_plain(const gr_comp *comps, int n, gr_theory *t) {
    for (int i = 0; i < n; i++) {
        const gr_rules *r = comps[i].game->rules;
        for (int k = 0; r && k < r->nterms; k++)
            if (r->terms[k].kind != TERM_LEAF) {
                snprintf(t->why, sizeof t->why, "'%s' has terminals that fix an outcome", comps[i].game->name);
                return 0;
            }
    }
    return 1;
}

void gr_theory_text(gr_ctx *c, const gr_comp *comps, int n, int at, const char *child, int group, char *buf, size_t cap) {
    gr_text t, one;
    gr_text_init(&t, c);
    gr_text_init(&one, c);
    int first = 1;   /* empty heaps are left out (render.h) */
    for (int i = 0, len; i < n; i += len) {
        len = group ? gr_unit_len(comps, n, i) : 1;
        if (i == at) {
            if (group && strstr(child, " + ")) {   /* one component, even alone */
                if (!first) gr_text_printf(&t, " + ");
                first = 0;
                gr_text_printf(&t, "(%s)", child);
            } else gr_sum_text_part(&t, child, &first);
            continue;
        }
        gr_text_clear(&one);
        int in = 1, parts = 0;
        for (int k = i; k < i + len; k++) parts += gr_sum_text_comp(&one, comps[k].game, comps[k].c, &in);
        if (!parts) continue;   /* a unit of empty heaps (never a leaf here: no move is listed then) */
        if (!first) gr_text_printf(&t, " + ");
        first = 0;
        gr_text_printf(&t, parts > 1 ? "(%s)" : "%s", one.s);
    }
    gr_sum_text_end(&t, first);
    snprintf(buf, cap, "%s", t.s);
    gr_text_free(&t);
    gr_text_free(&one);
}

int gr_theory_dup_unit(const gr_comp *comps, int n, int at, int len) {
    for (int i = 0, l; i < at; i += l) {
        l = gr_unit_len(comps, n, i);
        int same = l == len;
        for (int k = 0; k < len && same; k++)
            same = comps[i + k].game == comps[at + k].game &&
                   !memcmp(comps[i + k].c, comps[at + k].c, (size_t)comps[at + k].game->arity * sizeof comps[at].c[0]);
        if (same) return 1;
    }
    return 0;
}

int gr_theory_dup(const gr_comp *comps, int at) {
    for (int i = 0; i < at; i++)
        if (comps[i].game == comps[at].game && !memcmp(comps[i].c, comps[at].c, (size_t)comps[at].game->arity * sizeof comps[at].c[0]))
            return 1;
    return 0;
}

gr_compgraph *gr_theory_begin(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_theory *t, const char *what) {
    memset(t, 0, sizeof *t);
    t->remoteness = t->value = -1;
    if (!gr_theory_plain(comps, n, t)) return NULL;
    gr_compgraph *g = gr_compgraph_new(c, m, comps, n);
    if (g->acyclic) return g;
    snprintf(t->why, sizeof t->why, "a component has a cycle, so %s", what ? what : "the theory does not apply");
    gr_compgraph_free(g);
    return NULL;
}

int gr_theory_split(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, gr_theory *t,
                    const char *what, gr_theory_parts *p) {
    memset(t, 0, sizeof *t);
    memset(p, 0, sizeof *p);
    t->remoteness = t->value = -1;
    if (what && !gr_theory_plain(comps, n, t)) return 0;
    unsigned kind = conv == CONV_ANYLEAF ? GR_KIND_LEAFLESS : GR_KIND_STEPS;
    p->kernel = gr_alloc(c, sizeof *p->kernel * (size_t)(n + 1));
    p->kv = gr_alloc(c, sizeof *p->kv * (size_t)(n + 1));
    gr_comp *rest = gr_alloc(c, sizeof *rest * (size_t)(n + 1));
    int nrest = 0;
    for (int i = 0, len; i < n; i += len) {
        /* a unit: a group is never a kernel's (a kernel answers one heap) */
        len = gr_unit_len(comps, n, i);
        gr_game *g = comps[i].game;
        for (int k = i; k < i + len; k++) p->kernel[k] = 0;
        const gr_convkernel_cap *K = gr_cap_convkernel(g);
        p->kernel[i] = len == 1 && !c->no_theory && (gr_eval_answers(g, conv, NULL, 0) & kind) && K &&
                       K->value(c, g, comps[i].c[0], &p->kv[i]);
        if (!p->kernel[i]) for (int k = i; k < i + len; k++) rest[nrest++] = comps[k];
    }
    /* A heap with more options than the graph may hold: say so now, not after hours. */
    uint64_t limit = c->max_positions ? c->max_positions : c->mem_limit / 64;
    for (int i = 0; i < nrest; i++) {
        uint64_t floor = gr_convkernel_options_floor(rest[i].game, rest[i].c[0]);
        if (floor >= limit)
            gr_fail(c, GR_EXIT_LIMIT, "%s(%lld) has at least %llu options, each a position of its component's graph under %s: "
                    "more than the limit of %llu positions (raise it with --max-positions or --max-memory)",
                    rest[i].game->name, (long long)rest[i].c[0], (unsigned long long)floor,
                    gr_convention_name(conv), (unsigned long long)limit);
    }
    if (nrest) {
        p->g = gr_compgraph_new(c, m, rest, nrest);
        if (!p->g->acyclic) {
            snprintf(t->why, sizeof t->why, "a component has a cycle, so %s", what ? what : "the theory does not apply");
            gr_free(c, rest);
            gr_theory_parts_free(c, p);
            return 0;
        }
    }
    if (p->g && conv == CONV_ANYLEAF) gr_compgraph_leafless(p->g);
    else if (p->g) gr_compgraph_steps(p->g);
    gr_free(c, rest);
    return 1;
}

void gr_theory_parts_free(gr_ctx *c, gr_theory_parts *p) {
    if (p->g) gr_compgraph_free(p->g);
    gr_free(c, p->kernel);
    gr_free(c, p->kv);
    memset(p, 0, sizeof *p);
}

void gr_theory_kernels_why(const gr_comp *comps, int n, const gr_theory_parts *p, gr_theory *t) {
    for (int i = 0; i < n; i++) {
        if (!p->kernel[i]) continue;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = p->kernel[j] && comps[j].game == comps[i].game;
        if (seen) continue;
        char why[512];
        size_t len = strlen(t->why);
        gr_cap_convkernel(comps[i].game)->describe(comps[i].game, why, sizeof why);
        snprintf(t->why + len, sizeof t->why - len, "; %s: %s", comps[i].game->name, why);
    }
}

void gr_theory_heap_text(gr_ctx *c, const gr_comp *comps, int n, int at, int64_t h, char *buf, size_t cap) {
    gr_comp child = comps[at];
    child.c[0] = h;
    char one[512];
    gr_render_comps(c, &child, 1, one, sizeof one);
    gr_theory_text(c, comps, n, at, one, 1, buf, cap);
}

int gr_theory_values(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, int64_t *out) {
    gr_theory t;
    gr_theory_parts p;
    int leaf = conv == CONV_ANYLEAF;
    if (!gr_theory_split(c, m, comps, n, conv, &t, NULL, &p)) return 0;
    for (int i = 0; i < n; i++) {
        if (p.kernel[i]) out[i] = leaf ? p.kv[i].leaf : p.kv[i].step;
        else out[i] = (leaf ? p.g->leafless : p.g->step)[gr_compgraph_id(p.g, &comps[i])];
    }
    gr_theory_parts_free(c, &p);
    return 1;
}
