/* unit_show: plots and DOT files checked by their content, not by "it ran".
 *   - Plots: the PNG is decoded with cairo and the pixel at the centre of every cell is
 *     checked: Wythoff's P positions (floor(k phi), floor(k phi) + k) and their mirrors are
 *     dark, every other cell light; in the SG picture each cell has the colour of its value,
 *     computed here by brute force; in the Kayles scatter the point of each heap sits at its
 *     known value, red for P and blue for N.
 *   - DOT: the numbers of nodes, edges, filled (P) nodes and bold (winning) edges equal those
 *     of the position graph solved separately, for heap, tuple and graph games and several
 *     conventions. */
#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include "gamefix.h"
#include "plot.h"
#include "query.h"

static char dir[64];

static const char *GAMES =
    "game kayles = octal \"0.77\";\n"
    "game nim = subtract 1..;\n"
    "game wythoff { position (a, b); move -> (a - k, b) for k in 1..a; move -> (a, b - k) for k in 1..b;\n"
    "               move -> (a - k, b - k) for k in 1..min(a, b); }\n"
    "graph g { a -> b, c; b -> d; c -> d; d -> a; e -> a; }\n";

static void run_all(gf *f, void *arg) {
    FILE *out = arg;
    gr_run_queries(&f->c, &f->mod, GR_FMT_TEXT, out);
}

/* Compiles GAMES + queries and runs them; 1 on success. */
static int run_program(const char *queries) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", GAMES, queries);
    gf f;
    if (!gf_open(&f, src)) { gf_close(&f); CHECK(0 && "program compiles"); return 0; }
    FILE *null = fopen("/dev/null", "w");
    int ok = gf_run(&f, run_all, null);
    if (!ok) gf_report_failure(&f, queries);
    fclose(null);
    gf_close(&f);
    return ok;
}

static uint32_t pixel(cairo_surface_t *s, int x, int y) {
    const unsigned char *d = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    uint32_t v;
    memcpy(&v, d + (size_t)y * (size_t)stride + (size_t)x * 4, 4);
    return v & 0xffffff;
}

static cairo_surface_t *load_png(const char *name, int w, int h) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    if (!CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS)) { cairo_surface_destroy(s); return NULL; }
    cairo_surface_flush(s);
    CHECK_EQ(cairo_image_surface_get_width(s), w);
    CHECK_EQ(cairo_image_surface_get_height(s), h);
    return s;
}

static uint32_t cell_pixel(cairo_surface_t *s, const gr_plot_frame *f, int64_t i, int64_t j) {
    int x0, y0, x1, y1;
    gr_plot_cell_rect(f, i, j, &x0, &y0, &x1, &y1);
    return pixel(s, (x0 + x1) / 2, (y0 + y1) / 2);
}

enum { W = 30 };   /* Wythoff pictures cover 0..W x 0..W */

static int wythoff_p(int a, int b) {
    const double phi = (1 + sqrt(5.0)) / 2;
    for (int k = 0; k <= W; k++) {
        int x = (int)floor(k * phi), y = x + k;
        if ((a == x && b == y) || (a == y && b == x)) return 1;
    }
    return 0;
}

static void test_wythoff_outcome(void) {
    char q[512];
    snprintf(q, sizeof q, "plot wythoff(0..%d, 0..%d) outcome to \"%s/w.png\";\n", W, W, dir);
    if (!run_program(q)) return;
    cairo_surface_t *s = load_png("w.png", GR_PLOT_W2, GR_PLOT_H2);
    if (!s) return;
    gr_plot_frame f;
    gr_plot_frame_cells(GR_PLOT_W2, GR_PLOT_H2, W + 1, W + 1, &f);
    int np = 0;
    for (int a = 0; a <= W; a++)
        for (int b = 0; b <= W; b++) {
            int p = wythoff_p(a, b);
            np += p;
            CHECK_EQ(cell_pixel(s, &f, a, b), p ? GR_PLOT_P : GR_PLOT_N);
        }
    CHECK(np > 20);     /* the picture has both kinds of cells */
    /* x across, y up: (1, 2) is above and left of (2, 1) */
    int ax0, ay0, ax1, ay1, bx0, by0, bx1, by1;
    gr_plot_cell_rect(&f, 1, 2, &ax0, &ay0, &ax1, &ay1);
    gr_plot_cell_rect(&f, 2, 1, &bx0, &by0, &bx1, &by1);
    CHECK(ax0 < bx0 && ay0 < by0);
    cairo_surface_destroy(s);
}

static void test_wythoff_sg(void) {
    char q[512];
    snprintf(q, sizeof q, "plot wythoff(0..%d, 0..%d) to \"%s/wsg.png\";\n", W, W, dir);
    if (!run_program(q)) return;
    /* brute force: mex over the three lines */
    static int64_t sg[W + 1][W + 1];
    int64_t maxv = 0;
    for (int a = 0; a <= W; a++)
        for (int b = 0; b <= W; b++) {
            uint8_t seen[4 * W + 4] = { 0 };
            for (int k = 1; k <= a; k++) seen[sg[a - k][b]] = 1;
            for (int k = 1; k <= b; k++) seen[sg[a][b - k]] = 1;
            for (int k = 1; k <= a && k <= b; k++) seen[sg[a - k][b - k]] = 1;
            int64_t v = 0;
            while (seen[v]) v++;
            sg[a][b] = v;
            if (v > maxv) maxv = v;
        }
    cairo_surface_t *s = load_png("wsg.png", GR_PLOT_W2, GR_PLOT_H2);
    if (!s) return;
    gr_plot_frame f;
    gr_plot_frame_cells(GR_PLOT_W2, GR_PLOT_H2, W + 1, W + 1, &f);
    for (int a = 0; a <= W; a++)
        for (int b = 0; b <= W; b++) {
            CHECK_EQ(cell_pixel(s, &f, a, b), gr_plot_sg_colour(sg[a][b], maxv));
            CHECK_EQ(sg[a][b] == 0, wythoff_p(a, b));
        }
    CHECK(gr_plot_sg_colour(1, maxv) != gr_plot_sg_colour(maxv, maxv));
    cairo_surface_destroy(s);
}

