/* unit_detect: tests of the linear-time period detector (src/period/detect.c). For every
 * candidate period p its saltus and least preperiod are compared with a naive rescan (every
 * preperiod tried from 0 upwards) and with the incremental tracker (tracker.h), on random
 * sequences with planted periods, preperiods and saltus at every table width (1, 2, 4, 8
 * bytes), on random aperiodic ones, and on the values of random octal codes computed here by
 * a tiny brute force; the research columns are compared with a direct count. */
#include <stdlib.h>
#include <string.h>
#include "detect.h"
#include "period.h"
#include "eval/heap/sgtable.h"
#include "testlib.h"
#include "tracker.h"

/* The detector over a heap table's array in place, at its width (as the heap kernels' proof
 * while filling scans it). */
static void scan_table(gr_detect *d, const gr_sgtable *t, int64_t n) {
    switch (t->width) {
    case 1: gr_detect_scan_u8(d, t->data, n); break;
    case 2: gr_detect_scan_u16(d, t->data, n); break;
    case 4: gr_detect_scan_u32(d, t->data, n); break;
    default: gr_detect_scan_i64(d, t->data, n); break;
    }
}

/* The table of v[0..n) at the given width (values must fit it). */
static gr_sgtable *table_of(gr_ctx *c, const int64_t *v, int64_t n, int width) {
    gr_sgtable *t = gr_sgt_new(c, width);
    for (int64_t i = 0; i < n; i++) gr_sgt_push(c, t, v[i]);
    return t;
}

static void free_table(gr_ctx *c, gr_sgtable *t) {
    gr_free(c, t->data);
    gr_free(c, t);
}

/* Every candidate of the detector over the first n values against the naive rescan and the
 * tracker (which has seen exactly those values). Returns the number of mismatches. */
static int compare(const gr_detect *d, const gr_period_tracker *tr, const int64_t *v, int64_t n) {
    int bad = 0;
    for (int64_t p = 1; p < n && !bad; p++) {
        int64_t s = v[n - 1] - v[n - 1 - p];
        bad += !CHECK_EQ(gr_detect_saltus(d, p), s);
        bad += !CHECK_EQ(gr_detect_start(d, p), t_naive_preperiod(v, n, p, s));
        if (tr && p <= gr_period_maxp(tr)) {
            bad += !CHECK_EQ(gr_detect_saltus(d, p), gr_period_saltus(tr, p));
            bad += !CHECK_EQ(gr_detect_start(d, p), gr_period_start(tr, p));
        }
    }
    return bad;
}

/* A random preperiod part of length e0, then a block of length p0 repeated, each repetition
 * raised by s0 (small alphabets: accidental agreements are common). */
static int64_t *planted(t_rng *r, int64_t n, int64_t e0, int64_t p0, int64_t s0, int64_t alphabet, int64_t base) {
    int64_t *v = malloc((size_t)n * sizeof *v);
    int64_t *block = malloc((size_t)p0 * sizeof *block);
    for (int64_t i = 0; i < p0; i++) block[i] = t_range(r, 0, alphabet - 1);
    for (int64_t i = 0; i < n; i++)
        v[i] = base + (i < e0 ? t_range(r, 0, alphabet - 1) : block[(i - e0) % p0] + s0 * ((i - e0) / p0));
    free(block);
    return v;
}

static void test_planted(void) {
    t_rng r = { t_seed(2026) };
    static const int widths[] = { 1, 2, 4, 8 };
    static const int64_t bases[] = { 0, 300, 70000, INT64_C(1) << 40 };
    int planted_found = 0;
    for (int iter = 0; iter < 400; iter++) {
        int wi = (int)t_range(&r, 0, 3);
        int64_t n = t_range(&r, 1, iter < 300 ? 80 : 400);
        int64_t e0 = t_range(&r, 0, n / 2), p0 = t_range(&r, 1, 15);
        int64_t s0 = t_range(&r, 0, 3) == 0 ? t_range(&r, 1, 4) : 0;
        if (wi == 0) s0 = 0;                      /* keep byte values below 256 */
        int64_t *v = planted(&r, n, e0, p0, s0, t_range(&r, 1, 4), bases[wi]);
        gr_ctx c;
        gr_ctx_init(&c, "unit_detect", "", 0);
        gr_sgtable *t = table_of(&c, v, n, widths[wi]);
        CHECK_EQ(t->width, widths[wi]);
        gr_period_tracker tr;
        gr_period_init(&tr, &c);
        gr_detect d;
        gr_detect_init(&d, &c);
        /* scans of growing prefixes, as the check's stages do, reusing the detector */
        for (int64_t m = 1; m <= n; m++) {
            gr_period_push(&tr, v[m - 1]);
            if (iter < 300 || m % 29 == 0 || m == n) {
                scan_table(&d, t, m);
                if (compare(&d, &tr, v, m)) { fprintf(stderr, "  iter %d, length %lld\n", iter, (long long)m); break; }
            }
        }
        /* the planted (p0, s0) is seen with its preperiod (at most e0) */
        if (n - e0 > p0) {
            CHECK_EQ(gr_detect_saltus(&d, p0), s0);
            planted_found += CHECK(gr_detect_start(&d, p0) <= e0);
        }
        gr_detect_free(&d);
        gr_period_free(&tr);
        free_table(&c, t);
        CHECK_EQ(c.store.mem_used, 0);
        gr_ctx_free(&c);
        free(v);
    }
    CHECK(planted_found >= 300);
}

