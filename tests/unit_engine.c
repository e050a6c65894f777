/* unit_engine: a program compiled once remembers (api/engine.h) as a client sees it through
 * the public API: a solve after a table computes no value again (the engine's counter says so)
 * and answers as a fresh program does; a larger table extends the one kept; a failure in a
 * call's own text keeps the values, one while running drops only the values of the games it
 * used (another game's table stays: the counter does not move) and the program still
 * answers; a call that would pass the memory limit evicts the least recently used games'
 * values and succeeds, the most recent game's kept; max_time holds through such a retry (one
 * clock for the call); each game's memory and values (gr_program_games); gr_program_reset;
 * the engine's session entries (a definition that fails its checks leaves the engine as it
 * was: it crashed); and four threads on one program answer as one thread does, each reading
 * its own last error (run under ThreadSanitizer in CI). */
#include "grundy.h"
#include "testlib.h"
#include "engine.h"
#include "query.h"
#include <time.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Under a sanitizer (ThreadSanitizer included, which testlib.h does not see) the sizes shrink. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define T_SLOW 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(T_SANITIZED)
#define T_SLOW 1
#endif

static const char *OFFICERS = "game g = octal \"0.6\";\ngame s = subtract {1, 3, 4};\n";

static gr_stats stats(gr_program *p) {
    gr_stats st;
    CHECK_EQ(gr_program_stats(p, &st), GR_OK);
    return st;
}

/* The answer of a fresh program, as the reference for one that remembers. */
static gr_answer fresh_solve(const char *position) {
    gr_program *q = gr_compile(OFFICERS, "o.game", NULL);
    gr_answer a;
    memset(&a, 0, sizeof a);
    CHECK_EQ(gr_solve(q, position, GR_NORMAL, &a), GR_OK);
    CHECK_EQ(stats(q).compiles, 1);
    gr_program_free(q);
    return a;
}

static void test_solve_after_table(void) {
#ifdef T_SLOW
    enum { N = 4000 };
#else
    enum { N = 20000 };
#endif
    gr_program *p = gr_compile(OFFICERS, "o.game", NULL);
    int64_t *v = malloc((N + 1) * sizeof *v);
    CHECK_EQ(gr_table(p, "g", 0, N, v), GR_OK);
    CHECK_EQ(stats(p).values_computed, N + 1);          /* heaps 0..N, each once */
    CHECK_EQ(v[5], 1);                                  /* 0.6 (Officers): 0 0 1 2 0 1 ... */
    for (int i = 0; i < 12; i++) {
        char pos[64];
        snprintf(pos, sizeof pos, "g(%d) + g(%d)", N - i, 5 + i);
        gr_answer a, want = fresh_solve(pos);
        CHECK_EQ(gr_solve(p, pos, GR_NORMAL, &a), GR_OK);
        CHECK_EQ(a.sg, want.sg);
        CHECK_EQ(a.outcome, want.outcome);
        CHECK_EQ(a.nwinning, want.nwinning);
        CHECK_EQ(a.sg, v[N - i] ^ v[5 + i]);
    }
    gr_stats st = stats(p);
    CHECK_EQ(st.values_computed, N + 1);                /* the solves computed nothing */
    CHECK_EQ(st.compiles, 1);
    CHECK_EQ(st.calls, 13);
    CHECK_EQ(st.drops, 0);
    /* A larger table extends the one kept: only the new heaps are computed. */
    int64_t *w = malloc((2 * N + 1) * sizeof *w);
    CHECK_EQ(gr_table(p, "g", 0, 2 * N, w), GR_OK);
    CHECK_EQ(stats(p).values_computed, 2 * N + 1);
    CHECK(memcmp(v, w, (N + 1) * sizeof *v) == 0);
    /* The same table again, and a smaller one inside it: nothing computed. */
    CHECK_EQ(gr_table(p, "g", N / 2, N, v), GR_OK);
    CHECK_EQ(stats(p).values_computed, 2 * N + 1);
    CHECK(memcmp(v, w + N / 2, (N / 2 + 1) * sizeof *v) == 0);
    /* Reset: everything is computed again, and the same. */
    gr_program_reset(p);
    CHECK_EQ(stats(p).drops, 1);
    gr_answer a;
    CHECK_EQ(gr_solve(p, "g(3000) + g(7)", GR_NORMAL, &a), GR_OK);
    CHECK_EQ(a.sg, w[3000] ^ w[7]);
    CHECK_EQ(stats(p).compiles, 2);
    CHECK(stats(p).values_computed > 2 * N + 1);
    free(v);
    free(w);
    gr_program_free(p);
}

