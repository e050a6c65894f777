/* unit_samecost: a table, a formula check and a solve over the same positions read one box
 * through the evaluator, whichever asks first (issue 27, item 6). Each query runs as the command
 * runs it (the query runner, the table query's values), and:
 *   - the table's and the check's P-positions equal the position graph's (--no-theory) on the
 *     2-D Wythoff variant w2 (also played misere), on plain Wythoff (the line kernel) and on
 *     random 2-D rule sets (cycles and misere play included, which the box solves too): the check asserts the graph's P-positions
 *     as a formula, over the square and over a triangle (whose variables span no box), and is
 *     refuted once one P-position is left out;
 *   - the box evaluators' count of positions valued (gr_tuple_computed) does not move on a second
 *     query over positions already valued: check after table, table after check, solve of a cell
 *     after a table, a triangle after a square; and a solve then a table value no more positions
 *     than the table alone;
 *   - a table stopped in the middle of its box's walk, asked again, values each position once. */
#include <stdlib.h>
#include <string.h>
#include "gamefix.h"
#include "query.h"
#include "show.h"

static const char *W2 =
    "game w2 { position (a, b); move -> (a - k, b) for k in 1..a; move -> (a, b - k) for k in 1..b;\n"
    "  move -> (a - k, b - l) for k in 1..a, l in 1..b where abs(k - l) < 2; }\n";
static const char *W2M =
    "game w2m { position (a, b); play misere; move -> (a - k, b) for k in 1..a; move -> (a, b - k) for k in 1..b;\n"
    "  move -> (a - k, b - l) for k in 1..a, l in 1..b where abs(k - l) < 2; }\n";
static const char *W3 =
    "game w3 { position (a, b); move -> (a - k, b) for k in 1..a; move -> (a, b - k) for k in 1..b;\n"
    "  move -> (a - k, b - k) for k in 1..min(a, b); }\n";

/* ---- running queries ------------------------------------------------------------------------ */

typedef struct run { int query; int refuted; int64_t *vals; int64_t rows, cols; int outcome; } run;

/* Query r->query through the query runner (text to /dev/null): r->refuted. */
static void run_body(gf *f, void *arg) {
    run *r = arg;
    FILE *out = fopen("/dev/null", "w");
    if (!CHECK(out != NULL)) return;
    r->refuted = gr_run_query(&f->c, &f->mod, r->query, GR_FMT_TEXT, out, 0);
    fclose(out);
}

/* The values of table query r->query as the table and plot queries get them. */
static void values_body(gf *f, void *arg) {
    run *r = arg;
    gr_conv conv;
    r->vals = gr_table_values(&f->c, &f->mod, &f->mod.queries[r->query], &r->rows, &r->cols, &r->outcome, &conv, NULL);
}

static int run_query(gf *f, int i) {
    run r = { .query = i };
    if (!gf_run(f, run_body, &r)) { gf_report_failure(f, "query"); return -1; }
    return r.refuted;
}

/* P-positions of table query i (outcomes or SG values) into isP[rows * cols]; 0 on failure. */
static int table_p(gf *f, int i, uint8_t *isP, int64_t n) {
    run r = { .query = i };
    if (!gf_run(f, values_body, &r)) { gf_report_failure(f, "table"); return 0; }
    if (!CHECK_EQ(r.rows * r.cols, n)) return 0;
    for (int64_t k = 0; k < n; k++) isP[k] = r.outcome ? r.vals[k] == GR_LOSS : r.vals[k] == 0;
    gr_free(&f->c, r.vals);
    return 1;
}

static uint64_t computed(gf *f, const char *name) { return gr_tuple_computed(gf_game(f, name)); }

/* ---- the check's formula: the P-positions of 0..B x 0..B as a disjunction -------------------- */

/* "P(a, b) <=> (a == x && b == y || ...)", leaving out the skip-th P-position (-1: none). */
static char *p_formula(const uint8_t *isP, int64_t B, int skip) {
    size_t cap = 64 + (size_t)((B + 1) * (B + 1)) * 40, n = 0;
    char *s = malloc(cap);
    n += (size_t)snprintf(s + n, cap - n, "P(a, b) <=> (a < 0");
    int k = 0;
    for (int64_t x = 0; x <= B; x++)
        for (int64_t y = 0; y <= B; y++)
            if (isP[x * (B + 1) + y] && k++ != skip)
                n += (size_t)snprintf(s + n, cap - n, " || a == %lld && b == %lld", (long long)x, (long long)y);
    snprintf(s + n, cap - n, ")");
    return s;
}

