/* unit_lines: the per-line bitset kernel (src/eval/box/lines.c) and its outcome pass against the table
 * recurrence every tuple rule set has (gr_tuple_sg with the line kernel switched off) on Wythoff,
 * Nim in two heaps and random direction sets over boxes up to 60 x 60; rule sets that are not
 * line moves must not be recognised. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "eval/box/lines.h"
#include "parse.h"
#include "sema.h"
#include "eval/box/tuple.h"
#include "testlib.h"

typedef struct compiled {
    gr_ctx c;
    jmp_buf jb;
    gr_ast_program prog;
    gr_module mod;
} compiled;

/* Compiles src into k (which the caller frees with gr_ctx_free); returns the instance called
 * name, or NULL (with a failed check) if compiling failed or there is none. */
static gr_game *compile(compiled *k, const char *src, const char *name) {
    gr_ctx_init(&k->c, "unit_lines", src, strlen(src));
    k->c.on_fail = &k->jb;
    if (setjmp(k->jb)) {
        fprintf(stderr, "compiling failed:\n%s%s\n", k->c.fail_msg, src);
        CHECK(!"the source compiles");
        return NULL;
    }
    if (gr_parse(&k->c, &k->prog) != 0) {
        fprintf(stderr, "parse failed:\n%s\n", src);
        CHECK(!"the source parses");
        return NULL;
    }
    gr_sema(&k->c, &k->prog, &k->mod);
    k->c.on_fail = NULL;   /* the jump buffer dies with this frame: later failures abort */
    for (gr_game *g = k->mod.games; g; g = g->next)
        if (strcmp(g->name, name) == 0) return g;
    CHECK(!"the game exists");
    return NULL;
}

static const gr_loc NOWHERE = { 0, 0 };

/* Compares gr_lines_fill, and its outcome pass, with gr_tuple_sg over the box rows x cols; returns the
 * mismatches. */
static int compare_box(compiled *k, gr_game *g, int64_t rows, int64_t cols) {
    volatile int bad = 0;
    k->c.on_fail = &k->jb;
    if (setjmp(k->jb)) {
        k->c.on_fail = NULL;
        fprintf(stderr, "failed while filling %s: %s", g->name, k->c.fail_msg);
        CHECK(!"filling succeeds");
        return 1;
    }
    int64_t *fast = gr_alloc(&k->c, (size_t)(rows * cols) * sizeof *fast);
    gr_lines_fill(&k->c, g, rows, cols, fast);
    uint64_t *pbits = gr_alloc(&k->c, gr_lines_pbits_words(rows, cols) * sizeof *pbits);
    gr_lines_outcomes(&k->c, g, rows, cols, pbits);
    /* The reference is the table recurrence of any tuple rule set (the dense box): with the
     * kernel left at KER_LINES gr_tuple_sg would answer from the line kernel itself. */
    g->kernel = KER_TUPLE;
    for (int64_t a = 0; a < rows; a++)
        for (int64_t b = 0; b < cols; b++) {
            int64_t pos[2] = { a, b };
            int64_t want = gr_tuple_sg(&k->c, g, pos, NOWHERE);
            if (gr_lines_is_p(pbits, cols, a, b) != (want == 0)) {   /* the outcome pass */
                if (bad++ < 5)
                    fprintf(stderr, "%s: (%lld, %lld) is %c by the outcome pass, sg %lld by the recurrence\n", g->name,
                            (long long)a, (long long)b, gr_lines_is_p(pbits, cols, a, b) ? 'P' : 'N', (long long)want);
            }
            if (fast[a * cols + b] != want) {
                if (bad++ < 5)
                    fprintf(stderr, "%s: sg(%lld, %lld) = %lld by lines, %lld by the recurrence\n", g->name,
                            (long long)a, (long long)b, (long long)fast[a * cols + b], (long long)want);
            }
        }
    g->kernel = KER_LINES;
    gr_free(&k->c, fast);
    gr_free(&k->c, pbits);
    k->c.on_fail = NULL;
    return bad;
}

