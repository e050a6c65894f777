/* unit_reference: known values of classic games, computed by grundy from the rule sets of the
 * language contract and compared with the literature (the .tsv files of ../shared/reference,
 * embedded here) or with closed forms: Kayles, Dawson's chess and
 * Dawson's Kayles (and the shift between them), Grundy's game, subtract {1, 3, 4}, the
 * periods and preperiods of several octal games, Lasker's Nim, split Nim, Wythoff's P-positions
 * (a_k = floor(k phi) in exact integer arithmetic), E&D, the corner game, the contract's graph
 * examples, and misere Kayles against a brute force over multisets of heaps. */
#include <stdlib.h>
#include <string.h>
#include "gamefix.h"
#include "lines.h"

/* ---- the sequences of ../shared/reference/sequences.tsv (heaps 0..40) ----------------------- */
static const int KAYLES[] = { 0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1,
                              4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3, 1 };
static const int DAWSON_CHESS[] = { 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0,
                                    1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1 };
static const int GRUNDYS[] = { 0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0,
                               4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1 };
static const int S134[] = { 0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2,
                            0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3 };
/* Dawson's Kayles 0.07, heaps 0..41, as given in the brief */
static const int DAWSON_KAYLES[] = { 0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3,
                                     0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1 };

/* ../shared/reference/octal-periods.tsv */
static const struct { const char *code; int period, preperiod; } PERIODS[] = {
    { "0.77", 12, 71 }, { "0.07", 34, 53 }, { "0.137", 34, 52 }, { "0.15", 10, 1 },
    { "0.51", 1, 1 },   { "0.52", 4, 4 },   { "0.53", 9, 11 },
};

/* The contract's rule sets, verbatim. */
static const char CONTRACT[] =
    "game nim      = subtract 1..;\n"
    "game bash[m]  = subtract 1..m;\n"
    "game s134     = subtract {1, 3, 4};\n"
    "game fibsub   = subtract {fib(i) : i >= 2};\n"
    "game odd      = subtract {2*i + 1 : i >= 0};\n"
    "game kayles   = octal \"0.77\";\n"
    "game dawson   = octal \"0.07\";\n"
    "game grundys  = octal \"4!.0\";\n"
    "game lasker {\n"
    "    heap n;\n"
    "    move -> n - k       for k in 1..n;\n"
    "    move -> {a, n - a}  for a in 1..n/2;\n"
    "}\n"
    "game splitnim {\n"
    "    heap x;\n"
    "    move -> {a, b} for a in 0..x-1, b in a..x-1;\n"
    "}\n"
    "game wythoff {\n"
    "    position (a, b);\n"
    "    move -> (a - k, b)     for k in 1..a;\n"
    "    move -> (a, b - k)     for k in 1..b;\n"
    "    move -> (a - k, b - k) for k in 1..min(a, b);\n"
    "}\n"
    "game ed {\n"
    "    position (x, y) where x >= 1 && y >= 1;\n"
    "    move -> (i, x - i) for i in 1..x-1;\n"
    "    move -> (i, y - i) for i in 1..y-1;\n"
    "}\n"
    "game corner[rows, cols] {\n"
    "    position (r, c) where 1 <= r && r <= rows && 1 <= c && c <= cols;\n"
    "    move -> (r, c - 1);\n"
    "    move -> (r + 1, c);\n"
    "    move -> (r + 1, c - 1);\n"
    "}\n"
    "graph g {\n"
    "    a -> b, c;\n"
    "    b -> d;\n"
    "    c -> d;\n"
    "}\n"
    "graph loop { x -> y; y -> x, z; z -> w; }\n"
    "game chess137 = octal \"0.137\";\n"
    "game guiles = octal \"0.15\";\n"
    "game o51 = octal \"0.51\";\n"
    "game o52 = octal \"0.52\";\n"
    "game o53 = octal \"0.53\";\n"
    "table bash[3](0..100);\n"
    "table corner[1, 1](1..1, 1..1);\n"
    "table corner[5, 7](1..5, 1..7);\n"
    "table corner[8, 8](1..8, 1..8);\n"
    "table corner[12, 3](1..12, 1..3);\n"
    "table corner[3, 12](1..3, 1..12);\n"
    "table corner[1, 9](1..1, 1..9);\n"
    "table corner[30, 25](1..30, 1..25);\n";

