/* unit_loopy: loopy values through the public API against a brute force written here. Random
 * small graphs with cycles, random sums of their tokens (500 of them): the outcome of each sum
 * by retrograde analysis of the whole product graph (built here, position by position), against
 * (1) the engine's outcome and every winning move (gr_solve_full), and (2) the rule for sums of
 * generalised values (Smith): all finite, the xor; one infinite value ∞{K} plus finite ones of
 * xor x, ∞{K xor x}, won iff x is in K; two or more infinite, ∞{}, a draw. The components'
 * gamma values come from the labelling's definition, iterated here until nothing changes, and
 * the engine's value of the sum (finite or ∞{K}) and the table query's JSON must equal them. */
#include "grundy.h"
#include "testlib.h"
#include <stdlib.h>
#include <string.h>

enum { MAXG = 3, MAXV = 6, MAXT = 4, UNL = -3, INF = -2 };

typedef struct graph {
    int n, deg[MAXV], to[MAXV][4];
    int gamma[MAXV]; unsigned kset[MAXV];
    int order[MAXV];   /* vertices in the order the source names them first, as a table lists them */
} graph;

/* Smith's labelling, stage m = 0, 1, ...: label m an unlabelled u with no child labelled m
 * whose every child unlabelled or infinite has a child labelled m (repeated until no change);
 * then label infinity each unlabelled u with no child labelled m. Naive, by definition. */
static void brute_gamma(graph *g) {
    for (int v = 0; v < g->n; v++) g->gamma[v] = UNL;
    for (int m = 0;; m++) {
        int left = 0;
        for (int v = 0; v < g->n; v++) left += g->gamma[v] == UNL;
        if (!left) break;
        for (int changed = 1; changed;) {
            changed = 0;
            for (int u = 0; u < g->n; u++) {
                if (g->gamma[u] != UNL) continue;
                int ok = 1;
                for (int j = 0; j < g->deg[u] && ok; j++) {
                    int w = g->to[u][j];
                    if (g->gamma[w] == m) ok = 0;
                    else if (g->gamma[w] == UNL || g->gamma[w] == INF) {
                        int hit = 0;
                        for (int i = 0; i < g->deg[w]; i++) hit |= g->gamma[g->to[w][i]] == m;
                        ok = hit;
                    }
                }
                if (ok) { g->gamma[u] = m; changed = 1; }
            }
        }
        for (int u = 0; u < g->n; u++) {
            if (g->gamma[u] != UNL) continue;
            int hit = 0;
            for (int j = 0; j < g->deg[u]; j++) hit |= g->gamma[g->to[u][j]] == m;
            if (!hit) g->gamma[u] = INF;
        }
    }
    for (int u = 0; u < g->n; u++) {
        g->kset[u] = 0;
        for (int j = 0; j < g->deg[u]; j++)
            if (g->gamma[g->to[u][j]] >= 0) g->kset[u] |= 1u << g->gamma[g->to[u][j]];
    }
}

/* ---- the product graph: a position is a sorted list of tokens (graph * MAXV + vertex) ---- */
typedef struct pos { int n; int t[MAXT]; } pos;
typedef struct product {
    pos *p; int n, cap;
    int **child; int *nchild;
    int *outcome;   /* 0 P, 1 N, 2 D */
} product;

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static int intern(product *pr, pos x) {
    qsort(x.t, (size_t)x.n, sizeof *x.t, cmp_int);
    for (int i = 0; i < pr->n; i++)
        if (!memcmp(pr->p[i].t, x.t, sizeof x.t)) return i;
    if (pr->n == pr->cap) {
        pr->cap = pr->cap ? 2 * pr->cap : 64;
        pr->p = realloc(pr->p, (size_t)pr->cap * sizeof *pr->p);
    }
    pr->p[pr->n] = x;
    return pr->n++;
}

