/* unit_engine: a program compiled once remembers (api/engine.h) as a client sees it through
 * the public API: a solve after a table computes no value again (the engine's counter says so)
 * and answers as a fresh program does; a larger table extends the one kept; a failure in a
 * call's own text keeps the values, one while running drops them and the program still
 * answers; a call that would pass the memory limit while earlier values are kept drops them
 * and succeeds; gr_program_reset; and four threads on one program answer as one thread does,
 * each reading its own last error (run under ThreadSanitizer in CI). */
#include "grundy.h"
#include "testlib.h"
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
    /* A limit met while running drops the values; the program answers on. */
    gr_limits lim = { .max_time = 0.05 };
    CHECK_EQ(gr_set_limits(p, &lim), GR_OK);
    int rc = gr_solve(p, "g(3000) + g(5) + g(7)", GR_MISERE, &a);   /* a search of seconds */
    lim.max_time = 0;
    CHECK_EQ(gr_set_limits(p, &lim), GR_OK);
    gr_stats after = stats(p);
    CHECK_EQ(rc, GR_ELIMIT);
    CHECK(strstr(gr_last_error(p), "time") != NULL);
    CHECK_EQ(after.drops, 1);
    CHECK_EQ(gr_solve(p, "g(100) + g(5)", GR_NORMAL, &a), GR_OK);
    CHECK_EQ(a.sg, v[100] ^ v[5]);
    gr_program_free(p);
}

/* Memory: a table that passes the limit only beside the values kept runs again from empty. */
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
    CHECK_EQ(stats(p).drops, 1);                        /* a's values made room for b's */
    free(v);
    free(w);
    gr_program_free(p);
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
    test_solve_after_table();
    test_failures();
    test_eviction();
    test_threads_one_program();
    return t_finish("unit_engine");
}
