/* unit_threads2: the general heap recurrence (genpar.c) gives the same answers for every
 * --threads value. Random rule blocks with many options per heap (Lasker's Nim and its kin,
 * guarded take and split moves, three-part splits) and random take-and-break codes of the
 * general kernel (three or more heaps, '!', '?', '=') are computed past the heap where the work
 * is split across threads, by 1, 2, 3 and 4 threads, and compared with the plain recurrence over
 * gr_heap_options; rule sets that fail at run time (an overflow, a division by zero, a binding
 * range too large, a move to a heap not smaller, several of them in one block) must fail at the
 * same heap with the same status and the same message, or be found not a recurrence at the same
 * heap, for every thread count. Long 'check' ranges (tested in blocks across threads) give the
 * same first counterexample, count and text, or the same failure, for every thread count. So
 * do infinite subtraction sets (subthreads.c), a generator that fails included. */
#include <stdlib.h>
#include "check.h"
#include "gamefix.h"
#include "eval/cache.h"
#include "eval/heap/genpar.h"
#include "eval/heap/heap.h"

#if defined(T_SANITIZED) || defined(__SANITIZE_THREAD__)
#define SMALL 1
#endif
#if !defined(SMALL) && defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SMALL 1
#endif
#endif
#ifdef SMALL
enum { RULE_N = 1000, TB_N = 560, RULE_SETS = 3, CODES = 2, SUB_N = 4800 };
#else
enum { RULE_N = 1600, TB_N = 600, RULE_SETS = 6, CODES = 3, SUB_N = 7000 };
#endif

/* ---- values --------------------------------------------------------------------------------- */
typedef struct run { int64_t upto; int64_t *v; int rc; } run;
static void fill_body(gf *f, void *arg) {
    run *r = arg;
    gr_game *g = gf_game(f, "g");
    r->rc = gr_heap_ensure(&f->c, g, r->upto);
    if (r->rc == 0)
        for (int64_t i = 0; i <= r->upto; i++) r->v[i] = gr_heap_value(g, i);
}

/* The values of g to upto with `threads` threads (NULL if it failed: message in msg). */
static int64_t *values(const char *src, int64_t upto, int threads, char *msg, size_t cap, int *status) {
    gf f;
    if (!CHECK(gf_open(&f, src))) { gf_close(&f); return NULL; }
    f.c.threads = threads;
    run r = { upto, malloc((size_t)(upto + 1) * sizeof(int64_t)), 0 };
    *status = 0;
    msg[0] = '\0';
    if (!gf_run(&f, fill_body, &r)) {
        *status = f.c.fail_status;
        snprintf(msg, cap, "%s", f.c.fail_msg);
        free(r.v);
        r.v = NULL;
    } else if (r.rc < 0) {
        *status = -1;      /* not a recurrence: the explanation says where */
        snprintf(msg, cap, "%s%s", gf_game(&f, "g")->explain, gf_game(&f, "g")->state->found);
        free(r.v);
        r.v = NULL;
    }
    gf_close(&f);
    return r.v;
}

typedef struct naive { int64_t upto; int64_t *v; } naive;
static void naive_body(gf *f, void *arg) {
    naive *n = arg;
    gr_heap_fill_generic(&f->c, gf_game(f, "g"), n->upto, n->v);
}

/* Every thread count against the plain recurrence; returns the largest value. */
static int64_t same_values(const char *src, int64_t upto) {
    int64_t *ref = malloc((size_t)(upto + 1) * sizeof *ref), top = 0;
    gf f;
    if (!CHECK(gf_open(&f, src))) { gf_close(&f); free(ref); return -1; }
    naive nv = { upto, ref };
    int ok = gf_run(&f, naive_body, &nv);
    if (!ok) gf_report_failure(&f, src);
    gf_close(&f);
    for (int threads = 1; threads <= 4 && ok; threads++) {
        char msg[1024];
        int status;
        int64_t *v = values(src, upto, threads, msg, sizeof msg, &status);
        if (!CHECK(v != NULL)) { printf("%s with %d threads: status %d: %s\n", src, threads, status, msg); continue; }
        for (int64_t i = 0; i <= upto; i++)
            if (!CHECK_EQ(v[i], ref[i])) {
                printf("%s with %d threads: heap %lld differs\n", src, threads, (long long)i);
                break;
            }
        free(v);
    }
    for (int64_t i = 0; i <= upto; i++) if (ref[i] > top) top = ref[i];
    free(ref);
    return top;
}