/* Wythoff's P-positions are checked on the square 0..1000 with the line kernel (lines.h), and
 * on a smaller square with the generic table recurrence, whose memoised depth-first fill costs
 * O(N^3): about 5 s at 300 in a Debug build, 3 minutes at 1000 (set GRUNDY_WYTHOFF_MAX=1000 in
 * the environment to run that); sanitizer builds use a smaller square still. */
enum { WYTHOFF_LINES = 1000 };
#ifdef __SANITIZE_ADDRESS__
enum { WYTHOFF_MAX = 200 };
#else
enum { WYTHOFF_MAX = 300 };
#endif

static int64_t isqrt64(int64_t v) {
    int64_t r = (int64_t)0;
    for (int64_t bit = (int64_t)1 << 31; bit; bit >>= 1)
        if ((r + bit) * (r + bit) <= v) r += bit;
    return r;
}

static int64_t mex_small(const int64_t *v, int n) {
    for (int64_t m = 0;; m++) {
        int seen = 0;
        for (int i = 0; i < n && !seen; i++) seen = v[i] == m;
        if (!seen) return m;
    }
}

/* ---- heap sequences ----------------------------------------------------------------------- */

static void check_prefix(gf *f, const char *name, const int *want, int n) {
    gr_game *g = gf_game(f, name);
    if (!CHECK(g != NULL)) return;
    for (int i = 0; i < n; i++)
        if (!CHECK_EQ(gr_heap_sg(&f->c, g, i), want[i])) fprintf(stderr, "  %s(%d)\n", name, i);
}

/* A brute force of take-and-break codes that leave at most two heaps (no constraints):
 * bit 0 takes the whole heap, bit 1 leaves one heap, bit 2 two nonempty heaps. */
static void octal_brute(const char *code, int N, int64_t *out) {
    int digits[16] = { 0 }, nd = 1;            /* place 0 is before the point */
    const char *dot = strchr(code, '.');
    for (const char *p = dot + 1; *p; p++) digits[nd++] = *p - '0';
    digits[0] = dot == code ? 0 : code[0] - '0';
    int64_t *xs = malloc((size_t)(4 * N + 8) * sizeof *xs);
    for (int n = 0; n <= N; n++) {
        int nx = 0;
        for (int k = 0; k < nd && k <= n; k++) {
            int d = digits[k], r = n - k;
            if ((d & 1) && r == 0) xs[nx++] = 0;
            if ((d & 2) && r >= 1 && k >= 1) xs[nx++] = out[r];
            if (d & 4)
                for (int a = 1; 2 * a <= r; a++) xs[nx++] = out[a] ^ out[r - a];
        }
        out[n] = mex_small(xs, nx);
    }
    free(xs);
}

/* sg(n + p) == sg(n) for all n >= e within the range, e least for p, and no smaller period
 * holds over the second half of the range. */
static void check_period(const char *code, const int64_t *v, int N, int p, int e) {
    int ok = 1;
    for (int n = e; n + p <= N; n++) ok &= v[n + p] == v[n];
    if (!CHECK(ok)) fprintf(stderr, "  %s: sg(n + %d) != sg(n) for some n >= %d\n", code, p, e);
    if (e > 0 && !CHECK(v[e - 1 + p] != v[e - 1])) fprintf(stderr, "  %s: preperiod is below %d\n", code, e);
    for (int q = 1; q < p; q++) {
        int holds = 1;
        for (int n = N / 2; n + q <= N; n++) holds &= v[n + q] == v[n];
        if (!CHECK(!holds)) fprintf(stderr, "  %s: period %d also holds\n", code, q);
    }
}

typedef struct ref_job { int done; } ref_job;

