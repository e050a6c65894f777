/* benchoctal: what the octal-kernel benchmarks (bench_octal, bench_period, bench_plain, bench_rare) share: a fresh
 * game of one code with a thread count, the process's CPU clock, and filling its table to a
 * heap, timed, and the comparison of two tables. Header-only, beside benchlib.h. */
#ifndef GRUNDY_BENCHOCTAL_H
#define GRUNDY_BENCHOCTAL_H
#include "benchlib.h"
#include "eval/heap/heap.h"
#include "eval/evaluator.h"
#include "eval/cache.h"
#include "eval/heap/sgtable.h"

/* The game `octal "code"` compiled afresh in u (nothing cached), with `threads`, and with
 * periods proved while filling when prove is set. */
static inline gr_game *octal_fresh(unit *u, const char *code, int threads, int prove) {
    char src[128];
    snprintf(src, sizeof src, "game a = octal \"%s\";\n", code);
    gr_game *g = compile(u, src, "a");
    gr_heap_tune(&u->c, g, 0, prove);
    u->c.threads = threads;
    return g;
}

static inline double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Heaps 0..n computed; the wall time it took. */
static inline double octal_fill(unit *u, gr_game *g, int64_t n) {
    double t0 = now();
    if (gr_heap_ensure(&u->c, g, n) < 0) { fprintf(stderr, "bench: %s is not a recurrence\n", g->name); exit(2); }
    return now() - t0;
}
/* The arguments bench_octal and bench_plain share: [K] [PFLAG P] [--only CODE] [--threads N]
 * (PFLAG names the baseline's own size); 0, or the usage on stderr and 2. */
static inline int octal_args(int argc, char **argv, const char *name, const char *pflag, int *K, int *P, int *threads,
                             const char **only) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], pflag) && i + 1 < argc) *P = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) *only = argv[++i];
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) *threads = atoi(argv[++i]);
        else if (argv[i][0] != '-') *K = atoi(argv[i]);
        else { fprintf(stderr, "usage: %s [K] [%s P] [--only CODE] [--threads N]\n", name, pflag); return 2; }
    }
    if (*threads < 1 || *threads > 256) { fprintf(stderr, "%s: --threads from 1 to 256\n", name); return 2; }
    return 0;
}

/* Whether a's and b's values differ on heaps from..to (the first difference printed, named by
 * code): a bench's kernel against its baseline, which must agree. */
static inline int octal_values_differ(const char *code, gr_game *a, gr_game *b, int64_t from, int64_t to) {
    for (int64_t i = from; i <= to; i++)
        if (gr_heap_value(a, i) != gr_heap_value(b, i)) {
            printf("  %s: values DIFFER at heap %lld\n", code, (long long)i);
            return 1;
        }
    return 0;
}

/* One round of 1 thread against `threads` on a fresh game each: best[0..1] the best wall times
 * so far, cpu[0..1] the CPU time of the best run; returns whether both tables are byte for
 * byte the same. */
static inline int octal_thread_round(const char *code, int threads, int prove, int64_t n, double best[2], double cpu[2]) {
    unit u[2];
    gr_game *g[2];
    for (int k = 0; k < 2; k++) {
        g[k] = octal_fresh(&u[k], code, k ? threads : 1, prove);
        double c0 = cpu_now();
        double t = octal_fill(&u[k], g[k], n);
        if (t < best[k]) { cpu[k] = cpu_now() - c0; best[k] = t; }
    }
    const gr_sgtable *ta = GR_CACHED(g[0], sg), *tb = GR_CACHED(g[1], sg);
    int same = ta->n == tb->n && ta->width == tb->width && !memcmp(ta->data, tb->data, (size_t)ta->n * (size_t)ta->width);
    gr_ctx_free(&u[0].c);
    gr_ctx_free(&u[1].c);
    return same;
}
#endif
