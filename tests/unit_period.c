/* unit_period: tests of the periodicity tracker (tests/tracker.h, once src/period/period.c)
 * and of the pure functions of src/period/period.h. The incremental tracker is
 * compared with a naive rescan (every candidate, every preperiod tried from 0 upwards) on many
 * random eventually periodic sequences, with and without saltus; the pure helpers on hand-made
 * cases; and known games, whose values are computed here by tiny independent brute forces:
 * the octal games of shared/reference/octal-periods.tsv (Kayles 0.77: p = 12, e = 71, ...),
 * the subtraction games {1, 3, 4} and {2, 3, 7}, and Lasker's Nim (arithmetic, saltus 4). */
#include <stdlib.h>
#include <string.h>
#include "period.h"
#include "tracker.h"
#include "window.h"
#include "testlib.h"

/* ---- naive references (testlib: t_agrees_from, t_naive_preperiod) ------------------------- */

/* Compares every candidate of the tracker with the naive rescan of its first n values, which
 * must be those of v. */
static void compare_with_naive(const gr_period_tracker *t, const int64_t *v) {
    int64_t n = t->n;
    for (int64_t i = 0; i < n; i++)
        if (!CHECK_EQ(gr_period_value(t, i), v[i])) return;
    CHECK_EQ(gr_period_maxp(t), n / 2);
    for (int64_t p = 1; p <= n / 2; p++) {
        int64_t s = v[n - 1] - v[n - 1 - p];
        if (!CHECK_EQ(gr_period_saltus(t, p), s)) return;
        if (!CHECK_EQ(gr_period_start(t, p), t_naive_preperiod(v, n, p, s))) return;
        CHECK_EQ(gr_period_preperiod(v, n, p, s), gr_period_start(t, p));
    }
}

/* The least plausible candidate of the tracker (0 if none), with its run start and saltus. */
static int64_t least_plausible(const gr_period_tracker *t, int64_t *e, int64_t *s) {
    for (int64_t p = 1; p <= gr_period_maxp(t); p++) {
        if (!gr_period_plausible(t->n, p, gr_period_start(t, p))) continue;
        *e = gr_period_start(t, p);
        *s = gr_period_saltus(t, p);
        return p;
    }
    return 0;
}

/* The least period and preperiod of an eventually periodic sequence that is known to repeat
 * with period p0 from e0 (within v[0..n), with n - e0 >= 2 p0): the least period divides p0 and
 * shares its preperiod, which is the preperiod of p0 itself. */
static void naive_least(const int64_t *v, int64_t n, int64_t p0, int64_t s0, int64_t *p, int64_t *e) {
    int64_t e0 = t_naive_preperiod(v, n, p0, s0);
    for (int64_t d = 1; d <= p0; d++) {
        if (p0 % d) continue;
        int64_t sd = s0 / (p0 / d);
        if (sd * (p0 / d) != s0) continue;
        if (t_agrees_from(v, n, d, sd, e0)) { *p = d; *e = e0; return; }
    }
    *p = p0;
    *e = e0;
}

/* ---- random eventually periodic sequences ----------------------------------------------- */

/* A random preperiod part of length e0, then a block of length p0 repeated, each repetition
 * raised by s0, all above base (values kept nonnegative). Small alphabets make accidental
 * agreements common, which is what stresses the run bookkeeping; a base near 2^31 makes the
 * tracker widen to 64 bits in the middle of the sequence. */
static int64_t *random_sequence(t_rng *r, int64_t n, int64_t e0, int64_t p0, int64_t s0, int64_t alphabet,
                                int64_t base) {
    int64_t *v = malloc((size_t)n * sizeof *v);
    int64_t *block = malloc((size_t)p0 * sizeof *block);
    for (int64_t i = 0; i < p0; i++) block[i] = t_range(r, 0, alphabet - 1) + 1000;
    for (int64_t i = 0; i < n; i++) {
        if (i < e0) v[i] = t_range(r, 0, alphabet - 1) + 1000 + base;
        else v[i] = block[(i - e0) % p0] + s0 * ((i - e0) / p0) + base;
    }
    free(block);
    return v;
}

