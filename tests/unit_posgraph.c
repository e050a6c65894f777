/* unit_posgraph: tests of the explicit position graph (src/eval/graph/posgraph.c). Hand-made graphs with
 * values worked out by hand; hundreds of random acyclic and cyclic graphs checked against
 * independent reference computations written here (memoised definitions in topological order,
 * naive fixpoint iterations, the literal labelling procedure for gamma); games with
 * variable-length encodings whose values are known in closed form; limits and memory. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "eval/graph/posgraph.h"
#include "testlib.h"

/* ---- small helpers ------------------------------------------------------------------------ */

static void enc32(uint8_t *b, uint32_t v) {
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
}

static uint32_t dec32(const uint8_t *b) {
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static int64_t find32(const gr_pg *g, uint32_t v) {
    uint8_t b[4];
    enc32(b, v);
    return gr_pg_find(g, b, 4);
}

static int64_t find_str(const gr_pg *g, const char *s) {
    return gr_pg_find(g, (const uint8_t *)s, strlen(s));
}

static uint32_t mex_of(const int64_t *vals, int n) {
    for (uint32_t m = 0;; m++) {
        int seen = 0;
        for (int i = 0; i < n && !seen; i++) seen = vals[i] == (int64_t)m;
        if (!seen) return m;
    }
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Sorts and removes duplicates; returns the new length. */
static size_t sort_unique(uint32_t *v, size_t n) {
    qsort(v, n, sizeof *v, cmp_u32);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || v[k - 1] != v[i]) v[k++] = v[i];
    return k;
}

/* ---- named graphs: one-letter positions, for the hand-made cases ------------------------ */

/* spec: "a:bc b:d c:d x:W y:L" -- each entry names a position and its moves in emission order
 * (repeats allowed); ":W" and ":L" give a fixed outcome; ":W=bc" a fixed outcome whose expand
 * nevertheless emits b and c (which must be dropped). Positions not listed have no moves. */
typedef struct {
    const char *spec;
    int expansions;
} named_graph;

static gr_expand_kind named_expand(void *user, const uint8_t *pos, size_t len, gr_pg_sink *sink) {
    named_graph *ng = user;
    ng->expansions++;
    CHECK_EQ(len, 1);
    for (const char *s = ng->spec; *s; s++) {
        if (s[0] != (char)pos[0] || s[1] != ':' || (s != ng->spec && s[-1] != ' ')) continue;
        s += 2;
        gr_expand_kind kind = GR_EXPAND_MOVES;
        if (*s == 'W' || *s == 'L') {
            kind = *s == 'W' ? GR_EXPAND_WIN : GR_EXPAND_LOSS;
            s++;
            if (*s == '=') s++;
        }
        for (; *s && *s != ' '; s++) gr_pg_emit(sink, (const uint8_t *)s, 1);
        return kind;
    }
    return GR_EXPAND_MOVES;
}

static gr_pg *solve_named(gr_ctx *c, named_graph *ng, const char *starts) {
    gr_pg *g = gr_pg_new(c, named_expand, ng, 0);
    for (const char *s = starts; *s; s++) gr_pg_add(g, (const uint8_t *)s, 1);
    gr_pg_solve(g);
    return g;
}

/* Checks outcome, remoteness and SG of one named position. */
static void expect(const gr_pg *g, const char *name, gr_outcome o, int64_t rem, int64_t sg) {
    int64_t id = find_str(g, name);
    if (!CHECK(id >= 0)) {
        fprintf(stderr, "  position %s not found\n", name);
        return;
    }
    if (!CHECK_EQ(gr_pg_outcome(g, (uint32_t)id), o) || !CHECK_EQ(gr_pg_remoteness(g, (uint32_t)id), rem) ||
        !CHECK_EQ(gr_pg_sg(g, (uint32_t)id), sg))
        fprintf(stderr, "  at position %s\n", name);
}

static void expect_children(const gr_pg *g, const char *name, const char *kids) {
    int64_t id = find_str(g, name);
    if (!CHECK(id >= 0)) return;
    uint32_t n = gr_pg_nchildren(g, (uint32_t)id);
    CHECK_EQ(n, strlen(kids));
    const uint32_t *ch = gr_pg_children(g, (uint32_t)id);
    for (uint32_t i = 0; i < n && kids[i]; i++) CHECK_EQ(ch[i], find_str(g, (char[]){ kids[i], 0 }));
}

static void test_hand_made(void) {
    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);

    /* a->b,c; b->d; c->d: d loses at once, b and c win by moving to d, a must hand over a win. */
    named_graph diamond = { "a:bc b:d c:d", 0 };
    gr_pg *g = solve_named(&c, &diamond, "a");
    CHECK_EQ(gr_pg_count(g), 4);
    CHECK_EQ(gr_pg_edges(g), 4);
    CHECK_EQ(diamond.expansions, 4);
    expect(g, "d", GR_LOSS, 0, 0);
    expect(g, "b", GR_WIN, 1, 1);
    expect(g, "c", GR_WIN, 1, 1);
    expect(g, "a", GR_LOSS, 2, 0);
    expect_children(g, "a", "bc");
    CHECK_EQ(find_str(g, "a"), 0); /* ids in discovery order */
    CHECK_EQ(find_str(g, "b"), 1);
    CHECK_EQ(find_str(g, "c"), 2);
    CHECK_EQ(find_str(g, "d"), 3);
    CHECK_EQ(find_str(g, "e"), -1);
    CHECK_EQ(gr_pg_find(g, NULL, 0), -1);
    CHECK_EQ(find_str(g, "ab"), -1);
    size_t len;
    const uint8_t *k = gr_pg_key(g, 2, &len);
    CHECK(len == 1 && k[0] == 'c');
    CHECK(gr_pg_bytes(g) > 0 && gr_pg_bytes(g) <= c.store.mem_used);
    gr_pg_free(g);
    CHECK_EQ(c.store.mem_used, 0);

    /* Nothing at all: solving an empty graph is fine. */
    named_graph none = { "", 0 };
    g = gr_pg_new(&c, named_expand, &none, 0);
    gr_pg_solve(g);
    gr_pg_solve_gamma(g);
    CHECK_EQ(gr_pg_count(g), 0);
    CHECK_EQ(gr_pg_edges(g), 0);
    CHECK_EQ(gr_pg_find(g, NULL, 0), -1);
    CHECK_EQ(none.expansions, 0);
    gr_pg_free(g);

    /* A loop x->y; y->x,z; z->w: w loses, z wins, and neither x nor y can force anything. */
    named_graph loop = { "x:y y:xz z:w", 0 };
    g = solve_named(&c, &loop, "x");
    expect(g, "w", GR_LOSS, 0, 0);
    expect(g, "z", GR_WIN, 1, 1);
    expect(g, "y", GR_DRAW, -1, -1);
    expect(g, "x", GR_DRAW, -1, -1);
    gr_pg_free(g);

    /* Fixed outcomes: q is a WIN terminal, s a LOSS terminal; e declares WIN but emits moves
     * anyway, which must be dropped. t can win via s, but its SG value is undefined since it
     * reaches a WIN terminal. */
    named_graph fixed = { "p:q q:W r:s s:L t:qs u:e e:W=rs", 0 };
    g = solve_named(&c, &fixed, "prtu");
    expect(g, "q", GR_WIN, 0, -1);
    expect(g, "p", GR_LOSS, 1, -1);
    expect(g, "s", GR_LOSS, 0, 0);
    expect(g, "r", GR_WIN, 1, 1);
    expect(g, "t", GR_WIN, 1, -1);
    expect(g, "e", GR_WIN, 0, -1);
    expect(g, "u", GR_LOSS, 1, -1);
    expect_children(g, "e", "");
    expect_children(g, "t", "qs");
    gr_pg_free(g);

    /* Duplicate emissions keep the first occurrence's order; self-loops. */
    named_graph dup = { "a:bcbdcb b:bb c:cd", 0 };
    g = solve_named(&c, &dup, "a");
    expect_children(g, "a", "bcd");
    expect_children(g, "b", "b");
    expect_children(g, "c", "cd");
    CHECK_EQ(gr_pg_edges(g), 6);
    expect(g, "b", GR_DRAW, -1, -1);
    expect(g, "c", GR_WIN, 1, -1);
    expect(g, "d", GR_LOSS, 0, 0);
    expect(g, "a", GR_WIN, 1, -1);
    gr_pg_free(g);

    /* A second start after a solve: earlier ids keep their values, the new part is solved and
     * nothing is expanded twice. */
    named_graph two = { "a:b b:c m:na n:o o:m", 0 };
    g = solve_named(&c, &two, "a");
    CHECK_EQ(gr_pg_count(g), 3);
    expect(g, "a", GR_LOSS, 2, 0);
    uint32_t m = gr_pg_add(g, (const uint8_t *)"m", 1);
    CHECK_EQ(m, 3);
    CHECK_EQ(gr_pg_add(g, (const uint8_t *)"a", 1), 0); /* known: same id, no new position */
    CHECK_EQ(gr_pg_count(g), 4);
    expect(g, "a", GR_LOSS, 2, 0); /* still answered between add and solve */
    gr_pg_solve(g);
    CHECK_EQ(two.expansions, 6);
    CHECK_EQ(gr_pg_count(g), 6);
    expect(g, "a", GR_LOSS, 2, 0);
    expect(g, "c", GR_LOSS, 0, 0);
    expect(g, "m", GR_WIN, 3, -1); /* m->a, a LOSS at 2 */
    expect(g, "o", GR_LOSS, 4, -1); /* o->m only */
    expect(g, "n", GR_WIN, 5, -1);
    gr_pg_solve(g); /* nothing new: the same answers */
    CHECK_EQ(two.expansions, 6);
    expect(g, "n", GR_WIN, 5, -1);
    expect_children(g, "m", "na");
    gr_pg_free(g);

    gr_ctx_free(&c);
}

