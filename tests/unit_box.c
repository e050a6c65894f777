/* unit_box: the dense box (eval/box/dense.h) and shared option sets (optset.h) against the position graph
 * on random tuple rule sets (with 'where', cycles, terminal conditions, normal and misere play),
 * E&D against its formula to 2000 x 2000 (and its table as a query fills it), Wythoff against the golden-ratio pairs, and the limit
 * that stops a box too large before anything is evaluated. */
#include <math.h>
#include <string.h>
#include "eval/box/dense.h"
#include "gamefix.h"
#include "eval/box/lines.h"
#include "eval/box/optset.h"
#include "eval/rules.h"

typedef struct rcase { gr_game *g; gr_conv conv; int64_t B; int ok; } rcase;
static int draws, loops_boxed, sg_defined;
static long long eval_decided, eval_cases;   /* outcomes the table evaluator answered, of those asked */

/* Every position of 0..B x 0..B inside 'where': the box's outcome, remoteness and SG value must
 * equal the position graph's. */
static void compare_body(gf *f, void *arg) {
    rcase *rc = arg;
    gr_ctx *c = &f->c;
    int64_t lo[2] = { 0, 0 }, hi[2] = { rc->B, rc->B };
    gr_dense *b = gr_dense_range(c, rc->g, rc->conv, lo, hi);
    gr_sumgraph *s = gr_sumgraph_new(c, &f->mod, rc->conv);
    for (int64_t x = 0; x <= rc->B; x++)
        for (int64_t y = 0; y <= rc->B; y++) {
            gr_comp k = gf_comp(rc->g, x, y);
            if (gr_rules_valid(c, rc->g, k.c)) gr_sumgraph_add(s, &k, 1);
        }
    gr_sumgraph_solve(s);
    gr_pg *pg = gr_sumgraph_pg(s);
    int bad = 0;
    for (int64_t x = 0; x <= rc->B; x++)
        for (int64_t y = 0; y <= rc->B; y++) {
            gr_comp k = gf_comp(rc->g, x, y);
            if (!gr_rules_valid(c, rc->g, k.c)) continue;
            uint32_t id = gr_sumgraph_id(s, &k, 1);
            bad += !CHECK_EQ(gr_dense_outcome(b, k.c), gr_pg_outcome(pg, id));
            draws += gr_dense_outcome(b, k.c) == GR_DRAW;
            sg_defined += gr_dense_cyclic(b) && gr_dense_sg(b, k.c) >= 0;
            bad += !CHECK_EQ(gr_dense_remoteness(b, k.c), gr_pg_remoteness(pg, id));
            bad += !CHECK_EQ(gr_dense_sg(b, k.c), rc->conv == CONV_NORMAL ? gr_pg_sg(pg, id) : -1);
            /* the table evaluator, as queries reach it (evaluator.h): it may decline, never differ.
             * (Rule sets with 'wins'/'loses' terminals are lowered to the position graph, which
             * declines every value: they are not the table evaluator's cases.) */
            gr_value v;
            eval_cases += rc->g->evaluator == EVAL_TABLE;
            if (rc->g->evaluator == EVAL_TABLE && gr_eval_value(c, rc->g, rc->conv, k.c, GR_KIND_OUTCOME, rc->g->decl->name_loc, &v)) {
                eval_decided++;
                bad += !CHECK_EQ(v.outcome, gr_pg_outcome(pg, id));
            }
            if (bad) { fprintf(stderr, "  at (%lld, %lld) of\n%s\n", (long long)x, (long long)y, c->src); return; }
        }
    /* One position alone: the box below it, grown as moves lead out of it. */
    int64_t p[2] = { rc->B / 2, rc->B / 3 };
    if (gr_rules_valid(c, rc->g, p)) {
        gr_dense *one = gr_dense_at(c, rc->g, rc->conv, p);
        uint32_t id = gr_sumgraph_id(s, &(gr_comp){ .game = rc->g, .c = { p[0], p[1] } }, 1);
        CHECK_EQ(gr_dense_outcome(one, p), gr_pg_outcome(pg, id));
        CHECK_EQ(gr_dense_remoteness(one, p), gr_pg_remoteness(pg, id));
        gr_dense_free(one);
    }
    loops_boxed += gr_dense_cyclic(b);
    gr_sumgraph_free(s);
    gr_dense_free(b);
    rc->ok = 1;
}