/* The program: the game, then 0: table NAME(0..B, 0..B) [outcome]; 1: check NAME: ALL over
 * the square; 2: the same over the triangle b <= a (its variables span no box); 3: check
 * NAME: LESS over the square; 4: solve NAME(B, B). */
static char *program(const char *game, const char *name, int64_t B, int outcome, const char *all, const char *less) {
    size_t cap = strlen(game) + 2 * strlen(all) + strlen(less) + 1024;
    char *src = malloc(cap);
    snprintf(src, cap,
             "%stable %s(0..%lld, 0..%lld)%s;\n"
             "check %s: %s for a in 0..%lld, b in 0..%lld;\n"
             "check %s: %s for a in 0..%lld, b in 0..a;\n"
             "check %s: %s for a in 0..%lld, b in 0..%lld;\n"
             "solve %s(%lld, %lld);\n",
             game, name, (long long)B, (long long)B, outcome ? " outcome" : "",
             name, all, (long long)B, (long long)B,
             name, all, (long long)B,
             name, less, (long long)B, (long long)B,
             name, (long long)B, (long long)B);
    return src;
}

/* The program whose checks assert the P-positions isP (3: one left out). */
static char *p_program(const char *game, const char *name, int64_t B, int outcome, const uint8_t *isP) {
    char *all = p_formula(isP, B, -1), *less = p_formula(isP, B, 0);
    char *src = program(game, name, B, outcome, all, less);
    free(all);
    free(less);
    return src;
}

/* The position graph's P-positions of 0..B x 0..B (the table query under --no-theory). */
static int graph_p(const char *game, const char *name, int64_t B, uint8_t *isP) {
    int64_t n = (B + 1) * (B + 1);
    memset(isP, 0, (size_t)n);
    char *src = p_program(game, name, B, 1, isP);
    gf f;
    int ok = gf_open(&f, src);
    if (ok) {
        f.c.no_theory = 1;
        ok = table_p(&f, 0, isP, n);
    }
    if (ok) CHECK_EQ(computed(&f, name), 0);   /* the graph alone: no box */
    gf_close(&f);
    free(src);
    return ok;
}

/* Both paths against the graph: the table's P-positions, the checks over the square and the
 * triangle hold, the check with one P-position left out is refuted. Returns the number of
 * P-positions (-1 on failure). */
static int both_paths(const char *game, const char *name, int64_t B, int outcome) {
    int64_t n = (B + 1) * (B + 1);
    uint8_t *want = malloc((size_t)n), *got = malloc((size_t)n);
    int np = -1;
    if (!graph_p(game, name, B, want)) goto out;
    char *src = p_program(game, name, B, outcome, want);
    gf f;
    if (gf_open(&f, src)) {
        int bad = 0;
        if (table_p(&f, 0, got, n))
            for (int64_t k = 0; k < n && bad < 3; k++)
                if (!CHECK_EQ(got[k], want[k])) {
                    bad++;
                    fprintf(stderr, "  table at (%lld, %lld) of\n%s", (long long)(k / (B + 1)), (long long)(k % (B + 1)), game);
                }
        np = 0;
        for (int64_t k = 0; k < n; k++) np += want[k];
        if (!CHECK_EQ(run_query(&f, 1), 0) || !CHECK_EQ(run_query(&f, 2), 0)) fprintf(stderr, "  check holds? %s", game);
        if (np > 0 && !CHECK_EQ(run_query(&f, 3), 1)) fprintf(stderr, "  check refuted? %s", game);
    }
    gf_close(&f);
    free(src);
out:
    free(want);
    free(got);
    return np;
}

/* ---- the count of positions valued ------------------------------------------------------------ */

/* Runs the queries of `order` (indices into the program, whose checks claim the rule set
 * symmetric) one after another on one compiled program and returns how many positions each
 * added to the count. */