/* ---- explicit random graphs: vertices encoded as 4-byte little-endian numbers ---------- */

#define TG_MAX 64
#define TG_DEG 12

typedef struct {
    uint32_t n;
    uint32_t deg[TG_MAX];             /* emissions, duplicates included */
    uint32_t adj[TG_MAX][TG_DEG];
    uint8_t kind[TG_MAX];             /* gr_expand_kind */
    uint32_t expanded[TG_MAX];        /* how often expand saw the vertex */
} tgraph;

static gr_expand_kind tg_expand(void *user, const uint8_t *pos, size_t len, gr_pg_sink *sink) {
    tgraph *t = user;
    if (len != 4 || dec32(pos) >= t->n) {
        CHECK(0);
        return GR_EXPAND_MOVES;
    }
    uint32_t v = dec32(pos);
    t->expanded[v]++;
    if (t->kind[v] != GR_EXPAND_MOVES) return (gr_expand_kind)t->kind[v];
    for (uint32_t k = 0; k < t->deg[v]; k++) {
        uint8_t b[4];
        enc32(b, t->adj[v][k]);
        gr_pg_emit(sink, b, 4);
    }
    return GR_EXPAND_MOVES;
}

/* The distinct moves of v in first-emission order (none for a fixed outcome). */
static uint32_t tg_moves(const tgraph *t, uint32_t v, uint32_t *out) {
    if (t->kind[v] != GR_EXPAND_MOVES) return 0;
    uint32_t k = 0;
    for (uint32_t i = 0; i < t->deg[v]; i++) {
        uint32_t j = 0;
        while (j < k && out[j] != t->adj[v][i]) j++;
        if (j == k) out[k++] = t->adj[v][i];
    }
    return k;
}

/* A random graph: a DAG (moves only to higher numbers) or anything (self-loops included),
 * with roughly win_pct / loss_pct percent fixed-outcome vertices and some repeated moves. */
static void tg_random(tgraph *t, t_rng *r, int dag, int win_pct, int loss_pct) {
    memset(t, 0, sizeof *t);
    t->n = (uint32_t)t_range(r, 1, TG_MAX);
    int maxdeg = (int)t_range(r, 1, 5);
    for (uint32_t v = 0; v < t->n; v++) {
        int64_t roll = t_range(r, 0, 99);
        t->kind[v] = roll < win_pct ? GR_EXPAND_WIN
                   : roll < win_pct + loss_pct ? GR_EXPAND_LOSS : GR_EXPAND_MOVES;
        if (t->kind[v] != GR_EXPAND_MOVES || (dag && v + 1 == t->n)) continue;
        uint32_t d = (uint32_t)t_range(r, 0, maxdeg);
        for (uint32_t k = 0; k < d; k++) {
            uint32_t to;
            if (k > 0 && t_range(r, 0, 4) == 0) to = t->adj[v][t_range(r, 0, k - 1)];
            else to = dag ? (uint32_t)t_range(r, v + 1, t->n - 1) : (uint32_t)t_range(r, 0, t->n - 1);
            t->adj[v][t->deg[v]++] = to;
        }
    }
}

/* Reference values, for every vertex of a tgraph. */
typedef struct {
    uint8_t reach[TG_MAX];
    int outcome[TG_MAX];
    int64_t rem[TG_MAX], sg[TG_MAX], gamma[TG_MAX];
} tref;