static void test_random_against_naive(void) {
    t_rng r = { t_seed(20240601) };
    int crossed = 0;    /* sequences that widened to 64 bits on the way */
    for (int iter = 0; iter < 300; iter++) {
        int64_t n = t_range(&r, 1, iter < 200 ? 90 : 260);
        int64_t e0 = t_range(&r, 0, n / 2);
        int64_t p0 = t_range(&r, 1, 12);
        int64_t s0 = t_range(&r, 0, 3) == 0 ? t_range(&r, 1, 5) : 0;
        int64_t alphabet = t_range(&r, 1, 4);
        /* mostly 32-bit values; some wide from the start, some crossing 2^31 on the way */
        int64_t kind = t_range(&r, 0, 9);
        if (kind == 1 && s0 == 0) s0 = 7;
        int64_t *v = random_sequence(&r, n, e0, p0, s0, alphabet, kind == 0 ? INT64_C(1) << 40 : 0);
        if (kind == 1) {    /* shift so that the middle value is 2^31 */
            int64_t shift = (int64_t)INT32_MAX + 1 - v[n / 2];
            for (int64_t i = 0; i < n; i++) v[i] += shift;
            crossed += v[0] <= INT32_MAX && v[n - 1] > INT32_MAX;
        }
        gr_ctx c;
        gr_ctx_init(&c, "unit_period", "", 0);
        gr_period_tracker t;
        gr_period_init(&t, &c);
        for (int64_t i = 0; i < n; i++) {
            gr_period_push(&t, v[i]);
            /* every length for the short ones, a few checkpoints for the long ones */
            if (iter < 200 || i % 37 == 0 || i == n - 1) compare_with_naive(&t, v);
        }
        /* With enough repetitions the least plausible candidate is the least period. */
        int64_t pl, el;
        naive_least(v, n, p0, s0, &pl, &el);
        int64_t e = -1, s = 0, p = least_plausible(&t, &e, &s);
        if (gr_period_plausible(n, pl, el)) {
            CHECK_EQ(p, pl);
            CHECK_EQ(e, el);
            CHECK_EQ(s * p0, s0 * p);
        }
        if (p) CHECK(t_agrees_from(v, n, p, s, e));
        gr_period_free(&t);
        CHECK_EQ(c.store.mem_used, 0);
        gr_ctx_free(&c);
        free(v);
    }
    CHECK(crossed >= 10);
}

/* Completely random sequences over a few symbols: the tracker must still match the rescan,
 * and the plausibility rule should almost never fire on a long one. */
static void test_random_aperiodic(void) {
    t_rng r = { t_seed(77) };
    int fired = 0;
    for (int iter = 0; iter < 40; iter++) {
        int64_t n = 2000;
        gr_ctx c;
        gr_ctx_init(&c, "unit_period", "", 0);
        gr_period_tracker t;
        gr_period_init(&t, &c);
        int64_t *v = malloc((size_t)n * sizeof *v);
        for (int64_t i = 0; i < n; i++) gr_period_push(&t, v[i] = t_range(&r, 0, 3));
        compare_with_naive(&t, v);
        free(v);
        int64_t e = -1, s = 0;
        fired += least_plausible(&t, &e, &s) != 0;
        gr_period_free(&t);
        gr_ctx_free(&c);
    }
    CHECK_EQ(fired, 0);
}

/* ---- the pure helpers ------------------------------------------------------------------- */