/* The same failure (status and message) or the same finding for every thread count. */
static void same_failure(const char *src, int64_t upto, int want_status, const char *want_text) {
    char ref[1024], msg[1024];
    int ref_status, status;
    int64_t *v = values(src, upto, 1, ref, sizeof ref, &ref_status);
    CHECK(v == NULL);
    free(v);
    CHECK_EQ(ref_status, want_status);
    if (!CHECK(strstr(ref, want_text) != NULL)) printf("expected \"%s\" in: %s\n", want_text, ref);
    for (int threads = 2; threads <= 4; threads++) {
        v = values(src, upto, threads, msg, sizeof msg, &status);
        CHECK(v == NULL);
        free(v);
        CHECK_EQ(status, ref_status);
        if (!CHECK(strcmp(msg, ref) == 0)) printf("%d threads:\n%s\n1 thread:\n%s\n", threads, msg, ref);
    }
}

/* ---- random rule blocks ----------------------------------------------------------------------- */
static void random_rules(t_rng *r, char *src, size_t cap) {
    size_t pos = (size_t)snprintf(src, cap, "game g {\n    heap n;\n");
    int lines = (int)t_range(r, 1, 3), big = 0;
    for (int l = 0; l < lines || !big; l++) {
        int kind = (int)t_range(r, 0, 5);
        int64_t m = t_range(r, 2, 5), k = t_range(r, 0, m - 1), t = t_range(r, 0, 2);
        switch (kind) {
        case 0:   /* take, with a guard */
            pos += (size_t)snprintf(src + pos, cap - pos, "    move -> n - k for k in 1..n where k %% %lld != %lld;\n", (long long)m, (long long)k);
            big = 1;
            break;
        case 1:   /* split after taking t, with a guard reading n */
            pos += (size_t)snprintf(src + pos, cap - pos, "    move -> {a, n - %lld - a} for a in 1..(n - %lld) / 2 where (a + n) %% %lld != %lld;\n",
                                    (long long)t, (long long)t, (long long)m, (long long)k);
            big = 1;
            break;
        case 2:   /* Lasker-like, every split point */
            pos += (size_t)snprintf(src + pos, cap - pos, "    move -> {a, n - %lld - a} for a in 1..n - %lld - 1;\n", (long long)t, (long long)t);
            big = 1;
            break;
        case 3:   /* a few small takes */
            pos += (size_t)snprintf(src + pos, cap - pos, "    move -> n - %lld;\n", (long long)(t + 1));
            break;
        case 4:   /* three parts, two equal */
            pos += (size_t)snprintf(src + pos, cap - pos, "    move -> {a, a, n - 2 * a - %lld} for a in 1..n / 3;\n", (long long)t);
            break;
        default:  /* take a multiple of m */
            pos += (size_t)snprintf(src + pos, cap - pos, "    move -> n - %lld * k for k in 1..n / %lld;\n", (long long)m, (long long)m);
            big = 1;
            break;
        }
    }
    snprintf(src + pos, cap - pos, "}\n");
}

static void random_code(t_rng *r, char *code, size_t cap) {
    static const char hex[] = "0123456789ABCDEF", cons[] = "!?=";
    size_t pos = 0;
    static const char before[] = "048C";
    code[pos++] = before[t_range(r, 0, 3)];
    if (code[0] != '0' && t_range(r, 0, 2) == 0) code[pos++] = cons[t_range(r, 0, 2)];
    code[pos++] = '.';
    int digits = (int)t_range(r, 1, 3), three = 0;
    for (int i = 0; i < digits; i++) {
        int d = (int)t_range(r, 0, 15);
        if (i == digits - 1 && !three) d = (int)t_range(r, 8, 15);   /* a move leaving three heaps */
        three |= d >= 8;
        code[pos++] = hex[d];
        if (d >= 4 && t_range(r, 0, 2) == 0) code[pos++] = cons[t_range(r, 0, 2)];
    }
    code[pos] = '\0';
    (void)cap;
}