static void ref_reach(const tgraph *t, const uint32_t *starts, int nstarts, tref *r) {
    uint32_t queue[TG_MAX], head = 0, tail = 0, mv[TG_DEG];
    memset(r->reach, 0, sizeof r->reach);
    for (int i = 0; i < nstarts; i++)
        if (!r->reach[starts[i]]) { r->reach[starts[i]] = 1; queue[tail++] = starts[i]; }
    while (head < tail) {
        uint32_t v = queue[head++], k = tg_moves(t, v, mv);
        for (uint32_t i = 0; i < k; i++)
            if (!r->reach[mv[i]]) { r->reach[mv[i]] = 1; queue[tail++] = mv[i]; }
    }
}

/* For a DAG: the definitions applied directly, highest vertex first (children before parents). */
static void ref_dag(const tgraph *t, tref *r) {
    uint32_t mv[TG_DEG];
    for (uint32_t v = t->n; v-- > 0;) {
        uint32_t k = tg_moves(t, v, mv);
        if (t->kind[v] == GR_EXPAND_WIN) { r->outcome[v] = GR_WIN; r->rem[v] = 0; r->sg[v] = -1; continue; }
        if (t->kind[v] == GR_EXPAND_LOSS || k == 0) { r->outcome[v] = GR_LOSS; r->rem[v] = 0; r->sg[v] = 0; continue; }
        int64_t best_loss = -1, worst = -1, vals[TG_DEG];
        int sg_ok = 1;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t w = mv[i];
            if (r->outcome[w] == GR_LOSS && (best_loss < 0 || r->rem[w] < best_loss)) best_loss = r->rem[w];
            if (r->rem[w] > worst) worst = r->rem[w];
            vals[i] = r->sg[w];
            if (r->sg[w] < 0) sg_ok = 0;
        }
        r->outcome[v] = best_loss >= 0 ? GR_WIN : GR_LOSS;
        r->rem[v] = 1 + (best_loss >= 0 ? best_loss : worst);
        r->sg[v] = sg_ok ? (int64_t)mex_of(vals, (int)k) : -1;
    }
}

/* For any graph: outcomes by the naive fixpoint; remoteness by levels (a position wins within
 * k if it has a move to a position lost within k-1, loses within k if every move goes to a
 * position won within k-1; remoteness is the least such k); SG values by iteration on the
 * positions whose whole future is finite and free of WIN terminals. */
static void ref_cyclic(const tgraph *t, tref *r) {
    uint32_t n = t->n, mv[TG_DEG];
    for (uint32_t v = 0; v < n; v++) {
        r->outcome[v] = GR_DRAW;
        if (t->kind[v] == GR_EXPAND_WIN) r->outcome[v] = GR_WIN;
        else if (tg_moves(t, v, mv) == 0) r->outcome[v] = GR_LOSS;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t v = 0; v < n; v++) {
            if (r->outcome[v] != GR_DRAW) continue;
            uint32_t k = tg_moves(t, v, mv), wins = 0;
            int any_loss = 0;
            for (uint32_t i = 0; i < k; i++) {
                any_loss |= r->outcome[mv[i]] == GR_LOSS;
                wins += r->outcome[mv[i]] == GR_WIN;
            }
            if (any_loss) r->outcome[v] = GR_WIN;
            else if (wins == k) r->outcome[v] = GR_LOSS;
            else continue;
            changed = 1;
        }
    }

    int lvl_out[TG_MAX];
    for (uint32_t v = 0; v < n; v++) {
        r->rem[v] = -1;
        lvl_out[v] = GR_DRAW;
        if (t->kind[v] == GR_EXPAND_WIN) { r->rem[v] = 0; lvl_out[v] = GR_WIN; }
        else if (tg_moves(t, v, mv) == 0) { r->rem[v] = 0; lvl_out[v] = GR_LOSS; }
    }
    for (int64_t level = 1;; level++) {
        int64_t next[TG_MAX];
        int next_out[TG_MAX], added = 0;
        for (uint32_t v = 0; v < n; v++) {
            next[v] = r->rem[v];
            next_out[v] = lvl_out[v];
            if (r->rem[v] >= 0) continue;
            uint32_t k = tg_moves(t, v, mv), wins = 0;
            int any_loss = 0;
            for (uint32_t i = 0; i < k; i++) {
                any_loss |= lvl_out[mv[i]] == GR_LOSS;
                wins += lvl_out[mv[i]] == GR_WIN;
            }
            if (any_loss) next_out[v] = GR_WIN;
            else if (wins == k) next_out[v] = GR_LOSS;
            else continue;
            next[v] = level;
            added = 1;
        }
        memcpy(r->rem, next, n * sizeof *next);
        memcpy(lvl_out, next_out, n * sizeof *next_out);
        if (!added) break;
    }
    for (uint32_t v = 0; v < n; v++) CHECK_EQ(lvl_out[v], r->outcome[v]); /* the two agree */

    int good[TG_MAX] = { 0 };
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t v = 0; v < n; v++) {
            if (good[v] || t->kind[v] == GR_EXPAND_WIN) continue;
            uint32_t k = tg_moves(t, v, mv), ok = 1;
            for (uint32_t i = 0; i < k; i++) ok &= (uint32_t)good[mv[i]];
            if (ok) good[v] = changed = 1;
        }
    }
    for (uint32_t v = 0; v < n; v++) r->sg[v] = -1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t v = 0; v < n; v++) {
            if (!good[v] || r->sg[v] >= 0) continue;
            uint32_t k = tg_moves(t, v, mv);
            int64_t vals[TG_DEG];
            int ready = 1;
            for (uint32_t i = 0; i < k; i++) {
                vals[i] = r->sg[mv[i]];
                if (vals[i] < 0) ready = 0;
            }
            if (ready) { r->sg[v] = mex_of(vals, (int)k); changed = 1; }
        }
    }
}

/* Gamma by the literal labelling procedure of Fraenkel and Yesha, with plain sweeps.
 * Codes: >= 0 finite, GR_GAMMA_INF, -1 undefined, UNL unlabelled. */
#define UNL (-3)
static int child_labelled(const tgraph *t, const int64_t *lab, uint32_t v, int64_t m) {
    uint32_t mv[TG_DEG], k = tg_moves(t, v, mv);
    for (uint32_t i = 0; i < k; i++)
        if (lab[mv[i]] == m) return 1;
    return 0;
}