static void added(const char *game, const char *name, int64_t B, int outcome, const int *order, int norder, uint64_t *add) {
    int64_t n = (B + 1) * (B + 1);
    char *src = program(game, name, B, outcome, "P(a, b) <=> P(b, a)", "P(a, b) <=> P(b, a)");
    gf f;
    if (gf_open(&f, src)) {
        for (int i = 0; i < norder; i++) {
            uint64_t before = computed(&f, name);
            if (order[i] == 0) {
                uint8_t *isP = malloc((size_t)n);
                table_p(&f, 0, isP, n);
                free(isP);
            } else CHECK_EQ(run_query(&f, order[i]), 0);   /* symmetric rule sets: every cell read */
            add[i] = computed(&f, name) - before;
        }
    }
    gf_close(&f);
    free(src);
}

static void counts(void) {
    enum { B = 30 };
    uint64_t a[4];
    const int64_t cells = (B + 1) * (B + 1);
    /* table, check, triangle, solve of a cell: the table values the box, the rest read it */
    added(W2, "w2", B, 0, (const int[]){ 0, 1, 2, 4 }, 4, a);
    CHECK_EQ(a[0], cells);
    CHECK_EQ(a[1], 0);
    CHECK_EQ(a[2], 0);
    CHECK_EQ(a[3], 0);
    /* check first, then the table, a table of outcomes, a solve */
    added(W2, "w2", B, 1, (const int[]){ 1, 0, 4 }, 3, a);
    CHECK_EQ(a[0], cells);
    CHECK_EQ(a[1], 0);
    CHECK_EQ(a[2], 0);
    /* the triangle first (cell by cell: its variables span no box), then the square */
    added(W2, "w2", B, 0, (const int[]){ 2, 1, 0 }, 3, a);
    CHECK(a[0] > 0 && a[0] <= (uint64_t)cells);
    CHECK_EQ(a[0] + a[1], cells);
    CHECK_EQ(a[2], 0);
    /* a solve first: the table values only what the solve did not */
    added(W2, "w2", B, 0, (const int[]){ 4, 0, 1 }, 3, a);
    CHECK(a[0] > 0);
    CHECK_EQ(a[0] + a[1], cells);
    CHECK_EQ(a[2], 0);
    /* misere play: the misere box, whichever asks first */
    added(W2M, "w2m", B, 0, (const int[]){ 0, 1, 2, 4 }, 4, a);
    CHECK_EQ(a[0], cells);
    CHECK_EQ(a[1] + a[2] + a[3], 0);
    added(W2M, "w2m", B, 0, (const int[]){ 2, 0, 4 }, 3, a);
    CHECK_EQ(a[0], cells);
    CHECK_EQ(a[1] + a[2], 0);
    /* the line kernel (Wythoff): the table's values answer the checks and a solve */
    added(W3, "w3", B, 0, (const int[]){ 0, 1, 2, 4 }, 4, a);
    CHECK_EQ(a[0], cells);
    CHECK_EQ(a[1] + a[2] + a[3], 0);
    /* outcomes alone (P bits) for a check, then a table of outcomes reads them */
    added(W3, "w3", B, 1, (const int[]){ 1, 0, 2 }, 3, a);
    CHECK_EQ(a[0], cells);
    CHECK_EQ(a[1] + a[2], 0);
}

/* ---- a walk stopped by a failure ------------------------------------------------------------ */

/* The box outlives a query: a table stopped in the middle of its walk (an interrupt, a time
 * limit), then asked again, must value each position once, find no cycle in the marks the
 * stopped walk left, and answer as the graph does. */
static int polls_left;
static void stop_soon(gr_ctx *c) {
    if (polls_left > 0 && --polls_left == 0) gr_fail(c, GR_EXIT_LIMIT, "interrupted (test)");
}

typedef struct one { gr_game *g; int64_t pos[2]; int64_t sg; } one;
static void one_body(gf *f, void *arg) {
    one *o = arg;
    o->sg = gr_eval_sg(&f->c, o->g, o->pos, o->g->decl->name_loc);
}

