/* unit_gamma: sums of loopy components decided by generalised SG values (gr_sum_gamma, the
 * fast path) against the product position graph (the ground truth), on random cyclic graphs,
 * random sums of their tokens, and sums mixing graphs with heap games. */
#include "gamefix.h"

/* A random graph of n vertices v0..v(n-1), each with 0..3 successors anywhere (cycles). */
static size_t random_graph(t_rng *r, char *buf, size_t cap, const char *name, int n) {
    size_t pos = (size_t)snprintf(buf, cap, "graph %s {", name);
    for (int v = 0; v < n; v++) {
        int deg = (int)t_range(r, 0, 3);
        pos += (size_t)snprintf(buf + pos, cap - pos, " v%d", v);
        for (int e = 0; e < deg; e++)
            pos += (size_t)snprintf(buf + pos, cap - pos, "%s v%d", e ? "," : " ->", (int)t_range(r, 0, n - 1));
        pos += (size_t)snprintf(buf + pos, cap - pos, ";");
    }
    return pos + (size_t)snprintf(buf + pos, cap - pos, " }\n");
}

typedef struct sum_case { gr_comp comps[4]; int n; int checked; } sum_case;

static void compare(gf *f, void *arg) {
    sum_case *sc = arg;
    int outcome = -1;
    int64_t sg = -1;
    if (!gr_sum_gamma(&f->c, &f->mod, sc->comps, sc->n, &outcome, &sg, NULL, NULL, NULL)) return;
    gr_sumgraph *s = gr_sumgraph_new(&f->c, &f->mod, CONV_NORMAL);
    uint32_t id = gr_sumgraph_add(s, sc->comps, sc->n);
    gr_sumgraph_solve(s);
    gr_pg *pg = gr_sumgraph_pg(s);
    CHECK_EQ(outcome, gr_pg_outcome(pg, id));
    /* Smith: the sum's generalised value computed from the parts equals the product's. */
    gr_pg_solve_gamma(pg);
    int64_t whole = gr_pg_gamma(pg, id);
    CHECK_EQ(sg, whole >= 0 ? whole : -1);
    if (gr_pg_sg(pg, id) >= 0) CHECK_EQ(sg, gr_pg_sg(pg, id));   /* and the plain SG where it exists */
    gr_sumgraph_free(s);
    sc->checked++;
}

int main(void) {
    t_rng r = { t_seed(20261121) };
    char src[8192];
    int cases = 0;
    for (int round = 0; round < 150; round++) {
        int n1 = (int)t_range(&r, 2, 7), n2 = (int)t_range(&r, 2, 7);
        size_t pos = random_graph(&r, src, sizeof src, "g", n1);
        pos += random_graph(&r, src + pos, sizeof src - pos, "h", n2);
        snprintf(src + pos, sizeof src - pos, "game k = octal \"0.77\";\ngame s = subtract {1, 2};\n");
        gf f;
        if (!CHECK(gf_open(&f, src))) { gf_close(&f); continue; }
        gr_game *g = gf_game(&f, "g"), *h = gf_game(&f, "h"), *k = gf_game(&f, "k"), *s = gf_game(&f, "s");
        for (int trial = 0; trial < 12; trial++) {
            sum_case sc = { .n = (int)t_range(&r, 2, 4) };
            for (int i = 0; i < sc.n; i++) {
                int which = (int)t_range(&r, 0, 5);
                gr_comp *cp = &sc.comps[i];
                memset(cp, 0, sizeof *cp);
                if (which <= 1) { cp->game = g; cp->c[0] = t_range(&r, 0, n1 - 1); }
                else if (which <= 3) { cp->game = h; cp->c[0] = t_range(&r, 0, n2 - 1); }
                else if (which == 4) { cp->game = k; cp->c[0] = t_range(&r, 0, 6); }
                else { cp->game = s; cp->c[0] = t_range(&r, 0, 6); }
            }
            CHECK(gf_run(&f, compare, &sc));
            cases += sc.checked;
        }
        gf_close(&f);
    }
    CHECK(cases > 1000);   /* the comparison really ran */
    return t_finish("unit_gamma");
}