/* A whole sequence in a byte table, scanned once and compared with the naive rescan. */
typedef struct scanned { gr_ctx c; gr_sgtable *t; gr_detect d; } scanned;

static void scan_whole(scanned *w, const int64_t *v, int64_t n) {
    gr_ctx_init(&w->c, "unit_detect", "", 0);
    w->t = table_of(&w->c, v, n, 1);
    gr_detect_init(&w->d, &w->c);
    scan_table(&w->d, w->t, n);
    compare(&w->d, NULL, v, n);
}

static void scanned_free(scanned *w) {
    gr_detect_free(&w->d);
    free_table(&w->c, w->t);
    gr_ctx_free(&w->c);
}

/* Random sequences over a few symbols, long ones: no planted structure at all. */
static void test_aperiodic(void) {
    t_rng r = { t_seed(99) };
    for (int iter = 0; iter < 20; iter++) {
        int64_t n = 1500;
        int64_t *v = malloc((size_t)n * sizeof *v);
        for (int64_t i = 0; i < n; i++) v[i] = t_range(&r, 0, iter % 2 ? 1 : 3);
        scanned w;
        scan_whole(&w, v, n);
        int fired = 0;
        for (int64_t p = 1; p <= n / 2; p++) fired += gr_period_plausible(n, p, gr_detect_start(&w.d, p));
        CHECK_EQ(fired, 0);
        scanned_free(&w);
        free(v);
    }
}

/* An octal code with at most two heaps after a move (digit j: bit 1 take all, bit 2 leave
 * one heap, bit 4 leave two nonempty heaps). */
static void octal_values(const int *dig, int ndig, int64_t n, int64_t *sg) {
    enum { CAP = 1024 };
    unsigned char seen[CAP];
    for (int64_t h = 0; h < n; h++) {
        memset(seen, 0, sizeof seen);
        for (int j = 1; j <= ndig && j <= h; j++) {
            int64_t rest = h - j;
            if ((dig[j - 1] & 1) && rest == 0) seen[0] = 1;
            if ((dig[j - 1] & 2) && rest >= 1) seen[sg[rest]] = 1;
            if (dig[j - 1] & 4)
                for (int64_t a = 1; a <= rest - a; a++) seen[sg[a] ^ sg[rest - a]] = 1;
        }
        int64_t m = 0;
        while (m < CAP && seen[m]) m++;
        sg[h] = m;
    }
}

/* Random codes: every candidate against the naive rescan; the Guy-Smith certificate (as check.c
 * applies it) must decide most of them, with the planted answer of the naive search. */
static void test_codes(void) {
    t_rng r = { t_seed(4711) };
    enum { N = 700 };
    int64_t *sg = malloc(N * sizeof *sg);
    int certified = 0;
    for (int iter = 0; iter < 60; iter++) {
        int dig[3], ndig = (int)t_range(&r, 1, 3);
        for (int j = 0; j < ndig; j++) dig[j] = (int)t_range(&r, j + 1 == ndig ? 1 : 0, 7);
        octal_values(dig, ndig, N, sg);
        scanned w;
        scan_whole(&w, sg, N);
        const gr_detect *d = &w.d;
        /* the least p whose run covers the window 2 max(e, 1) + p + t, plus p: by detector
         * and by the naive rescan */
        int64_t found = 0, naive = 0;
        for (int64_t p = 1; p < N && !found; p++) {
            int64_t e = gr_detect_start(d, p), e1 = e > 1 ? e : 1;
            if (gr_detect_saltus(d, p) == 0 && 2 * e1 + 2 * p + ndig <= N) found = p;
        }
        for (int64_t p = 1; p < N && !naive; p++) {
            if (sg[N - 1] != sg[N - 1 - p]) continue;
            int64_t e = t_naive_preperiod(sg, N, p, 0), e1 = e > 1 ? e : 1;
            if (2 * e1 + 2 * p + ndig <= N) naive = p;
        }
        CHECK_EQ(found, naive);
        certified += found != 0;
        scanned_free(&w);
    }
    CHECK(certified >= 40);
    free(sg);
}