/* genpar itself does the work on Lasker's Nim (sg(4k+3) = 4k+4, sg(4k+4) = 4k+3), not only the
 * serial kernel it falls back to. */
static void genpar_engaged(void) {
    gf f;
    if (!CHECK(gf_open(&f, "game g { heap n; move -> n - k for k in 1..n; move -> {a, n - a} for a in 1..n / 2; }\n"))) {
        gf_close(&f);
        return;
    }
    gr_game *g = gf_game(&f, "g");
    CHECK_EQ(gr_heap_ensure(&f.c, g, 999), 0);
    f.c.threads = 2;
    gr_progress pr;
    gr_progress_begin(&pr, &f.c, "test", 0);
    int64_t opts = 1000, bad = -1;
    CHECK_EQ(gr_genpar_fill(&f.c, g, GR_CACHED(g, sg), 3000, &pr, &opts, &bad, 0), 0);
    gr_progress_end(&pr);
    CHECK(GR_CACHED(g, sg)->n > 3000);
    for (int64_t n = 1; n < GR_CACHED(g, sg)->n; n++) {
        int64_t want = n % 4 == 3 ? n + 1 : n % 4 == 0 ? n - 1 : n;
        if (!CHECK_EQ(gr_heap_value(g, n), want)) break;
    }
    gf_close(&f);
}

/* ---- long checks ------------------------------------------------------------------------------ */
typedef struct check_run { int q; gr_check_result r; } check_run;
static void check_body(gf *f, void *arg) {
    check_run *cr = arg;
    gr_check_run(&f->c, &f->mod.queries[cr->q], &cr->r);
}

/* Query qi of src with 1..4 threads: the same result (or the same failure); the text of one thread
 * must hold want. */
static void same_check(const char *src, int qi, const char *want) {
    static check_run ref, cr;
    char ref_msg[1024] = "";
    int ref_status = 0;
    for (int threads = 1; threads <= 4; threads++) {
        gf f;
        if (!CHECK(gf_open(&f, src))) { gf_close(&f); return; }
        f.c.threads = threads;
        check_run *r = threads == 1 ? &ref : &cr;
        memset(r, 0, sizeof *r);
        r->q = qi;
        int ok = gf_run(&f, check_body, r);
        int status = ok ? 0 : f.c.fail_status;
        if (threads == 1) {
            ref_status = status;
            snprintf(ref_msg, sizeof ref_msg, "%s", ok ? r->r.counterexample_text : f.c.fail_msg);
            if (!CHECK(strstr(ref_msg, want) != NULL)) printf("query %d: expected \"%s\" in: %s\n", qi, want, ref_msg);
        } else {
            CHECK_EQ(status, ref_status);
            if (!CHECK(strcmp(ok ? r->r.counterexample_text : f.c.fail_msg, ref_msg) == 0))
                printf("query %d with %d threads: %s\n", qi, threads, ok ? r->r.counterexample_text : f.c.fail_msg);
            if (ok) {
                CHECK_EQ(r->r.status, ref.r.status);
                CHECK_EQ(r->r.checked_to, ref.r.checked_to);
                CHECK(strcmp(r->r.theorem, ref.r.theorem) == 0);
            }
        }
        gf_close(&f);
    }
}

static void long_checks(void) {
    static const char src[] =
        "game kayles = octal \"0.77\";\n"
        "game r {\n    heap n;\n    move -> {a, n - 1 - a} for a in 0..min(20, n - 1);\n    move -> n - 2 * k for k in 1..min(n / 2, 20);\n}\n"
        "check kayles: sg(n) != 4 || n < 150000 for n in 71..200000;\n"
        "check r: sg(n) != 7 || n < 25000 for n in 1..40000;\n"
        "check r: sg(n) + 1 / (n - 30000) >= -1 for n in 0..40000;\n"
        "check kayles: sg(m * n) < 10 for m in 1..3, n in 0..20000;\n"
        "check kayles: sg(n) == sg(n + 12) && sg(n) < 9 for n in 71..100000;\n"
        "check r: sg(n + 5) + 1 / (n - 30000) >= -1 for n in 0..40000;\n";
    same_check(src, 0, "at n = 150000: sg(n) != 4 || n < 150000 is false");
    same_check(src, 1, "at n = 25001: sg(n) != 7 || n < 25000 is false");
    same_check(src, 2, "division by zero at position (30000)");
    same_check(src, 3, "");
    same_check(src, 4, "");
    /* the error names the assignment, not the heap the claim's table was filled to */
    same_check(src, 5, "division by zero at position (30000)");
}

