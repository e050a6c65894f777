/* unit_boards: games on boards against a brute force written here (no canonical forms, no
 * components, no tables but a plain array over vertex subsets).
 *   - random graphs of up to 11 vertices and random rules (a vertex or an edge, within 0..2, a
 *     vertex of some degrees only): the search's SG value and misere outcome, by nauty's
 *     canonical forms (one table shared by every board of a rule, so shapes met on other boards
 *     answer) and by exact sets, equal the brute force's, for the whole board and random subsets;
 *   - through the language: every option of a position (its value, and whether it wins, normal
 *     and misere) equals the brute force's moves, and each winning move's text reads back as
 *     that position;
 *   - Node Kayles on path(n) is Dawson's chess (0.137) and Arc Kayles on path(n) Dawson's
 *     Kayles (0.07), against the heap kernels to n = 60; Node Kayles on grid(2, n) is 1, 0, 1,
 *     ... and on grid(4, n) 0; grid(3, 1..16) is OEIS A316632; Cram 4 x 4..7 is 0 2 0 3;
 *   - misere outcomes of Cram and Node Kayles boards of at most 20 cells equal the brute force;
 *   - a grid of 10^9 cells is a limit (status 3), not a crash.
 * T_SEED and T_SCALE (testlib.h) make the random parts a longer campaign: with T_SCALE > 1 the
 * random graphs go up to 18 vertices. */
#include "gamefix.h"
#include "eval/board/bsolve.h"
#include "eval/board/bteam.h"
#include "eval/evaluator.h"
#include "eval/cap_moves.h"

enum { MAXV = 20 };

/* ---- the brute force: a board of n <= MAXV vertices as adjacency masks ---- */
typedef struct brute {
    int n; uint32_t adj[MAXV];
    int edge, radius; const uint8_t *deg_ok;
    int8_t *sg, *mis;              /* per subset; -1: not yet */
} brute;

static uint32_t bball(const brute *b, uint32_t set, uint32_t seeds) {
    uint32_t r = seeds;
    for (int k = 0; k < b->radius; k++) {
        uint32_t nb = 0;
        for (int v = 0; v < b->n; v++) if (r >> v & 1) nb |= b->adj[v];
        r |= nb & set;
    }
    return r & set;
}

/* The sets the moves of set remove, into out; how many. */
static int bmoves(const brute *b, uint32_t set, uint32_t *out) {
    int k = 0;
    for (int v = 0; v < b->n; v++) {
        if (!(set >> v & 1)) continue;
        if (!b->edge) {
            if (b->deg_ok && !b->deg_ok[__builtin_popcount(b->adj[v] & set)]) continue;
            out[k++] = bball(b, set, 1u << v);
            continue;
        }
        for (int u = v + 1; u < b->n; u++)
            if (set >> u & 1 && b->adj[v] >> u & 1) out[k++] = bball(b, set, 1u << v | 1u << u);
    }
    return k;
}

static int bsg(brute *b, uint32_t set) {
    if (b->sg[set] >= 0) return b->sg[set];
    uint32_t mv[MAXV * MAXV];
    int k = bmoves(b, set, mv);
    uint64_t seen = 0;
    for (int i = 0; i < k; i++) seen |= UINT64_C(1) << bsg(b, set & ~mv[i]);
    int m = 0;
    while (seen >> m & 1) m++;
    return b->sg[set] = (int8_t)m;
}

static int bmis(brute *b, uint32_t set) {   /* 1: the player to move wins */
    if (b->mis[set] >= 0) return b->mis[set];
    uint32_t mv[MAXV * MAXV];
    int k = bmoves(b, set, mv), win = k == 0;
    for (int i = 0; i < k && !win; i++) win = !bmis(b, set & ~mv[i]);
    return b->mis[set] = (int8_t)win;
}

static void brute_reset(brute *b) {
    memset(b->sg, -1, (size_t)1 << b->n);
    memset(b->mis, -1, (size_t)1 << b->n);
}

/* ---- random graphs against the search ---- */
static void board_of_brute(const brute *b, gr_board *gb, uint64_t *adj, int id) {
    memset(gb, 0, sizeof *gb);
    gb->kind = BK_NAMED; gb->p0 = id; gb->n = b->n; gb->words = 1; gb->adj = adj;
    for (int v = 0; v < b->n; v++) adj[v] = b->adj[v];
}