/* Every position reachable from start, its children, then outcomes by retrograde analysis. */
static void build(product *pr, const graph *gs, pos start) {
    memset(start.t + start.n, 0, sizeof start.t - (size_t)start.n * sizeof *start.t);
    intern(pr, start);
    for (int i = 0; i < pr->n; i++) {   /* pr->n grows as children are found */
        pos x = pr->p[i];
        int kids[MAXT * 4], nk = 0;
        for (int a = 0; a < x.n; a++) {
            const graph *g = &gs[x.t[a] / MAXV];
            int v = x.t[a] % MAXV;
            for (int j = 0; j < g->deg[v]; j++) {
                pos y = x;
                y.t[a] = x.t[a] / MAXV * MAXV + g->to[v][j];
                int id = intern(pr, y);
                int seen = 0;
                for (int k = 0; k < nk; k++) seen |= kids[k] == id;
                if (!seen) kids[nk++] = id;
            }
        }
        pr->child = realloc(pr->child, (size_t)pr->n * sizeof *pr->child);
        pr->nchild = realloc(pr->nchild, (size_t)pr->n * sizeof *pr->nchild);
        pr->child[i] = malloc(sizeof kids);
        memcpy(pr->child[i], kids, sizeof kids);
        pr->nchild[i] = nk;
    }
    pr->outcome = malloc((size_t)pr->n * sizeof *pr->outcome);
    for (int i = 0; i < pr->n; i++) pr->outcome[i] = 2;
    for (int changed = 1; changed;) {   /* naive fixed point: a loss if every child is won, a win if some child is lost */
        changed = 0;
        for (int i = 0; i < pr->n; i++) {
            if (pr->outcome[i] != 2) continue;
            int all_won = 1, some_lost = 0;
            for (int k = 0; k < pr->nchild[i]; k++) {
                int o = pr->outcome[pr->child[i][k]];
                all_won &= o == 1;
                some_lost |= o == 0;
            }
            if (some_lost || all_won) { pr->outcome[i] = some_lost ? 1 : 0; changed = 1; }
        }
    }
}

static void product_free(product *pr) {
    for (int i = 0; i < pr->n; i++) free(pr->child[i]);
    free(pr->child); free(pr->nchild); free(pr->outcome); free(pr->p);
}

/* A position's text as the engine writes it, tokens sorted: "g0.v1 + g2.v0". */
static void pos_text(const pos *x, char *buf, size_t cap) {
    size_t n = 0;
    buf[0] = 0;
    for (int a = 0; a < x->n; a++)
        n += (size_t)snprintf(buf + n, cap - n, "%sg%d.v%d", a ? " + " : "", x->t[a] / MAXV, x->t[a] % MAXV);
}

/* A move's text with its terms sorted, so that moves compare as multisets. */
static void sorted_terms(const char *text, char *buf, size_t cap) {
    char copy[256], *terms[MAXT + 1];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", text);
    for (char *s = copy; s && n <= MAXT;) {
        terms[n++] = s;
        char *plus = strstr(s, " + ");
        if (plus) { *plus = 0; s = plus + 3; } else s = NULL;
    }
    for (int i = 1; i < n; i++)   /* insertion sort by (graph, vertex) number, as pos_text orders them */
        for (int j = i; j > 0; j--) {
            int gj, vj, gk, vk;
            sscanf(terms[j], "g%d.v%d", &gj, &vj);
            sscanf(terms[j - 1], "g%d.v%d", &gk, &vk);
            if (gj * MAXV + vj >= gk * MAXV + vk) break;
            char *t = terms[j]; terms[j] = terms[j - 1]; terms[j - 1] = t;
        }
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < n; i++) len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " + " : "", terms[i]);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void named(graph *g, int v, int *seen, int *k) {
    if (!seen[v]) { seen[v] = 1; g->order[(*k)++] = v; }
}

static size_t write_graph(char *buf, size_t cap, int gi, graph *g) {
    size_t at = (size_t)snprintf(buf, cap, "graph g%d {", gi);
    int seen[MAXV] = { 0 }, k = 0;
    for (int v = 0; v < g->n; v++) {
        at += (size_t)snprintf(buf + at, cap - at, " v%d", v);
        named(g, v, seen, &k);
        for (int e = 0; e < g->deg[v]; e++) {
            at += (size_t)snprintf(buf + at, cap - at, "%s v%d", e ? "," : " ->", g->to[v][e]);
            named(g, g->to[v][e], seen, &k);
        }
        at += (size_t)snprintf(buf + at, cap - at, ";");
    }
    return at + (size_t)snprintf(buf + at, cap - at, " }\n");
}

/* The table query's JSON values of graph g as the brute force has them. */
static void expected_values(const graph *g, char *buf, size_t cap) {
    size_t n = (size_t)snprintf(buf, cap, "\"values\":[");
    for (int i = 0; i < g->n; i++) {
        int v = g->order[i];
        if (i) buf[n++] = ',';
        if (g->gamma[v] >= 0) n += (size_t)snprintf(buf + n, cap - n, "%d", g->gamma[v]);
        else {
            n += (size_t)snprintf(buf + n, cap - n, "{\"loopy\":[");
            int first = 1;
            for (int k = 0; k < 32; k++)
                if (g->kset[v] >> k & 1) { n += (size_t)snprintf(buf + n, cap - n, "%s%d", first ? "" : ",", k); first = 0; }
            n += (size_t)snprintf(buf + n, cap - n, "]}");
        }
    }
    snprintf(buf + n, cap - n, "]");
}