static void test_kayles_scatter(void) {
    /* Kayles, heaps 0..35 (Guy and Smith) */
    static const int K[36] = { 0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7,
                               4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7 };
    char q[512];
    snprintf(q, sizeof q, "plot kayles(0..35) to \"%s/k.png\";\nplot kayles(0..35) to \"%s/k.svg\";\n", dir, dir);
    if (!run_program(q)) return;
    cairo_surface_t *s = load_png("k.png", GR_PLOT_W1, GR_PLOT_H1);
    if (!s) return;
    gr_plot_frame f;
    gr_plot_frame_scatter(GR_PLOT_W1, GR_PLOT_H1, 36, 8, &f);
    for (int n = 0; n < 36; n++) {
        double x, y;
        gr_plot_point(&f, n, K[n], &x, &y);
        CHECK_EQ(pixel(s, (int)x, (int)y), K[n] ? GR_PLOT_POINT_N : GR_PLOT_POINT_P);
        int other = K[n] == 8 ? 7 : K[n] + 1;     /* no point where the value is not */
        gr_plot_point(&f, n, other, &x, &y);
        CHECK(pixel(s, (int)x, (int)y) != GR_PLOT_POINT_N);
    }
    cairo_surface_destroy(s);
    char path[256], head[512] = { 0 };
    snprintf(path, sizeof path, "%s/k.svg", dir);
    FILE *svg = fopen(path, "r");
    if (CHECK(svg != NULL)) {
        size_t n = fread(head, 1, sizeof head - 1, svg);
        head[n] = '\0';
        CHECK(strstr(head, "<svg") != NULL);
        fclose(svg);
    }
}

/* ---- DOT ---- */
typedef struct dot_counts { long nodes, edges, filled, bold; } dot_counts;

static dot_counts read_dot(const char *name) {
    dot_counts d = { 0, 0, 0, 0 };
    char path[256], line[8192];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!CHECK(f != NULL)) return d;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, " -> ")) { d.edges++; d.bold += strstr(line, "bold") != NULL; }
        else if (strncmp(line, "  n", 3) == 0 && strstr(line, "[label=")) { d.nodes++; d.filled += strstr(line, "filled") != NULL && strstr(line, "#2b3a55") != NULL; }
    }
    fclose(f);
    return d;
}

typedef struct dot_case { const char *pos; gr_conv conv; const char *conv_name; } dot_case;

typedef struct graph_counts { const dot_case *k; dot_counts want; } graph_counts;

/* The position graph of the case, solved apart from the dot query. */
static void count_graph(gf *f, void *arg) {
    graph_counts *g = arg;
    gr_rquery *q = &f->mod.queries[0];
    gr_sumgraph *s = gr_sumgraph_new(&f->c, &f->mod, g->k->conv);
    uint32_t start = gr_sumgraph_add(s, q->comps, q->ncomps);
    (void)start;
    gr_sumgraph_solve(s);
    gr_pg *pg = gr_sumgraph_pg(s);
    g->want.nodes = gr_pg_count(pg);
    g->want.edges = (long)gr_pg_edges(pg);
    for (uint32_t id = 0; id < gr_pg_count(pg); id++) {
        g->want.filled += gr_pg_outcome(pg, id) == GR_LOSS;
        const uint32_t *ch = gr_pg_children(pg, id);
        for (uint32_t i = 0; i < gr_pg_nchildren(pg, id); i++)
            g->want.bold += gr_pg_outcome(pg, id) == GR_WIN && gr_pg_outcome(pg, ch[i]) == GR_LOSS;
    }
    gr_sumgraph_free(s);
}

static void test_dot(void) {
    static const dot_case cases[] = {
        { "kayles(6)", CONV_NORMAL, "" },
        { "kayles(3) + kayles(4)", CONV_MISERE, "misere" },
        { "wythoff(3, 4)", CONV_NORMAL, "" },
        { "nim(2) + nim(3)", CONV_EVERY, "every" },
        { "nim(2) + nim(2) + nim(1)", CONV_ANYLEAF, "anyleaf" },
        { "g.e", CONV_NORMAL, "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char q[512], src[4096];
        snprintf(q, sizeof q, "dot %s %s to \"%s/d%zu.dot\";\n", cases[i].conv_name, cases[i].pos, dir, i);
        if (!run_program(q)) continue;
        char name[32];
        snprintf(name, sizeof name, "d%zu.dot", i);
        dot_counts got = read_dot(name);
        snprintf(src, sizeof src, "%ssolve %s %s;\n", GAMES, cases[i].conv_name, cases[i].pos);
        gf f;
        graph_counts g = { &cases[i], { 0, 0, 0, 0 } };
        if (!gf_open(&f, src) || !gf_run(&f, count_graph, &g)) { CHECK(0 && "graph solved"); gf_close(&f); continue; }
        gf_close(&f);
        CHECK(got.nodes > 1);
        CHECK_EQ(got.nodes, g.want.nodes);
        CHECK_EQ(got.edges, g.want.edges);
        CHECK_EQ(got.filled, g.want.filled);
        CHECK_EQ(got.bold, g.want.bold);
    }
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/grundy-show-XXXXXX");
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    test_wythoff_outcome();
    test_wythoff_sg();
    test_kayles_scatter();
    test_dot();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return t_finish("unit_show");
}