static void test_pure(void) {
    const int64_t a[] = { 5, 0, 1, 2, 0, 1, 2, 0, 1 };     /* period 3 from 1 */
    CHECK_EQ(gr_period_preperiod(a, 9, 3, 0), 1);
    CHECK_EQ(gr_period_preperiod(a, 9, 6, 0), 1);
    CHECK_EQ(gr_period_preperiod(a, 9, 1, 0), 8);           /* no run at all: the empty tail */
    CHECK_EQ(gr_period_preperiod(a, 9, 9, 0), 0);           /* no pairs */
    CHECK_EQ(gr_period_preperiod(a, 9, 20, 0), 0);
    CHECK_EQ(gr_period_first_mismatch(a, 9, 3, 0, 0), 0);
    CHECK_EQ(gr_period_first_mismatch(a, 9, 3, 0, 1), -1);
    CHECK_EQ(gr_period_first_mismatch(a, 9, 2, 0, 0), 0);
    CHECK_EQ(gr_period_first_mismatch(a, 9, 2, 0, 1), 1);
    CHECK_EQ(gr_period_first_mismatch(a, 9, 3, 1, 1), 1);
    CHECK_EQ(gr_period_first_mismatch(a, 9, 3, 0, 100), -1);
    const int64_t b[] = { 0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11 };   /* Lasker's Nim */
    CHECK_EQ(gr_period_preperiod(b, 13, 4, 4), 1);
    CHECK_EQ(gr_period_first_mismatch(b, 13, 4, 4, 0), 0);
    CHECK_EQ(gr_period_first_mismatch(b, 13, 4, 4, 1), -1);

    CHECK(gr_period_plausible(100, 4, 1));
    CHECK(!gr_period_plausible(100, 4, 47));                /* does not cover the last half */
    CHECK(gr_period_plausible(100, 4, 46));
    CHECK(!gr_period_plausible(100, 34, 0));                /* fewer than two periods of pairs */
    CHECK(gr_period_plausible(102, 34, 0));
    CHECK(!gr_period_plausible(3, 1, 1));
    CHECK(gr_period_plausible(4, 1, 1));
    CHECK(!gr_period_plausible(10, 0, 0));
}

/* The tracker through its first values and a reset. */
static void test_small(void) {
    gr_ctx c;
    gr_ctx_init(&c, "unit_period", "", 0);
    gr_period_tracker t;
    gr_period_init(&t, &c);
    CHECK_EQ(gr_period_maxp(&t), 0);
    gr_period_push(&t, 7);
    CHECK_EQ(gr_period_maxp(&t), 0);
    gr_period_push(&t, 7);
    CHECK_EQ(gr_period_maxp(&t), 1);
    CHECK_EQ(gr_period_saltus(&t, 1), 0);
    CHECK_EQ(gr_period_start(&t, 1), 0);
    gr_period_push(&t, 8);
    CHECK_EQ(gr_period_saltus(&t, 1), 1);
    CHECK_EQ(gr_period_start(&t, 1), 1);
    gr_period_free(&t);
    CHECK_EQ(t.n, 0);
    for (int i = 0; i < 1000; i++) gr_period_push(&t, i % 7 == 3 ? 1 : 0);
    CHECK_EQ(gr_period_saltus(&t, 7), 0);
    CHECK_EQ(gr_period_start(&t, 7), 0);
    CHECK_EQ(gr_period_start(&t, 14), 0);
    CHECK(gr_period_start(&t, 5) > 900);
    gr_period_free(&t);
    gr_ctx_free(&c);
}

/* ---- known games by brute force --------------------------------------------------------- */

static int64_t mex_mark(unsigned char *seen, int64_t cap) {
    int64_t m = 0;
    while (m < cap && seen[m]) m++;
    return m;
}

/* An octal code with at most two heaps after a move: digit j (place j = tokens removed) has
 * bit 1 "remove the whole heap", bit 2 "leave one heap", bit 4 "leave two nonempty heaps". */
static void octal_values(const char *code, int64_t n, int64_t *sg) {
    const char *point = strchr(code, '.');
    int ndig = (int)strlen(point + 1);
    enum { CAP = 4096 };
    unsigned char seen[CAP];
    for (int64_t h = 0; h < n; h++) {
        memset(seen, 0, sizeof seen);
        for (int j = 1; j <= ndig && j <= h; j++) {
            int d = point[j] - '0';
            int64_t rest = h - j;
            if ((d & 1) && rest == 0) seen[0] = 1;
            if ((d & 2) && rest >= 1) seen[sg[rest]] = 1;
            if (d & 4)
                for (int64_t a = 1; a <= rest - a; a++) seen[sg[a] ^ sg[rest - a]] = 1;
        }
        sg[h] = mex_mark(seen, CAP);
    }
}