static void test_random_graphs(void) {
    t_rng r = { t_seed(4545) };
    int scale = t_scale();
    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    int8_t *sg = malloc((size_t)1 << MAXV), *mis = malloc((size_t)1 << MAXV);
    static uint8_t deg_ok[GR_BOARD_MAXV];
    enum { RULES = 6 };
    gr_bstore graph_store[RULES], exact_store[RULES];
    memset(graph_store, 0, sizeof graph_store);
    memset(exact_store, 0, sizeof exact_store);
    for (int d = 0; d < GR_BOARD_MAXV; d++) deg_ok[d] = d % 3 != 1;   /* degrees 0, 2, 3, 5, ... */
    const gr_board_rule rules[RULES] = { { 0, 1, NULL }, { 1, 0, NULL }, { 0, 0, deg_ok }, { 0, 2, NULL },
                                         { 1, 1, NULL }, { 0, 1, deg_ok } };
    int cases = 0;
    /* (a campaign, T_SCALE > 1: more graphs, up to MAXV vertices) */
    for (int iter = 0; iter < 300 * scale; iter++) {
        brute b = { .n = (int)t_range(&r, 1, scale > 1 ? MAXV - 2 : 11), .sg = sg, .mis = mis };
        int density = (int)t_range(&r, 1, 5);
        for (int v = 0; v < b.n; v++)
            for (int u = v + 1; u < b.n; u++)
                if (t_range(&r, 0, 9) < density) { b.adj[v] |= 1u << u; b.adj[u] |= 1u << v; }
        uint64_t adj[MAXV];
        gr_board gb;
        board_of_brute(&b, &gb, adj, iter);
        for (int k = 0; k < RULES; k++) {
            b.edge = rules[k].edge; b.radius = rules[k].radius; b.deg_ok = rules[k].deg_ok;
            brute_reset(&b);
            gr_bsearch sg_graph, sg_exact;
            gr_bsearch_init(&sg_graph, &c, &gb, &rules[k], &graph_store[k], GR_CANON_GRAPH);
            gr_bsearch_init(&sg_exact, &c, &gb, &rules[k], &exact_store[k], GR_CANON_EXACT);
            for (int t = 0; t < 4; t++) {
                uint32_t set = t == 0 ? (1u << b.n) - 1 : (uint32_t)t_range(&r, 0, (1u << b.n) - 1);
                uint64_t s64 = set;
                int want = bsg(&b, set), mwant = bmis(&b, set);
                int ok = CHECK_EQ(gr_bsearch_sg(&sg_graph, &s64), want) & CHECK_EQ(gr_bsearch_sg(&sg_exact, &s64), want) &
                         CHECK_EQ(gr_bsearch_misere(&sg_graph, &s64), mwant) & CHECK_EQ(gr_bsearch_misere(&sg_exact, &s64), mwant);
                if (!ok) fprintf(stderr, "  graph %d (n %d), rule %d, set %#x\n", iter, b.n, k, set);
                cases++;
            }
            gr_bsearch_free(&sg_graph);
            gr_bsearch_free(&sg_exact);
        }
    }
    for (int k = 0; k < RULES; k++) {
        gr_bstore_free(&c, &graph_store[k]);
        gr_bstore_free(&c, &exact_store[k]);
    }
    printf("random graphs: %d positions, normal and misere, both keys\n", cases);
    free(sg);
    free(mis);
    gr_ctx_free(&c);
}

/* ---- grids of one word: components by shifts, keys by shape, point-symmetric shapes ---- */
/* Every grid of at most 20 cells, each rule, random sets and random sets symmetric under the
 * half turn (about the board's centre or a smaller box's): the search (gshape.h: shapes, and
 * the symmetric shapes valued 0 unsearched) against the brute force, whose sets are the
 * grid's cells numbered as the board numbers them. */
