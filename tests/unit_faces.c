/* unit_faces: one answer, every face. Each query of a program with every kind of query (table,
 * solve, check, options, dot, plot, quotient, census) is run once by gr_run_query_formats into
 * text, CSV and JSON at once, and each format again alone in a fresh compilation: the bytes
 * must be equal (a format that computed anything of its own, or a sink that lost one, shows),
 * and the run for three formats must have computed no more heap values than the run for one.
 * Then random sums: the remoteness the text names (or says it did not compute) is the JSON's,
 * number for number and null for "not computed". */
#include <stdlib.h>
#include <unistd.h>
#include "gamefix.h"
#include "query.h"

static char dir[64];

static char *program_text(void) {
    static char src[2048];
    snprintf(src, sizeof src,
             "game kayles = octal \"0.77\";\n"
             "game s = subtract {1, 3, 4};\n"
             "game wythoff { position (a, b); move -> (a - k, b) for k in 1..a; move -> (a, b - k) for k in 1..b;\n"
             "               move -> (a - k, b - k) for k in 1..min(a, b); }\n"
             "graph g { a -> b, c; b -> d; c -> d; d; }\n"
             "table kayles(0..80);\n"
             "table wythoff(0..9, 0..9) outcome;\n"
             "table g;\n"
             "solve kayles(4) + kayles(7) + s(9);\n"
             "solve misere kayles(5) + kayles(6);\n"
             "solve kayles(20) + kayles(25) remoteness;\n"
             "check kayles periodic;\n"
             "check s: P(n) <=> n %% 7 == 0 || n %% 7 == 2 for n in 0..200;\n"
             "options kayles(6) + s(3);\n"
             "dot s(5) to \"%s/s.dot\";\n"
             "plot wythoff(0..15, 0..15) outcome to \"%s/w.png\";\n"
             "quotient kayles(0..30);\n"
             "census g2[c] for c in {\"0.07\", \"0.137\", \"0.77\"} to 200;\n"
             "game g2[c] = octal c;\n",
             dir, dir);
    return src;
}

typedef struct run_arg { int query; FILE *outs[3]; } run_arg;

static void run_one(gf *f, void *arg) {
    run_arg *a = arg;
    gr_run_query_formats(&f->c, &f->mod, a->query, a->outs, 0);
}

/* Runs query i of a fresh compilation into the formats whose want[] is set; texts[fmt] get
 * what each was given (malloc'd), *computed the heap values the run computed. */
static int run_fresh(int i, const int want[3], char *texts[3], uint64_t *computed) {
    gf f;
    if (!gf_open(&f, program_text())) { gf_close(&f); return 0; }
    size_t len[3] = { 0, 0, 0 };
    run_arg a = { .query = i };
    for (int k = 0; k < 3; k++) {
        texts[k] = NULL;
        a.outs[k] = want[k] ? open_memstream(&texts[k], &len[k]) : NULL;
    }
    int ok = gf_run(&f, run_one, &a);
    if (!ok) gf_report_failure(&f, "a query of unit_faces");
    for (int k = 0; k < 3; k++) if (a.outs[k]) fclose(a.outs[k]);
    *computed = f.c.store.values_computed;
    gf_close(&f);
    return ok;
}

static void test_every_query_once_in_three_formats(void) {
    gf probe;
    if (!gf_open(&probe, program_text())) { gf_close(&probe); CHECK(0); return; }
    int nq = probe.mod.nqueries;
    gf_close(&probe);
    CHECK_EQ(nq, 13);
    for (int i = 0; i < nq; i++) {
        const int all[3] = { 1, 1, 1 };
        char *together[3];
        uint64_t once = 0;
        if (!CHECK(run_fresh(i, all, together, &once))) continue;
        for (int k = 0; k < 3; k++) {
            int want[3] = { 0, 0, 0 };
            want[k] = 1;
            char *alone[3];
            uint64_t computed = 0;
            if (!CHECK(run_fresh(i, want, alone, &computed))) continue;
            if (!CHECK(alone[k] && together[k] && strcmp(alone[k], together[k]) == 0))
                fprintf(stderr, "query %d format %d differs:\n--- alone\n%s--- together\n%s", i, k, alone[k], together[k]);
            CHECK(strlen(together[k]) > 0);
            CHECK_EQ(once, computed);      /* three formats cost one computation */
            free(alone[k]);
        }
        free(together[0]); free(together[1]); free(together[2]);
    }
}

/* The remoteness named in text (-1: "not computed"; -2: not named) and in JSON (-1: null). */
static long long text_remoteness(const char *t) {
    const char *r = strstr(t, ", remoteness ");
    if (!r) return -2;
    r += strlen(", remoteness ");
    return strncmp(r, "not computed", 12) == 0 ? -1 : atoll(r);
}

static long long json_remoteness(const char *j) {
    const char *r = strstr(j, "\"remoteness\":");
    if (!r) return -3;
    r += strlen("\"remoteness\":");
    return strncmp(r, "null", 4) == 0 ? -1 : atoll(r);
}

static void test_random_sums_name_one_remoteness(void) {
    t_rng seed = { t_seed(7) };
    int named = 0, declined = 0;
    for (int round = 0; round < 60; round++) {
        char src[512];
        int n = 0;
        n += snprintf(src + n, sizeof src - (size_t)n, "game kayles = octal \"0.77\";\ngame s = subtract {2, 3};\nsolve %s",
                      round % 3 == 1 ? "misere " : "");
        int parts = 1 + (int)(t_next(&seed) % 3);
        for (int p = 0; p < parts; p++)
            n += snprintf(src + n, sizeof src - (size_t)n, "%s%s(%d)", p ? " + " : "", t_next(&seed) % 2 ? "kayles" : "s",
                          (int)(t_next(&seed) % (round < 30 ? 12 : 400)));
        snprintf(src + n, sizeof src - (size_t)n, ";\n");
        gf f;
        if (!gf_open(&f, src)) { gf_close(&f); CHECK(0); continue; }
        char *text = NULL, *json = NULL;
        size_t tl, jl;
        run_arg a = { .query = 0 };
        a.outs[GR_FMT_TEXT] = open_memstream(&text, &tl);
        a.outs[GR_FMT_CSV] = NULL;
        a.outs[GR_FMT_JSON] = open_memstream(&json, &jl);
        int ok = gf_run(&f, run_one, &a);
        fclose(a.outs[GR_FMT_TEXT]);
        fclose(a.outs[GR_FMT_JSON]);
        if (CHECK(ok)) {
            long long t = text_remoteness(text), j = json_remoteness(json);
            int draw = strstr(text, "outcome D") != NULL;
            if (!CHECK(t == j || (draw && t == -2 && j == -1))) fprintf(stderr, "%s%s%s", src, text, json);
            named += t >= 0;
            declined += t == -1;
        }
        free(text);
        free(json);
        gf_close(&f);
    }
    /* both kinds happen: small sums get a number, sums of large heaps are declined */
    CHECK(named >= 20);
    CHECK(declined >= 5);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/grundy-faces-XXXXXX");
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    test_every_query_once_in_three_formats();
    test_random_sums_name_one_remoteness();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return t_finish("unit_faces");
}