static int sums, wins, draws, loopy_sums;

static void one_sum(gr_program *p, graph *gs, int ng, t_rng *r) {
    pos start = { .n = (int)t_range(r, 1, MAXT) };
    for (int a = 0; a < start.n; a++) {
        int gi = (int)t_range(r, 0, ng - 1);
        start.t[a] = gi * MAXV + (int)t_range(r, 0, gs[gi].n - 1);
    }
    product pr = { 0 };
    build(&pr, gs, start);
    char text[256];
    pos_text(&pr.p[0], text, sizeof text);
    /* the rule for sums of generalised values */
    int ninf = 0, x = 0;
    unsigned k = 0;
    for (int a = 0; a < start.n; a++) {
        const graph *g = &gs[start.t[a] / MAXV];
        int v = start.t[a] % MAXV;
        if (g->gamma[v] == INF) { ninf++; k = g->kset[v]; } else x ^= g->gamma[v];
    }
    unsigned kx = 0;   /* K xor x */
    for (int i = 0; i < 32; i++) if (k >> i & 1) kx |= 1u << (i ^ x);
    int rule = ninf == 0 ? (x != 0) : ninf == 1 ? ((k >> x & 1) ? 1 : 2) : 2;
    if (!CHECK_EQ(rule, pr.outcome[0])) fprintf(stderr, "  rule vs product: %s\n", text);
    /* the engine */
    gr_answer ans;
    char **moves = NULL;
    if (!CHECK_EQ(gr_solve_full(p, text, GR_NORMAL, &ans, &moves), GR_OK)) { product_free(&pr); return; }
    static const char OUT[] = { 'P', 'N', 'D' };
    if (!CHECK_EQ(ans.outcome, OUT[pr.outcome[0]])) fprintf(stderr, "  engine vs product: %s\n", text);
    if (ninf == 0) {
        CHECK(ans.has_sg && !ans.loopy);
        CHECK_EQ(ans.sg, x);
    } else {
        CHECK(!ans.has_sg && ans.loopy);
        unsigned got = 0;
        for (int i = 0; i < ans.nloopy && i < GR_LOOPY_LISTED; i++) got |= 1u << ans.loopy_set[i];
        if (!CHECK_EQ(got, ninf == 1 ? kx : 0u)) fprintf(stderr, "  value of %s\n", text);
        loopy_sums++;
    }
    /* every winning move: the distinct children that are P in the product */
    char *want[64], *got[64];
    int nwant = 0;
    for (int c = 0; c < pr.nchild[0] && nwant < 64; c++)
        if (pr.outcome[pr.child[0][c]] == 0) {
            want[nwant] = malloc(256);
            pos_text(&pr.p[pr.child[0][c]], want[nwant++], 256);
        }
    if (CHECK_EQ(ans.nwinning, nwant)) {
        for (int i = 0; i < nwant; i++) {
            got[i] = malloc(256);
            sorted_terms(moves[i], got[i], 256);
        }
        qsort(want, (size_t)nwant, sizeof *want, cmp_str);
        qsort(got, (size_t)nwant, sizeof *got, cmp_str);
        for (int i = 0; i < nwant; i++) {
            if (!CHECK(!strcmp(want[i], got[i]))) fprintf(stderr, "  %s: move %s, want %s\n", text, got[i], want[i]);
            free(got[i]);
        }
    } else fprintf(stderr, "  moves of %s\n", text);
    for (int i = 0; i < nwant; i++) free(want[i]);
    gr_free(moves);
    sums++;
    wins += pr.outcome[0] == 1;
    draws += pr.outcome[0] == 2;
    product_free(&pr);
}

/* The answers as data of the fifth round's graph and of a loopy rule set: gr_options and
 * gr_table_box carry ∞{K} as gr_solve does. */
