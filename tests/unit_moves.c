/* unit_moves: winning-move lists are exact. Each list is compared with a brute force that
 * enumerates every move of every component from the rules as written here (never by the move
 * generator under test, gr_heap_options), judges it by values from a mex loop over those same
 * moves, and keeps the first move to each distinct resulting position
 * (a multiset of atoms, heaps of 0 dropped since no game here moves from 0), written in the
 * printed form (render.h: empty heaps left out, *0 for nothing). Under every
 * convention the graph's list must hold each losing child of the start exactly once (the
 * graph's own children are distinct canonical positions). Sums far past 4,095 characters of
 * text are listed whole. */
#include <stdlib.h>
#include <string.h>
#include "gamefix.h"

/* ---- a list of texts ---- */
typedef struct tlist { char **v; int n, cap; } tlist;
static void tl_add(tlist *l, const char *s) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n++] = strdup(s);
}
static void tl_free(tlist *l) {
    for (int i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}
static void keep(void *user, const char *text, uint32_t id) { (void)id; tl_add(user, text); }

typedef struct graph_list { tlist l; gr_pg *pg; } graph_list;
static void keep_losing(void *user, const char *text, uint32_t id) {
    graph_list *g = user;
    if (gr_pg_outcome(g->pg, id) == GR_LOSS) tl_add(&g->l, text);
}

static int cmp_str(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* Canonical text of a rendered position: components (split at depth 0 on " + ") each a sorted
 * list of atoms without heaps of 0; flat (one component) unless components matter. */
static char *canonical(const char *text, int grouped) {
    size_t len = strlen(text);
    char *buf = malloc(len + 1), **comps = malloc((len + 2) * sizeof *comps);
    memcpy(buf, text, len + 1);
    int nc = 0;
    char *start = buf;
    int depth = 0;
    for (char *p = buf;; p++) {
        if (*p == '(') depth++;
        if (*p == ')') depth--;
        if (*p == '\0' || (depth == 0 && strncmp(p, " + ", 3) == 0)) {
            int end = *p == '\0';
            *p = '\0';
            comps[nc++] = start;
            if (end) break;
            start = p + 3;
            p += 2;
        }
    }
    /* each component: strip the parentheses of a group, sort its atoms */
    char **canon = malloc((size_t)nc * sizeof *canon);
    for (int k = 0; k < nc; k++) {
        char *c = comps[k];
        size_t cl = strlen(c);
        if (c[0] == '(' && c[cl - 1] == ')' && strchr(c, '+')) { c[cl - 1] = '\0'; c++; }
        char **atoms = malloc((cl + 2) * sizeof *atoms);
        int na = 0;
        for (char *p = c; p;) {
            char *sep = strstr(p, " + ");
            if (sep) *sep = '\0';
            size_t al = strlen(p);
            if (strcmp(p, "0") != 0 && !(al > 3 && strcmp(p + al - 3, "(0)") == 0)) atoms[na++] = p;
            p = sep ? sep + 3 : NULL;
        }
        qsort(atoms, (size_t)na, sizeof *atoms, cmp_str);
        char *out = malloc(cl + 4);
        size_t pos = 0;
        out[pos++] = '[';
        for (int i = 0; i < na; i++) pos += (size_t)sprintf(out + pos, "%s%s", i ? "," : "", atoms[i]);
        out[pos++] = ']';
        out[pos] = '\0';
        canon[k] = out;
        free(atoms);
    }
    char *res;
    if (!grouped) {   /* one flat multiset */
        size_t total = 0;
        for (int k = 0; k < nc; k++) total += strlen(canon[k]) + 1;
        char **atoms = malloc((total + 1) * sizeof *atoms);
        char *all = malloc(total + 1);
        size_t pos = 0;
        int na = 0;
        for (int k = 0; k < nc; k++) {
            char *inner = canon[k] + 1;
            inner[strlen(inner) - 1] = '\0';
            for (char *p = inner; *p;) {
                char *sep = strstr(p, "),");
                size_t al = sep ? (size_t)(sep - p) + 1 : strlen(p);
                memcpy(all + pos, p, al);
                all[pos + al] = '\0';
                atoms[na++] = all + pos;
                pos += al + 1;
                p += al + (sep ? 1 : 0);
            }
        }
        qsort(atoms, (size_t)na, sizeof *atoms, cmp_str);
        res = malloc(total + 8);
        size_t rp = 0;
        for (int i = 0; i < na; i++) rp += (size_t)sprintf(res + rp, "%s%s", i ? "," : "", atoms[i]);
        res[rp] = '\0';
        free(atoms);
        free(all);
    } else {
        qsort(canon, (size_t)nc, sizeof *canon, cmp_str);
        size_t total = 1;
        for (int k = 0; k < nc; k++) total += strlen(canon[k]) + 1;
        res = malloc(total);
        size_t rp = 0;
        for (int k = 0; k < nc; k++) rp += (size_t)sprintf(res + rp, "%s", canon[k]);
        res[rp] = '\0';
    }
    for (int k = 0; k < nc; k++) free(canon[k]);
    free(canon);
    free(comps);
    free(buf);
    return res;
}

/* ---- the brute force (normal play, heap games) ---- */
enum { MAXC = 8, MAXH = 24, MAXH_BRUTE = MAXH };
typedef struct brute {
    gf *f;
    const gr_comp *comps; int n, at;
    int64_t vals[MAXC][MAXH + 1];   /* per component's game, values 0..MAXH */
    int64_t rest;                   /* xor of the other components */
    tlist moves, seen;
} brute;

/* The options of heap n of the game named (test_random_sums' a, b, c, d), from their rules
 * written out in C, in the order grundy documents for gr_heap_options: by amount removed, then
 * by the parts (a move that leaves nothing leaves heap 0). */
typedef void (*brute_fn)(void *user, const int64_t *heaps, int nheaps);
static void brute_moves(const char *name, int64_t n, brute_fn fn, void *user) {
    int64_t p[2];
    switch (name[0]) {
    case 'a':   /* subtract 1.. */
        for (int64_t k = 1; k <= n; k++) { p[0] = n - k; fn(user, p, 1); }
        break;
    case 'b': { /* subtract {1, 2, 4} */
        static const int64_t take[3] = { 1, 2, 4 };
        for (int i = 0; i < 3; i++)
            if (take[i] <= n) { p[0] = n - take[i]; fn(user, p, 1); }
        break;
    }
    case 'c':   /* octal 0.77: remove 1 or 2, leaving no heap, one, or two nonempty heaps */
        for (int64_t k = 1; k <= 2 && k <= n; k++) {
            int64_t r = n - k;
            p[0] = r;
            fn(user, p, 1);
            for (int64_t a = 1; 2 * a <= r; a++) { p[0] = a; p[1] = r - a; fn(user, p, 2); }
        }
        break;
    case 'd':   /* move -> {k, n - k - 1} for k in 0..n - 1; move -> n - 2 where n >= 2 */
        for (int64_t k = 0; k < n; k++) { p[0] = k; p[1] = n - k - 1; fn(user, p, 2); }
        if (n >= 2) { p[0] = n - 2; fn(user, p, 1); }
        break;
    }
}

/* sg(0..MAXH) of the game named, by the mex over brute_moves. */
typedef struct brute_mex { const int64_t *v; uint64_t seen; } brute_mex;
static void mex_option(void *user, const int64_t *heaps, int nheaps) {
    brute_mex *m = user;
    int64_t x = 0;
    for (int i = 0; i < nheaps; i++) x ^= m->v[heaps[i]];
    if (x < 64) m->seen |= UINT64_C(1) << x;
}
static void brute_values(const char *name, int64_t *v) {
    for (int64_t n = 0; n <= MAXH_BRUTE; n++) {
        brute_mex m = { v, 0 };
        brute_moves(name, n, mex_option, &m);
        int64_t g = 0;
        while (m.seen >> g & 1) g++;
        v[n] = g;
    }
}

static void brute_option(void *user, const int64_t *heaps, int nheaps) {
    brute *b = user;
    int64_t x = b->rest;
    for (int i = 0; i < nheaps; i++) x ^= b->vals[b->at][heaps[i]];
    if (x) return;
    char text[4096];
    size_t pos = 0;
    for (int i = 0; i < b->n; i++) {
        /* the printed form leaves empty heaps out (no game here moves from 0) */
        if (i != b->at) {
            if (b->comps[i].c[0])
                pos += (size_t)snprintf(text + pos, sizeof text - pos, "%s%s(%lld)", pos ? " + " : "", b->comps[i].game->name, (long long)b->comps[i].c[0]);
            continue;
        }
        for (int q = 0; q < nheaps; q++)
            if (heaps[q])
                pos += (size_t)snprintf(text + pos, sizeof text - pos, "%s%s(%lld)", pos ? " + " : "", b->comps[i].game->name, (long long)heaps[q]);
    }
    if (!pos) snprintf(text, sizeof text, "*0");
    char *key = canonical(text, 0);
    int dup = 0;
    for (int i = 0; i < b->seen.n && !dup; i++) dup = strcmp(b->seen.v[i], key) == 0;
    if (!dup) { tl_add(&b->seen, key); tl_add(&b->moves, text); }
    free(key);
}

typedef struct sums_job { int cases; int ok; } sums_job;
static const char *GAMES[] = { "a", "b", "c", "d" };

static int lists_equal(const char *what, const tlist *x, const tlist *y) {
    int ok = CHECK_EQ(x->n, y->n);
    for (int i = 0; ok && i < x->n; i++) ok &= CHECK(strcmp(x->v[i], y->v[i]) == 0);
    if (!ok) {
        fprintf(stderr, "  %s differ:\n   ", what);
        for (int i = 0; i < x->n; i++) fprintf(stderr, " [%s]", x->v[i]);
        fprintf(stderr, "\n  against\n   ");
        for (int i = 0; i < y->n; i++) fprintf(stderr, " [%s]", y->v[i]);
        fprintf(stderr, "\n");
    }
    return ok;
}

/* Under conv, the graph lists each losing child of the start exactly once. */
static int graph_list_exact(gf *f, gr_conv conv, const gr_comp *comps, int n) {
    gr_sumgraph *s = gr_sumgraph_new(&f->c, &f->mod, conv);
    uint32_t id = gr_sumgraph_add(s, comps, n);
    gr_sumgraph_solve(s);
    graph_list gl = { .pg = gr_sumgraph_pg(s) };
    gr_sumgraph_moves(s, comps, n, keep_losing, &gl);
    int losing = 0;
    const uint32_t *ch = gr_pg_children(gl.pg, id);
    for (uint32_t k = 0; k < gr_pg_nchildren(gl.pg, id); k++) losing += gr_pg_outcome(gl.pg, ch[k]) == GR_LOSS;
    int ok = CHECK_EQ(gl.l.n, losing);
    int grouped = conv == CONV_ANYLEAF || conv == CONV_EVERY;
    for (int i = 0; i < gl.l.n; i++)
        for (int j = 0; j < i; j++) {
            char *a = canonical(gl.l.v[i], grouped), *b = canonical(gl.l.v[j], grouped);
            ok &= CHECK(strcmp(a, b) != 0);
            free(a);
            free(b);
        }
    if (!ok) fprintf(stderr, "  convention %s: %d listed, %d losing children\n", gr_convention_name(conv), gl.l.n, losing);
    tl_free(&gl.l);
    gr_sumgraph_free(s);
    return ok;
}

static void sums_body(gf *f, void *arg) {
    sums_job *j = arg;
    t_rng r = { t_seed(0x5eed + (uint64_t)j->cases) };
    for (int t = 0; t < j->cases; t++) {
        gr_comp comps[MAXC];
        int n = (int)t_range(&r, 1, 5);
        brute b = { .f = f, .comps = comps, .n = n };
        for (int i = 0; i < n; i++) {
            /* repeated components are common, so equal resulting positions are too */
            gr_game *g = gf_game(f, GAMES[t_range(&r, 0, 3)]);
            int64_t h = t_range(&r, 0, 4) == 0 && i ? comps[i - 1].c[0] : t_range(&r, 0, 9);
            if (i && t_range(&r, 0, 2) == 0) { g = comps[i - 1].game; h = comps[i - 1].c[0]; }
            comps[i] = gf_comp(g, h, 0);
            brute_values(g->name, b.vals[i]);
        }
        int64_t x = 0;
        for (int i = 0; i < n; i++) x ^= b.vals[i][comps[i].c[0]];
        for (int i = 0; i < n; i++) {
            b.at = i;
            b.rest = x ^ b.vals[i][comps[i].c[0]];
            brute_moves(comps[i].game->name, comps[i].c[0], brute_option, &b);
        }
        /* the fast path (by values) */
        tlist fast = { 0 };
        int64_t vals[MAXC], sg;
        CHECK(gr_sum_sg_fast(&f->c, comps, n, &sg, vals));
        CHECK_EQ(sg, x);
        if (sg) gr_sum_fast_moves(&f->c, comps, n, vals, sg, keep, &fast, NULL);
        int ok = lists_equal("fast path and brute force", &fast, &b.moves);
        /* the graph, normal play: the same list in the same order */
        gr_sumgraph *s = gr_sumgraph_new(&f->c, &f->mod, CONV_NORMAL);
        gr_sumgraph_add(s, comps, n);
        gr_sumgraph_solve(s);
        graph_list gl = { .pg = gr_sumgraph_pg(s) };
        gr_sumgraph_moves(s, comps, n, keep_losing, &gl);
        ok &= lists_equal("graph and brute force", &gl.l, &b.moves);
        tl_free(&gl.l);
        gr_sumgraph_free(s);
        int64_t size = 0;   /* the product graphs of anyleaf and every grow fast: small sums */
        for (int i = 0; i < n; i++) size += comps[i].c[0];
        if (size <= 12 && n <= 4)
            for (gr_conv conv = CONV_NORMAL; conv <= CONV_EVERY; conv++) ok &= graph_list_exact(f, conv, comps, n);
        if (!ok) {
            fprintf(stderr, "  in the sum");
            for (int i = 0; i < n; i++) fprintf(stderr, " %s(%lld)", comps[i].game->name, (long long)comps[i].c[0]);
            fprintf(stderr, "\n");
        }
        j->ok &= ok;
        tl_free(&fast);
        tl_free(&b.moves);
        tl_free(&b.seen);
    }
}

static void test_random_sums(void) {
    gf f;
    if (!CHECK(gf_open(&f, "game a = subtract 1..;\n"
                           "game b = subtract {1, 2, 4};\n"
                           "game c = octal \"0.77\";\n"
                           "game d { heap n; move -> {k, n - k - 1} for k in 0..n - 1; move -> n - 2 where n >= 2; }\n")))
        return;
    sums_job j = { .cases = 200, .ok = 1 };
    if (!gf_run(&f, sums_body, &j)) gf_report_failure(&f, "random sums");
    gf_close(&f);
}

/* ---- the cases of the issue ---- */
static void solve_list(gf *f, const gr_comp *comps, int n, tlist *out) {
    int64_t *vals = malloc((size_t)n * sizeof *vals), sg;
    CHECK(gr_sum_sg_fast(&f->c, comps, n, &sg, vals));
    if (sg) gr_sum_fast_moves(&f->c, comps, n, vals, sg, keep, out, NULL);
    free(vals);
}

typedef struct big_job { int unused; } big_job;
static void big_body(gf *f, void *arg) {
    (void)arg;
    gr_game *nim = gf_game(f, "nim");
    /* 400 heaps of 10^6 and 3, 5, 7: the three moves in 3, 5 and 7, each text whole */
    enum { N1 = 403 };
    gr_comp *c1 = malloc(N1 * sizeof *c1);
    for (int i = 0; i < 400; i++) c1[i] = gf_comp(nim, 1000000, 0);
    c1[400] = gf_comp(nim, 3, 0);
    c1[401] = gf_comp(nim, 5, 0);
    c1[402] = gf_comp(nim, 7, 0);
    tlist l = { 0 };
    solve_list(f, c1, N1, &l);
    if (CHECK_EQ(l.n, 3)) {
        const char *tails[3] = { "nim(2) + nim(5) + nim(7)", "nim(3) + nim(4) + nim(7)", "nim(3) + nim(5) + nim(6)" };
        for (int i = 0; i < 3; i++) {
            size_t len = strlen(l.v[i]), tl = strlen(tails[i]);
            CHECK(len == 400 * strlen("nim(1000000) + ") + tl);
            CHECK(len > tl && strcmp(l.v[i] + len - tl, tails[i]) == 0);
        }
    }
    tl_free(&l);
    free(c1);
    /* 1,000 random heaps: one move per distinct heap h with h ^ x < h */
    enum { N2 = 1000 };
    gr_comp *c2 = malloc(N2 * sizeof *c2);
    t_rng r = { t_seed(42) };
    int64_t x = 0;
    for (int i = 0; i < N2; i++) {
        int64_t h = t_range(&r, 1, 1000000);
        if (i % 10 == 9) h = c2[i - 1].c[0];   /* some repeated heaps */
        c2[i] = gf_comp(nim, h, 0);
        x ^= h;
    }
    int expect = 0;
    for (int i = 0; i < N2; i++) {
        int dup = 0;
        for (int k = 0; k < i && !dup; k++) dup = c2[k].c[0] == c2[i].c[0];
        expect += !dup && (c2[i].c[0] ^ x) < c2[i].c[0];
    }
    solve_list(f, c2, N2, &l);
    CHECK(expect > 100);
    CHECK_EQ(l.n, expect);
    for (int i = 0; i < l.n; i++) CHECK(strlen(l.v[i]) > 4095);
    tl_free(&l);
    free(c2);
    /* nim(3) + nim(1) + nim(3): two moves, not three */
    gr_comp c3[3] = { gf_comp(nim, 3, 0), gf_comp(nim, 1, 0), gf_comp(nim, 3, 0) };
    solve_list(f, c3, 3, &l);
    if (CHECK_EQ(l.n, 2)) {
        CHECK(strcmp(l.v[0], "nim(2) + nim(1) + nim(3)") == 0);
        CHECK(strcmp(l.v[1], "nim(3) + nim(3)") == 0);   /* the empty heap left out */
    }
    tl_free(&l);
    for (gr_conv conv = CONV_NORMAL; conv <= CONV_EVERY; conv++) graph_list_exact(f, conv, c3, 3);
}

static void test_issue_cases(void) {
    gf f;
    if (!CHECK(gf_open(&f, "game nim = subtract 1..;\n"))) return;
    big_job j;
    if (!gf_run(&f, big_body, &j)) gf_report_failure(&f, "issue cases");
    gf_close(&f);
}

int main(void) {
    test_random_sums();
    test_issue_cases();
    return t_finish("unit_moves");
}