static void test_failures(void) {
    gr_program *p = gr_compile(OFFICERS, "o.game", NULL);
    int64_t v[101];
    CHECK_EQ(gr_table(p, "g", 0, 100, v), GR_OK);
    /* Errors in the call's own text (syntax, names) keep what was computed. */
    gr_answer a;
    CHECK_EQ(gr_solve(p, "nosuch(3)", GR_NORMAL, &a), GR_EINPUT);
    CHECK(strstr(gr_last_error(p), "unknown game 'nosuch'") != NULL);
    CHECK_EQ(gr_last_diagnostic(p)->column, 1);
    CHECK_EQ(gr_solve(p, "g(3) +", GR_NORMAL, &a), GR_EINPUT);
    CHECK_EQ(gr_solve(p, "g(-1)", GR_NORMAL, &a), GR_EINPUT);
    gr_stats st = stats(p);
    CHECK_EQ(st.drops, 0);
    CHECK_EQ(st.values_computed, 101);
    /* A prelude game named by a call joins the program once. */
    CHECK_EQ(gr_solve(p, "kayles(4) + g(5)", GR_NORMAL, &a), GR_OK);
    CHECK_EQ(a.sg, 1 ^ v[5]);
    CHECK_EQ(gr_solve(p, "kayles(7) + *2", GR_NORMAL, &a), GR_OK);
    CHECK_EQ(a.sg, 2 ^ 2);
    CHECK_EQ(stats(p).drops, 0);
    /* A limit met while running drops the values of the games it used; the program answers on. */
    gr_limits lim = { .max_time = 0.05 };
    CHECK_EQ(gr_set_limits(p, &lim), GR_OK);
    int rc = gr_solve(p, "g(3000) + g(5) + g(7)", GR_MISERE, &a);   /* a search of seconds */
    lim.max_time = 0;
    CHECK_EQ(gr_set_limits(p, &lim), GR_OK);
    gr_stats after = stats(p);
    CHECK_EQ(rc, GR_ELIMIT);
    CHECK(strstr(gr_last_error(p), "time") != NULL);
    CHECK_EQ(after.drops, 0);                           /* not everything: */
    CHECK(after.game_drops >= 1);                       /*   g's values, half made */
    CHECK_EQ(gr_solve(p, "g(100) + g(5)", GR_NORMAL, &a), GR_OK);
    CHECK_EQ(a.sg, v[100] ^ v[5]);
    gr_program_free(p);
}

/* The values of one game kept, by name (0: none). */
static uint64_t kept_values(gr_program *p, const char *name, size_t *bytes) {
    gr_game_stats g[32];
    int n = 0;
    CHECK_EQ(gr_program_games(p, g, 32, &n), GR_OK);
    if (bytes) *bytes = 0;
    for (int i = 0; i < n && i < 32; i++)
        if (!strcmp(g[i].name, name)) {
            if (bytes) *bytes = g[i].bytes;
            return g[i].values;
        }
    return 0;
}

/* A call stopped by a limit (or an interrupt) drops only what it was making: after a table
 * of s, a query on another game stopped by the time limit leaves s's values, and the next
 * solve on s computes nothing. */