static void ref_gamma(const tgraph *t, tref *r) {
    uint32_t n = t->n, mv[TG_DEG];
    int64_t *lab = r->gamma;
    for (uint32_t v = 0; v < n; v++) lab[v] = t->kind[v] == GR_EXPAND_WIN ? -1 : UNL;
    for (int changed = 1; changed;) { /* everything that reaches a WIN terminal: undefined */
        changed = 0;
        for (uint32_t v = 0; v < n; v++)
            if (lab[v] == UNL && child_labelled(t, lab, v, -1)) { lab[v] = -1; changed = 1; }
    }
    for (int64_t m = 0;; m++) {
        int any = 0;
        for (uint32_t v = 0; v < n; v++) any |= lab[v] == UNL;
        if (!any) break;
        for (int changed = 1; changed;) {
            changed = 0;
            for (uint32_t u = 0; u < n; u++) {
                if (lab[u] != UNL || child_labelled(t, lab, u, m)) continue;
                uint32_t k = tg_moves(t, u, mv), ok = 1;
                for (uint32_t i = 0; i < k && ok; i++)
                    if (lab[mv[i]] == UNL || lab[mv[i]] == GR_GAMMA_INF) ok = (uint32_t)child_labelled(t, lab, mv[i], m);
                if (ok) { lab[u] = m; changed = 1; }
            }
        }
        for (uint32_t u = 0; u < n; u++)
            if (lab[u] == UNL && !child_labelled(t, lab, u, m)) lab[u] = GR_GAMMA_INF;
    }
}

/* Remoteness consistency on the graph's own data: a WIN position has a LOSS child one closer
 * and none closer still; a LOSS position's children all win, the farthest one closer. */
static void check_remoteness_rules(const gr_pg *g) {
    for (uint32_t id = 0; id < gr_pg_count(g); id++) {
        gr_outcome o = gr_pg_outcome(g, id);
        int64_t r = gr_pg_remoteness(g, id);
        uint32_t k = gr_pg_nchildren(g, id);
        const uint32_t *ch = gr_pg_children(g, id);
        if (o == GR_DRAW) { CHECK_EQ(r, -1); continue; }
        if (k == 0) { CHECK_EQ(r, 0); continue; }
        int64_t min_loss = -1, max_win = -1;
        int all_win = 1;
        for (uint32_t i = 0; i < k; i++) {
            gr_outcome co = gr_pg_outcome(g, ch[i]);
            int64_t cr = gr_pg_remoteness(g, ch[i]);
            if (co == GR_LOSS && (min_loss < 0 || cr < min_loss)) min_loss = cr;
            if (co != GR_WIN) all_win = 0;
            else if (cr > max_win) max_win = cr;
        }
        if (o == GR_WIN) CHECK_EQ(min_loss, r - 1);
        else { CHECK(all_win); CHECK_EQ(max_win, r - 1); }
    }
}

/* Gamma's defining properties on the graph's own data, and its meaning for outcomes. */
static void check_gamma_rules(const gr_pg *g) {
    for (uint32_t u = 0; u < gr_pg_count(g); u++) {
        int64_t gu = gr_pg_gamma(g, u);
        if (gu == -1) continue;
        uint32_t k = gr_pg_nchildren(g, u), kset[TG_DEG * 4];
        const uint32_t *ch = gr_pg_children(g, u);
        size_t nk = gr_pg_gamma_set(g, u, kset, sizeof kset / sizeof *kset);
        uint32_t mex = 0;
        for (size_t i = 0; i < nk && kset[i] == mex; i++) mex++;
        for (size_t i = 1; i < nk; i++) CHECK(kset[i - 1] < kset[i]);
        gr_outcome o = gr_pg_outcome(g, u);
        if (gu >= 0) {
            CHECK_EQ(gu, mex); /* A: a finite value is the mex of the children's */
            CHECK_EQ(o, gu == 0 ? GR_LOSS : GR_WIN);
            for (uint32_t i = 0; i < k; i++) { /* B: larger children reverse back to gu */
                int64_t gv = gr_pg_gamma(g, ch[i]);
                if (gv != GR_GAMMA_INF && gv <= gu) continue;
                int back = 0;
                for (uint32_t j = 0; j < gr_pg_nchildren(g, ch[i]); j++)
                    back |= gr_pg_gamma(g, gr_pg_children(g, ch[i])[j]) == gu;
                CHECK(back);
            }
        } else {
            CHECK_EQ(gu, GR_GAMMA_INF);
            CHECK_EQ(o, nk > 0 && kset[0] == 0 ? GR_WIN : GR_DRAW);
            int witness = 0; /* C: an infinite child that cannot reverse to the mex */
            for (uint32_t i = 0; i < k && !witness; i++) {
                if (gr_pg_gamma(g, ch[i]) != GR_GAMMA_INF) continue;
                int has = 0;
                for (uint32_t j = 0; j < gr_pg_nchildren(g, ch[i]); j++)
                    has |= gr_pg_gamma(g, gr_pg_children(g, ch[i])[j]) == (int64_t)mex;
                witness = !has;
            }
            CHECK(witness);
        }
    }
}

static int r_reach(const tref *r, uint32_t v) { return r->reach[v]; }

/* The children of every reachable vertex, in first-emission order. */
static void check_tgraph_children(const gr_pg *g, const tgraph *t, const tref *r) {
    uint32_t mv[TG_DEG];
    for (uint32_t v = 0; v < t->n; v++) {
        int64_t id = find32(g, v);
        if (!r->reach[v] || !CHECK(id >= 0)) continue;
        uint32_t k = tg_moves(t, v, mv);
        if (CHECK_EQ(gr_pg_nchildren(g, (uint32_t)id), k))
            for (uint32_t i = 0; i < k; i++) CHECK_EQ(gr_pg_children(g, (uint32_t)id)[i], find32(g, mv[i]));
    }
}