static void subtraction_values(const int64_t *set, int nset, int64_t n, int64_t *sg) {
    unsigned char seen[64];
    for (int64_t h = 0; h < n; h++) {
        memset(seen, 0, sizeof seen);
        for (int i = 0; i < nset; i++)
            if (set[i] <= h) seen[sg[h - set[i]]] = 1;
        sg[h] = mex_mark(seen, 64);
    }
}

/* The Guy-Smith certificate over the tracker, as check.c uses it for codes with at most two
 * heaps: the least p with saltus 0 whose run from e covers e <= n < 2 max(e, 1) + p + t. */
static int64_t guy_smith_least(const gr_period_tracker *t, int64_t last_place, int64_t *e) {
    for (int64_t p = 1; p <= gr_period_maxp(t); p++) {
        int64_t s = gr_period_start(t, p), e1 = s > 1 ? s : 1;
        if (gr_period_saltus(t, p) == 0 && 2 * e1 + p + last_place + p <= t->n) { *e = s; return p; }
    }
    return 0;
}

static void test_octal_reference(void) {
    static const struct { const char *code; int64_t p, e; } rows[] = {
        { "0.77", 12, 71 }, { "0.07", 34, 53 }, { "0.137", 34, 52 }, { "0.15", 10, 1 },
        { "0.51", 1, 1 }, { "0.52", 4, 4 }, { "0.53", 9, 11 },
    };
    static const int64_t kayles41[] = { 0,1,2,3,1,4,3,2,1,4,2,6,4,1,2,7,1,4,3,2,1,4,6,7,4,1,2,8,5,4,7,2,1,8,6,7,4,1,2,3,1 };
    static const int64_t dawson_chess41[] = { 0,1,1,2,0,3,1,1,0,3,3,2,2,4,0,5,2,2,3,3,0,1,1,3,0,2,1,1,0,4,5,2,7,4,0,1,1,2,0,3,1 };
    enum { N = 1200 };
    int64_t *sg = malloc(N * sizeof *sg);
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        octal_values(rows[k].code, N, sg);
        if (k == 0) for (int i = 0; i < 41; i++) CHECK_EQ(sg[i], kayles41[i]);
        if (k == 2) for (int i = 0; i < 41; i++) CHECK_EQ(sg[i], dawson_chess41[i]);
        int64_t t_place = (int64_t)strlen(strchr(rows[k].code, '.') + 1);
        gr_ctx c;
        gr_ctx_init(&c, "unit_period", "", 0);
        gr_period_tracker t;
        gr_period_init(&t, &c);
        int64_t found = 0, fe = -1, at = -1;
        for (int64_t i = 0; i < N; i++) {
            gr_period_push(&t, sg[i]);
            if (!found && (found = guy_smith_least(&t, t_place, &fe))) at = t.n;
        }
        if (!CHECK_EQ(found, rows[k].p)) fprintf(stderr, "  code %s\n", rows[k].code);
        CHECK_EQ(fe, rows[k].e);
        /* first certified exactly when the window 2e + p + t (plus p for the pairs) is in */
        int64_t e1 = rows[k].e > 1 ? rows[k].e : 1;
        CHECK_EQ(at, 2 * e1 + 2 * rows[k].p + t_place);
        int64_t e = -1, s = 0;
        CHECK_EQ(least_plausible(&t, &e, &s), rows[k].p);
        CHECK_EQ(e, rows[k].e);
        CHECK_EQ(s, 0);
        CHECK_EQ(gr_period_preperiod(sg, N, rows[k].p, 0), rows[k].e);
        /* Kayles: a false claim of period 12 from 16 fails somewhere before 71, and from 70 at 70 */
        if (k == 0) {
            int64_t i = gr_period_first_mismatch(sg, N, 12, 0, 16);
            CHECK(i >= 16 && i < 71);
            CHECK(sg[i + 12] != sg[i]);
            CHECK_EQ(gr_period_first_mismatch(sg, N, 12, 0, 71), -1);
            CHECK_EQ(gr_period_first_mismatch(sg, N, 12, 0, 70), 70);
        }
        gr_period_free(&t);
        gr_ctx_free(&c);
    }
    free(sg);
}