static void random_rule_sets(void) {
    t_rng r = { t_seed(20240611) };
    int cyclic = 0, shared = 0;
    for (int t = 0; t < 300; t++) {
        char src[2048];
        size_t n = 0;
        int64_t B = t_range(&r, 3, 9);
        int bounded = (int)t_range(&r, 0, 3);   /* 0: no upper bound in 'where' (moves go down) */
        n += (size_t)snprintf(src + n, sizeof src - n, "game r {\n  position (x, y) where x >= 0 && y >= 0%s",
                              bounded ? "" : "");
        if (bounded == 1) n += (size_t)snprintf(src + n, sizeof src - n, " && x <= %lld && y <= %lld", (long long)B, (long long)B);
        else if (bounded == 2) n += (size_t)snprintf(src + n, sizeof src - n, " && x + y <= %lld", (long long)B);
        else if (bounded == 3) n += (size_t)snprintf(src + n, sizeof src - n, " && x <= %lld && y <= %lld && (x + y) %% 5 != 3", (long long)B, (long long)B);
        n += (size_t)snprintf(src + n, sizeof src - n, ";\n");
        int nm = (int)t_range(&r, 1, 4);
        for (int m = 0; m < nm; m++) {
            int kind = (int)t_range(&r, 0, 4);
            int64_t dx = t_range(&r, -2, bounded ? 2 : -1), dy = t_range(&r, -2, bounded ? 2 : 0);
            if (!bounded && dx == 0 && dy == 0) dx = -1;
            switch (kind) {
            case 0: n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (x + %lld, y + %lld);\n", (long long)dx, (long long)dy); break;
            case 1: n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (x - k, y + %lld) for k in 1..2;\n", (long long)(bounded ? dy : 0)); break;
            case 2: n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (i, x - i) for i in 1..x-1;\n"); break;
            case 3: n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (x - k, y) for k in 1..x where (x + k) %% 3 != 0;\n"); break;
            default: n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (y %% %lld, x %% %lld) where x > y;\n", (long long)(B - 1), (long long)B); break;
            }
        }
        int term = (int)t_range(&r, 0, 5);
        if (term == 1) n += (size_t)snprintf(src + n, sizeof src - n, "  terminal when x == y;\n");
        if (term == 2) n += (size_t)snprintf(src + n, sizeof src - n, "  terminal when x == 1 && y == 2 wins;\n");
        if (term == 3) n += (size_t)snprintf(src + n, sizeof src - n, "  terminal when x + y == 3 loses;\n");
        snprintf(src + n, sizeof src - n, "}\ntable r(0..1, 0..1) outcome;\n");
        gf f;
        if (!gf_open(&f, src)) { CHECK(0); continue; }
        gr_game *g = gf_game(&f, "r");
        for (int conv = CONV_NORMAL; conv <= CONV_MISERE; conv++) {
            rcase rc = { g, (gr_conv)conv, B, 0 };
            if (!gf_run(&f, compare_body, &rc)) gf_report_failure(&f, src);
        }
        /* the normal-play table recurrence goes through the same box */
        gr_dense *tb = gr_tuple_box(g);
        (void)tb;
        for (gr_game *h = f.mod.games; h; h = h->next) {
            uint32_t deps = 0;
            for (int m = 0; m < h->rules->nmoves; m++) deps |= gr_move_coord_deps(h->rules, &h->rules->moves[m]) != 3;
            shared += deps != 0;
        }
        cyclic += bounded != 0;
        gf_close(&f);
    }
    CHECK(cyclic > 50);
    CHECK(draws > 100);
    CHECK(loops_boxed > 50);
    CHECK(sg_defined > 100);
    printf("random rule sets: %d boxes with cycles, %d draws, %d SG values beside cycles\n", loops_boxed, draws, sg_defined);
    CHECK(shared > 50);
    /* every random rule set the table evaluator gets is boxed (bounded, or moves going down),
     * cycles included, under normal and misere play */
    t_share("table evaluator (dense box), outcomes", eval_decided, eval_cases, 0.95);
}