static void heaps_body(gf *f, void *arg) {
    ref_job *j = arg;
    gr_ctx *c = &f->c;
    check_prefix(f, "kayles", KAYLES, 41);
    check_prefix(f, "chess137", DAWSON_CHESS, 41);
    check_prefix(f, "grundys", GRUNDYS, 41);
    check_prefix(f, "s134", S134, 41);
    check_prefix(f, "dawson", DAWSON_KAYLES, 42);

    /* subtract {1, 3, 4}: period 7 from 0, to 1000 */
    gr_game *s134 = gf_game(f, "s134");
    static const int P7[] = { 0, 1, 0, 1, 2, 3, 2 };
    int bad = 0;
    for (int n = 0; n <= 1000; n++) bad += gr_heap_sg(c, s134, n) != P7[n % 7];
    CHECK_EQ(bad, 0);

    /* Dawson's Kayles is Dawson's chess shifted by one heap */
    gr_game *dk = gf_game(f, "dawson"), *dc = gf_game(f, "chess137");
    CHECK_EQ(gr_heap_sg(c, dk, 0), 0);
    bad = 0;
    for (int n = 0; n <= 3000; n++) bad += gr_heap_sg(c, dk, n + 1) != gr_heap_sg(c, dc, n);
    CHECK_EQ(bad, 0);
    for (int n = 0; n + 1 < 42; n++) CHECK_EQ(DAWSON_KAYLES[n + 1], DAWSON_CHESS[n]);

    /* periods of octal games, over heaps 0..3000, with the values checked by brute force */
    for (size_t i = 0; i < sizeof PERIODS / sizeof *PERIODS; i++) {
        const char *code = PERIODS[i].code;
        const char *name = !strcmp(code, "0.77") ? "kayles" : !strcmp(code, "0.07") ? "dawson" : !strcmp(code, "0.137") ? "chess137"
                         : !strcmp(code, "0.15") ? "guiles" : !strcmp(code, "0.51") ? "o51" : !strcmp(code, "0.52") ? "o52" : "o53";
        gr_game *g = gf_game(f, name);
        enum { N = 3000 };
        int64_t *v = malloc((N + 1) * sizeof *v), *b = malloc((N + 1) * sizeof *b);
        CHECK_EQ(gr_heap_ensure(c, g, N), 0);
        for (int n = 0; n <= N; n++) v[n] = gr_heap_sg(c, g, n);
        octal_brute(code, 600, b);
        bad = 0;
        for (int n = 0; n <= 600; n++) bad += v[n] != b[n];
        if (!CHECK_EQ(bad, 0)) fprintf(stderr, "  %s differs from the brute force\n", code);
        check_period(code, v, N, PERIODS[i].period, PERIODS[i].preperiod);
        free(v);
        free(b);
    }

    /* Lasker's Nim: sg(4k+1) = 4k+1, sg(4k+2) = 4k+2, sg(4k+3) = 4k+4, sg(4k+4) = 4k+3 */
    gr_game *lasker = gf_game(f, "lasker");
    CHECK_EQ(gr_heap_sg(c, lasker, 0), 0);
    bad = 0;
    for (int64_t n = 1; n <= 1000; n++) {
        int64_t want = n % 4 == 3 ? n + 1 : n % 4 == 0 ? n - 1 : n;
        if (gr_heap_sg(c, lasker, n) != want && !bad++) CHECK_EQ(gr_heap_sg(c, lasker, n), want);
    }
    CHECK_EQ(bad, 0);

    /* split Nim: sg(3) = 4, and a brute force to 40 */
    gr_game *split = gf_game(f, "splitnim");
    CHECK_EQ(gr_heap_sg(c, split, 3), 4);
    int64_t sn[41], xs[41 * 41];
    for (int x = 0; x <= 40; x++) {
        int nx = 0;
        for (int a = 0; a < x; a++)
            for (int b2 = a; b2 < x; b2++) xs[nx++] = sn[a] ^ sn[b2];
        sn[x] = mex_small(xs, nx);
        CHECK_EQ(gr_heap_sg(c, split, x), sn[x]);
    }
    CHECK_EQ(sn[3], 4);

    /* bash[3]: sg(n) = n % 4; odd: n % 2; nim: n; fibsub: a brute force */
    gr_game *bash = gf_game(f, "bash[3]"), *odd = gf_game(f, "odd"), *nim = gf_game(f, "nim"), *fib = gf_game(f, "fibsub");
    if (CHECK(bash != NULL))
        for (int n = 0; n <= 100; n++) CHECK_EQ(gr_heap_sg(c, bash, n), n % 4);
    int64_t fs[64];
    int nf = 0;
    for (int64_t a = 1, b2 = 2; a <= 500; nf++) { fs[nf] = a; int64_t t = a + b2; a = b2; b2 = t; }
    int64_t fv[501];
    for (int n = 0; n <= 500; n++) {
        int nx = 0;
        for (int i = 0; i < nf && fs[i] <= n; i++) xs[nx++] = fv[n - fs[i]];
        fv[n] = mex_small(xs, nx);
        CHECK_EQ(gr_heap_sg(c, odd, n), n % 2);
        CHECK_EQ(gr_heap_sg(c, nim, n), n);
        CHECK_EQ(gr_heap_sg(c, fib, n), fv[n]);
    }
    j->done = 1;
}