static void test_stopped_keeps_others(void) {
#ifdef T_SLOW
    enum { N = 20000 };
#else
    enum { N = 100000 };
#endif
    gr_program *p = gr_compile("game s = octal \"0.6\";\ngame g = octal \"0.6\";\n", "s.game", NULL);
    int64_t *v = malloc((N + 1) * sizeof *v);
    CHECK_EQ(gr_table(p, "s", 0, N, v), GR_OK);
    uint64_t computed = stats(p).values_computed;
    CHECK_EQ(computed, N + 1);
    size_t bytes = 0;
    CHECK_EQ(kept_values(p, "s", &bytes), N + 1);       /* per game: its values and memory */
    CHECK(bytes >= N + 1);
    gr_limits lim = { .max_time = 0.05 };
    CHECK_EQ(gr_set_limits(p, &lim), GR_OK);
    gr_answer a;
    CHECK_EQ(gr_solve(p, "g(3000) + g(5) + g(7)", GR_MISERE, &a), GR_ELIMIT);   /* seconds of search */
    lim.max_time = 0;
    CHECK_EQ(gr_set_limits(p, &lim), GR_OK);
    gr_stats st = stats(p);
    CHECK_EQ(st.drops, 0);
    CHECK_EQ(kept_values(p, "s", NULL), N + 1);
    CHECK_EQ(st.other_memory, 0);                       /* the stopped call's scratch is gone */
    uint64_t before = st.values_computed;
    char pos[64];
    snprintf(pos, sizeof pos, "s(%d) + s(%d)", N, N / 3);
    CHECK_EQ(gr_solve(p, pos, GR_NORMAL, &a), GR_OK);
    CHECK_EQ(a.sg, v[N] ^ v[N / 3]);
    CHECK_EQ(stats(p).values_computed, before);
    free(v);
    gr_program_free(p);
}

/* Memory: a table that passes the limit only beside the values kept evicts them and runs again. */
static void test_eviction(void) {
#ifdef T_SLOW
    enum { N = 60000 };
#else
    enum { N = 400000 };
#endif
    gr_program *p = gr_compile("game a = octal \"0.6\";\ngame b = octal \"0.6\";\n", "ab.game", NULL);
    int64_t *v = malloc((N + 1) * sizeof *v), *w = malloc((N + 1) * sizeof *w);
    CHECK_EQ(gr_table(p, "a", 0, N, v), GR_OK);
    size_t one = stats(p).memory;
    gr_limits lim = { .max_memory = one + one / 2 };
    CHECK_EQ(gr_set_limits(p, &lim), GR_OK);
    CHECK_EQ(gr_table(p, "b", 0, N, w), GR_OK);
    CHECK(memcmp(v, w, ((size_t)N + 1) * sizeof *v) == 0);
    gr_stats st = stats(p);
    CHECK_EQ(st.drops, 0);
    CHECK_EQ(st.evictions, 1);                          /* a's values made room for b's */
    CHECK_EQ(st.retries, 1);
    CHECK_EQ(kept_values(p, "a", NULL), 0);
    CHECK_EQ(kept_values(p, "b", NULL), N + 1);
    free(v);
    free(w);
    gr_program_free(p);
}

/* Eviction goes by the least recently used game: of three tables, the one used longest ago
 * goes first and the most recent stays. */