/* E&D: sg(x, y) is the index of the lowest 0 bit of (x - 1) | (y - 1). */
static void ed_body(gf *f, void *arg) {
    (void)arg;
    gr_game *g = gf_game(f, "ed");
    int64_t lo[2] = { 1, 1 }, hi[2] = { 2000, 2000 };
    gr_tuple_reserve(&f->c, g, lo, hi);
    gr_dense *b = gr_tuple_box(g);
    CHECK(b != NULL);
    if (!b) return;
    CHECK_EQ(gr_dense_shared_moves(b), 2);
    int bad = 0;
    for (int64_t x = 1; x <= 2000 && bad < 5; x++)
        for (int64_t y = 1; y <= 2000 && bad < 5; y++) {
            int64_t p[2] = { x, y };
            int64_t want = __builtin_ctzll(~(uint64_t)((x - 1) | (y - 1)));
            bad += !CHECK_EQ(gr_dense_sg(b, p), want);
        }
    /* solve ed(2000, 1997): only what it reaches */
    int64_t p[2] = { 2000, 1997 };
    gr_dense *one = gr_dense_at(&f->c, g, CONV_NORMAL, p);
    CHECK_EQ(gr_dense_sg(one, p), 4);
    CHECK(gr_dense_evaluated(one) < gr_dense_size(one) / 2);
    gr_dense_free(one);
}

/* table ed(1..N, 1..N) as the query fills it (evaluator.h): one dense box over the range, the
 * cells read from it, equal to the formula. */
static void ed_table_body(gf *f, void *arg) {
    (void)arg;
    enum { N = 300 };
    gr_game *g = gf_game(f, "ed");
    gr_box box = { .ncoords = 2, .lo = { 1, 1 }, .hi = { N, N }, .ndims = 2, .dim = { 0, 1 }, .loc = g->decl->name_loc };
    int64_t *out = gr_alloc(&f->c, (size_t)N * N * sizeof *out);
    if (CHECK(gr_eval_fill(&f->c, g, CONV_NORMAL, &box, GR_KIND_SG, out))) {
        int bad = 0;
        for (int64_t i = 0; i < (int64_t)N * N && bad < 5; i++) {
            int64_t x = 1 + i / N, y = 1 + i % N;
            bad += !CHECK_EQ(out[i], __builtin_ctzll(~(uint64_t)((x - 1) | (y - 1))));
        }
        gr_dense *b = gr_tuple_box(g);
        CHECK(b && gr_dense_shared_moves(b) == 2);
    }
    gr_free(&f->c, out);
}

static void ed_formula(void) {
    gf f;
    if (!gf_open(&f, "game ed { position (x, y) where x >= 1 && y >= 1;\n"
                     "  move -> (i, x - i) for i in 1..x-1;\n  move -> (i, y - i) for i in 1..y-1; }\n"
                     "solve ed(2, 2);\n")) { CHECK(0); return; }
    if (!gf_run(&f, ed_body, NULL)) gf_report_failure(&f, "ed");
    gf_close(&f);
    if (!gf_open(&f, "game ed { position (x, y) where x >= 1 && y >= 1;\n"
                     "  move -> (i, x - i) for i in 1..x-1;\n  move -> (i, y - i) for i in 1..y-1; }\n"
                     "solve ed(2, 2);\n")) { CHECK(0); return; }
    if (!gf_run(&f, ed_table_body, NULL)) gf_report_failure(&f, "ed table");
    gf_close(&f);
}

/* Wythoff: the P-positions are (a_k, b_k) = (floor(k phi), floor(k phi^2)) and their mirrors,
 * made here in exact integers by the mex construction: a_k is the least number not yet in a
 * pair, b_k = a_k + k. Marks isP[a * cols + b] for a < rows, b < cols. */