/* Compares the solved graph with the references, vertex by vertex. */
static void check_tgraph(const gr_pg *g, const tgraph *t, const tref *r, int with_gamma) {
    uint32_t reachable = 0, mv[TG_DEG];
    uint64_t edges = 0;
    for (uint32_t v = 0; v < t->n; v++) {
        int64_t id = find32(g, v);
        if (!r->reach[v]) {
            CHECK_EQ(id, -1);
            CHECK_EQ(t->expanded[v], 0);
            continue;
        }
        reachable++;
        if (!CHECK(id >= 0)) continue;
        size_t len;
        const uint8_t *key = gr_pg_key(g, (uint32_t)id, &len);
        CHECK(len == 4 && dec32(key) == v);
        CHECK_EQ(t->expanded[v], 1);
        int ok = CHECK_EQ(gr_pg_outcome(g, (uint32_t)id), r->outcome[v]);
        ok &= CHECK_EQ(gr_pg_remoteness(g, (uint32_t)id), r->rem[v]);
        ok &= CHECK_EQ(gr_pg_sg(g, (uint32_t)id), r->sg[v]);
        if (with_gamma) ok &= CHECK_EQ(gr_pg_gamma(g, (uint32_t)id), r->gamma[v]);
        if (!ok) fprintf(stderr, "  at vertex %u of %u\n", v, t->n);
        uint32_t k = tg_moves(t, v, mv);
        edges += k;
        if (CHECK_EQ(gr_pg_nchildren(g, (uint32_t)id), k))
            for (uint32_t i = 0; i < k; i++) CHECK_EQ(gr_pg_children(g, (uint32_t)id)[i], find32(g, mv[i]));
    }
    CHECK_EQ(gr_pg_count(g), reachable);
    CHECK_EQ(gr_pg_edges(g), edges);
    check_remoteness_rules(g);
    if (with_gamma) check_gamma_rules(g);
}

/* One random graph: solve from vertex 0, check; then add more starts, solve again, check. */
static void run_random_graph(t_rng *rng, int dag, int win_pct, int loss_pct, int with_gamma) {
    tgraph *t = malloc(sizeof *t);
    tref ref;
    tg_random(t, rng, dag, win_pct, loss_pct);
    if (dag) ref_dag(t, &ref);
    else ref_cyclic(t, &ref);
    ref_gamma(t, &ref);
    if (dag) { /* the cyclic references must agree with the direct ones on a DAG too */
        tref cyc;
        ref_cyclic(t, &cyc);
        for (uint32_t v = 0; v < t->n; v++) {
            CHECK_EQ(cyc.outcome[v], ref.outcome[v]);
            CHECK_EQ(cyc.rem[v], ref.rem[v]);
            CHECK_EQ(cyc.sg[v], ref.sg[v]);
            CHECK_EQ(ref.gamma[v], ref.sg[v]); /* gamma is SG on acyclic graphs */
        }
    }

    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    gr_pg *g = gr_pg_new(&c, tg_expand, t, 0);
    uint32_t starts[4] = { 0 };
    uint8_t b[4];
    enc32(b, 0);
    CHECK_EQ(gr_pg_add(g, b, 4), 0);
    if (with_gamma) gr_pg_solve_gamma(g);
    else gr_pg_solve(g);
    ref_reach(t, starts, 1, &ref);
    check_tgraph(g, t, &ref, with_gamma);

    int nstarts = 1 + (int)t_range(rng, 1, 3);
    for (int i = 1; i < nstarts; i++) {
        starts[i] = (uint32_t)t_range(rng, 0, t->n - 1);
        enc32(b, starts[i]);
        gr_pg_add(g, b, 4);
    }
    if (with_gamma) gr_pg_solve_gamma(g);
    else gr_pg_solve(g);
    ref_reach(t, starts, nstarts, &ref);
    check_tgraph(g, t, &ref, with_gamma);
    CHECK(gr_pg_bytes(g) <= c.store.mem_used);
    gr_pg_free(g);
    CHECK_EQ(c.store.mem_used, 0);
    gr_ctx_free(&c);
    free(t);
}

static void test_random_graphs(void) {
    t_rng rng = { t_seed(12345) };
    for (int i = 0; i < 300; i++) run_random_graph(&rng, 1, 5, 5, i % 2);
    for (int i = 0; i < 300; i++) run_random_graph(&rng, 0, 5, 5, i % 2);
    for (int i = 0; i < 200; i++) run_random_graph(&rng, 0, 0, 0, 1); /* pure normal play */
    for (int i = 0; i < 100; i++) run_random_graph(&rng, 0, 20, 20, 1);
}

/* ---- the values-only path against stored edges ------------------------------------------- */

/* One random graph solved twice, from the same starts in the same stages: by a graph that
 * stores edges (the retrograde analysis checked above) and by one that does not (depth first
 * on acyclic graphs, falling back to stored edges on a cycle). Every answer must agree, and
 * both must agree with the references; the values-only graph expands each vertex of a DAG
 * once, and at most twice on a cycle (once more after the fallback). */
static void run_values_only(t_rng *rng, int dag, int win_pct, int loss_pct) {
    tgraph *t = malloc(sizeof *t), *u = malloc(sizeof *u);
    tref ref;
    tg_random(t, rng, dag, win_pct, loss_pct);
    *u = *t;
    if (dag) ref_dag(t, &ref);
    else ref_cyclic(t, &ref);
    ref_gamma(t, &ref);
    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    gr_pg *old = gr_pg_new(&c, tg_expand, t, 0);
    gr_pg *fast = gr_pg_new(&c, tg_expand, u, 0);
    gr_pg_store_edges(fast, 0);
    uint32_t starts[4] = { 0 };
    int nstarts = 1 + (int)t_range(rng, 0, 3);
    for (int i = 1; i < nstarts; i++) starts[i] = (uint32_t)t_range(rng, 0, t->n - 1);
    for (int stage = 0; stage < 2; stage++) {
        /* stage 0: the first start; stage 1: the others too */
        for (int i = stage ? 1 : 0; i < (stage ? nstarts : 1); i++) {
            uint8_t b[4];
            enc32(b, starts[i]);
            uint32_t id = gr_pg_add(fast, b, 4);
            CHECK_EQ(id, gr_pg_find(fast, b, 4));
            gr_pg_add(old, b, 4);
        }
        gr_pg_solve(old);
        gr_pg_solve(fast);
        ref_reach(t, starts, stage ? nstarts : 1, &ref);
        CHECK_EQ(gr_pg_count(fast), gr_pg_count(old));
        CHECK_EQ(gr_pg_edges(fast), gr_pg_edges(old));
        for (uint32_t v = 0; v < t->n; v++) {
            int64_t a = find32(old, v), f = find32(fast, v);
            CHECK_EQ(f >= 0, a >= 0);
            CHECK_EQ(f >= 0, r_reach(&ref, v));
            if (f < 0 || a < 0) continue;
            int ok = CHECK_EQ(gr_pg_outcome(fast, (uint32_t)f), gr_pg_outcome(old, (uint32_t)a));
            ok &= CHECK_EQ(gr_pg_remoteness(fast, (uint32_t)f), gr_pg_remoteness(old, (uint32_t)a));
            ok &= CHECK_EQ(gr_pg_sg(fast, (uint32_t)f), gr_pg_sg(old, (uint32_t)a));
            ok &= CHECK_EQ(gr_pg_outcome(fast, (uint32_t)f), ref.outcome[v]);
            ok &= CHECK_EQ(gr_pg_remoteness(fast, (uint32_t)f), ref.rem[v]);
            ok &= CHECK_EQ(gr_pg_sg(fast, (uint32_t)f), ref.sg[v]);
            ok &= CHECK(u->expanded[v] >= 1 && u->expanded[v] <= (dag ? 1u : 2u));
            if (!ok) fprintf(stderr, "  values-only: vertex %u of %u (%s), stage %d\n", v, t->n, dag ? "dag" : "any", stage);
        }
    }
    /* Children and gamma, asked of the values-only graph: made by one more expansion. */
    gr_pg_solve_gamma(fast);
    check_tgraph_children(fast, t, &ref);
    for (uint32_t v = 0; v < t->n; v++) {
        int64_t f = find32(fast, v);
        if (f >= 0) CHECK_EQ(gr_pg_gamma(fast, (uint32_t)f), ref.gamma[v]);
    }
    check_remoteness_rules(fast);
    check_gamma_rules(fast);
    CHECK(gr_pg_bytes(fast) + gr_pg_bytes(old) <= c.store.mem_used);
    gr_pg_free(fast);
    gr_pg_free(old);
    CHECK_EQ(c.store.mem_used, 0);
    gr_ctx_free(&c);
    free(t);
    free(u);
}

