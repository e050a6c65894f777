/* unit_api: the public C API (include/grundy.h) as a client sees it: located errors for bad
 * programs and bad positions, limits returned as GR_ELIMIT, every convention against values
 * known from the language contract and the literature, tables, and two threads each with its
 * own program at once (run under ThreadSanitizer in CI: -DGRUNDY_TSAN=ON). */
#include "grundy.h"
#include "testlib.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *PROGRAM =
    "game kayles = octal \"0.77\";\n"
    "game nim = subtract 1..;\n"
    "game lasker { heap n; move -> n - k for k in 1..n; move -> {a, n - a} for a in 1..n/2; }\n"
    "graph g { a -> b, c; b -> d; c -> d; }\n"
    "graph loop { x -> y; y -> x, z; z -> w; }\n";

static const int64_t KAYLES[] = { 0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7 };

static void test_bad_programs(void) {
    gr_diagnostic d;
    CHECK(gr_compile("game k = octal ;\n", "k.game", &d) == NULL);
    CHECK_EQ(d.line, 1);
    CHECK_EQ(d.column, 16);
    CHECK(strstr(d.message, "string") != NULL);   /* expected a string (or a code parameter) */
    CHECK(gr_compile("game k = octal \"0.77\";\nsolve kk(3);\n", "k.game", &d) == NULL);
    CHECK_EQ(d.line, 2);
    CHECK_EQ(d.column, 7);
    CHECK(strcmp(d.message, "unknown game 'kk' (did you mean 'k'?)") == 0);
    CHECK(gr_compile("game k = octal \"0.7X\";\n", NULL, &d) == NULL);
    CHECK_EQ(d.line, 1);
    CHECK_EQ(d.column, 20);
    CHECK(gr_compile(NULL, NULL, &d) == NULL);
}

static void test_bad_positions(gr_program *p) {
    gr_answer a;
    CHECK_EQ(gr_solve(p, "kayles(5) + nimm(3)", GR_NORMAL, &a), GR_EINPUT);
    CHECK_EQ(gr_last_diagnostic(p)->line, 1);
    CHECK_EQ(gr_last_diagnostic(p)->column, 13);
    CHECK(strcmp(gr_last_error(p), "position:1:13: error: unknown game 'nimm' (did you mean 'nim'?)") == 0);
    CHECK_EQ(gr_solve(p, "kayles(-1)", GR_NORMAL, &a), GR_EINPUT);
    CHECK_EQ(gr_last_diagnostic(p)->column, 8);
    CHECK_EQ(gr_solve(p, "kayles(3", GR_NORMAL, &a), GR_EINPUT);
    CHECK_EQ(gr_solve(p, "kayles(3); solve nim(1)", GR_NORMAL, &a), GR_EINPUT);
    CHECK_EQ(gr_last_diagnostic(p)->column, 10);
    CHECK_EQ(gr_solve(p, "g.q", GR_NORMAL, &a), GR_EINPUT);
    /* empty text: located in it, column 1, not at the program's last line */
    CHECK_EQ(gr_solve(p, "", GR_NORMAL, &a), GR_EINPUT);
    CHECK(strcmp(gr_last_error(p), "position:1:1: error: no position given (the text is empty)") == 0);
    CHECK_EQ(gr_table(p, " ", 0, 3, (int64_t[4]){ 0 }), GR_EINPUT);
    CHECK(strcmp(gr_last_error(p), "game:1:1: error: no game given (the text is empty)") == 0);
    CHECK_EQ(gr_solve(p, NULL, GR_NORMAL, &a), GR_EINVAL);
    CHECK_EQ(gr_solve(p, "nim(1)", (gr_convention)7, &a), GR_EINVAL);
    int64_t v[4];
    CHECK_EQ(gr_table(p, "g", 0, 3, v), GR_EINPUT);
    CHECK_EQ(gr_table(p, "kayles", 5, 3, v), GR_EINVAL);
    CHECK_EQ(gr_table(p, "kayless", 0, 3, v), GR_EINPUT);
    CHECK_EQ(gr_last_diagnostic(p)->column, 1);
    /* After errors the program still answers. */
    CHECK_EQ(gr_solve(p, "nim(3) + nim(5) + nim(6)", GR_NORMAL, &a), 0);
    CHECK_EQ(a.outcome, 'P');
    CHECK(gr_last_error(p)[0] == '\0');
    CHECK(strcmp(gr_strerror(GR_ELIMIT), "a resource limit was reached") == 0);
}