static void test_grid_shapes(void) {
    t_rng r = { t_seed(777) };
    int scale = t_scale();
    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    int8_t *sg = malloc((size_t)1 << MAXV), *mis = malloc((size_t)1 << MAXV);
    static uint8_t deg_ok[GR_BOARD_MAXV];
    for (int d = 0; d < GR_BOARD_MAXV; d++) deg_ok[d] = d != 2;
    enum { RULES = 4 };
    const gr_board_rule rules[RULES] = { { 1, 0, NULL }, { 0, 1, NULL }, { 0, 2, NULL }, { 0, 0, deg_ok } };
    int cases = 0, symmetric = 0;
    uint64_t twins[RULES] = { 0 }, emptied = 0, shapes = 0;
    for (int rows = 1; rows <= 5; rows++)
        for (int cols = 1; rows * cols <= MAXV; cols++) {
            int64_t pos[GR_MAX_ARITY] = { rows, cols, BK_GRID };
            gr_game g;
            memset(&g, 0, sizeof g);
            gr_board gb;
            gr_board_make(&c, &g, pos, &gb);
            brute b = { .n = rows * cols, .sg = sg, .mis = mis };
            for (int v = 0; v < b.n; v++) b.adj[v] = (uint32_t)gb.adj[v];
            for (int k = 0; k < RULES; k++) {
                b.edge = rules[k].edge; b.radius = rules[k].radius; b.deg_ok = rules[k].deg_ok;
                brute_reset(&b);
                gr_bstore store;
                memset(&store, 0, sizeof store);
                if (k == 0) store.gexact.maxcap = 1024;   /* the exact cells' cache emptied often */
                gr_bsearch s;
                gr_bsearch_init(&s, &c, &gb, &rules[k], &store, GR_CANON_GRAPH);
                for (int t = 0; t < 40 * scale; t++) {
                    uint32_t all = (uint32_t)((UINT64_C(1) << b.n) - 1), set = all;
                    if (t > 0) set = (uint32_t)t_range(&r, 0, all);
                    if (t % 2) {   /* made symmetric: each cell with its image in a box [i0, i1] x [j0, j1] */
                        int i0 = (int)t_range(&r, 0, rows - 1), i1 = (int)t_range(&r, i0, rows - 1);
                        int j0 = (int)t_range(&r, 0, cols - 1), j1 = (int)t_range(&r, j0, cols - 1);
                        uint32_t sym = 0;
                        for (int v = 0; v < b.n; v++) {
                            int i = v / cols, j = v % cols;
                            if (i < i0 || i > i1 || j < j0 || j > j1 || !(set >> v & 1)) continue;
                            sym |= 1u << v | 1u << ((i0 + i1 - i) * cols + (j0 + j1 - j));
                        }
                        set = sym;
                        symmetric++;
                    }
                    uint64_t s64 = set;
                    if (!CHECK_EQ(gr_bsearch_sg(&s, &s64), bsg(&b, set)))
                        fprintf(stderr, "  grid(%d, %d), rule %d, set %#x\n", rows, cols, k, set);
                    cases++;
                }
                twins[k] += store.twins;
                emptied += store.gexact.emptied;
                shapes += store.shape.used;   /* the grid path keyed them (never declined) */
                gr_bsearch_free(&s);
                gr_bstore_free(&c, &store);
            }
            gr_board_free(&c, &gb);
        }
    printf("grid shapes: %d sets (%d made symmetric); valued 0 by symmetry: %llu (arckayles), %llu (nodekayles); "
           "the exact cells' cache emptied %llu times\n", cases, symmetric, (unsigned long long)twins[0],
           (unsigned long long)twins[1], (unsigned long long)emptied);
    /* the shortcut was taken, and only for the two rules it holds for */
    CHECK(twins[0] > 20 && twins[1] > 20);
    CHECK_EQ(twins[2] + twins[3], 0);
    CHECK(emptied > 0);
    CHECK(shapes > 1000);
    free(sg);
    free(mis);
    gr_ctx_free(&c);
}

/* ---- the root across a team (bteam.h) against one thread ---- */
/* Grids of 24 to 30 cells, some cells removed, both rules: the value with two threads (the
 * root's options shared out, the store shared) equals the value alone, in a fresh store each;
 * with little room the team stops and starts again many times (and still agrees). */