int main(void) {
    genpar_engaged();
    long_checks();
    t_rng r = { t_seed(20261123) };
    char src[1024];
    for (int i = 0; i < RULE_SETS; i++) {
        random_rules(&r, src, sizeof src);
        int64_t top = same_values(src, RULE_N);
        printf("rules %d to %d: largest value %lld\n", i, (int)RULE_N, (long long)top);
    }
    for (int i = 0; i < CODES; i++) {
        char code[32];
        random_code(&r, code, sizeof code);
        snprintf(src, sizeof src, "game g = octal \"%s\";\n", code);
        gf f;
        int general = gf_open(&f, src) && gf_game(&f, "g")->kernel == KER_TB;
        gf_close(&f);
        if (!CHECK(general)) { printf("%s: not the general kernel\n", code); continue; }
        int64_t top = same_values(src, TB_N);
        printf("code %-8s to %d: largest value %lld\n", code, (int)TB_N, (long long)top);
    }
    /* failures at run time, and not a recurrence, each inside a block of the threaded kernel */
    same_failure("game g {\n    heap n;\n    move -> {a, n - a} for a in 1..n / 2 where a * n * n * n * n * n > 0;\n"
                 "    move -> n - 1;\n}\n", 3000, GR_EXIT_LIMIT, "arithmetic overflow (values are 64-bit signed integers) at position (1626)");
    same_failure("game g {\n    heap n;\n    move -> {a, n - a} for a in 1..n / 2;\n"
                 "    move -> n - 2 for k in 0..(n / 1500) * 2000000000000 where k == 0;\n}\n", 2000, GR_EXIT_LIMIT,
                 "more values than grundy will enumerate for one move");
    same_failure("game g {\n    heap n;\n    move -> {a, n - a} for a in 1..n / 2;\n    move -> n + 1 where n == 1300;\n}\n",
                 2000, -1, "heap 1300 has a move to a heap of 1301, not smaller");
    /* the first in heap order wins: a division by zero at 1400 before moves not smaller from 1401 on ... */
    same_failure("game g {\n    heap n;\n    move -> {a, n - a} for a in 1..n / 2;\n    move -> n - 1 where 100 / (n - 1400) > -1000;\n"
                 "    move -> n + 3 where n > 1400;\n}\n", 2000, GR_EXIT_LIMIT, "division by zero at position (1400)");
    /* ... and a move not smaller at 1400 before a division by zero at 1401 */
    same_failure("game g {\n    heap n;\n    move -> {a, n - a} for a in 1..n / 2;\n    move -> n - 1 where 100 / (n - 1401) > -1000;\n"
                 "    move -> n + 3 where n == 1400;\n}\n", 2000, -1, "heap 1400 has a move to a heap of 1403, not smaller");
    /* a failure late in one block, heaps after it failing too */
    same_failure("game g {\n    heap n;\n    move -> {a, n - a} for a in 1..n / 2;\n    move -> n - 1 where 1 / (2000 - n) * 0 + pow(n, 6) > 0;\n}\n",
                 3000, GR_EXIT_LIMIT, "at position (1449)");
    /* infinite subtraction sets (subthreads.c): generated sets with many elements per heap, past the
     * heap where the look-ups are split, and a generator that fails inside a block's reach */
    static const char *const sets[] = { "{2*i + 1 : i >= 0}", "{i * i : i >= 1}", "{3*i + 2 : i >= 0}",
                                        "{i * (i + 1) / 2 : i >= 1}", "{7*i + 1 : i in 0..500}" };
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
        snprintf(src, sizeof src, "game g = subtract %s;\n", sets[i]);
        int64_t top = same_values(src, SUB_N);
        printf("subtract %-26s to %d: largest value %lld\n", sets[i], (int)SUB_N, (long long)top);
    }
    same_failure("game g = subtract {2*i + 1 - 4 * (i / 2500) : i >= 0};\n", 6000, GR_EXIT_INPUT,
                 "the set is not increasing: i = 2500 gives 4997 after 4999");
    return t_finish("unit_threads2");
}