/* ---- tuple games ---------------------------------------------------------------------- */

static void tuples_body(gf *f, void *arg) {
    ref_job *j = arg;
    gr_ctx *c = &f->c;
    gr_loc nowhere = { 0, 0 };

    /* Wythoff: sg == 0 exactly at (a_k, a_k + k) and its mirror, a_k = floor(k phi)
     * = floor((k + sqrt(5 k^2)) / 2) = (k + isqrt(5 k^2)) / 2 (sqrt(5) k is irrational) */
    gr_game *w = gf_game(f, "wythoff");
    int64_t W = WYTHOFF_MAX;
    const char *env = getenv("GRUNDY_WYTHOFF_MAX");
    if (env && atoll(env) > 0) W = atoll(env);
    unsigned char *isp = calloc((size_t)(W + 1) * (W + 1), 1);
    for (int64_t k = 0;; k++) {
        int64_t a = (k + isqrt64(5 * k * k)) / 2, b = a + k;
        if (a > W) break;
        if (b <= W) { isp[a * (W + 1) + b] = 1; isp[b * (W + 1) + a] = 1; }
    }
    /* the first P-positions of the reference file */
    static const int64_t known[][2] = { { 0, 0 }, { 1, 2 }, { 3, 5 }, { 4, 7 }, { 6, 10 }, { 8, 13 }, { 9, 15 }, { 11, 18 }, { 12, 20 } };
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (known[i][1] <= W) CHECK(isp[known[i][0] * (W + 1) + known[i][1]]);
    int64_t top[2] = { W, W };
    CHECK(gr_tuple_sg(c, w, top, nowhere) > 0);
    int bad = 0, np = 0;
    for (int64_t a = 0; a <= W; a++)
        for (int64_t b = 0; b <= W; b++) {
            int64_t pos[2] = { a, b };
            int zero = gr_tuple_sg(c, w, pos, nowhere) == 0;
            np += zero;
            if (zero != isp[a * (W + 1) + b] && !bad++) {
                CHECK_EQ(zero, isp[a * (W + 1) + b]);
                fprintf(stderr, "  wythoff(%lld, %lld)\n", (long long)a, (long long)b);
            }
        }
    CHECK_EQ(bad, 0);
    int np_want = 0;
    for (int64_t i = 0; i < (W + 1) * (W + 1); i++) np_want += isp[i];
    CHECK_EQ(np, np_want);
    free(isp);
    /* the line kernel: the box 0..1000 from (0, 0) in one fill; the same P-positions, and the
     * same values as the table recurrence where both are known */
    int64_t L = WYTHOFF_LINES;
    if (W > L) L = W;
    if (CHECK(gr_lines_recognise(w, NULL, 0))) {
        int64_t *box = malloc((size_t)(L + 1) * (size_t)(L + 1) * sizeof *box);
        gr_lines_fill(c, w, L + 1, L + 1, box);
        unsigned char *isp2 = calloc((size_t)(L + 1) * (L + 1), 1);
        for (int64_t k = 0;; k++) {
            int64_t a = (k + isqrt64(5 * k * k)) / 2, b = a + k;
            if (a > L) break;
            if (b <= L) { isp2[a * (L + 1) + b] = 1; isp2[b * (L + 1) + a] = 1; }
        }
        int64_t lbad = 0, vbad = 0, nzero = 0;
        for (int64_t a = 0; a <= L; a++)
            for (int64_t b = 0; b <= L; b++) {
                int64_t v = box[a * (L + 1) + b];
                nzero += v == 0;
                if ((v == 0) != isp2[a * (L + 1) + b] && !lbad++)
                    fprintf(stderr, "  wythoff lines (%lld, %lld) = %lld\n", (long long)a, (long long)b, (long long)v);
                if (a <= W && b <= W) {
                    int64_t pos[2] = { a, b };
                    if (gr_tuple_sg(c, w, pos, nowhere) != v && !vbad++)
                        fprintf(stderr, "  wythoff lines (%lld, %lld) = %lld, table recurrence %lld\n", (long long)a, (long long)b,
                                (long long)v, (long long)gr_tuple_sg(c, w, pos, nowhere));
                }
            }
        CHECK_EQ(lbad, 0);
        CHECK_EQ(vbad, 0);
        /* 2 per k >= 1 with b_k <= L, plus (0, 0) */
        int64_t pairs = 0;
        for (int64_t k = 1; (k + isqrt64(5 * k * k)) / 2 + k <= L; k++) pairs++;
        CHECK_EQ(nzero, 2 * pairs + 1);
        free(box);
        free(isp2);
    }
    /* and the values themselves by a brute force, on a smaller square */
    enum { WB = 60 };
    static int64_t wv[WB + 1][WB + 1];
    int64_t xs[3 * WB + 3];
    for (int a = 0; a <= WB; a++)
        for (int b = 0; b <= WB; b++) {
            int nx = 0;
            for (int k = 1; k <= a; k++) xs[nx++] = wv[a - k][b];
            for (int k = 1; k <= b; k++) xs[nx++] = wv[a][b - k];
            for (int k = 1; k <= a && k <= b; k++) xs[nx++] = wv[a - k][b - k];
            wv[a][b] = mex_small(xs, nx);
            int64_t pos[2] = { a, b };
            CHECK_EQ(gr_tuple_sg(c, w, pos, nowhere), wv[a][b]);
        }

    /* E&D: sg(x, y) = ctz(~((x - 1) | (y - 1))) */
    gr_game *ed = gf_game(f, "ed");
    for (int64_t x = 1; x <= 64; x++)
        for (int64_t y = 1; y <= 64; y++) {
            int64_t pos[2] = { x, y };
            if (!CHECK_EQ(gr_tuple_sg(c, ed, pos, nowhere), __builtin_ctzll(~(uint64_t)((x - 1) | (y - 1)))))
                fprintf(stderr, "  ed(%lld, %lld)\n", (long long)x, (long long)y);
        }

    /* the corner game: a brute force over the board, last row first */
    static const int sizes[][2] = { { 1, 1 }, { 5, 7 }, { 8, 8 }, { 12, 3 }, { 3, 12 }, { 1, 9 }, { 30, 25 } };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        int rows = sizes[i][0], cols = sizes[i][1];
        char name[64];
        snprintf(name, sizeof name, "corner[%d, %d]", rows, cols);
        gr_game *g = gf_game(f, name);
        if (!CHECK(g != NULL)) { fprintf(stderr, "  no game %s\n", name); continue; }
        static int64_t v[32][32];
        for (int r = rows; r >= 1; r--)
            for (int col = 1; col <= cols; col++) {
                int64_t o[3];
                int no = 0;
                if (col > 1) o[no++] = v[r][col - 1];
                if (r < rows) o[no++] = v[r + 1][col];
                if (r < rows && col > 1) o[no++] = v[r + 1][col - 1];
                v[r][col] = mex_small(o, no);
            }
        bad = 0;
        for (int r = 1; r <= rows; r++)
            for (int col = 1; col <= cols; col++) {
                int64_t pos[2] = { r, col };
                if (gr_tuple_sg(c, g, pos, nowhere) != v[r][col] && !bad++)
                    fprintf(stderr, "  %s(%d, %d): %lld, want %lld\n", name, r, col,
                            (long long)gr_tuple_sg(c, g, pos, nowhere), (long long)v[r][col]);
            }
        CHECK_EQ(bad, 0);
    }
    j->done = 1;
}