static void test_api_faces(void) {
    gr_program *p = gr_compile("graph g { x -> xp, y; xp -> x; y -> z; z; }\n"
                               "game up { heap n; move -> n - 1 where n >= 1; move -> n + 1 where n == 2; }\n", NULL, NULL);
    if (!CHECK(p != NULL)) return;
    gr_answer a;
    CHECK_EQ(gr_solve(p, "g.x", GR_NORMAL, &a), GR_OK);
    CHECK(a.outcome == 'D' && a.loopy && !a.has_sg && a.nloopy == 1 && a.loopy_set[0] == 1);
    gr_option *o = NULL;
    int n = 0;
    CHECK_EQ(gr_options(p, "g.x", GR_NORMAL, &o, &n), GR_OK);
    if (CHECK_EQ(n, 2)) {   /* g.xp: ∞{}; g.y: 1 */
        CHECK(!strcmp(o[0].position, "g.xp") && o[0].loopy && o[0].nloopy == 0 && !o[0].has_sg);
        CHECK(!strcmp(o[1].position, "g.y") && !o[1].loopy && o[1].has_sg && o[1].sg == 1);
    }
    gr_free(o);
    CHECK_EQ(gr_options(p, "up(3)", GR_NORMAL, &o, &n), GR_OK);   /* up(2): ∞{1} */
    if (CHECK_EQ(n, 1)) CHECK(o[0].loopy && o[0].nloopy == 1 && o[0].loopy_set[0] == 1);
    gr_free(o);
    gr_table_data t;
    int64_t lo[1] = { 0 }, hi[1] = { 4 };
    if (CHECK_EQ(gr_table_box(p, "up", 1, lo, hi, GR_NORMAL, GR_CELL_SG, &t), GR_OK)) {
        /* 0 1 ∞{1} ∞{} ∞{}: two distinct sets, equal sets one */
        CHECK(t.values[0] == 0 && t.values[1] == 1 && t.values[2] <= -2 && t.values[3] <= -2 && t.values[3] == t.values[4]);
        CHECK_EQ(t.nloopy, 2);
        int64_t j = -2 - t.values[2], k = -2 - t.values[3];
        CHECK(t.loopy_off[j + 1] - t.loopy_off[j] == 1 && t.loopy_values[t.loopy_off[j]] == 1);
        CHECK_EQ(t.loopy_off[k + 1] - t.loopy_off[k], 0);
        gr_free(t.values);
    }
    int64_t plain[5];
    CHECK_EQ(gr_table(p, "up", 0, 4, plain), GR_OK);   /* the heap table call: no value, -1, as documented */
    CHECK(plain[2] == -1 && plain[3] == -1 && plain[1] == 1);
    gr_program_free(p);
}

int main(void) {
    test_api_faces();
    t_rng r = { t_seed(20261128) };
    char src[4096];
    for (int round = 0; round < 100; round++) {
        graph gs[MAXG];
        int ng = (int)t_range(&r, 1, MAXG);
        size_t len = 0;
        for (int gi = 0; gi < ng; gi++) {
            graph *g = &gs[gi];
            g->n = (int)t_range(&r, 2, MAXV);
            for (int v = 0; v < g->n; v++) {
                g->deg[v] = 0;
                int want = (int)t_range(&r, 0, 3);
                for (int e = 0; e < want; e++) {   /* distinct successors, cycles and loops allowed */
                    int w = (int)t_range(&r, 0, g->n - 1), dup = 0;
                    for (int i = 0; i < g->deg[v]; i++) dup |= g->to[v][i] == w;
                    if (!dup) g->to[v][g->deg[v]++] = w;
                }
            }
            brute_gamma(g);
            len += write_graph(src + len, sizeof src - len, gi, g);
        }
        gr_diagnostic d;
        gr_program *p = gr_compile(src, "loopy.game", &d);
        if (!CHECK(p != NULL)) { fprintf(stderr, "%s\n%s\n", d.message, src); continue; }
        for (int gi = 0; gi < ng; gi++) {   /* the table query shows the same values */
            char q[32], want[1024], *out = NULL;
            snprintf(q, sizeof q, "table g%d", gi);
            expected_values(&gs[gi], want, sizeof want);
            if (CHECK_EQ(gr_run_one(p, q, "json", &out, NULL), GR_OK) && !CHECK(strstr(out, want) != NULL))
                fprintf(stderr, "  %s: %s, want %s\n", q, out, want);
            gr_free(out);
        }
        for (int s = 0; s < 5; s++) one_sum(p, gs, ng, &r);
        gr_program_free(p);
    }
    CHECK_EQ(sums, 500);
    /* the cases are not all of one kind */
    CHECK(wins > 50 && draws > 50 && loopy_sums > 100);
    printf("unit_loopy: %d sums, %d won, %d drawn, %d with a loopy value\n", sums, wins, draws, loopy_sums);
    return t_finish("unit_loopy");
}