static void test_conventions(gr_program *p) {
    gr_answer a;
    CHECK_EQ(gr_solve(p, "nim(3) + nim(5) + nim(6)", GR_NORMAL, &a), 0);
    CHECK(a.outcome == 'P' && a.has_sg && a.sg == 0 && a.nwinning == 0);
    CHECK_EQ(gr_solve(p, "kayles(5) + nim(3)", GR_NORMAL, &a), 0);
    CHECK(a.outcome == 'N' && a.has_sg && a.sg == 7 && a.nwinning == 2);
    CHECK_EQ(gr_solve(p, "nim(1) + nim(1) + nim(2)", GR_MISERE, &a), 0);
    CHECK(a.outcome == 'N' && !a.has_sg);
    CHECK_EQ(gr_solve(p, "nim(1) + nim(1) + nim(1)", GR_MISERE, &a), 0);
    CHECK_EQ(a.outcome, 'P');
    CHECK_EQ(gr_solve(p, "g.b + g.c", GR_ANYLEAF, &a), 0);
    CHECK_EQ(a.outcome, 'P');
    CHECK_EQ(gr_solve(p, "kayles(3) + kayles(5)", GR_EVERY, &a), 0);
    CHECK_EQ(a.outcome, 'N');
    CHECK_EQ(gr_solve(p, "loop.x", GR_NORMAL, &a), 0);
    CHECK_EQ(a.outcome, 'D');
    char buf[256];
    int n = -1;
    CHECK_EQ(gr_winning_moves(p, "kayles(5) + nim(3)", GR_NORMAL, buf, sizeof buf, &n), 0);
    CHECK_EQ(n, 2);
    CHECK(strcmp(buf, "kayles(3) + nim(3)") == 0);
    CHECK(strcmp(buf + strlen(buf) + 1, "kayles(1) + kayles(2) + nim(3)") == 0);
    /* Misere Nim alone: the player to move loses exactly at 1. */
    char o[6];
    CHECK_EQ(gr_table_outcomes(p, "nim", 0, 5, GR_MISERE, o), 0);
    CHECK(memcmp(o, "NPNNNN", 6) == 0);
    CHECK_EQ(gr_table_outcomes(p, "kayles", 0, 5, GR_NORMAL, o), 0);
    CHECK(memcmp(o, "PNNNNN", 6) == 0);
}

static void test_tables_and_limits(gr_program *p) {
    int64_t v[24];
    CHECK_EQ(gr_table(p, "kayles", 0, 23, v), 0);
    for (int i = 0; i < 24; i++) CHECK_EQ(v[i], KAYLES[i]);
    CHECK_EQ(gr_table(p, "kayles", 20, 23, v), 0);
    CHECK_EQ(v[0], 1);
    CHECK_EQ(v[3], 7);
    char *out = NULL;
    size_t len = 0;
    gr_program *q = gr_compile("game s = subtract {1, 3, 4};\ntable s(0..9);\n", "s.game", NULL);
    CHECK(q != NULL);
    CHECK_EQ(gr_run(q, "json", &out, &len), 0);
    CHECK(out && strcmp(out, "{\"query\":\"table\",\"game\":\"s\",\"from\":[0],\"to\":[9],\"kind\":\"sg\",\"values\":[0,1,0,1,2,3,2,0,1,0],\"convention\":\"normal\"}\n") == 0);
    free(out);
    gr_program_free(q);
    /* A position graph larger than the limit stops with GR_ELIMIT and says why. */
    gr_limits lim = { .max_positions = 50 };
    CHECK_EQ(gr_set_limits(p, &lim), 0);
    gr_answer a;
    CHECK_EQ(gr_solve(p, "wythoff(5, 7) + kayles(12)", GR_MISERE, &a), GR_ELIMIT);   /* wythoff: no quotient */
    CHECK(strstr(gr_last_error(p), "positions") != NULL);
    lim.max_positions = 0;
    lim.max_memory = 1 << 16;
    CHECK_EQ(gr_set_limits(p, &lim), 0);
    CHECK_EQ(gr_table(p, "kayles", 0, 1000000, NULL), GR_EINVAL);
    int64_t *big = malloc(sizeof *big * 100001);
    /* Kayles's period is proved early, so its table needs no memory past that... */
    CHECK_EQ(gr_table(p, "kayles", 0, 100000, big), 0);
    CHECK_EQ(big[100000], big[100000 - 12 * 8000]);
    /* ...but general rules keep every value: 10^5 of them do not fit in 64 KiB. */
    CHECK_EQ(gr_table(p, "lasker", 0, 100000, big), GR_ELIMIT);
    free(big);
    lim.max_memory = 0;
    CHECK_EQ(gr_set_limits(p, &lim), 0);
    CHECK_EQ(gr_solve(p, "kayles(12) + kayles(13)", GR_MISERE, &a), 0);
}