/* A position outside the 'where' is an error, not a value. */
typedef struct outside_job { gr_game *g; } outside_job;
static void outside_body(gf *f, void *arg) {
    outside_job *j = arg;
    int64_t pos[2] = { 0, 3 };
    (void)gr_tuple_sg(&f->c, j->g, pos, (gr_loc){ 0, 0 });
}

/* ---- the contract's graph examples and sums ------------------------------------------- */

static int vertex(const gr_game *g, const char *name) {
    for (int i = 0; i < g->nvertices; i++)
        if (strcmp(g->vertices[i], name) == 0) return i;
    return -1;
}

static gr_outcome outcome_of(gf *f, gr_conv conv, const gr_comp *comps, int n) {
    gr_sumgraph *s = gr_sumgraph_new(&f->c, &f->mod, conv);
    gr_sumgraph_add(s, comps, n);
    gr_sumgraph_solve(s);
    gr_outcome o = gr_pg_outcome(gr_sumgraph_pg(s), gr_sumgraph_id(s, comps, n));
    gr_sumgraph_free(s);
    return o;
}

static void contract_body(gf *f, void *arg) {
    ref_job *j = arg;
    gr_game *loop = gf_game(f, "loop"), *g = gf_game(f, "g"), *nim = gf_game(f, "nim"), *kayles = gf_game(f, "kayles");
    /* table loop(x, y, z, w) outcome: D D N P */
    static const char *names[] = { "x", "y", "z", "w" };
    static const gr_outcome want[] = { GR_DRAW, GR_DRAW, GR_WIN, GR_LOSS };
    for (int i = 0; i < 4; i++) {
        gr_comp k = gf_comp(loop, vertex(loop, names[i]), 0);
        CHECK(k.c[0] >= 0);
        CHECK_EQ(outcome_of(f, CONV_NORMAL, &k, 1), want[i]);
    }
    /* solve anyleaf g.b + g.c: P */
    gr_comp bc[2] = { gf_comp(g, vertex(g, "b"), 0), gf_comp(g, vertex(g, "c"), 0) };
    CHECK_EQ(outcome_of(f, CONV_ANYLEAF, bc, 2), GR_LOSS);
    /* solve nim(3) + nim(5) + nim(6): P, 0; nim(3) + nim(5) + nim(7): N, 1 */
    gr_comp n356[3] = { gf_comp(nim, 3, 0), gf_comp(nim, 5, 0), gf_comp(nim, 6, 0) };
    int64_t sg = -1, vals[3];
    CHECK_EQ(gr_sum_sg_fast(&f->c, n356, 3, &sg, vals), 1);
    CHECK_EQ(sg, 0);
    CHECK_EQ(outcome_of(f, CONV_NORMAL, n356, 3), GR_LOSS);
    n356[2].c[0] = 7;
    CHECK_EQ(gr_sum_sg_fast(&f->c, n356, 3, &sg, vals), 1);
    CHECK_EQ(sg, 1);
    /* solve misere nim(1) + nim(1) + nim(2): N */
    gr_comp m112[3] = { gf_comp(nim, 1, 0), gf_comp(nim, 1, 0), gf_comp(nim, 2, 0) };
    CHECK_EQ(outcome_of(f, CONV_MISERE, m112, 3), GR_WIN);
    /* solve every kayles(3) + kayles(5): N */
    gr_comp k35[2] = { gf_comp(kayles, 3, 0), gf_comp(kayles, 5, 0) };
    CHECK_EQ(outcome_of(f, CONV_EVERY, k35, 2), GR_WIN);
    j->done = 1;
}