static const char WYTHOFF[] =
    "game wythoff {\n"
    "    position (a, b);\n"
    "    move -> (a - k, b)     for k in 1..a;\n"
    "    move -> (a, b - k)     for k in 1..b;\n"
    "    move -> (a - k, b - k) for k in 1..min(a, b);\n"
    "}\n";

static void test_wythoff(void) {
    compiled k;
    gr_game *g = compile(&k, WYTHOFF, "wythoff");
    if (g) {
        char why[200];
        CHECK(gr_lines_recognise(g, why, sizeof why));
        CHECK(strstr(why, "rows, columns and diagonals") != NULL);
        CHECK_EQ(compare_box(&k, g, 60, 60), 0);
        /* Independently: the P-positions are (0, 0) and the Beatty pairs (floor(n*phi), floor(n*phi) + n). */
        int64_t *v = gr_alloc(&k.c, 200 * 200 * sizeof *v);
        gr_lines_fill(&k.c, g, 200, 200, v);
        int zeros = 0;
        for (int64_t a = 0; a < 200; a++)
            for (int64_t b = 0; b < 200; b++) zeros += v[a * 200 + b] == 0;
        /* P-positions in [0,200)^2: (0,0) and pairs (l_n, u_n) both ways while u_n < 200. */
        int pairs = 0;
        double phi = 1.6180339887498949;
        for (int n = 1;; n++) {
            int64_t l = (int64_t)(n * phi), u = l + n;
            if (u >= 200) break;
            CHECK_EQ(v[l * 200 + u], 0);
            CHECK_EQ(v[u * 200 + l], 0);
            pairs++;
        }
        CHECK_EQ(zeros, 1 + 2 * pairs);
        /* sg is symmetric, and row 0 is Nim */
        for (int64_t a = 0; a < 200; a++) {
            CHECK_EQ(v[a], a);
            for (int64_t b = 0; b < a; b++) CHECK_EQ(v[a * 200 + b], v[b * 200 + a]);
        }
        gr_free(&k.c, v);
    }
    gr_ctx_free(&k.c);
}

static void test_nim2(void) {
    compiled k;
    gr_game *g = compile(&k,
                         "game nim2 {\n"
                         "    position (x, y);\n"
                         "    move -> (x, y - j) for j in 1..y;\n"
                         "    move -> (x - j, y) for j in 1..x;\n"
                         "}\n",
                         "nim2");
    if (g) {
        char why[200];
        CHECK(gr_lines_recognise(g, why, sizeof why));
        CHECK(strstr(why, "rows and columns") != NULL);
        CHECK_EQ(compare_box(&k, g, 60, 37), 0);
        int64_t v[70 * 70];
        gr_lines_fill(&k.c, g, 70, 70, v);
        for (int64_t a = 0; a < 70; a++)
            for (int64_t b = 0; b < 70; b++) CHECK_EQ(v[a * 70 + b], a ^ b);
    }
    gr_ctx_free(&k.c);
}