/* Two threads, each with its own program, at once. */
typedef struct worker { int id; int errors; } worker;

static void *work(void *arg) {
    worker *w = arg;
    gr_program *p = gr_compile(PROGRAM, w->id ? "b.game" : "a.game", NULL);
    if (!p) { w->errors++; return NULL; }
    for (int round = 0; round < 20; round++) {
        int64_t v[24];
        if (gr_table(p, "kayles", 0, 23, v) != 0) w->errors++;
        for (int i = 0; i < 24; i++) w->errors += v[i] != KAYLES[i];
        gr_answer a;
        if (gr_solve(p, w->id ? "kayles(7) + nim(3)" : "nim(1) + nim(1) + nim(2)", w->id ? GR_NORMAL : GR_MISERE, &a) != 0) w->errors++;
        w->errors += a.outcome != 'N';
        if (gr_solve(p, "kayles(5) + nimm(3)", GR_NORMAL, &a) != GR_EINPUT) w->errors++;
        w->errors += gr_last_diagnostic(p)->column != 13;
    }
    gr_program_free(p);
    return NULL;
}

static void test_threads(void) {
    pthread_t t[2];
    worker w[2] = { { 0, 0 }, { 1, 0 } };
    for (int i = 0; i < 2; i++) CHECK_EQ(pthread_create(&t[i], NULL, work, &w[i]), 0);
    for (int i = 0; i < 2; i++) CHECK_EQ(pthread_join(t[i], NULL), 0);
    CHECK_EQ(w[0].errors, 0);
    CHECK_EQ(w[1].errors, 0);
}

/* The prelude's games and *n through the library, in a program that defines nothing. */
static void test_prelude(void) {
    gr_program *p = gr_compile("", "empty.game", NULL);
    if (!CHECK(p != NULL)) return;
    gr_answer a;
    if (CHECK_EQ(gr_solve(p, "kayles(20) + dawson(33) + *5", GR_NORMAL, &a), 0)) {
        CHECK_EQ(a.outcome, 'N');
        CHECK_EQ(a.sg, 3);      /* kayles(20) = 1, dawson(33) = 7, 1 ^ 7 ^ 5 = 3 */
    }
    gr_program_free(p);
}

/* ---- answers as data (the calls a binding uses) ---- */
static const char *WYTHOFF =
    "game kayles = octal \"0.77\";\n"
    "game wythoff { position (a, b); move -> (a - k, b) for k in 1..a; move -> (a, b - k) for k in 1..b;\n"
    "              move -> (a - k, b - k) for k in 1..min(a, b); }\n";

