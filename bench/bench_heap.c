/* bench_heap: heaps per second of the heap-recurrence kernels, each beside a naive loop run in
 * the same program on the same machine (never an assertion about time).
 *
 *   subtract {1, 3, 4} to 10^8   library kernel (a compiled .game and gr_heap_ensure) beside a
 *                                loop that clears a small seen[] per heap, marks sg[n - s] and
 *                                scans for the mex (int64 table)
 *   Kayles "0.77"                beside a naive O(n^2) loop over every split
 *   Grundy's game "4!.0"         beside a naive O(n^2) loop over every unequal split
 *
 * The naive octal loops are quadratic, so by default they run to 3*10^4 (the ratio is taken
 * there, at equal N) and the library alone goes on to 10^5; --full runs them to 10^5 too.
 * Both sides' values are compared: "values agree", or the first difference and exit 1.
 *
 * --threads T adds the work the general kernel and 'check' split across threads (genpar.c,
 * check.c), each run with 1 thread and with T threads in this process, values compared:
 *   Lasker's Nim as a rule block to --rules-n (8000), the general take-and-break kernel on
 *   "0.8F" (moves leave three heaps) and "8!.0" (split into three unequal heaps) to --tb-n
 *   (1200), and two long checks: a claim over Lasker's Nim to twice --rules-n (its table filled
 *   on the way) and one over Kayles to --check-n (10^7; its period is proved, so only the claim
 *   is evaluated). On a loaded machine the speed-up is what the other jobs leave.
 *
 * usage: bench_heap [--full] [--subtract-n N] [--threads T] [--rules-n N] [--tb-n N] [--check-n N] */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ctx.h"
#include "eval/heap/heap.h"
#include "parse.h"
#include "sema.h"
#include "eval/heap/sgtable.h"
#include "check.h"
#include "benchlib.h"

/* ---- naive loops -------------------------------------------------------------------------- */
static void naive_subtract(const int64_t *s, int ns, int64_t n, int64_t *sg) {
    for (int64_t i = 0; i <= n; i++) {
        uint8_t seen[66];
        memset(seen, 0, (size_t)ns + 2);
        for (int j = 0; j < ns; j++)
            if (i >= s[j]) {
                int64_t v = sg[i - s[j]];
                if (v <= ns) seen[v] = 1;
            }
        int64_t m = 0;
        while (seen[m]) m++;
        sg[i] = m;
    }
}

/* The seen[] array covers every xor of values below the next power of two above the largest
 * value so far (the mex is at most that power). */
static int64_t pow2_above(int64_t v) {
    int64_t p = 1;
    while (p <= v) p <<= 1;
    return p;
}

static void naive_kayles(int64_t n, int64_t *sg) {
    int64_t maxv = 0;
    uint8_t *seen = NULL;
    int64_t cap = 0;
    for (int64_t i = 0; i <= n; i++) {
        int64_t lim = pow2_above(maxv);
        if (lim + 1 > cap) { cap = 2 * (lim + 1); free(seen); seen = xmalloc((size_t)cap); }
        memset(seen, 0, (size_t)lim + 1);
        for (int64_t r = 1; r <= 2 && r <= i; r++) {
            int64_t m = i - r;
            if (m == 0) { seen[0] = 1; continue; }
            seen[sg[m]] = 1;                                   /* one heap left */
            for (int64_t a = 1; a <= m / 2; a++) seen[sg[a] ^ sg[m - a]] = 1;   /* two heaps */
        }
        int64_t mex = 0;
        while (seen[mex]) mex++;
        sg[i] = mex;
        if (mex > maxv) maxv = mex;
    }
    free(seen);
}

static void naive_grundy(int64_t n, int64_t *sg) {
    int64_t maxv = 0;
    uint8_t *seen = NULL;
    int64_t cap = 0;
    for (int64_t i = 0; i <= n; i++) {
        int64_t lim = pow2_above(maxv);
        if (lim + 1 > cap) { cap = 2 * (lim + 1); free(seen); seen = xmalloc((size_t)cap); }
        memset(seen, 0, (size_t)lim + 1);
        for (int64_t a = 1; 2 * a < i; a++) seen[sg[a] ^ sg[i - a]] = 1;   /* unequal parts */
        int64_t mex = 0;
        while (seen[mex]) mex++;
        sg[i] = mex;
        if (mex > maxv) maxv = mex;
    }
    free(seen);
}

/* ---- the runs ----------------------------------------------------------------------------- */
static int disagree;

