/* bench_octal: the take-and-break engine on the octal games the dedicated programs compute:
 * Grundy's game 4!.0, 0.16, 0.007, 0.6 and Kayles 0.77. For each, the library's default kernels
 * (rare values, proved periods) run from heap 0 and are timed as they pass 2^16, 2^17, ... up to
 * 2^K (K from the command line); beside them, in the same process, the plain kernel (no rare
 * values, no period) up to 2^P (default 18: it is quadratic). Printed per size: seconds so far,
 * values per second, the growth exponent log2(T(2^k) / T(2^(k-2))) / 2 (1: linear, 2: quadratic),
 * and the plain kernel's time and the ratio. Values of the two are compared where both exist.
 *
 * --threads N: the default kernels run with N threads (the plain baseline always with one).
 *
 * usage: bench_octal [K] [--plain P] [--only CODE] [--threads N] */
#include <math.h>
#include "benchoctal.h"

int main(int argc, char **argv) {
    int K = 20, P = 18, threads = 1;
    const char *only = NULL;
    if (octal_args(argc, argv, "bench_octal", "--plain", &K, &P, &threads, &only)) return 2;
    if (K < 16 || K > 40) { fprintf(stderr, "bench_octal: K from 16 to 40\n"); return 2; }
    static const char *codes[] = { "4!.0", "0.16", "0.007", "0.6", "0.77" };
    printf("octal games to 2^%d: grundy's default kernels (%d thread%s) beside the plain kernel (one thread, to 2^%d) "
           "in the same process\n", K, threads, threads > 1 ? "s" : "", P);
    printf("%-6s %4s %10s %12s %9s %10s %9s  %s\n", "code", "2^k", "seconds", "values/s", "exponent", "plain s", "ratio", "kernel");
    int differ = 0;
    for (size_t ci = 0; ci < sizeof codes / sizeof *codes; ci++) {
        if (only && strcmp(only, codes[ci])) continue;
        char src[128];
        snprintf(src, sizeof src, "game a = octal \"%s\";\ngame b = octal \"%s\";\n", codes[ci], codes[ci]);
        unit u;
        gr_game *a = compile(&u, src, "a"), *b = NULL;
        for (gr_game *g = u.mod.games; g; g = g->next) if (!strcmp(g->name, "b")) b = g;
        gr_heap_tune(&u.c, b, -1, 0);
        u.c.threads = threads;
        double ta[41] = { 0 }, sa = 0, sb = 0;
        int64_t prev = -1;
        for (int k = 16; k <= K; k++) {
            int64_t n = ((int64_t)1 << k) - 1;
            sa += octal_fill(&u, a, n);
            ta[k] = sa;
            if (k <= P) {
                u.c.threads = 1;
                sb += octal_fill(&u, b, n);
                u.c.threads = threads;
            }
            char why[512];
            gr_heap_describe(a, why, sizeof why);
            printf("%-6s %4d %10.3f %12.3e ", codes[ci], k, sa, (double)(n + 1) / (sa > 0 ? sa : 1e-9));
            if (k >= 18 && ta[k - 2] > 0) printf("%9.2f ", log2(ta[k] / ta[k - 2]) / 2);
            else printf("%9s ", "-");
            if (k <= P) printf("%10.3f %8.1fx", sb, sb / (sa > 0 ? sa : 1e-9));
            else printf("%10s %9s", "-", "-");
            printf("  %.60s\n", why[0] ? why : "");
            fflush(stdout);
            if (k <= P && !differ) differ = octal_values_differ(codes[ci], a, b, prev + 1, n);
            prev = n;
        }
        gr_ctx_free(&u.c);
    }
    printf(differ ? "values DIFFER\n" : "values agree\n");
    return differ;
}