static void test_data_calls(void) {
    gr_program *p = gr_compile(WYTHOFF, "w.game", NULL);
    if (!CHECK(p != NULL)) return;
    /* 2-D outcomes: the P-positions of Wythoff's game below 8 are (0,0), (1,2), (3,5), (4,7) and mirrors */
    gr_table_data t;
    int64_t lo[2] = { 0, 0 }, hi[2] = { 7, 7 };
    CHECK_EQ(gr_table_box(p, "wythoff", 2, lo, hi, GR_NORMAL, GR_CELL_OUTCOME, &t), GR_OK);
    CHECK_EQ(t.kind, GR_CELL_OUTCOME);
    CHECK_EQ(t.ndims, 2);
    CHECK_EQ(t.rows, 8);
    CHECK_EQ(t.cols, 8);
    int np = 0;
    for (int i = 0; i < 64; i++) np += t.values[i] == 'P';
    CHECK_EQ(np, 7);
    CHECK_EQ(t.values[1 * 8 + 2], 'P');
    CHECK_EQ(t.values[5 * 8 + 3], 'P');
    gr_free(t.values);
    /* a fixed coordinate: wythoff(0..7, 3) is column 3 of SG values */
    hi[1] = lo[1] = 3;
    CHECK_EQ(gr_table_box(p, "wythoff", 2, lo, hi, GR_OWN_PLAY, GR_CELL_SG, &t), GR_OK);
    CHECK_EQ(t.ndims, 1);
    CHECK_EQ(t.rows * t.cols, 8);
    CHECK_EQ(t.values[0], 3);
    CHECK_EQ(t.values[5], 0);
    gr_free(t.values);
    /* misere SG tables are outcomes, as the table query prints them */
    int64_t k0 = 0, k9 = 9;
    CHECK_EQ(gr_table_box(p, "kayles", 1, &k0, &k9, GR_MISERE, GR_CELL_SG, &t), GR_OK);
    CHECK_EQ(t.kind, GR_CELL_OUTCOME);
    CHECK_EQ(t.convention, GR_MISERE);
    CHECK_EQ(t.values[0], 'N');
    CHECK_EQ(t.values[1], 'P');
    gr_free(t.values);
    CHECK_EQ(gr_table_box(p, "kayles", 1, &k9, &k0, GR_NORMAL, GR_CELL_SG, &t), GR_EINVAL);
    CHECK(t.values == NULL);
    /* solve with every winning move at once */
    gr_answer a;
    char **moves;
    CHECK_EQ(gr_solve_full(p, "kayles(4) + kayles(7)", GR_NORMAL, &a, &moves), GR_OK);
    CHECK_EQ(a.sg, 3);
    CHECK_EQ(a.nwinning, 2);
    CHECK(a.has_remoteness);
    CHECK(moves && strcmp(moves[0], "kayles(2) + kayles(7)") == 0 && strcmp(moves[1], "kayles(4) + kayles(2) + kayles(3)") == 0);
    gr_free(moves);
    CHECK_EQ(gr_solve_full(p, "wythoff(3, 5)", GR_OWN_PLAY, &a, &moves), GR_OK);
    CHECK_EQ(a.outcome, 'P');
    CHECK_EQ(a.convention, GR_NORMAL);
    CHECK(moves == NULL);
    /* options */
    gr_option *o;
    int n;
    CHECK_EQ(gr_options(p, "kayles(4)", GR_NORMAL, &o, &n), GR_OK);
    CHECK_EQ(n, 4);
    CHECK(n == 4 && strcmp(o[3].position, "kayles(1) + kayles(1)") == 0 && o[3].outcome == 'P' && o[3].has_sg && o[3].sg == 0);
    gr_free(o);
    /* checks: Kayles has period 12 from heap 71 (Guy and Smith) */
    gr_check_answer c;
    CHECK_EQ(gr_check(p, "kayles periodic", &c), GR_OK);
    CHECK_EQ(c.status, GR_PROVED);
    CHECK_EQ(c.period, 12);
    CHECK_EQ(c.preperiod, 71);
    CHECK_EQ(gr_check(p, "kayles period 5", &c), GR_OK);
    CHECK_EQ(c.status, GR_REFUTED);
    CHECK(c.has_counterexample);
    CHECK_EQ(gr_check(p, "kayles periodc", &c), GR_EINPUT);
    /* a picture: PNG bytes of the asked size */
    unsigned char *png;
    size_t len;
    lo[1] = 0; hi[1] = 7;
#ifndef GRUNDY_NO_CAIRO
    CHECK_EQ(gr_plot(p, "wythoff", 2, lo, hi, GR_NORMAL, GR_CELL_OUTCOME, "png", 120, 100, &png, &len), GR_OK);
    CHECK(len > 24 && memcmp(png, "\x89PNG", 4) == 0);
    CHECK(len > 24 && png[19] == 120 && png[23] == 100);   /* IHDR width and height */
    gr_free(png);
#else   /* a build without cairo refuses, saying why */
    CHECK_EQ(gr_plot(p, "wythoff", 2, lo, hi, GR_NORMAL, GR_CELL_OUTCOME, "png", 120, 100, &png, &len), GR_EINPUT);
    CHECK(strstr(gr_last_error(p), "no cairo") != NULL);
#endif
    CHECK_EQ(gr_plot(p, "wythoff", 2, lo, hi, GR_NORMAL, GR_CELL_REMOTENESS, "png", 0, 0, &png, &len), GR_EINVAL);
    gr_program_free(p);
}

