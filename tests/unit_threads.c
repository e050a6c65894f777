/* unit_threads: every --threads value gives the same values. Octal codes (Grundy's game, 0.16,
 * 0.007, 0.6, Kayles and others, '!' included) are computed past the heap where the kernels
 * split their work across threads, with the plain kernel and with the default kernels (rare
 * values, proved periods), by 1, 2, 3 and 8 threads; every value must equal the plain kernel's
 * values with one thread, and those the naive recurrence over gr_heap_options. */
#include <stdlib.h>
#include "gamefix.h"
#include "eval/heap/heap.h"
#include "eval/heap/octpar.h"

#ifdef T_SANITIZED
enum { N = GR_OCTPAR_FROM + 2500 };
#else
enum { N = 3 * GR_OCTPAR_FROM };
#endif

/* Heaps computed by the threaded plain kernel and by the rare-value kernel, over every run. */
static int64_t threaded_heaps, rare_heaps, threaded_runs, runs_with_threads;

/* The values of `code` to `N` with `threads` threads; plain: no rare values, no period. */
static int64_t *values_to(const char *code, int64_t upto, int threads, int plain, int64_t *maxv) {
    char src[128];
    snprintf(src, sizeof src, "game g = octal \"%s\";\n", code);
    gf f;
    if (!CHECK(gf_open(&f, src))) { gf_close(&f); return NULL; }
    f.c.threads = threads;
    gr_game *g = gf_game(&f, "g");
    if (plain) gr_heap_tune(&f.c, g, -1, 0);
    int64_t *v = malloc((size_t)(upto + 1) * sizeof *v);
    CHECK_EQ(gr_heap_ensure(&f.c, g, upto), 0);
    *maxv = 0;
    for (int64_t i = 0; i <= upto; i++) {
        v[i] = gr_heap_value(g, i);
        if (v[i] > *maxv) *maxv = v[i];
    }
    gr_heap_counts k = gr_heap_count(g);
    if (plain && threads > 1) {
        /* the plain kernel across threads must have run: every heap past GR_OCTPAR_FROM is its
         * (nothing else computes them with the rare values and periods off) */
        runs_with_threads++;
        threaded_runs += k.threaded > 0;
        if (!CHECK_EQ(k.threaded, upto + 1 - GR_OCTPAR_FROM))
            printf("%s with %d threads: %lld heaps by the threaded kernel\n", code, threads, (long long)k.threaded);
    }
    threaded_heaps += k.threaded;
    rare_heaps += k.rare;
    gf_close(&f);
    return v;
}
static int64_t *values(const char *code, int threads, int plain, int64_t *maxv) {
    return values_to(code, N, threads, plain, maxv);
}

/* Grundy's game and 0.6 far enough that the rare-value kernel's look-ups are split across
 * threads too (its rare class passes a thousand heaps), against one thread. */
static void rare_far(void) {
    static const char *codes[] = { "4!.0", "0.6" };
    static const int threads[] = { 2, 3, 8 };
#ifdef T_SANITIZED
    int64_t far = 13000, m;   /* just past a rare class of 1024 heaps in Grundy's game */
#else
    int64_t far = 4 * N, m;
#endif
    for (size_t ci = 0; ci < 2; ci++) {
        int64_t *ref = values_to(codes[ci], far, 1, 0, &m);
        for (size_t ti = 0; ti < 3 && ref; ti++) {
            int64_t *v = values_to(codes[ci], far, threads[ti], 0, &m);
            for (int64_t i = 0; i <= far; i++)
                if (!CHECK_EQ(v[i], ref[i])) {
                    printf("%s with %d threads: heap %lld differs\n", codes[ci], threads[ti], (long long)i);
                    break;
                }
            free(v);
        }
        free(ref);
    }
}

int main(void) {
    static const char *codes[] = { "4!.0", "0.16", "0.007", "0.6", "0.77", "4.07!", "0.137", "0.15", "4.4" };
    static const int threads[] = { 2, 3, 8 };
    for (size_t ci = 0; ci < sizeof codes / sizeof *codes; ci++) {
        int64_t top = 0, m = 0;
        int64_t *ref = values(codes[ci], 1, 1, &top);
        if (!ref) continue;
        /* the reference itself against the naive recurrence, on its first heaps */
        {
            char src[128];
            snprintf(src, sizeof src, "game g = octal \"%s\";\n", codes[ci]);
            gf f;
            if (CHECK(gf_open(&f, src))) {
                int64_t *naive = malloc(2001 * sizeof *naive);
                gr_heap_fill_generic(&f.c, gf_game(&f, "g"), 2000, naive);
                for (int64_t i = 0; i <= 2000; i++) if (!CHECK_EQ(naive[i], ref[i])) break;
                free(naive);
            }
            gf_close(&f);
        }
        for (int plain = 0; plain <= 1; plain++)
            for (size_t ti = 0; ti < sizeof threads / sizeof *threads; ti++) {
                int64_t *v = values(codes[ci], threads[ti], plain, &m);
                if (!v) continue;
                for (int64_t i = 0; i <= N; i++)
                    if (!CHECK_EQ(v[i], ref[i])) {
                        printf("%s with %d threads (%s): heap %lld differs\n", codes[ci], threads[ti],
                               plain ? "plain kernel" : "default kernels", (long long)i);
                        break;
                    }
                free(v);
            }
        printf("%-6s to %d: largest value %lld\n", codes[ci], (int)N, (long long)top);
        free(ref);
    }
    rare_far();
    printf("threaded kernel ran in %lld of %lld plain runs with threads: %lld heaps; rare-value kernel: %lld heaps\n",
           (long long)threaded_runs, (long long)runs_with_threads, (long long)threaded_heaps, (long long)rare_heaps);
    CHECK(rare_heaps > 0);
    return t_finish("unit_threads");
}