static void test_values_only(void) {
    t_rng rng = { t_seed(4242) };
    for (int i = 0; i < 300; i++) run_values_only(&rng, 1, 5, 5);
    for (int i = 0; i < 200; i++) run_values_only(&rng, 1, 0, 0);
    for (int i = 0; i < 100; i++) run_values_only(&rng, 1, 30, 10);   /* misere-like: many WIN leaves */
    for (int i = 0; i < 300; i++) run_values_only(&rng, 0, 5, 5);
    for (int i = 0; i < 100; i++) run_values_only(&rng, 0, 20, 20);
}

/* ---- gamma: hand-made values and the sum theorem ---------------------------------------- */

static void expect_gamma(const gr_pg *g, const char *name, int64_t want, const char *kset) {
    int64_t id = find_str(g, name);
    if (!CHECK(id >= 0)) return;
    if (!CHECK_EQ(gr_pg_gamma(g, (uint32_t)id), want)) fprintf(stderr, "  gamma of %s\n", name);
    uint32_t out[8];
    size_t n = gr_pg_gamma_set(g, (uint32_t)id, out, 8);
    CHECK_EQ(n, strlen(kset));
    for (size_t i = 0; i < n && i < strlen(kset); i++) CHECK_EQ(out[i], kset[i] - '0');
}

static void test_gamma_hand(void) {
    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    named_graph ng = { "a:b b:a x:y y:xz u:uz p:q q:W r:pz", 0 };
    gr_pg *g = gr_pg_new(&c, named_expand, &ng, 0);
    for (const char *s = "axupr"; *s; s++) gr_pg_add(g, (const uint8_t *)s, 1);
    CHECK_EQ(gr_pg_gamma(g, 0), -1); /* not computed yet */
    gr_pg_solve_gamma(g);
    expect_gamma(g, "a", GR_GAMMA_INF, ""); /* a 2-cycle: infinity with no finite option */
    expect_gamma(g, "b", GR_GAMMA_INF, "");
    expect_gamma(g, "z", 0, "");
    expect_gamma(g, "x", 0, "1"); /* x->y reverses to z: x is a P-position of value 0 */
    expect_gamma(g, "y", 1, "0");
    expect_gamma(g, "u", GR_GAMMA_INF, "0"); /* self-loop plus a win: infinity_{0} */
    expect_gamma(g, "q", -1, "");
    expect_gamma(g, "p", -1, "");
    expect_gamma(g, "r", -1, "");
    CHECK_EQ(gr_pg_outcome(g, (uint32_t)find_str(g, "u")), GR_WIN);
    CHECK_EQ(gr_pg_outcome(g, (uint32_t)find_str(g, "a")), GR_DRAW);
    gr_pg_solve(g); /* a plain solve discards gamma */
    CHECK_EQ(gr_pg_gamma(g, 0), -1);
    gr_pg_free(g);
    gr_ctx_free(&c);
}

typedef struct { const tgraph *t; } sum_game;

/* Sum positions are pairs (a, b) of vertices; a move is a move in either component. */
static gr_expand_kind sum_expand(void *user, const uint8_t *pos, size_t len, gr_pg_sink *sink) {
    const tgraph *t = ((sum_game *)user)->t;
    CHECK_EQ(len, 8);
    uint32_t a = dec32(pos), b = dec32(pos + 4), mv[TG_DEG], k;
    uint8_t buf[8];
    k = tg_moves(t, a, mv);
    for (uint32_t i = 0; i < k; i++) {
        enc32(buf, mv[i]);
        enc32(buf + 4, b);
        gr_pg_emit(sink, buf, 8);
    }
    k = tg_moves(t, b, mv);
    for (uint32_t i = 0; i < k; i++) {
        enc32(buf, a);
        enc32(buf + 4, mv[i]);
        gr_pg_emit(sink, buf, 8);
    }
    return GR_EXPAND_MOVES;
}

/* Smith's theorem: g + h = g xor h; infinity_K + h = infinity_{K xor h}; two infinities make
 * infinity_{}. Checked on sums of random cyclic graphs with themselves. */