static void test_lru(void) {
#ifdef T_SLOW
    enum { N = 30000 };
#else
    enum { N = 200000 };
#endif
    gr_program *p = gr_compile("game a = octal \"0.6\";\ngame b = octal \"0.6\";\ngame c = octal \"0.6\";\ngame d = octal \"0.6\";\n",
                               "abcd.game", NULL);
    int64_t *v = malloc((N + 1) * sizeof *v);
    CHECK_EQ(gr_table(p, "a", 0, N, v), GR_OK);
    CHECK_EQ(gr_table(p, "b", 0, N, v), GR_OK);
    CHECK_EQ(gr_table(p, "c", 0, N, v), GR_OK);
    gr_answer ans;
    CHECK_EQ(gr_solve(p, "a(17)", GR_NORMAL, &ans), GR_OK);   /* a used again: b is now the oldest */
    size_t one = 0;
    kept_values(p, "c", &one);
    CHECK(one > 0);
    gr_limits lim = { .max_memory = stats(p).memory + one / 2 };   /* d fits once one table goes */
    CHECK_EQ(gr_set_limits(p, &lim), GR_OK);
    CHECK_EQ(gr_table(p, "d", 0, N, v), GR_OK);
    CHECK_EQ(stats(p).evictions, 1);
    CHECK_EQ(kept_values(p, "b", NULL), 0);              /* the least recently used */
    CHECK_EQ(kept_values(p, "a", NULL), N + 1);
    CHECK_EQ(kept_values(p, "c", NULL), N + 1);          /* the most recent before d */
    CHECK_EQ(kept_values(p, "d", NULL), N + 1);
    free(v);
    gr_program_free(p);
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* max_time holds through a memory retry: the clock is the call's, not the attempt's (it
 * started again at the retry, and the call overran by the first attempt's time). b's table
 * (a rule set the interpreter runs, quadratic) passes the memory limit beside a's after about a
 * second, a is evicted, b runs again until the time limit. */
static void test_time_through_retry(void) {
    gr_program *p = gr_compile("game a = octal \"0.6\";\n"
                               "game b { heap n; move -> n - k for k in 1..n; move -> {x, n - x} for x in 1..n/2; }\n",
                               "r.game", NULL);
    enum { NA = 1000000, NB = 30000 };   /* b alone takes well past T, so the retry meets the time limit on any machine */
    int64_t *v = malloc((NA + 1) * sizeof *v);
    CHECK_EQ(gr_table(p, "a", 0, NA, v), GR_OK);
    const double T = 2.5;
    gr_limits lim = { .max_memory = stats(p).memory + 80000, .max_time = T };
    CHECK_EQ(gr_set_limits(p, &lim), GR_OK);
    double t0 = now_s();
    int rc = gr_table(p, "b", 0, NB, v);
    double took = now_s() - t0;
    CHECK_EQ(rc, GR_ELIMIT);
    CHECK(strstr(gr_last_error(p), "time limit") != NULL);
    CHECK(took < T + 1.0);
#ifndef T_SLOW
    CHECK_EQ(stats(p).retries, 1);                       /* it did pass the memory limit first */
    CHECK_EQ(stats(p).evictions, 1);
#endif
    free(v);
    gr_program_free(p);
}

/* ---- the engine's entries, as the session makes them ---- */
static int run_body(gr_ctx *c, gr_module *m, void *user) {
    return gr_run_queries_ex(c, m, GR_FMT_TEXT, user, NULL, NULL);
}
static int run_csv(gr_ctx *c, gr_module *m, void *user) {
    return gr_run_queries_ex(c, m, GR_FMT_CSV, user, NULL, NULL);
}

static void quiet(gr_ctx *c, void *user) {
    (void)user;
    c->diag = NULL;
}

static FILE *sink;   /* the answers' text, not read */

/* A session's first entry naming an instance of a prelude family ('solve bash[2](4)', no game
 * before it): the instance joined the module's list after the entry's copy of the list was
 * taken, and the copy's head was still empty, so the sums' table of games missed it (SIGSEGV,
 * found by fuzz_session). Each answer is checked against Bash: n mod (k + 1). */
static void test_first_entry_instance(void) {
    gr_engine_fail f;
    static const char *const first[] = { "solve bash[2](4);", "solve bash[2](4) remoteness;",
                                         "solve bash[3](6) + bash[2](2);", "table bash[4](0..9);" };
    static const char *const want[] = { "sg 1, remoteness 3", "sg 1, remoteness 3", "sg 0", "4,4\n5,0\n6,1" };
    for (int i = 0; i < 4; i++) {
        FILE *out = tmpfile();
        if (!CHECK(out != NULL)) return;
        gr_engine *e = gr_engine_open("<session>", "", 0, 1, quiet, NULL, &f);
        if (!CHECK(e != NULL)) { fclose(out); return; }
        int csv = i == 3;
        CHECK_EQ(gr_engine_run(e, "<input>", first[i], strlen(first[i]), quiet, NULL, csv ? run_csv : run_body, out, 0, &f), 0);
        char text[4096] = { 0 };
        rewind(out);
        size_t got = fread(text, 1, sizeof text - 1, out);
        text[got] = '\0';
        if (!CHECK(strstr(text, want[i]) != NULL)) printf("  %s: %s\n", first[i], text);
        gr_engine_free(e);
        fclose(out);
    }
}

static int entry(gr_engine *e, const char *text, gr_engine_fail *f) {
    return gr_engine_run(e, "<input>", text, strlen(text), quiet, NULL, run_body, sink, 0, f);
}

/* A definition that fails its checks leaves the engine exactly as it was: `game g = octal ""`
 * put g in the names before its code failed, the arena was rewound, and the next entry read
 * freed memory (exit 139). Then a mix of good and failing definitions, redefinitions and
 * resets, each answer checked against what the good definitions say. */
static void test_failing_definitions(void) {
    gr_engine_fail f;
    sink = fopen("/dev/null", "w");
    CHECK(sink != NULL);
    gr_engine *e = gr_engine_open("<session>", "", 0, 1, quiet, NULL, &f);
    CHECK(e != NULL);
    CHECK_EQ(entry(e, "game g = octal \"\";", &f), -1);
    CHECK_EQ(f.status, 2);
    CHECK(strstr(f.text, "needs a point") != NULL);
    CHECK_EQ(entry(e, "solve *2;", &f), 0);
    CHECK_EQ(entry(e, "solve g(3);", &f), -1);           /* g was never defined */
    CHECK(strstr(f.text, "unknown game 'g'") != NULL);
    CHECK_EQ(entry(e, "game g = octal \"0.77\";", &f), 0);
    CHECK_EQ(entry(e, "table g(0..50);", &f), 0);
    gr_engine_stats st;
    gr_engine_stats_of(e, &st);
    uint64_t computed = st.values_computed;
    /* failing redefinitions of g: g stays kayles, its values kept */
    static const char *const bad[] = {
        "game g = octal \"\";", "game g = octal \"0.7x\";", "game g = subtract {0};",
        "game g = octal \"0.77\"; game g = octal \"0.6\";", "game h = octal \"0.6\"; game g = octal \"\";",
        "game g { heap n; move -> n - k for k in 1..nosuch; }", "game g[k] = octal \"\"; table g[2](0..3);",
        "game h = subtract {1, 2}; solve h(3) + nosuch(2);", "solve g(3) + bash[0](2);",
    };
    for (int round = 0; round < 20; round++) {
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
            entry(e, bad[(i + (size_t)round) % (sizeof bad / sizeof *bad)], &f);
            CHECK_EQ(entry(e, "solve g(7) + g(9);", &f), 0);   /* kayles: 2 xor 1 */
        }
        if (round % 7 == 3) CHECK_EQ(entry(e, "game k = octal \"0.07\"; solve k(5);", &f), 0);   /* a good one among them */
    }
    gr_engine_stats_of(e, &st);
    CHECK_EQ(st.drops, 0);
    CHECK(st.values_computed >= computed);
    gr_engine_game games[16];
    int n = gr_engine_games(e, games, 16);
    int kept_g = 0;
    for (int i = 0; i < n && i < 16; i++) {
        kept_g |= !strcmp(games[i].name, "g") && games[i].values >= 51;
        if (getenv("T_VERBOSE")) printf("%s: %llu values, %zu bytes, %llu drops\n", games[i].name, (unsigned long long)games[i].values, games[i].bytes, (unsigned long long)games[i].drops);
    }
    CHECK(kept_g);                                     /* g's table outlived the failures */
    /* h from the failing entries never joined */
    CHECK_EQ(entry(e, "solve h(3);", &f), -1);
    gr_engine_reset(e);
    CHECK_EQ(entry(e, "solve g(7) + k(5);", &f), 0);    /* the good definitions replay after a reset */
    gr_engine_free(e);
    fclose(sink);
}

/* ---- four threads on one program ---- */
#ifdef T_SLOW
enum { NTHREADS = 4, ROUNDS = 20 };
#else
enum { NTHREADS = 4, ROUNDS = 40 };
#endif
typedef struct job { gr_program *p; int id; int64_t sg[ROUNDS]; char outcome[ROUNDS]; int nwin[ROUNDS]; int errs_ok; } job;

static void position_of(int id, int r, char *buf, size_t cap) {
    static const char *const games[] = { "g", "s", "kayles" };
    snprintf(buf, cap, "%s(%d) + %s(%d) + g(%d)", games[(id + r) % 3], 50 + 37 * r + 11 * id, games[r % 3],
             3 + r, 1000 + 97 * id + 13 * r);
}

static void *work(void *arg) {
    job *j = arg;
    for (int r = 0; r < ROUNDS; r++) {
        char pos[128];
        position_of(j->id, r, pos, sizeof pos);
        gr_answer a;
        if (gr_solve(j->p, pos, GR_NORMAL, &a) != GR_OK) { j->sg[r] = -2; continue; }
        j->sg[r] = a.sg;
        j->outcome[r] = a.outcome;
        j->nwin[r] = a.nwinning;
        if (r % 10 == 3) {   /* a failure of this thread's own, read back by this thread */
            char bad[64];
            snprintf(bad, sizeof bad, "bad%d(1)", j->id);
            if (gr_solve(j->p, bad, GR_NORMAL, &a) == GR_EINPUT) {
                char want[64];
                snprintf(want, sizeof want, "'bad%d'", j->id);
                j->errs_ok += strstr(gr_last_error(j->p), want) != NULL;
            }
        }
    }
    return NULL;
}

static void test_threads_one_program(void) {
    gr_program *shared = gr_compile(OFFICERS, "o.game", NULL), *alone = gr_compile(OFFICERS, "o.game", NULL);
    job jobs[NTHREADS], want[NTHREADS];
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        jobs[i] = (job){ .p = shared, .id = i };
        want[i] = (job){ .p = alone, .id = i };
        work(&want[i]);                                  /* one thread, one after another */
    }
    for (int i = 0; i < NTHREADS; i++) CHECK_EQ(pthread_create(&t[i], NULL, work, &jobs[i]), 0);
    for (int i = 0; i < NTHREADS; i++) CHECK_EQ(pthread_join(t[i], NULL), 0);
    int same = 0;
    for (int i = 0; i < NTHREADS; i++)
        for (int r = 0; r < ROUNDS; r++)
            same += jobs[i].sg[r] == want[i].sg[r] && jobs[i].sg[r] >= 0 && jobs[i].outcome[r] == want[i].outcome[r] &&
                    jobs[i].nwin[r] == want[i].nwin[r];
    CHECK_EQ(same, NTHREADS * ROUNDS);
    for (int i = 0; i < NTHREADS; i++) CHECK_EQ(jobs[i].errs_ok, ROUNDS / 10);
    CHECK_EQ(stats(shared).calls, stats(alone).calls);
    CHECK_EQ(stats(shared).values_computed, stats(alone).values_computed);   /* each value once */
    gr_program_free(shared);
    gr_program_free(alone);
}

int main(void) {
    test_first_entry_instance();
    test_solve_after_table();
    test_failures();
    test_stopped_keeps_others();
    test_eviction();
    test_lru();
    test_time_through_retry();
    test_failing_definitions();
    test_threads_one_program();
    return t_finish("unit_engine");
}