/* The research columns: largest value, where first, and the rare heaps of a mask. */
static void test_columns(void) {
    static const int64_t v[] = { 0, 1, 2, 5, 3, 5, 4, 1, 6, 2 };
    gr_ctx c;
    gr_ctx_init(&c, "unit_detect", "", 0);
    gr_values t;
    gr_values_init(&t, &c);
    for (int i = 0; i < 10; i++) gr_values_push(&t, v[i]);
    gr_value_columns col = { 0 };
    gr_detect_columns(&t, 10, &col);
    CHECK_EQ(col.upto, 9);
    CHECK_EQ(col.largest, 6);
    CHECK_EQ(col.largest_at, 8);
    gr_detect_columns(&t, 8, &col);
    CHECK_EQ(col.largest, 5);
    CHECK_EQ(col.largest_at, 3);
    /* mask 0x4, common class 0: rare heaps with bit 2 set: 3, 5, 6, 8 (heap 0, value 0, not) */
    col = (gr_value_columns){ .has_rare = 1, .rare_mask = 4, .rare_common = 0 };
    gr_detect_columns(&t, 10, &col);
    CHECK_EQ(col.rare_count, 4);
    CHECK_EQ(col.last_rare, 8);
    /* with heap parity (odd heaps flip): every heap but 4 and 9 is rare, heap 0 counted as
     * the published tables count it */
    col = (gr_value_columns){ .has_rare = 1, .rare_mask = 1, .rare_heap_parity = 1, .rare_common = 1 };
    gr_detect_columns(&t, 10, &col);
    int64_t count = 0, last = -1;
    for (int64_t x = 0; x < 10; x++)
        if ((__builtin_parityll((uint64_t)v[x] & 1) ^ (int)(x & 1)) != 1) count++, last = x;
    CHECK_EQ(col.rare_count, count);
    CHECK_EQ(col.last_rare, last);
    CHECK_EQ(count, 8);
    CHECK_EQ(last, 8);
    gr_values_free(&t);
    CHECK_EQ(c.store.mem_used, 0);
    gr_ctx_free(&c);
}

/* Plain values as queries copy them: 16 bits while they fit, then 64 for good, the same
 * periods read off either way. */
static void test_values(void) {
    gr_ctx c;
    gr_ctx_init(&c, "unit_detect", "", 0);
    gr_values a, b;
    gr_values_init(&a, &c);
    gr_values_init(&b, &c);
    int64_t v[3000];
    for (int i = 0; i < 3000; i++) v[i] = (i * 7) % 13 + (i >= 2000 ? 70000 : 0);
    for (int i = 0; i < 3000; i++) gr_values_push(&a, v[i]);
    CHECK(a.v64 != NULL);
    for (int i = 0; i < 3000; i++) CHECK_EQ(gr_values_get(&a, i), v[i]);
    uint16_t *r16 = gr_values_room16(&b, 1500);   /* a caller's copy in one piece */
    for (int i = 0; i < 1500; i++) r16[i] = (uint16_t)v[i];
    b.n = 1500;
    gr_detect d;
    gr_detect_init(&d, &c);
    gr_detect_scan(&d, &b, 1500);
    CHECK_EQ(gr_detect_saltus(&d, 13), 0);
    CHECK_EQ(gr_detect_start(&d, 13), 0);
    gr_detect_scan(&d, &a, 1500);
    CHECK_EQ(gr_detect_start(&d, 13), 0);
    gr_detect_scan(&d, &a, 3000);
    CHECK_EQ(gr_detect_start(&d, 13), 2000);
    gr_detect_free(&d);
    gr_values_free(&a);
    gr_values_free(&b);
    CHECK_EQ(c.store.mem_used, 0);
    gr_ctx_free(&c);
}