static void test_gamma_sums(void) {
    t_rng rng = { t_seed(777) };
    int infinite_seen = 0, inf_inf_seen = 0;
    for (int round = 0; round < 60; round++) {
        tgraph *t = malloc(sizeof *t);
        do tg_random(t, &rng, 0, 0, 0);
        while (t->n > 14);
        gr_ctx c;
        gr_ctx_init(&c, "t", "", 0);
        gr_pg *one = gr_pg_new(&c, tg_expand, t, 0);
        uint8_t b[8];
        for (uint32_t v = 0; v < t->n; v++) { enc32(b, v); gr_pg_add(one, b, 4); }
        gr_pg_solve_gamma(one);
        sum_game game = { t };
        gr_pg *two = gr_pg_new(&c, sum_expand, &game, 0);
        for (uint32_t a = 0; a < t->n; a++)
            for (uint32_t v = 0; v < t->n; v++) { enc32(b, a); enc32(b + 4, v); gr_pg_add(two, b, 8); }
        gr_pg_solve_gamma(two);
        check_gamma_rules(two);
        for (uint32_t a = 0; a < t->n; a++)
            for (uint32_t v = 0; v < t->n; v++) {
                int64_t ga = gr_pg_gamma(one, a), gb = gr_pg_gamma(one, v);
                enc32(b, a);
                enc32(b + 4, v);
                uint32_t id = (uint32_t)gr_pg_find(two, b, 8);
                int64_t gs = gr_pg_gamma(two, id);
                uint32_t got[TG_DEG * 2 * TG_MAX], want[TG_DEG * TG_MAX];
                size_t ngot = gr_pg_gamma_set(two, id, got, sizeof got / sizeof *got), nwant = 0;
                if (ga >= 0 && gb >= 0) { CHECK_EQ(gs, ga ^ gb); continue; }
                CHECK_EQ(gs, GR_GAMMA_INF);
                infinite_seen++;
                if (ga < 0 && gb < 0) { CHECK_EQ(ngot, 0); inf_inf_seen++; continue; }
                uint32_t inf_side = ga < 0 ? a : v, fin = (uint32_t)(ga < 0 ? gb : ga);
                nwant = gr_pg_gamma_set(one, inf_side, want, sizeof want / sizeof *want);
                for (size_t i = 0; i < nwant; i++) want[i] ^= fin;
                nwant = sort_unique(want, nwant);
                if (CHECK_EQ(ngot, nwant))
                    for (size_t i = 0; i < nwant; i++) CHECK_EQ(got[i], want[i]);
            }
        gr_pg_free(two);
        gr_pg_free(one);
        gr_ctx_free(&c);
        free(t);
    }
    CHECK(infinite_seen > 100); /* the interesting cases really occurred */
    CHECK(inf_inf_seen > 10);
}

/* ---- variable-length encodings ------------------------------------------------------------- */

/* Grundy's game: split a heap into two unequal non-empty heaps. A position is the sorted
 * multiset of heaps larger than 2 (smaller ones can never move), so lengths vary from 0 up. */
static gr_expand_kind grundy_expand(void *user, const uint8_t *pos, size_t len, gr_pg_sink *sink) {
    (void)user;
    uint8_t buf[64];
    for (size_t i = 0; i < len; i++) {
        CHECK(pos[i] > 2 && (i == 0 || pos[i - 1] <= pos[i]));
        if (i > 0 && pos[i] == pos[i - 1]) continue; /* same heap size: same moves */
        for (unsigned a = 1; 2 * a < pos[i]; a++) {
            unsigned parts[2] = { a, pos[i] - a };
            size_t n = 0;
            for (size_t j = 0; j < len; j++)
                if (j != i) buf[n++] = pos[j];
            for (int p = 0; p < 2; p++) {
                if (parts[p] <= 2) continue;
                size_t at = n++; /* insertion keeps the tuple sorted */
                while (at > 0 && buf[at - 1] > parts[p]) { buf[at] = buf[at - 1]; at--; }
                buf[at] = (uint8_t)parts[p];
            }
            gr_pg_emit(sink, buf, n);
        }
    }
    return GR_EXPAND_MOVES;
}

static void test_grundys_game(void) {
    /* Single-heap values by the recursion over splits (SG theorem for the two parts). */
    enum { MAXH = 48 };
    int64_t single[MAXH + 1];
    for (int h = 0; h <= MAXH; h++) {
        int64_t vals[MAXH];
        int k = 0;
        for (int a = 1; 2 * a < h; a++) vals[k++] = single[a] ^ single[h - a];
        single[h] = mex_of(vals, k);
    }
    static const int64_t known[21] = { 0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0 };
    for (int h = 0; h < 21; h++) CHECK_EQ(single[h], known[h]); /* OEIS A002188 */

    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    gr_pg *g = gr_pg_new(&c, grundy_expand, NULL, 0);
    uint8_t start[3] = { 13, 17, 24 };
    gr_pg_add(g, start, 3);
    gr_pg_add(g, NULL, 0); /* the empty position: an empty encoding */
    uint8_t one[1] = { MAXH };
    gr_pg_add(g, one, 1);
    gr_pg_solve(g);
    CHECK(gr_pg_count(g) > 5000);
    size_t lens_seen = 0;
    for (uint32_t id = 0; id < gr_pg_count(g); id++) {
        size_t len;
        const uint8_t *k = gr_pg_key(g, id, &len);
        int64_t x = 0;
        for (size_t i = 0; i < len; i++) x ^= single[k[i]];
        lens_seen |= (size_t)1 << (len < 20 ? len : 20);
        CHECK_EQ(gr_pg_find(g, k, len), id);
        if (!CHECK_EQ(gr_pg_sg(g, id), x)) break;
        CHECK_EQ(gr_pg_outcome(g, id), x == 0 ? GR_LOSS : GR_WIN);
    }
    CHECK(lens_seen >= 0x7f); /* lengths 0..6 all occurred */
    CHECK_EQ(gr_pg_find(g, NULL, 0), 1);
    CHECK_EQ(gr_pg_remoteness(g, 1), 0);
    check_remoteness_rules(g);
    gr_pg_free(g);
    gr_ctx_free(&c);
}

/* Misere nim on sorted heap tuples (empty heaps dropped): no move left means the mover wins,
 * a fixed WIN terminal. The mover loses iff (every heap is 1 and their number is odd) or
 * (some heap exceeds 1 and the xor is 0). No SG values exist: everything reaches the WIN. */
static gr_expand_kind misere_expand(void *user, const uint8_t *pos, size_t len, gr_pg_sink *sink) {
    (void)user;
    if (len == 0) return GR_EXPAND_WIN;
    uint8_t buf[16];
    for (size_t i = 0; i < len; i++) {
        if (i > 0 && pos[i] == pos[i - 1]) continue;
        for (unsigned to = 0; to < pos[i]; to++) {
            size_t n = 0;
            for (size_t j = 0; j < len; j++)
                if (j != i) buf[n++] = pos[j];
            if (to > 0) {
                size_t at = n++;
                while (at > 0 && buf[at - 1] > to) { buf[at] = buf[at - 1]; at--; }
                buf[at] = (uint8_t)to;
            }
            gr_pg_emit(sink, buf, n);
        }
    }
    return GR_EXPAND_MOVES;
}

static void test_misere_nim(void) {
    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    gr_pg *g = gr_pg_new(&c, misere_expand, NULL, 0);
    uint8_t start[5] = { 1, 3, 5, 7, 9 };
    gr_pg_add(g, start, 5);
    gr_pg_solve_gamma(g);
    /* Sub-multisets of heaps below 1,3,5,7,9: the count of sorted tuples dominated by it. */
    CHECK(gr_pg_count(g) > 500);
    for (uint32_t id = 0; id < gr_pg_count(g); id++) {
        size_t len;
        const uint8_t *k = gr_pg_key(g, id, &len);
        int x = 0, big = 0;
        for (size_t i = 0; i < len; i++) { x ^= k[i]; big |= k[i] > 1; }
        int loses = big ? x == 0 : (len % 2 == 1);
        CHECK_EQ(gr_pg_outcome(g, id), loses ? GR_LOSS : GR_WIN);
        CHECK_EQ(gr_pg_sg(g, id), -1);
        CHECK_EQ(gr_pg_gamma(g, id), -1);
    }
    check_remoteness_rules(g);
    gr_pg_free(g);
    gr_ctx_free(&c);
}