/* Random direction sets, written in random orders and spellings. */
static void test_random(void) {
    t_rng rng = { t_seed(20240611) };
    static const char *const names[][3] = { { "a", "b", "k" }, { "x", "y", "i" }, { "row", "col", "step" } };
    for (int trial = 0; trial < 60; trial++) {
        const char *const *nm = names[t_range(&rng, 0, 2)];
        const char *A = nm[0], *B = nm[1], *K = nm[2];
        int dirs = (int)t_range(&rng, 1, 7);
        int with_param = t_range(&rng, 0, 3) == 0;
        char src[2048];
        size_t n = 0;
        n += (size_t)snprintf(src + n, sizeof src - n, "game r%s {\n    position (%s, %s);\n", with_param ? "[m]" : "", A, B);
        /* each direction once or twice, in a random order */
        int order[6], no = 0;
        for (int d = 0; d < 3; d++)
            if (dirs >> d & 1) {
                order[no++] = d;
                if (t_range(&rng, 0, 4) == 0) order[no++] = d;
            }
        for (int i = no - 1; i > 0; i--) {
            int j = (int)t_range(&rng, 0, i), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = 0; i < no; i++) {
            switch (order[i]) {
            case 0:
                n += (size_t)snprintf(src + n, sizeof src - n, "    move -> (%s - %s, %s) for %s in 1..%s;\n", A, K, B, K, A);
                break;
            case 1:
                n += (size_t)snprintf(src + n, sizeof src - n, "    move -> (%s, %s - %s) for %s in 1..%s;\n", A, B, K, K, B);
                break;
            default:
                if (t_range(&rng, 0, 1))
                    n += (size_t)snprintf(src + n, sizeof src - n, "    move -> (%s - %s, %s - %s) for %s in 1..min(%s, %s);\n", A, K, B, K, K, A, B);
                else
                    n += (size_t)snprintf(src + n, sizeof src - n, "    move -> (%s - %s, %s - %s) for %s in 1..min(%s, %s);\n", A, K, B, K, K, B, A);
                break;
            }
        }
        n += (size_t)snprintf(src + n, sizeof src - n, "}\n");
        if (with_param) snprintf(src + n, sizeof src - n, "solve r[5](0, 0);\n");
        compiled k;
        gr_game *g = compile(&k, src, with_param ? "r[5]" : "r");
        if (g) {
            char why[200];
            if (!CHECK(gr_lines_recognise(g, why, sizeof why))) fprintf(stderr, "not recognised (%s):\n%s", why, src);
            else {
                int64_t rows = t_range(&rng, 1, 60), cols = t_range(&rng, 1, 60);
                if (!CHECK_EQ(compare_box(&k, g, rows, cols), 0)) fprintf(stderr, "in:\n%s", src);
            }
        }
        gr_ctx_free(&k.c);
    }
}