static void test_team(void) {
    t_rng r = { t_seed(99) };
    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    const gr_board_rule rules[2] = { { 1, 0, NULL }, { 0, 1, NULL } };
#ifdef T_SANITIZED
    static const int dims[][2] = { { 5, 5 }, { 3, 9 } };   /* (ten times slower) */
#else
    static const int dims[][2] = { { 5, 5 }, { 4, 7 }, { 5, 6 }, { 3, 9 }, { 4, 6 } };
#endif
    int cases = 0;
    uint64_t rounds = 0;
    for (int k = 0; k < 2; k++)
        for (size_t d = 0; d < sizeof dims / sizeof *dims; d++) {
            int64_t pos[GR_MAX_ARITY] = { dims[d][0], dims[d][1], BK_GRID };
            gr_game g;
            memset(&g, 0, sizeof g);
            gr_board gb;
            gr_board_make(&c, &g, pos, &gb);
            for (int t = 0; t < 3; t++) {
                uint64_t set = gb.n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << gb.n) - 1;
                for (int x = 0; x < t && __builtin_popcountll(set) > 24; x++) set &= ~(UINT64_C(1) << t_range(&r, 0, gb.n - 1));
                int64_t want = -1, got[2] = { -1, -1 };
                for (int way = 0; way < 3; way++) {
                    gr_bstore store;
                    memset(&store, 0, sizeof store);
                    if (way == 2) store.team_room = 64;   /* out of room again and again */
                    gr_bsearch s;
                    gr_bsearch_init(&s, &c, &gb, &rules[k], &store, GR_CANON_GRAPH);
                    gr_bteam_use(&s, way ? 2 : 1);
                    int64_t v = gr_bsearch_sg(&s, &set);
                    if (way == 0) want = v; else got[way - 1] = v;
                    rounds += store.team_rounds;
                    gr_bsearch_free(&s);
                    gr_bstore_free(&c, &store);
                }
                if (!CHECK_EQ(got[0], want) || !CHECK_EQ(got[1], want))
                    fprintf(stderr, "  team: rule %d, grid(%d, %d), set %#llx\n", k, dims[d][0], dims[d][1], (unsigned long long)set);
                cases++;
            }
            gr_board_free(&c, &gb);
        }
    printf("team of two: %d boards agree with one thread; %llu rounds started again for room\n", cases,
           (unsigned long long)rounds);
    CHECK(rounds > 10);
    gr_ctx_free(&c);
}

/* ---- through the language: options, winning moves, the text read back ---- */
typedef struct optlist { int n; int64_t pos[64][GR_MAX_ARITY]; } optlist;
static void keep_option(void *user, const int64_t *parts, int nparts) {
    optlist *l = user;
    if (nparts == 1 && l->n < 64) memcpy(l->pos[l->n++], parts, sizeof l->pos[0]);
}

/* The brute force of a written board (path, cycle, grid) into b. */
static void brute_of_board(gr_ctx *c, gr_game *g, const int64_t *pos, brute *b) {
    gr_board gb;
    gr_board_make(c, g, pos, &gb);
    b->n = gb.n;
    for (int v = 0; v < gb.n; v++) b->adj[v] = (uint32_t)gb.adj[v];
    gr_board_free(c, &gb);
    b->edge = g->board_rule->edge; b->radius = g->board_rule->radius; b->deg_ok = g->board_rule->deg_ok;
}

static uint32_t present(const brute *b, const int64_t *pos) {
    uint32_t set = 0;
    for (int v = 0; v < b->n; v++) if (!gr_board_removed(pos, v)) set |= 1u << v;
    return set;
}

typedef struct lang_case { const char *game; const char *board; int checked; } lang_case;