static void row(const char *game, int64_t n, double lib_rate, double naive_rate) {
    printf("%-24s %12lld %16.3e ", game, (long long)n, lib_rate);
    if (naive_rate > 0) printf("%16.3e %9.2fx\n", naive_rate, lib_rate / naive_rate);
    else printf("%16s %10s\n", "-", "-");
    fflush(stdout);
}

/* Times the library to n; returns heaps per second. */
static double lib_run(unit *u, gr_game *g, int64_t n) {
    double t0 = now();
    if (gr_heap_ensure(&u->c, g, n) < 0) { fprintf(stderr, "bench_heap: %s is not a recurrence\n", g->name); exit(2); }
    double t = now() - t0;
    return (double)(n + 1) / (t > 0 ? t : 1e-9);
}

static void compare(unit *u, gr_game *g, const int64_t *naive, int64_t n) {
    for (int64_t i = 0; i <= n; i++) {
        int64_t v = gr_heap_sg(&u->c, g, i);
        if (v != naive[i]) {
            printf("  %s: values DIFFER at heap %lld: grundy %lld, naive %lld\n", g->name, (long long)i,
                   (long long)v, (long long)naive[i]);
            disagree = 1;
            return;
        }
    }
    printf("  %s: values agree on heaps 0..%lld\n", g->name, (long long)n);
}

static void bench_subtract(int64_t n) {
    unit u;
    gr_game *g = compile(&u, "game s134 = subtract {1, 3, 4};", "s134");
    double lib = lib_run(&u, g, n);
    static const int64_t S[] = { 1, 3, 4 };
    int64_t *sg = xmalloc((size_t)(n + 1) * sizeof *sg);
    double t0 = now();
    naive_subtract(S, 3, n, sg);
    double t = now() - t0;
    double naive = (double)(n + 1) / (t > 0 ? t : 1e-9);
    row("subtract {1, 3, 4}", n, lib, naive);
    compare(&u, g, sg, n);
    free(sg);
    gr_ctx_free(&u.c);
}

static void bench_octal(const char *label, const char *src, const char *name, void (*naive_fn)(int64_t, int64_t *),
                        int64_t n_naive, int64_t n_lib) {
    /* equal N for the ratio: a fresh instance of the library each time */
    unit u;
    gr_game *g = compile(&u, src, name);
    double lib = lib_run(&u, g, n_naive);
    int64_t *sg = xmalloc((size_t)(n_naive + 1) * sizeof *sg);
    double t0 = now();
    naive_fn(n_naive, sg);
    double t = now() - t0;
    row(label, n_naive, lib, (double)(n_naive + 1) / (t > 0 ? t : 1e-9));
    compare(&u, g, sg, n_naive);
    free(sg);
    gr_ctx_free(&u.c);
    if (n_lib > n_naive) {
        gr_game *h = compile(&u, src, name);
        row(label, n_lib, lib_run(&u, h, n_lib), 0);
        gr_ctx_free(&u.c);
    }
}

/* ---- across threads ------------------------------------------------------------------------ */
static void threads_row(const char *label, int64_t n, double t1, double tn, int threads) {
    printf("%-36s %10lld %10.3f %10.3f %8.2fx  (%d threads)\n", label, (long long)n, t1, tn, t1 / (tn > 0 ? tn : 1e-9), threads);
    fflush(stdout);
}

/* Seconds to fill the table to n with `threads`; the values into v. */
static double fill_time(const char *src, const char *name, int64_t n, int threads, int64_t *v) {
    unit u;
    gr_game *g = compile(&u, src, name);
    u.c.threads = threads;
    double t0 = now();
    if (gr_heap_ensure(&u.c, g, n) < 0) { fprintf(stderr, "bench_heap: %s is not a recurrence\n", name); exit(2); }
    double t = now() - t0;
    for (int64_t i = 0; i <= n; i++) v[i] = gr_heap_value(g, i);
    gr_ctx_free(&u.c);
    return t;
}

static void bench_threads_fill(const char *label, const char *src, const char *name, int64_t n, int threads) {
    int64_t *a = xmalloc((size_t)(n + 1) * sizeof *a), *b = xmalloc((size_t)(n + 1) * sizeof *b);
    double t1 = fill_time(src, name, n, 1, a), tn = fill_time(src, name, n, threads, b);
    threads_row(label, n, t1, tn, threads);
    for (int64_t i = 0; i <= n; i++)
        if (a[i] != b[i]) { printf("  %s: values DIFFER at heap %lld\n", name, (long long)i); disagree = 1; break; }
    free(a);
    free(b);
}