/* Rule sets that are not line moves. */
static void test_not_recognised(void) {
    static const struct { const char *name, *src; } cases[] = {
        { "ed",
          "game ed {\n position (x, y) where x >= 1 && y >= 1;\n move -> (i, x - i) for i in 1..x-1;\n"
          " move -> (i, y - i) for i in 1..y-1;\n}\n" },
        { "corner",
          "game corner {\n position (r, c) where 1 <= r && r <= 8 && 1 <= c && c <= 8;\n move -> (r, c - 1);\n"
          " move -> (r + 1, c);\n move -> (r + 1, c - 1);\n}\n" },
        { "guarded",
          "game guarded {\n position (a, b);\n move -> (a - k, b) for k in 1..a where k % 2 == 1;\n"
          " move -> (a, b - k) for k in 1..b;\n move -> (a - k, b - k) for k in 1..min(a, b);\n}\n" },
        { "withterminal",
          "game withterminal {\n position (a, b);\n move -> (a - k, b) for k in 1..a;\n move -> (a, b - k) for k in 1..b;\n"
          " terminal when a == b;\n}\n" },
        { "withwhere",
          "game withwhere {\n position (a, b) where a <= 100;\n move -> (a - k, b) for k in 1..a;\n}\n" },
        { "wronglimit",
          "game wronglimit {\n position (a, b);\n move -> (a - k, b) for k in 1..a;\n"
          " move -> (a - k, b - k) for k in 1..a;\n}\n" },
        { "shortlimit",
          "game shortlimit {\n position (a, b);\n move -> (a - k, b) for k in 1..min(a, b);\n}\n" },
        { "swappedlimit",
          "game swappedlimit {\n position (a, b);\n move -> (a - k, b) for k in 1..b;\n}\n" },
        { "fromzero",
          "game fromzero {\n position (a, b);\n move -> (a - k, b) for k in 0..a;\n}\n" },
        { "step2",
          "game step2 {\n position (a, b);\n move -> (a - 2*k, b) for k in 1..a/2;\n}\n" },
        { "antidiagonal",
          "game antidiagonal {\n position (a, b);\n move -> (a - k, b + k) for k in 1..a;\n}\n" },
        { "single",
          "game single {\n position (a, b);\n move -> (a - 1, b);\n}\n" },
        { "twobinds",
          "game twobinds {\n position (a, b);\n move -> (a - k, b - j) for k in 1..a, j in 1..b;\n}\n" },
        { "sum",
          "game sum {\n position (a, b);\n move -> {(a - k, b)} for k in 1..a;\n}\n" },
        { "swapped",
          "game swapped {\n position (a, b);\n move -> (b - k, a) for k in 1..b;\n}\n" },
        { "three",
          "game three {\n position (a, b, c);\n move -> (a - k, b, c) for k in 1..a;\n}\n" },
        { "lasker",
          "game lasker {\n heap n;\n move -> n - k for k in 1..n;\n move -> {a, n - a} for a in 1..n/2;\n}\n" },
        { "s134", "game s134 = subtract {1, 3, 4};\n" },
        { "g", "graph g { a -> b; }\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        compiled k;
        gr_game *g = compile(&k, cases[i].src, cases[i].name);
        if (g) {
            char why[200] = "";
            if (!CHECK(!gr_lines_recognise(g, why, sizeof why))) fprintf(stderr, "recognised: %s\n", cases[i].name);
            CHECK(why[0] != '\0');
            CHECK(!gr_lines_recognise(g, NULL, 0));
        }
        gr_ctx_free(&k.c);
    }
}

/* Edge cases: empty and thin boxes; the memory limit stops a huge box with status 3. */
static void test_edges(void) {
    compiled k;
    gr_game *g = compile(&k, WYTHOFF, "wythoff");
    if (g) {
        int64_t v[8] = { -7, -7, -7, -7, -7, -7, -7, -7 };
        gr_lines_fill(&k.c, g, 0, 5, v);
        gr_lines_fill(&k.c, g, 5, 0, v);
        CHECK_EQ(v[0], -7);
        gr_lines_fill(&k.c, g, 1, 8, v);
        for (int i = 0; i < 8; i++) CHECK_EQ(v[i], i);
        gr_lines_fill(&k.c, g, 8, 1, v);
        for (int i = 0; i < 8; i++) CHECK_EQ(v[i], i);
        CHECK_EQ(compare_box(&k, g, 1, 60), 0);
        CHECK_EQ(compare_box(&k, g, 60, 1), 0);
        CHECK_EQ(compare_box(&k, g, 3, 59), 0);

        int64_t *out = gr_alloc(&k.c, 300 * 300 * sizeof *out);
        k.c.mem_limit = k.c.store.mem_used + 4096;   /* far too little for the lines of 300 x 300 */
        volatile int status = -1;
        k.c.on_fail = &k.jb;
        if (setjmp(k.jb) == 0) {
            gr_lines_fill(&k.c, g, 300, 300, out);
        } else status = k.c.fail_status;
        CHECK_EQ(status, GR_EXIT_LIMIT);
        k.c.mem_limit = (size_t)1 << 30;
        k.c.on_fail = &k.jb;
        if (setjmp(k.jb) == 0) {
            gr_lines_fill(&k.c, g, 300, 300, out);   /* and works again with room */
            CHECK_EQ(out[299 * 300 + 299] > 0, 1);
            gr_free(&k.c, out);
        } else CHECK(!"filling with room succeeds");
        k.c.on_fail = NULL;
    }
    gr_ctx_free(&k.c);
}

int main(void) {
    test_wythoff();
    test_nim2();
    test_random();
    test_not_recognised();
    test_edges();
    return t_finish("unit_lines");
}