/* Substrings of a random string: remove the first or the last byte. The children are emitted
 * straight from the parent's bytes (pos + 1), so this also proves the parent encoding given
 * to expand stays valid while emits grow the key buffer. A string of length L is lost iff L
 * is even; its remoteness is L and its SG value L mod 2. */
static gr_expand_kind substring_expand(void *user, const uint8_t *pos, size_t len, gr_pg_sink *sink) {
    (void)user;
    if (len == 0) return GR_EXPAND_MOVES;
    gr_pg_emit(sink, pos + 1, len - 1);
    gr_pg_emit(sink, pos, len - 1);
    return GR_EXPAND_MOVES;
}

static void test_substrings(void) {
    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    gr_pg *g = gr_pg_new(&c, substring_expand, NULL, 0);
    t_rng rng = { t_seed(99) };
    uint8_t s[300];
    for (size_t i = 0; i < sizeof s; i++) s[i] = (uint8_t)t_range(&rng, 'a', 'c');
    memset(s + 100, 'z', 20); /* a run: both moves give the same string, merged */
    gr_pg_add(g, s, sizeof s);
    gr_pg_solve(g);
    uint32_t merged = 0;
    for (uint32_t id = 0; id < gr_pg_count(g); id++) {
        size_t len;
        const uint8_t *k = gr_pg_key(g, id, &len);
        CHECK_EQ(gr_pg_outcome(g, id), len % 2 ? GR_WIN : GR_LOSS);
        CHECK_EQ(gr_pg_remoteness(g, id), len);
        CHECK_EQ(gr_pg_sg(g, id), len % 2);
        if (len > 0) {
            uint32_t n = gr_pg_nchildren(g, id);
            int same = k[0] == k[len - 1] && !memcmp(k, k + 1, len - 1);
            CHECK_EQ(n, same ? 1 : 2);
            merged += n == 1;
        }
    }
    CHECK(merged >= 20);
    CHECK(gr_pg_count(g) > 20000);
    gr_pg_free(g);
    CHECK_EQ(c.store.mem_used, 0);
    gr_ctx_free(&c);
}

/* ---- limits -------------------------------------------------------------------------------- */

/* A chain 0 -> 1 -> 2 -> ... of the given length. */
static gr_expand_kind chain_expand(void *user, const uint8_t *pos, size_t len, gr_pg_sink *sink) {
    uint32_t n = *(uint32_t *)user, v = dec32(pos);
    (void)len;
    if (v + 1 < n) {
        uint8_t b[4];
        enc32(b, v + 1);
        gr_pg_emit(sink, b, 4);
    }
    return GR_EXPAND_MOVES;
}

static int chain_values_only; /* solve_chain on the values-only path */

/* Solves a chain under the context's limits; returns 1 if it failed (status in c). */
static int solve_chain(gr_ctx *c, uint32_t length, uint64_t max_positions) {
    jmp_buf jb;
    c->on_fail = &jb;
    if (setjmp(jb)) {
        c->on_fail = NULL;
        return 1;
    }
    gr_pg *g = gr_pg_new(c, chain_expand, &length, max_positions);
    if (chain_values_only) gr_pg_store_edges(g, 0);
    uint8_t b[4];
    enc32(b, 0);
    gr_pg_add(g, b, 4);
    gr_pg_solve(g);
    CHECK_EQ(gr_pg_outcome(g, 0), length % 2 ? GR_LOSS : GR_WIN);
    CHECK_EQ(gr_pg_remoteness(g, 0), length - 1);
    gr_pg_free(g);
    c->on_fail = NULL;
    return 0;
}

static void test_limits(void) {
    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    CHECK_EQ(solve_chain(&c, 10, 10), 0); /* exactly at the limit is fine */
    CHECK_EQ(c.store.mem_used, 0);
    CHECK_EQ(solve_chain(&c, 11, 10), 1);
    CHECK_EQ(c.fail_status, GR_EXIT_LIMIT);
    CHECK(strstr(c.fail_msg, "position graph limit reached: 10 positions and 9 edges") != NULL);
    CHECK(strstr(c.fail_msg, "--max-positions 10") != NULL);
    gr_ctx_free(&c); /* frees what the failed solve left behind */
    CHECK_EQ(c.store.mem_used, 0);

    /* The default limit follows from the memory limit. */
    gr_ctx_init(&c, "t", "", 0);
    c.mem_limit = (size_t)1 << 20;
    CHECK_EQ(solve_chain(&c, 1000, 0), 0);
    CHECK_EQ(solve_chain(&c, 100000, 0), 1);
    CHECK_EQ(c.fail_status, GR_EXIT_LIMIT);
    CHECK(strstr(c.fail_msg, "limit") != NULL);
    gr_ctx_free(&c);

    /* Adding starts counts too. */
    gr_ctx_init(&c, "t", "", 0);
    jmp_buf jb;
    c.on_fail = &jb;
    if (!setjmp(jb)) {
        uint32_t length = 5;
        gr_pg *g = gr_pg_new(&c, chain_expand, &length, 2);
        uint8_t b[4];
        for (uint32_t v = 0; v < 3; v++) { enc32(b, v * 10); gr_pg_add(g, b, 4); }
        CHECK(0); /* not reached */
    } else {
        CHECK_EQ(c.fail_status, GR_EXIT_LIMIT);
        CHECK(strstr(c.fail_msg, "2 positions") != NULL);
    }
    c.on_fail = NULL;
    gr_ctx_free(&c);
}

/* A long chain: no recursion, so depth costs nothing but memory. */
static void test_deep_chain(void) {
    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    CHECK_EQ(solve_chain(&c, 1000001, 0), 0);
    gr_ctx_free(&c);
}

int main(void) {
    test_hand_made();
    test_random_graphs();
    test_values_only();
    test_gamma_hand();
    test_gamma_sums();
    test_grundys_game();
    test_misere_nim();
    test_substrings();
    test_limits();
    test_deep_chain();
    chain_values_only = 1; /* the same limits and messages, and depth, on the values-only path */
    test_limits();
    test_deep_chain();
    return t_finish("unit_posgraph");
}