/* Seconds for the program's first query, a check; its counterexample text and count into out. */
static double check_time(const char *src, const char *name, int threads, gr_check_result *out) {
    unit u;
    compile(&u, src, name);
    u.c.threads = threads;
    double t0 = now();
    gr_check_run(&u.c, &u.mod.queries[0], out);
    double t = now() - t0;
    gr_ctx_free(&u.c);
    return t;
}

static void bench_threads_check(const char *label, const char *src, const char *name, int64_t n, int threads) {
    static gr_check_result a, b;
    double t1 = check_time(src, name, 1, &a), tn = check_time(src, name, threads, &b);
    threads_row(label, n, t1, tn, threads);
    if (a.status != b.status || a.checked_to != b.checked_to || strcmp(a.counterexample_text, b.counterexample_text)) {
        printf("  %s: answers DIFFER\n", label);
        disagree = 1;
    }
}

static void bench_threads(int threads, int64_t rules_n, int64_t tb_n, int64_t check_n) {
    char src[512];
    static const char lasker[] = "game lasker {\n    heap n;\n    move -> n - k for k in 1..n;\n    move -> {a, n - a} for a in 1..n / 2;\n}\n";
    printf("\nacross threads: seconds with 1 thread and with %d, in this process (a shared machine: the speed-up is what\n"
           "the other jobs leave)\n", threads);
    printf("%-36s %10s %10s %10s %9s\n", "work", "N", "1 thread", "threads", "speed-up");
    bench_threads_fill("Lasker's Nim (rule block), table", lasker, "lasker", rules_n, threads);
    bench_threads_fill("take-and-break \"0.8F\", table", "game t = octal \"0.8F\";", "t", tb_n, threads);
    bench_threads_fill("take-and-break \"8!.0\", table", "game t = octal \"8!.0\";", "t", tb_n, threads);
    snprintf(src, sizeof src, "%scheck lasker: sg(n) == n + (n %% 4 == 3) - (n %% 4 == 0) for n in 1..%lld;\n", lasker,
             (long long)(2 * rules_n));
    bench_threads_check("check over Lasker's Nim (with table)", src, "lasker", 2 * rules_n, threads);
    snprintf(src, sizeof src, "game kayles = octal \"0.77\";\ncheck kayles: sg(n) == sg(n + 12) && sg(n) != sg(n + 1) + sg(n + 2) * 16 "
             "&& popcount(sg(n) * n) < 64 for n in 71..%lld;\n", (long long)check_n);
    bench_threads_check("check over Kayles (period proved)", src, "kayles", check_n, threads);
}

int main(int argc, char **argv) {
    int full = 0, threads = 0;
    int64_t nsub = 100000000, rules_n = 8000, tb_n = 1200, check_n = 10000000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--full")) full = 1;
        else if (!strcmp(argv[i], "--subtract-n") && i + 1 < argc) nsub = strtoll(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rules-n") && i + 1 < argc) rules_n = strtoll(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--tb-n") && i + 1 < argc) tb_n = strtoll(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--check-n") && i + 1 < argc) check_n = strtoll(argv[++i], NULL, 10);
        else { fprintf(stderr, "usage: bench_heap [--full] [--subtract-n N] [--threads T] [--rules-n N] [--tb-n N] [--check-n N]\n"); return 2; }
    }
    int64_t n_oct = 100000, n_naive = full ? n_oct : 30000;
    printf("heap recurrences: grundy's kernels beside naive loops, heaps per second (higher is faster)\n");
    if (!full) printf("(the naive O(n^2) octal loops run to %lld only; rows with '-' are grundy alone; --full runs both to %lld)\n",
                      (long long)n_naive, (long long)n_oct);
    printf("%-24s %12s %16s %16s %10s\n", "game", "N", "grundy heaps/s", "naive heaps/s", "ratio");
    bench_subtract(nsub);
    bench_octal("kayles \"0.77\"", "game kayles = octal \"0.77\";", "kayles", naive_kayles, n_naive, n_oct);
    bench_octal("grundy's game \"4!.0\"", "game grundys = octal \"4!.0\";", "grundys", naive_grundy, n_naive, n_oct);
    if (threads > 1) bench_threads(threads, rules_n, tb_n, check_n);
    if (disagree) { printf("values DIFFER\n"); return 1; }
    printf("values agree\n");
    return 0;
}