static void test_subtraction(void) {
    static const struct { int64_t set[3]; int64_t p, e; } games[] = {
        { { 1, 3, 4 }, 7, 0 }, { { 2, 3, 7 }, 5, 0 },
    };
    enum { N = 300 };
    int64_t sg[N];
    for (int k = 0; k < 2; k++) {
        subtraction_values(games[k].set, 3, N, sg);
        gr_ctx c;
        gr_ctx_init(&c, "unit_period", "", 0);
        gr_period_tracker t;
        gr_period_init(&t, &c);
        int64_t found = 0, fe = -1;
        for (int64_t i = 0; i < N && !found; i++) {
            gr_period_push(&t, sg[i]);
            /* the subtraction certificate: agreement on e <= n < e + max(S) */
            for (int64_t p = 1; p <= gr_period_maxp(&t) && !found; p++)
                if (gr_period_saltus(&t, p) == 0 && gr_period_start(&t, p) + games[k].set[2] + p <= t.n)
                    found = p, fe = gr_period_start(&t, p);
        }
        CHECK_EQ(found, games[k].p);
        CHECK_EQ(fe, games[k].e);
        gr_period_free(&t);
        gr_ctx_free(&c);
    }
    /* {1, 3, 4}: 0,1,0,1,2,3,2 repeated, as in shared/reference/sequences.tsv */
    const int64_t block[] = { 0, 1, 0, 1, 2, 3, 2 };
    subtraction_values(games[0].set, 3, N, sg);
    for (int i = 0; i < N; i++) CHECK_EQ(sg[i], block[i % 7]);
}

/* Lasker's Nim: take any number, or split a heap into two nonempty heaps. Arithmetic
 * periodic: sg(n + 4) = sg(n) + 4 from n = 1 (sg(0) = 0 but sg(4) = 3). */
static void test_lasker(void) {
    enum { N = 400 };
    int64_t *sg = malloc(N * sizeof *sg);
    unsigned char *seen = malloc(2 * N);
    for (int64_t h = 0; h < N; h++) {
        memset(seen, 0, 2 * N);
        for (int64_t k = 1; k <= h; k++) seen[sg[h - k]] = 1;
        for (int64_t a = 1; a <= h - a; a++) seen[sg[a] ^ sg[h - a]] = 1;
        sg[h] = mex_mark(seen, 2 * N);
    }
    gr_ctx c;
    gr_ctx_init(&c, "unit_period", "", 0);
    gr_period_tracker t;
    gr_period_init(&t, &c);
    for (int64_t i = 0; i < N; i++) gr_period_push(&t, sg[i]);
    compare_with_naive(&t, sg);
    int64_t e = -1, s = 0;
    CHECK_EQ(least_plausible(&t, &e, &s), 4);
    CHECK_EQ(e, 1);
    CHECK_EQ(s, 4);
    CHECK_EQ(gr_period_saltus(&t, 8), 8);
    CHECK_EQ(gr_period_start(&t, 8), 1);
    gr_period_free(&t);
    gr_ctx_free(&c);
    free(sg);
    free(seen);
}

/* The window theorems (period/window.h), which the table's proved periods and the check queries
 * share: gr_window_emax(p, n) is the largest e whose proof fits in n values, by brute force over
 * e, and gr_window_pmax(n) the largest p with one, by brute force over p, for random windows;
 * and absurd windows saturate instead of wrapping around. */