/* ---- misere Kayles ------------------------------------------------------------------------ */

typedef struct mk { gf_memo memo; } mk;

/* Outcome for the mover of a multiset of Kayles heaps under misere play: 1 win, 0 loss. */
static int mk_win(mk *m, const uint8_t *heaps, int n) {
    int *hit = gf_memo_get(&m->memo, heaps, (size_t)n);
    if (hit) return *hit;
    int win = 0, any = 0;
    uint8_t child[64];
    for (int i = 0; i < n && !win; i++) {
        if (i > 0 && heaps[i] == heaps[i - 1]) continue;
        int h = heaps[i];
        for (int k = 1; k <= 2 && k <= h && !win; k++) {
            int r = h - k;
            for (int a = 0; 2 * a <= r && !win; a++) {    /* leave a and r - a (0 means none) */
                any = 1;
                int nc = 0;
                for (int t = 0; t < n; t++) if (t != i) child[nc++] = heaps[t];
                if (a) child[nc++] = (uint8_t)a;
                if (r - a) child[nc++] = (uint8_t)(r - a);
                /* insertion sort: keys are sorted multisets */
                for (int x = 1; x < nc; x++)
                    for (int y = x; y > 0 && child[y - 1] > child[y]; y--) { uint8_t t = child[y]; child[y] = child[y - 1]; child[y - 1] = t; }
                if (!mk_win(m, child, nc)) win = 1;
            }
        }
    }
    if (!any) win = 1;          /* no move: under misere play the mover wins */
    gf_memo_put(&m->memo, heaps, (size_t)n, win);
    return win;
}