static void lang_body(gf *f, void *arg) {
    lang_case *lc = arg;
    static int8_t sg[1 << 12], mis[1 << 12];
    gr_game *g = gf_game(f, lc->game);
    gr_comp comp = f->mod.queries[0].comps[0];
    brute b = { .sg = sg, .mis = mis };
    brute_of_board(&f->c, g, comp.c, &b);
    brute_reset(&b);
    uint32_t set = present(&b, comp.c);
    CHECK_EQ(gr_eval_sg(&f->c, g, comp.c, (gr_loc){ 0, 0 }), bsg(&b, set));
    gr_value mv;
    gr_eval_value(&f->c, g, CONV_MISERE, comp.c, GR_KIND_OUTCOME, (gr_loc){ 0, 0 }, &mv);
    CHECK_EQ(mv.outcome, bmis(&b, set) ? GR_WIN : GR_LOSS);
    optlist opts = { 0 };
    gr_eval_options(&f->c, g, comp.c, keep_option, &opts);
    uint32_t mvs[MAXV * MAXV];
    int k = bmoves(&b, set, mvs);
    /* the options of each value by the evaluator's own way (moves_to: each option asked
     * whether it has the value), in the options' order, against the brute force */
    for (int64_t want = 0; want < 4; want++) {
        optlist to = { 0 };
        gr_moves_sink sink = { keep_option, NULL, &to };
        int64_t count = -1;
        CHECK_EQ(gr_eval_moves_to(&f->c, g, comp.c, want, 1000, &sink, &count), 1);
        int n = 0;
        for (int i = 0; i < k; i++) {
            if (bsg(&b, set & ~mvs[i]) != want) continue;
            if (CHECK(n < to.n)) CHECK_EQ(present(&b, to.pos[n]), set & ~mvs[i]);
            n++;
        }
        CHECK_EQ(to.n, n);
        CHECK_EQ(count, n);
    }
    CHECK_EQ(opts.n, k);
    for (int i = 0; i < opts.n && i < k; i++) {
        uint32_t child = present(&b, opts.pos[i]);
        CHECK_EQ(child, set & ~mvs[i]);
        CHECK_EQ(gr_eval_sg(&f->c, g, opts.pos[i], (gr_loc){ 0, 0 }), bsg(&b, child));
        gr_eval_value(&f->c, g, CONV_MISERE, opts.pos[i], GR_KIND_OUTCOME, (gr_loc){ 0, 0 }, &mv);
        CHECK_EQ(mv.outcome, bmis(&b, child) ? GR_WIN : GR_LOSS);
        if (bsg(&b, child) != 0 && bmis(&b, child)) continue;   /* a winning move under neither convention */
        /* the move's text reads back as the same position */
        char text[2048], prog[4096];
        gr_eval_render(g, opts.pos[i], -1, text, sizeof text, 0);
        snprintf(prog, sizeof prog, "game %s = %s;\nsolve %s;\n", lc->game, g->decl->kind == GD_BOARDRULE && g->board_rule->edge ? "arckayles" : "nodekayles", text);
        gf back;
        if (gf_open(&back, prog)) {
            CHECK(!memcmp(back.mod.queries[0].comps[0].c, opts.pos[i], sizeof opts.pos[i]));
            lc->checked++;
        } else CHECK(0 && "a winning move does not read back");
        gf_close(&back);
    }
}

static void test_language(void) {
    static const char *const boards[] = { "path(9)", "cycle(10)", "grid(3, 4)", "grid(3, 3) - {(1, 1)}", "path(11) - {3, 7}",
                                          "complete(5)", "grid(2, 5) - {(0, 0), (1, 4)}", "cycle(7) - {0}" };
    static const char *const games[] = { "nodekayles", "arckayles" };
    int checked = 0;
    for (size_t i = 0; i < sizeof boards / sizeof *boards; i++)
        for (int k = 0; k < 2; k++) {
            char prog[512];
            snprintf(prog, sizeof prog, "game g = %s;\nsolve g(%s);\n", games[k], boards[i]);
            gf f;
            if (!gf_open(&f, prog)) { CHECK(0); continue; }
            lang_case lc = { "g", boards[i], 0 };
            if (!gf_run(&f, lang_body, &lc)) gf_report_failure(&f, prog);
            checked += lc.checked;
            gf_close(&f);
        }
    printf("language: winning moves read back: %d\n", checked);
    CHECK(checked > 20);
}

/* ---- known values ---- */
static int64_t board_sg(gf *f, gr_game *g, int kind, int64_t p0, int64_t p1) {
    int64_t pos[GR_MAX_ARITY] = { 0 };
    pos[GR_BPOS_P0] = p0; pos[GR_BPOS_P1] = p1; pos[GR_BPOS_KIND] = kind;
    return gr_eval_sg(&f->c, g, pos, (gr_loc){ 0, 0 });
}