/* gr_interrupt from another thread stops a long call, and the program answers again. */
typedef struct long_call { gr_program *p; int rc; } long_call;

/* The research tables' columns of a periodic check (gr_check_to, the command's --to): the
 * numbers tests/run_census.sh pins for text, JSON and CSV, to heap 20000. */
static void expect_columns(gr_program *p, const char *claim, int64_t largest, int64_t at, uint64_t mask, int64_t count,
                           int64_t last) {
    gr_check_answer c;
    CHECK_EQ(gr_check_to(p, claim, 20000, &c), GR_OK);
    CHECK_EQ(c.status, GR_NONE);
    CHECK_EQ(c.checked_to, 20000);
    CHECK_EQ(c.has_columns, 1);
    CHECK_EQ(c.largest, largest);
    CHECK_EQ(c.largest_at, at);
    CHECK_EQ(c.rare_mask, mask);
    CHECK_EQ(c.rare_heap_parity, 0);
    CHECK_EQ(c.rare_count, count);
    CHECK_EQ(c.last_rare, last);
}

static void test_check_columns(void) {
    gr_program *p = gr_compile("game a = octal \"0.6\";\ngame b = octal \"0.77\";\ngame g = octal \"4!.0\";\n",
                               "cols.game", NULL);
    if (!CHECK(p != NULL)) return;
    gr_limits lim = { .threads = 1 };
    CHECK_EQ(gr_set_limits(p, &lim), GR_OK);
    expect_columns(p, "a periodic", 284, 18855, 0x1ee, 1582, 18833);
    expect_columns(p, "g periodic", 147, 17751, 0xfe, 1195, 19687);
    /* 0.77 is proved by its period before the rare-value kernel runs: no columns */
    gr_check_answer c;
    CHECK_EQ(gr_check_to(p, "b periodic", 20000, &c), GR_OK);
    CHECK_EQ(c.status, GR_PROVED);
    CHECK_EQ(c.period, 12);
    CHECK_EQ(c.preperiod, 71);
    CHECK_EQ(c.has_columns, 0);
    CHECK_EQ(c.last_rare, -1);
    /* without --to, the default range: the columns then reach heap 100000 */
    CHECK_EQ(gr_check(p, "a periodic", &c), GR_OK);
    CHECK_EQ(c.checked_to, 100000);
    CHECK(c.has_columns && c.rare_mask == 0x1ee && c.largest >= 284);
    CHECK_EQ(gr_check_to(p, "a periodic", -1, &c), GR_EINVAL);
    gr_program_free(p);
}