static void misere_body(gf *f, void *arg) {
    ref_job *j = arg;
    gr_game *kayles = gf_game(f, "kayles");
    gr_sumgraph *s = gr_sumgraph_new(&f->c, &f->mod, CONV_MISERE);
    for (int n = 0; n <= 40; n++) {
        gr_comp k = gf_comp(kayles, n, 0);
        gr_sumgraph_add(s, &k, 1);
    }
    gr_sumgraph_solve(s);
    mk m = { { 0 } };
    int ps = 0;
    for (int n = 0; n <= 40; n++) {
        gr_comp k = gf_comp(kayles, n, 0);
        uint8_t h = (uint8_t)n;
        int win = mk_win(&m, &h, n ? 1 : 0);
        ps += !win;
        if (!CHECK_EQ(gr_pg_outcome(gr_sumgraph_pg(s), gr_sumgraph_id(s, &k, 1)), win ? GR_WIN : GR_LOSS))
            fprintf(stderr, "  misere kayles(%d)\n", n);
    }
    /* misere Kayles is not normal Kayles: some single heap differs (heap 1 is P misere, N normal) */
    CHECK(ps > 0);
    gr_comp one = gf_comp(kayles, 1, 0);
    CHECK_EQ(gr_pg_outcome(gr_sumgraph_pg(s), gr_sumgraph_id(s, &one, 1)), GR_LOSS);
    gf_memo_free(&m.memo);
    gr_sumgraph_free(s);
    j->done = 1;
}

/* ---- the prelude: the classic games by name, with no definition in the program ---------- */
static const char PRELUDE_USE[] =
    "table nim(0..1); table kayles(0..1); table dawson(0..1); table dawsonchess(0..1);\n"
    "table treblecross(0..1); table grundygame(0..1); table lasker(0..1); table wythoff(0..1, 0..1);\n"
    "table ed(1..2, 1..2); table bash[3](0..1); table fibonacci(0..1); solve kayles(4) + *3;\n";