static int64_t isqrt64(int64_t n) {      /* exact: corrected after the floating estimate */
    int64_t r = (int64_t)sqrt((double)n);
    while (r * r > n) r--;
    while ((r + 1) * (r + 1) <= n) r++;
    return r;
}

static void wythoff_p(uint8_t *isP, int64_t rows, int64_t cols, uint8_t *used, int64_t nused) {
    memset(used, 0, (size_t)nused);
    int64_t a = 0;
    for (int64_t k = 0; a < nused; k++) {
        while (a < nused && used[a]) a++;
        if (a >= nused) break;
        int64_t b = a + k;
        /* Beatty, the second construction: floor(k phi) = floor((k + floor(k sqrt 5)) / 2) */
        if (!CHECK_EQ(a, (k + isqrt64(5 * k * k)) / 2)) return;
        used[a] = 1;
        if (b < nused) used[b] = 1;
        if (a < rows && b < cols) isP[a * cols + b] = 1;
        if (b < rows && a < cols) isP[b * cols + a] = 1;
        if (a >= rows && a >= cols) break;
    }
}

/* The line kernel fills 0..N x 0..N and a strip of rows 0..R over columns 0..C (moves only
 * lower coordinates, so a strip is closed): sg == 0 exactly on the pairs; the box agrees with
 * the line kernel on a corner. */
static void wythoff_body(gf *f, void *arg) {
    (void)arg;
    enum { N = 2000, M = 60, R = 200, C = 10000 };
    gr_game *g = gf_game(f, "w");
    uint8_t *used = gr_alloc(&f->c, 3 * C);
    int64_t *v = gr_alloc(&f->c, sizeof *v * (size_t)N * N);
    gr_lines_fill(&f->c, g, N, N, v);
    uint8_t *isP = gr_alloc(&f->c, (size_t)N * N);
    memset(isP, 0, (size_t)N * N);
    wythoff_p(isP, N, N, used, 3 * C);
    int bad = 0, np = 0;
    for (int64_t i = 0; i < (int64_t)N * N && bad < 5; i++) { bad += !CHECK_EQ(v[i] == 0, isP[i]); np += isP[i]; }
    CHECK_EQ(np, 1 + 2 * 763);             /* pairs with b_k < 2000: k <= 763 and their mirrors, (0, 0) once */
    gr_free(&f->c, v);
    gr_free(&f->c, isP);
    /* the strip: P-positions as far as column 10^4 */
    int64_t *sv = gr_alloc(&f->c, sizeof *sv * (size_t)(R + 1) * (C + 1));
    gr_lines_fill(&f->c, g, R + 1, C + 1, sv);
    uint8_t *sp = gr_alloc(&f->c, (size_t)(R + 1) * (C + 1));
    memset(sp, 0, (size_t)(R + 1) * (C + 1));
    wythoff_p(sp, R + 1, C + 1, used, 3 * C);
    for (int64_t i = 0; i < (int64_t)(R + 1) * (C + 1) && bad < 5; i++) bad += !CHECK_EQ(sv[i] == 0, sp[i]);
    CHECK_EQ(sv[(int64_t)122 * (C + 1) + 198], 0);   /* k = 76: (floor(76 phi), floor(76 phi^2)) = (122, 198) */
    CHECK(sv[(int64_t)121 * (C + 1) + 198] != 0);
    gr_free(&f->c, sv);
    gr_free(&f->c, sp);
    gr_free(&f->c, used);
    int64_t lo[2] = { 0, 0 }, hi[2] = { M, M };
    int64_t *cv = gr_alloc(&f->c, sizeof *cv * (size_t)(M + 1) * (M + 1));
    gr_lines_fill(&f->c, g, M + 1, M + 1, cv);
    gr_dense *b = gr_dense_range(&f->c, g, CONV_NORMAL, lo, hi);
    for (int64_t x = 0; x <= M; x++)
        for (int64_t y = 0; y <= M; y++) CHECK_EQ(gr_dense_sg(b, (int64_t[]){ x, y }), cv[x * (M + 1) + y]);
    gr_dense_free(b);
    gr_free(&f->c, cv);
}

