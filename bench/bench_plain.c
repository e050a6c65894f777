/* bench_plain: the octal games with no sparse split, 0.04 and 0.06 (docs/periodicity.md, "Codes
 * with no sparse split"). For each, grundy's kernels as the command runs them (the rare-value
 * kernel where it pays, the plain kernel's search for every value with AVX-512, --threads N,
 * default 2) from heap 0, timed as they pass 2^14, 2^15, ... 2^K (default 19); beside them, in
 * the same process, the old plain loop (a byte store per split: the vector paths forced off,
 * no rare values, one thread) up to 2^P (default 18; it is quadratic). Printed per size: wall
 * seconds so far and the process's CPU seconds, ns per heap and values a second over the
 * last doubling, the growth exponent log2(T(2^k) / T(2^(k-1))) over that doubling (1: linear,
 * 2: quadratic), the old loop's seconds and the ratio. The load average comes first: on a
 * shared machine read the times with it. Values of the two are compared where both exist.
 *
 * usage: bench_plain [K] [--old P] [--only CODE] [--threads N] */
#include <math.h>
#include <unistd.h>
#include "benchoctal.h"
#include "simd.h"

int main(int argc, char **argv) {
    int K = 19, P = 18, threads = 2;
    const char *only = NULL;
    if (octal_args(argc, argv, "bench_plain", "--old", &K, &P, &threads, &only)) return 2;
    if (K < 14 || K > 30 || P < 0 || P > 30) { fprintf(stderr, "bench_plain: K from 14 to 30\n"); return 2; }
    print_load(0.5, ": busy, times are high");
    printf("vector path: %s\n", gr_simd_name(gr_simd_level()));
    static const char *codes[] = { "0.04", "0.06" };
    printf("to 2^%d: grundy's kernels (%d thread%s) beside the old plain loop (one thread, to 2^%d) in the same process\n", K,
           threads, threads > 1 ? "s" : "", P);
    printf("%-5s %4s %9s %9s %9s %10s %8s %9s %9s  %s\n", "code", "2^k", "wall s", "CPU s", "ns/heap", "values/s", "exponent",
           "old s", "ratio", "kernel");
    int differ = 0;
    for (size_t ci = 0; ci < sizeof codes / sizeof *codes; ci++) {
        if (only && strcmp(only, codes[ci])) continue;
        char src[128];
        snprintf(src, sizeof src, "game a = octal \"%s\";\ngame b = octal \"%s\";\n", codes[ci], codes[ci]);
        unit u;
        gr_game *a = compile(&u, src, "a"), *b = NULL;
        for (gr_game *g = u.mod.games; g; g = g->next) if (!strcmp(g->name, "b")) b = g;
        gr_heap_tune(&u.c, a, 0, 0);     /* no proved period: the table to the end */
        gr_heap_tune(&u.c, b, -1, 0);    /* the old loop: no rare values */
        double sa = 0, sb = 0, ca = 0, last = 0;
        int64_t prev = -1;
        for (int k = 14; k <= K; k++) {
            int64_t n = ((int64_t)1 << k) - 1;
            u.c.threads = threads;
            double c0 = cpu_now();
            double dt = octal_fill(&u, a, n);
            ca += cpu_now() - c0;
            sa += dt;
            if (k <= P) {
                u.c.threads = 1;
                gr_simd_force(GR_SIMD_SSE2);     /* the byte marks, one store a split */
                sb += octal_fill(&u, b, n);
                gr_simd_force(-1);
            }
            char why[512];
            gr_heap_describe(a, why, sizeof why);
            int64_t heaps = n - prev;
            printf("%-5s %4d %9.3f %9.3f %9.1f %10.3e ", codes[ci], k, sa, ca, dt / (double)heaps * 1e9,
                   (double)heaps / (dt > 0 ? dt : 1e-9));
            if (k > 14 && last > 0) printf("%8.2f ", log2(sa / last));
            else printf("%8s ", "-");
            if (k <= P) printf("%9.3f %8.2fx", sb, sb / (sa > 0 ? sa : 1e-9));
            else printf("%9s %9s", "-", "-");
            printf("  %.50s\n", why[0] ? why : "plain kernel");
            fflush(stdout);
            if (k <= P && !differ) differ = octal_values_differ(codes[ci], a, b, prev + 1, n);
            prev = n;
            last = sa;
        }
        gr_ctx_free(&u.c);
    }
    printf(differ ? "values DIFFER\n" : "values agree\n");
    return differ;
}