static void known_body(gf *f, void *arg) {
    (void)arg;
    gr_game *nk = gf_game(f, "nk"), *ak = gf_game(f, "ak"), *chess = gf_game(f, "dawsonchess"), *dk = gf_game(f, "dawson");
    for (int64_t n = 0; n <= 60; n++) {
        int64_t h[GR_MAX_ARITY] = { n };
        if (!CHECK_EQ(board_sg(f, nk, BK_PATH, n, 0), gr_eval_sg(&f->c, chess, h, (gr_loc){ 0, 0 }))) fprintf(stderr, "  nk(path(%lld))\n", (long long)n);
        if (!CHECK_EQ(board_sg(f, ak, BK_PATH, n, 0), gr_eval_sg(&f->c, dk, h, (gr_loc){ 0, 0 }))) fprintf(stderr, "  ak(path(%lld))\n", (long long)n);
    }
    for (int64_t n = 1; n <= 14; n++) CHECK_EQ(board_sg(f, nk, BK_GRID, 2, n), n % 2);
    for (int64_t n = 1; n <= 9; n++) CHECK_EQ(board_sg(f, nk, BK_GRID, 4, n), 0);
    static const int64_t a316632[16] = { 2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3 };
    for (int64_t n = 1; n <= 16; n++) CHECK_EQ(board_sg(f, nk, BK_GRID, 3, n), a316632[n - 1]);
    static const int64_t cram4[4] = { 0, 2, 0, 3 };
    for (int64_t n = 4; n <= 7; n++) CHECK_EQ(board_sg(f, ak, BK_GRID, 4, n), cram4[n - 4]);
    CHECK_EQ(board_sg(f, ak, BK_GRID, 5, 5), 0);
}

/* Misere outcomes of every Cram and Node Kayles board of at most 20 cells. */
static void misere_body(gf *f, void *arg) {
    int *count = arg;
    static int8_t sg[1 << 20], mis[1 << 20];
    const char *names[2] = { "nk", "ak" };
    for (int k = 0; k < 2; k++) {
        gr_game *g = gf_game(f, names[k]);
        for (int64_t r = 1; r <= 20; r++)
            for (int64_t cols = r; r * cols <= 20; cols++) {
                int64_t pos[GR_MAX_ARITY] = { r, cols, BK_GRID };
                brute b = { .sg = sg, .mis = mis };
                brute_of_board(&f->c, g, pos, &b);
                brute_reset(&b);
                gr_value v;
                gr_eval_value(&f->c, g, CONV_MISERE, pos, GR_KIND_OUTCOME, (gr_loc){ 0, 0 }, &v);
                if (!CHECK_EQ(v.outcome, bmis(&b, (uint32_t)((UINT64_C(1) << b.n) - 1)) ? GR_WIN : GR_LOSS))
                    fprintf(stderr, "  misere %s(grid(%lld, %lld))\n", names[k], (long long)r, (long long)cols);
                ++*count;
            }
    }
}

static void test_known(void) {
    gf f;
    if (!gf_open(&f, "game nk = nodekayles; game ak = arckayles; solve nk(path(1)) + ak(path(1)) + dawsonchess(1) + dawson(1);")) { CHECK(0); return; }
    if (!gf_run(&f, known_body, NULL)) gf_report_failure(&f, "known values");
    int count = 0;
    if (!gf_run(&f, misere_body, &count)) gf_report_failure(&f, "misere boards");
    printf("misere boards of at most 20 cells: %d\n", count);
    CHECK(count > 40);
    gf_close(&f);
}

static void test_limit(void) {
    gf f;
    CHECK(!gf_open_ex(&f, "game nk = nodekayles; solve nk(grid(100000, 10000));", 1));
    CHECK_EQ(f.c.fail_status, GR_EXIT_LIMIT);
    gf_close(&f);
}

int main(void) {
    test_grid_shapes();
    test_team();
    test_random_graphs();
    test_language();
    test_known();
    test_limit();
    return t_finish("unit_boards");
}