/* The outcome kernel over 0..10^4 x 0..10^4 (10^8 cells, a bit each): every number is in
 * exactly one pair, so row a holds exactly one P-position, at its partner's column (when that
 * is inside the box), and no other. Partners by the exact mex construction above. */
static void wythoff_outcomes_body(gf *f, void *arg) {
    (void)arg;
    enum { N = 10001 };
    gr_game *g = gf_game(f, "w");
    int64_t *partner = gr_alloc(&f->c, sizeof *partner * (size_t)N);
    for (int64_t i = 0; i < N; i++) partner[i] = -1;
    uint8_t *used = gr_alloc(&f->c, 3 * N);
    int64_t a = 0, pairs = 0;
    for (int64_t k = 0; a < N; k++) {
        while (a < 3 * N && used[a]) a++;
        if (a >= N) break;
        int64_t b = a + k;
        if (!CHECK_EQ(a, (k + isqrt64(5 * k * k)) / 2)) return;
        used[a] = used[b] = 1;
        partner[a] = b;
        if (b < N) partner[b] = a, pairs++;
    }
    for (int64_t i = 0; i < N; i++) if (!CHECK(partner[i] >= 0)) return;
    uint64_t *p = gr_alloc(&f->c, gr_lines_pbits_words(N, N) * sizeof *p);
    gr_lines_outcomes(&f->c, g, N, N, p);
    int bad = 0;
    int64_t np = 0;
    for (int64_t r = 0; r < N && bad < 5; r++) {
        int64_t got = -1, count = 0;
        for (int64_t col = 0; col < N; col++)
            if (gr_lines_is_p(p, N, r, col)) got = col, count++;
        np += count;
        int64_t want = partner[r] < N ? partner[r] : -1;
        if (!CHECK_EQ(count, want >= 0) || !CHECK_EQ(got, want)) bad++;
    }
    CHECK_EQ(np, 2 * pairs - 1);            /* both mirrors of each pair inside, (0, 0) once */
    CHECK_EQ(pairs, 3821);                  /* b_k = floor(k phi^2) <= 10^4 exactly for k <= 3820 */
    CHECK(gr_lines_is_p(p, N, 6180, 10000) && !gr_lines_is_p(p, N, 6181, 10000));   /* k = 3820 */
    gr_free(&f->c, p);
    gr_free(&f->c, used);
    gr_free(&f->c, partner);
}

static void wythoff_pairs(void) {
    gf f;
    if (!gf_open(&f, "game w { position (a, b);\n  move -> (a - k, b) for k in 1..a;\n  move -> (a, b - k) for k in 1..b;\n"
                     "  move -> (a - k, b - k) for k in 1..min(a, b); }\nsolve w(1, 2);\n")) { CHECK(0); return; }
    if (!gf_run(&f, wythoff_body, NULL)) gf_report_failure(&f, "wythoff");
    if (!gf_run(&f, wythoff_outcomes_body, NULL)) gf_report_failure(&f, "wythoff outcomes");
    gf_close(&f);
}

/* A box beyond --max-positions stops at once with status 3, having evaluated nothing. */
static void limit_body(gf *f, void *arg) {
    (void)arg;
    int64_t p[2] = { 100000, 100000 };
    gr_dense_at(&f->c, gf_game(f, "w"), CONV_NORMAL, p);
}

static void limits(void) {
    gf f;
    if (!gf_open(&f, "game w { position (a, b);\n  move -> (a - k, b) for k in 1..a;\n  move -> (a, b - k) for k in 1..b; }\nsolve w(1, 2);\n")) { CHECK(0); return; }
    f.c.max_positions = 1000000;
    CHECK(!gf_run(&f, limit_body, NULL));
    CHECK_EQ(f.c.fail_status, GR_EXIT_LIMIT);
    CHECK(strstr(f.c.fail_msg, "10000200001 positions") != NULL || strstr(f.c.fail_msg, "2^32") != NULL);
    gf_close(&f);
}

