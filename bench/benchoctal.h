/* benchoctal: what the octal-kernel benchmarks (bench_period, bench_rare) share: a fresh
 * game of one code with a thread count, the process's CPU clock, and filling its table to a
 * heap, timed. Header-only, beside benchlib.h. */
#ifndef GRUNDY_BENCHOCTAL_H
#define GRUNDY_BENCHOCTAL_H
#include "benchlib.h"
#include "eval/heap/heap.h"

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
#endif
