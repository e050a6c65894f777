/* bench_conv: the heap kernels for 'anyleaf' and 'every' (eval/heap/convkernel.h), beside a dense
 * array baseline run in the same program on the same machine (never an assertion about time).
 *
 * For each rule set (a subtraction set and an octal code that never split), heaps 0..N are
 * asked of the kernel (values after leaf deletion, step numbers, outcomes) and computed by a
 * plain loop that fills three arrays over every heap (options n - k for each amount k); both
 * sides' values are compared ("values agree", or the first difference and exit 1). N doubles
 * from --n (10^6) four times; the last column is the growth exponent of each side's time as N
 * doubles (1: linear). The kernel stops filling once the window argument proves both periods,
 * so its time per heap falls while the baseline's stays: the ratio grows with N. Finally one
 * heap of 10^15 by the kernel alone (the baseline would need 17 PB).
 *
 * usage: bench_conv [--n N] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "eval/heap/convkernel.h"
#include "eval/graph/posgraph.h"
#include "benchlib.h"

typedef struct rs { const char *name, *src; int64_t amt[8]; int na; } rs;

/* The baseline: the recurrence over a dense array of every heap (subtraction: n - k, k <= n). */
static void baseline(const rs *r, int64_t n, int64_t *L, int64_t *S, uint8_t *O) {
    for (int64_t i = 0; i <= n; i++) {
        uint8_t seen[10] = { 0 };
        int win = 0, any = 0;
        for (int j = 0; j < r->na; j++) {
            if (r->amt[j] > i) continue;
            int64_t m = i - r->amt[j];
            any = 1;
            if (L[m] >= 0 && L[m] < 9) seen[L[m]] = 1;
            win |= O[m] == GR_LOSS;
        }
        if (!any) { L[i] = -1; S[i] = 0; O[i] = GR_LOSS; continue; }
        int64_t v = 0, best = -1;
        while (seen[v]) v++;
        for (int j = 0; j < r->na; j++) {
            if (r->amt[j] > i) continue;
            int64_t m = i - r->amt[j];
            if (win ? O[m] == GR_LOSS && S[m] > best : best < 0 || S[m] < best) best = S[m];
        }
        L[i] = v; S[i] = best + 1; O[i] = (uint8_t)(win ? GR_WIN : GR_LOSS);
    }
}

int main(int argc, char **argv) {
    int64_t n0 = 1000000;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--n") && i + 1 < argc) n0 = atoll(argv[++i]);
    /* "0.3333" removes 1..4 and may take the whole heap: the subtraction set {1, 2, 3, 4} */
    rs sets[] = {
        { "subtract {2, 5, 7}", "game g = subtract {2, 5, 7};", { 2, 5, 7 }, 3 },
        { "octal 0.3333", "game g = octal \"0.3333\";", { 1, 2, 3, 4 }, 4 },
    };
    int bad = 0;
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
        const rs *r = &sets[k];
        printf("%s: heaps 0..N, leaf-deleted values, step numbers and outcomes\n", r->name);
        printf("  %12s %12s %12s %8s %8s %8s\n", "N", "kernel s", "dense s", "ratio", "exp k", "exp d");
        double pk = 0, pd = 0;
        for (int step = 0; step < 4; step++) {
            int64_t n = n0 << step;
            unit u;
            gr_game *g = compile(&u, r->src, "g");
            int64_t *L = xmalloc(sizeof *L * (size_t)(n + 1)), *S = xmalloc(sizeof *S * (size_t)(n + 1));
            uint8_t *O = xmalloc((size_t)n + 1);
            double t0 = now();
            int64_t sum = 0;
            for (int64_t i = 0; i <= n; i++) {
                gr_hcval v;
                gr_convkernel_value(&u.c, g, i, &v);
                sum += v.leaf + v.step + v.outcome;
            }
            double tk = now() - t0;
            t0 = now();
            baseline(r, n, L, S, O);
            double td = now() - t0;
            int64_t want = 0;
            for (int64_t i = 0; i <= n; i++) want += L[i] + S[i] + O[i];
            if (want != sum) { printf("  values differ at N = %lld\n", (long long)n); bad = 1; }
            char ek[16] = "-", ed[16] = "-";
            if (pk > 0 && tk > 0) snprintf(ek, sizeof ek, "%.2f", log2(tk / pk));
            if (pd > 0 && td > 0) snprintf(ed, sizeof ed, "%.2f", log2(td / pd));
            printf("  %12lld %12.4f %12.4f %8.1f %8s %8s\n", (long long)n, tk, td, td / (tk > 0 ? tk : 1e-9), ek, ed);
            pk = tk; pd = td;
            free(L); free(S); free(O);
            if (step == 3) {
                gr_hcval v;
                t0 = now();
                gr_convkernel_value(&u.c, g, INT64_C(1000000000000000), &v);
                char why[1024];
                gr_convkernel_describe(g, why, sizeof why);
                printf("  heap 10^15 by the kernel: L %lld, step %lld, %c, in %.6f s (%s)\n", (long long)v.leaf,
                       (long long)v.step, "PN"[v.outcome], now() - t0, why);
            }
            gr_ctx_free(&u.c);
        }
    }
    printf(bad ? "values DIFFER\n" : "values agree\n");
    return bad;
}