static void interrupted_walk(void) {
    enum { B = 40 };
    const int64_t n = (B + 1) * (B + 1);
    uint8_t *want = malloc((size_t)n), *got = malloc((size_t)n);
    gf f, ref;
    char *src = program(W2, "w2", B, 0, "P(a, b) <=> P(b, a)", "P(a, b) <=> P(b, a)");
    if (graph_p(W2, "w2", B, want) && gf_open(&ref, src)) {
        one r1 = { gf_game(&ref, "w2"), { B, B - 1 }, -1 };
        if (!gf_run(&ref, one_body, &r1)) gf_report_failure(&ref, "reference");
        gf_close(&ref);
        if (gf_open(&f, src)) {
            gr_game *g = gf_game(&f, "w2");
            /* a solve of (B, B - 1) is a deep walk: stopped, then asked again */
            f.c.interrupted = stop_soon;
            polls_left = 3;
            one o = { g, { B, B - 1 }, -1 };
            CHECK(!gf_run(&f, one_body, &o));
            uint64_t part = gr_tuple_computed(g);
            CHECK(part < (uint64_t)n);
            f.c.interrupted = NULL;
            if (gf_run(&f, one_body, &o)) CHECK_EQ(o.sg, r1.sg);
            else gf_report_failure(&f, "solve again");
            if (table_p(&f, 0, got, n)) CHECK(memcmp(got, want, (size_t)n) == 0);
            CHECK(!g->state->not_recurrence);
            CHECK_EQ(gr_tuple_computed(g), n);
            gf_close(&f);
        }
    }
    free(src);
    free(want);
    free(got);
}

/* ---- random 2-D rule sets ---------------------------------------------------------------------- */

static void random_rule_sets(void) {
    t_rng r = { t_seed(20261125) };
#ifdef T_SANITIZED
    int ncases = 12;
#else
    int ncases = 40;
#endif
    int withp = 0;
    for (int t = 0; t < ncases; t++) {
        char src[2048];
        size_t n = 0;
        int64_t B = t_range(&r, 4, 9);
        int bounded = (int)t_range(&r, 0, 1);   /* 1: moves may go up inside x, y <= B (cycles) */
        n += (size_t)snprintf(src + n, sizeof src - n, "game r { position (x, y) where x >= 0 && y >= 0");
        if (bounded) n += (size_t)snprintf(src + n, sizeof src - n, " && x <= %lld && y <= %lld", (long long)B, (long long)B);
        n += (size_t)snprintf(src + n, sizeof src - n, ";\n");
        int nm = (int)t_range(&r, 1, 4);
        for (int m = 0; m < nm; m++) {
            int kind = (int)t_range(&r, 0, 4);
            int64_t dx = t_range(&r, -2, bounded ? 1 : -1), dy = t_range(&r, -2, bounded ? 1 : 0);
            if (!bounded && dx == 0 && dy == 0) dx = -1;
            switch (kind) {
            case 0: n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (x + %lld, y + %lld);\n", (long long)dx, (long long)dy); break;
            case 1: n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (x - k, y - l) for k in 1..x, l in 1..y where abs(k - l) < %lld;\n", (long long)t_range(&r, 1, 3)); break;
            case 2: n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (x - k, y) for k in 1..x where (x + k) %% 3 != 0;\n"); break;
            case 3: n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (x, y - k) for k in 1..min(y, %lld);\n", (long long)t_range(&r, 1, 3)); break;
            default: n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (i, x - i) for i in 1..x-1;\n"); break;
            }
        }
        if (t_range(&r, 0, 3) == 0) n += (size_t)snprintf(src + n, sizeof src - n, "  play misere;\n");
        snprintf(src + n, sizeof src - n, "}\n");
        int np = both_paths(src, "r", B, (int)t_range(&r, 0, 1));
        withp += np > 0;
    }
    CHECK(withp > ncases / 2);
}

int main(void) {
    /* w2 and Wythoff on a smaller box than the benchmark's, against the graph */
    CHECK(both_paths(W2, "w2", 14, 0) > 0);
    CHECK(both_paths(W2, "w2", 11, 1) > 0);
    CHECK(both_paths(W2M, "w2m", 12, 0) > 0);
    CHECK(both_paths(W3, "w3", 14, 0) > 0);
    counts();
    interrupted_walk();
    random_rule_sets();
    return t_finish("unit_samecost");
}