static void prelude_body(gf *f, void *arg) {
    ref_job *j = arg;
    gr_ctx *c = &f->c;
    gr_loc nowhere = { 0, 0 };
    check_prefix(f, "kayles", KAYLES, 41);            /* ../shared/reference/sequences.tsv */
    check_prefix(f, "dawsonchess", DAWSON_CHESS, 41);
    check_prefix(f, "grundygame", GRUNDYS, 41);
    check_prefix(f, "dawson", DAWSON_KAYLES, 42);
    enum { N = 600 };
    int64_t v[N + 1];
    static const struct { const char *name, *code; int period, preperiod; } OCT[] = {
        { "kayles", "0.77", 12, 71 }, { "dawson", "0.07", 34, 53 }, { "dawsonchess", "0.137", 34, 52 }, { "treblecross", "0.007", 0, 0 } };
    for (size_t i = 0; i < sizeof OCT / sizeof *OCT; i++) {   /* the octal-periods.tsv rows, and a brute force */
        gr_game *g = gf_game(f, OCT[i].name);
        if (!CHECK(g != NULL)) continue;
        octal_brute(OCT[i].code, N, v);
        int bad = 0;
        for (int n = 0; n <= N; n++) bad += gr_heap_sg(c, g, n) != v[n];
        if (!CHECK_EQ(bad, 0)) fprintf(stderr, "  prelude %s\n", OCT[i].name);
        if (OCT[i].period) check_period(OCT[i].code, v, N, OCT[i].period, OCT[i].preperiod);
    }
    gr_game *nim = gf_game(f, "nim"), *star = gf_game(f, "*"), *bash = gf_game(f, "bash[3]"), *lasker = gf_game(f, "lasker");
    gr_game *fib = gf_game(f, "fibonacci"), *w = gf_game(f, "wythoff"), *ed = gf_game(f, "ed");
    if (!CHECK(nim && star && bash && lasker && fib && w && ed)) return;
    int bad = 0;
    for (int n = 0; n <= N; n++) {
        bad += gr_heap_sg(c, nim, n) != n;
        bad += gr_heap_sg(c, star, n) != n;
        bad += gr_heap_sg(c, bash, n) != n % 4;
        int64_t want = n == 0 ? 0 : n % 4 == 3 ? n + 1 : n % 4 == 0 ? n - 1 : n;   /* Lasker's Nim */
        bad += gr_heap_sg(c, lasker, n) != want;
    }
    /* the Fibonacci subtraction game by brute force: take 1, 2, 3, 5, 8, ... */
    int64_t fv[N + 1];
    for (int n = 0; n <= N; n++) {
        int64_t xs[32];
        int nx = 0;
        for (int64_t a = 1, b = 2; a <= n; ) { xs[nx++] = fv[n - a]; int64_t t = a + b; a = b; b = t; }
        fv[n] = mex_small(xs, nx);
        bad += gr_heap_sg(c, fib, n) != fv[n];
    }
    CHECK_EQ(bad, 0);
    /* Wythoff's first P-positions (sequences.tsv) and E&D's closed form */
    static const int64_t known[][2] = { { 0, 0 }, { 1, 2 }, { 3, 5 }, { 4, 7 }, { 6, 10 }, { 8, 13 }, { 9, 15 }, { 11, 18 }, { 12, 20 } };
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        int64_t a[2] = { known[i][0], known[i][1] }, b[2] = { known[i][1], known[i][0] };
        CHECK_EQ(gr_tuple_sg(c, w, a, nowhere), 0);
        CHECK_EQ(gr_tuple_sg(c, w, b, nowhere), 0);
    }
    int np = 0;
    for (int64_t x = 0; x <= 20; x++)
        for (int64_t y = 0; y <= 20; y++) { int64_t p[2] = { x, y }; np += gr_tuple_sg(c, w, p, nowhere) == 0; }
    CHECK_EQ(np, 17);   /* (0,0) and the 8 pairs above with their mirrors */
    bad = 0;
    for (int64_t x = 1; x <= 40; x++)
        for (int64_t y = 1; y <= 40; y++) {
            int64_t p[2] = { x, y };
            bad += gr_tuple_sg(c, ed, p, nowhere) != __builtin_ctzll(~(uint64_t)((x - 1) | (y - 1)));
        }
    CHECK_EQ(bad, 0);
    j->done = 1;
}

/* A program's own game shadows the prelude's: here 'kayles' is Nim. */
static void check_shadowing(void) {
    gf f;
    if (!CHECK(gf_open(&f, "game kayles = subtract 1..;\ntable kayles(0..3);\n"))) { gf_close(&f); return; }
    gr_game *k = gf_game(&f, "kayles");
    if (CHECK(k != NULL)) CHECK_EQ(gr_heap_sg(&f.c, k, 4), 4);   /* Kayles has 1 there */
    CHECK(gf_game(&f, "nim") == NULL);                           /* prelude games not named are not added */
    gf_close(&f);
}

int main(void) {
    gf f;
    {
        gf p;
        ref_job pj = { 0 };
        if (CHECK(gf_open(&p, PRELUDE_USE)) && !gf_run(&p, prelude_body, &pj)) gf_report_failure(&p, "prelude");
        CHECK(pj.done);
        gf_close(&p);
        check_shadowing();
    }
    if (!CHECK(gf_open(&f, CONTRACT))) {
        gf_close(&f);
        return t_finish("unit_reference");
    }
    ref_job heaps = { 0 }, tuples = { 0 }, contract = { 0 }, misere = { 0 };
    if (!gf_run(&f, heaps_body, &heaps)) gf_report_failure(&f, "heap sequences");
    if (!gf_run(&f, tuples_body, &tuples)) gf_report_failure(&f, "tuple games");
    if (!gf_run(&f, contract_body, &contract)) gf_report_failure(&f, "contract examples");
    if (!gf_run(&f, misere_body, &misere)) gf_report_failure(&f, "misere kayles");
    CHECK(heaps.done && tuples.done && contract.done && misere.done);
    outside_job o = { gf_game(&f, "ed") };
    CHECK(!gf_run(&f, outside_body, &o));
    CHECK_EQ(f.c.fail_status, GR_EXIT_INPUT);
    CHECK(strstr(f.c.fail_msg, "not a position") != NULL);
    gf_close(&f);
    return t_finish("unit_reference");
}