/* The plain kernels' rare classes by the Walsh-Hadamard transform against every mask tried one
 * by one: the fewest heaps on the smaller side, on random value sequences (some with a planted
 * rare class: values whose bits 1 and 3 differ, at a few heaps). */
static void test_rare_classes(void) {
    gr_ctx c;
    gr_ctx_init(&c, "unit_detect", "", 0);
    t_rng r = { t_seed(4242) };
    int agree = 0, trials = 300, oriented = 0;
    for (int trial = 0; trial < trials; trial++) {
        gr_values t;
        gr_values_init(&t, &c);
        int64_t n = t_range(&r, 1, 400), top = t_range(&r, 1, 40);
        int planted = trial % 2;
        for (int64_t x = 0; x < n; x++) {
            int64_t v = t_range(&r, 0, top);
            if (planted) {   /* the common class: bit 1 == bit 3; one heap in 30 breaks it */
                v &= ~(int64_t)10;
                if (t_range(&r, 0, 1)) v |= 10;
                if (t_range(&r, 0, 29) == 0) v ^= 2;
            }
            gr_values_push(&t, v);
        }
        int64_t largest = 0;
        for (int64_t x = 0; x < n; x++) if (gr_values_get(&t, x) > largest) largest = gr_values_get(&t, x);
        int k = 0;
        while (((int64_t)1 << k) <= largest) k++;
        int64_t best = INT64_MAX;
        for (int64_t m = 1; m < ((int64_t)1 << (k + 1)); m++) {
            int64_t ones = 0;
            for (int64_t x = 0; x < n; x++) ones += __builtin_parityll((uint64_t)((gr_values_get(&t, x) | (x & 1) << k) & m));
            int64_t rare = ones < n - ones ? ones : n - ones;
            if (rare < best) best = rare;
        }
        gr_value_columns col = { 0 };
        int has = gr_detect_rare_classes(&c, &t, n, &col);
        gr_detect_columns(&t, n, &col);
        agree += has && col.rare_count == best;
        if (!has || col.rare_count != best)
            fprintf(stderr, "trial %d: %lld heaps, the transform's class %lld, the least by every mask %lld\n", trial, (long long)n,
                    (long long)col.rare_count, (long long)best);
        /* oriented as the rare-value kernel (kappa -1, 0, 1): every (mask, hp) in its order, the
         * common class 1 xor (hp and kappa), hp only with kappa >= 0; the first of the least */
        for (int kappa = -1; kappa <= 1; kappa++) {
            int64_t least = INT64_MAX, bmask = 0;
            int bhp = 0;
            for (int64_t mask = 1; mask < ((int64_t)1 << k); mask++)
                for (int hp = 0; hp < 2; hp++) {
                    if (hp && kappa < 0) continue;
                    int cc = 1 ^ (hp & kappa);
                    int64_t rare = 0;
                    for (int64_t x = 0; x < n; x++)
                        rare += (__builtin_parityll((uint64_t)(gr_values_get(&t, x) & mask)) ^ (hp & (int)(x & 1))) != cc;
                    if (rare < least) { least = rare; bmask = mask; bhp = hp; }
                }
            gr_value_columns oc = { 0 };
            int ohas = gr_detect_rare_classes_as(&c, &t, n, kappa, &oc);
            gr_detect_columns(&t, n, &oc);
            int ok = k == 0 ? !ohas
                            : ohas && oc.rare_count == least && (int64_t)oc.rare_mask == bmask && oc.rare_heap_parity == bhp;
            oriented += ok;
            if (!ok)
                fprintf(stderr, "trial %d kappa %d: transform mask %llx hp %d rare %lld, every mask: %llx hp %d rare %lld\n", trial,
                        kappa, (unsigned long long)oc.rare_mask, oc.rare_heap_parity, (long long)oc.rare_count,
                        (unsigned long long)bmask, bhp, (long long)least);
        }
        gr_values_free(&t);
    }
    printf("rare classes by the Walsh-Hadamard transform: %d of %d random sequences as every mask tried alone\n", agree, trials);
    CHECK_EQ(agree, trials);
    printf("oriented as the rare-value kernel: %d of %d (3 orientations each) as every mask tried alone\n", oriented, 3 * trials);
    CHECK_EQ(oriented, 3 * trials);
    CHECK_EQ(c.store.mem_used, 0);
    gr_ctx_free(&c);
}

int main(void) {
    test_rare_classes();
    test_planted();
    test_aperiodic();
    test_codes();
    test_columns();
    test_values();
    return t_finish("unit_detect");
}