/* One query against the definitions: its answer alone, a definition refused. */
static void test_run_one(void) {
    gr_program *p = gr_compile("game k = octal \"0.77\";\nsolve k(4) + k(7);\n", "one.game", NULL);
    if (!CHECK(p != NULL)) return;
    char *out = NULL;
    size_t len = 0;
    CHECK_EQ(gr_run_one(p, "quotient k(0..30)", "json", &out, &len), GR_OK);
    /* Plambeck and Siegel's kayles quotient to heap 30: order 40, 9 P-positions */
    CHECK(out && strstr(out, "{\"query\":\"quotient\",\"game\":\"k\",\"to\":30,\"order\":40,\"p_order\":9,") == out);
    CHECK(out && !strstr(out, "\"solve\""));     /* the program's own query does not run */
    gr_free(out);
    CHECK_EQ(gr_run_one(p, "table k(0..3)", "csv", &out, &len), GR_OK);
    CHECK(out && strcmp(out, "n,value\n0,0\n1,1\n2,2\n3,3\n") == 0 && len == strlen(out));
    gr_free(out);
    CHECK_EQ(gr_run_one(p, "game z = subtract {1}", "json", &out, &len), GR_EINPUT);
    CHECK(out == NULL);
    CHECK_EQ(gr_run_one(p, "table zz(0..3)", "json", &out, &len), GR_EINPUT);
    CHECK(strncmp(gr_last_error(p), "query:1:7: error: unknown game 'zz'", 35) == 0);
    CHECK_EQ(gr_run_one(p, "table k(0..3)", "xml", &out, &len), GR_EINVAL);
    gr_program_free(p);
}

static void *run_long(void *arg) {
    long_call *l = arg;
    gr_table_data t;
    int64_t lo[2] = { 0, 0 }, hi[2] = { 5000, 5000 };
    l->rc = gr_table_box(l->p, "wythoff", 2, lo, hi, GR_NORMAL, GR_CELL_SG, &t);
    if (l->rc == GR_OK) gr_free(t.values);
    return NULL;
}

static void test_interrupt(void) {
    long_call l = { gr_compile(WYTHOFF, "w.game", NULL), -1 };
    if (!CHECK(l.p != NULL)) return;
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, run_long, &l), 0);
    struct timespec ts = { 0, 200 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    /* how far it got, from this thread: the box's cells of wythoff, some of them done */
    gr_call_state st;
    /* the first snapshot comes at the call's first clock read: wait for it (slow under TSan) */
    for (int i = 0; i < 500; i++) {
        CHECK_EQ(gr_call_progress(l.p, &st), GR_OK);
        if (st.step[0]) break;
        struct timespec tick = { 0, 20 * 1000 * 1000 };
        nanosleep(&tick, NULL);
    }
    CHECK(strcmp(st.step, "wythoff") == 0);
    CHECK(strcmp(st.query, "table normal wythoff(0..5000, 0..5000)") == 0);
    CHECK_EQ(st.total, (uint64_t)5001 * 5001);
    CHECK(st.done <= st.total);
    CHECK_EQ(gr_call_progress(NULL, &st), GR_EINVAL);
    gr_interrupt(l.p);
    CHECK_EQ(pthread_join(t, NULL), 0);
    CHECK_EQ(l.rc, GR_EINTR);
    CHECK(strcmp(gr_last_error(l.p), "grundy: error: interrupted") == 0);
    gr_answer a;
    CHECK_EQ(gr_solve(l.p, "kayles(4) + kayles(7)", GR_NORMAL, &a), GR_OK);
    CHECK_EQ(a.sg, 3);
    gr_program_free(l.p);
}

int main(void) {
    test_prelude();
    CHECK(strcmp(gr_version(), "0.1.0") == 0);
    CHECK_EQ(GR_VERSION_MAJOR * 10000 + GR_VERSION_MINOR * 100 + GR_VERSION_PATCH, 100);
    test_bad_programs();
    gr_program *p = gr_compile(PROGRAM, "api.game", NULL);
    if (!CHECK(p != NULL)) return t_finish("unit_api");
    test_bad_positions(p);
    test_conventions(p);
    test_tables_and_limits(p);
    gr_program_free(p);
    test_threads();
    test_data_calls();
    test_check_columns();
    test_run_one();
    test_interrupt();
    return t_finish("unit_api");
}