static void test_windows(void) {
    t_rng r = { t_seed(7) };
    for (int t = 0; t < 2000; t++) {
        gr_window w = { t % 2 ? GR_WINDOW_TB : GR_WINDOW_SUBTRACT, t_range(&r, 0, 20), t_range(&r, 0, 6), t_range(&r, 1, 4) };
        int64_t p = t_range(&r, 1, 30), n = t_range(&r, 0, 400), want = -1;
        for (int64_t e = 0; e <= n; e++)
            if (gr_window_need(&w, e, p) <= n) want = e;
        if (!CHECK_EQ(gr_window_emax(&w, p, n), want))
            printf("window kind %d m %lld t %lld k %lld, p %lld, n %lld\n", (int)w.kind, (long long)w.m, (long long)w.t,
                   (long long)w.k, (long long)p, (long long)n);
        CHECK_EQ(gr_window_need(&w, 0, p), gr_window_end(&w, 0, p) + p);
        /* gr_window_pmax: the largest p with some e (gr_proved_least stops there) */
        int64_t pmax = 0;
        for (int64_t q = 1; q <= n; q++)
            if (gr_window_emax(&w, q, n) >= 0) pmax = q;
        if (!CHECK_EQ(gr_window_pmax(&w, n), pmax))
            printf("window kind %d m %lld t %lld k %lld, n %lld: pmax\n", (int)w.kind, (long long)w.m, (long long)w.t,
                   (long long)w.k, (long long)n);
    }
    gr_window tb = { GR_WINDOW_TB, 0, 3, 3 }, sub = { GR_WINDOW_SUBTRACT, INT64_MAX / 2, 0, 0 };
    CHECK_EQ(gr_window_need(&tb, INT64_MAX / 2, 1), INT64_MAX);        /* 3 e overflows */
    CHECK_EQ(gr_window_need(&tb, 5, INT64_MAX / 3), INT64_MAX);        /* (k - 1) p + p overflows */
    CHECK_EQ(gr_window_need(&sub, INT64_MAX / 2, 2), INT64_MAX);       /* e + max(S) overflows */
    CHECK_EQ(gr_window_end(&tb, 0, 10), 3 * 1 + 2 * 10 + 3);           /* e' = max(e, 1) */
}

/* The walks over values read one at a time (check's least note): the walk back agrees with
 * gr_period_preperiod over the values up to e + p, and the least divisor is found. */
static int64_t read_array(const void *user, int64_t n) { return ((const int64_t *)user)[n]; }

static void test_value_fn(void) {
    t_rng r = { t_seed(11) };
    for (int iter = 0; iter < 500; iter++) {
        int64_t v[200], p0 = t_range(&r, 1, 12), e0 = t_range(&r, 0, 40), block[12];
        for (int i = 0; i < p0; i++) block[i] = t_range(&r, 0, 2);
        for (int i = 0; i < 200; i++) v[i] = i < e0 ? t_range(&r, 0, 2) : block[(i - e0) % p0];
        int64_t p = p0 * t_range(&r, 1, 3), e = t_range(&r, e0, 60);
        if (e + 2 * p > 200) continue;
        CHECK_EQ(gr_period_back(read_array, v, p, e), gr_period_preperiod(v, e + p, p, 0));
        int64_t el = gr_period_back(read_array, v, p, e), d = gr_period_least_divisor(read_array, v, p, el), want = p;
        for (int64_t k = 1; k < p && want == p; k++) {
            int ok = p % k == 0;
            for (int64_t n = el; ok && n < el + p; n++) ok = v[n + k] == v[n];
            if (ok) want = k;
        }
        CHECK_EQ(d, want);
        CHECK(p % d == 0);
    }
}

int main(void) {
    test_value_fn();
    test_windows();
    test_pure();
    test_small();
    test_random_against_naive();
    test_random_aperiodic();
    test_octal_reference();
    test_subtraction();
    test_lasker();
    return t_finish("unit_period");
}