/* ---- the row evaluator (expr.h) against gr_eval, lane by lane -------------------------------- */

/* A random expression in x, y and the parameter p: arithmetic that can fail (/, % by a value that
 * may be 0) under guards (&&, ||) that may skip it, comparisons, min and max. */
static void random_expr(t_rng *r, int depth, char *out, size_t cap) {
    static const char *ops[] = { "+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||" };
    int kind = depth <= 0 ? (int)t_range(r, 0, 2) : (int)t_range(r, 0, 6);
    char a[300], b[300];   /* depth <= 4: far shorter */
    switch (kind) {
    case 0: snprintf(out, cap, "%s", (const char *[]){ "x", "y", "p" }[t_range(r, 0, 2)]); break;
    case 1: case 2: snprintf(out, cap, "%lld", (long long)t_range(r, -3, 3)); break;
    case 3: random_expr(r, depth - 1, a, sizeof a); snprintf(out, cap, "%s(%s)", t_range(r, 0, 1) ? "-" : "!", a); break;
    case 4:
        random_expr(r, depth - 1, a, sizeof a);
        random_expr(r, depth - 1, b, sizeof b);
        snprintf(out, cap, "%s(%s, %s)", t_range(r, 0, 1) ? "min" : "max", a, b);
        break;
    default:
        random_expr(r, depth - 1, a, sizeof a);
        random_expr(r, depth - 1, b, sizeof b);
        snprintf(out, cap, "(%s %s %s)", a, ops[t_range(r, 0, 12)], b);
        break;
    }
}

typedef struct rowcase { int declined, rows; } rowcase;

static void row_body(gf *f, void *arg) {
    rowcase *rc = arg;
    gr_game *g = f->mod.games;   /* the one instance, r[p] */
    const gr_code *w = g->rules->where;
    int np = g->rules->nparams;
    int64_t frame[8] = { 0 }, out[GR_ROW];
    frame[0] = g->params[0];
    for (int64_t x = -3; x <= 3; x++)
        for (int64_t y0 = -70; y0 <= 70; y0 += 35) {
            int count = (int)(x + 3) * 9 + 1;   /* 1..55 lanes */
            frame[np] = x;
            rc->rows++;
            if (!gr_eval_row(&f->c, w, frame, np + 1, y0, count, out)) { rc->declined++; continue; }
            for (int l = 0; l < count; l++) {
                frame[np + 1] = y0 + l;
                if (!CHECK_EQ(out[l], gr_eval(&f->c, w, frame, NULL))) {
                    fprintf(stderr, "  at x = %lld, y = %lld\n", (long long)x, (long long)(y0 + l));
                    return;
                }
            }
        }
}

static void row_evaluator(void) {
    t_rng r = { t_seed(77) };
    rowcase rc = { 0, 0 };
    for (int t = 0; t < 400; t++) {
        char e[1024], src[1400];
        random_expr(&r, (int)t_range(&r, 1, 4), e, sizeof e);
        snprintf(src, sizeof src, "game r[p] { position (x, y) where %s; move -> (x - 1, y); }\ntable r[%lld](0..1, 0..1);\n",
                 e, (long long)t_range(&r, -2, 2));
        gf f;
        if (!gf_open_ex(&f, src, 1)) { gf_close(&f); continue; }   /* a constant part that fails at compile time */
        if (!gf_run(&f, row_body, &rc)) gf_report_failure(&f, src);
        gf_close(&f);
    }
    /* Rows the evaluator declines (some lane would fail) are a minority, not the rule. */
    CHECK(rc.rows > 5000);
    CHECK(rc.declined * 3 < rc.rows);
    printf("row evaluator: %d rows, %d declined\n", rc.rows, rc.declined);
}

int main(void) {
    row_evaluator();
    random_rule_sets();
    ed_formula();
    wythoff_pairs();
    limits();
    return t_finish("unit_box");
}
