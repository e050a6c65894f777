/* bench_misremote: the remoteness of misere sums of Kayles heaps by the search the quotient
 * steers (sums/misremote.h, through gr_misere_quotient), beside the position graph of the
 * whole sum (the baseline: what answered before, and what --no-theory does) in the same run
 * (never an assertion about time). Both remotenesses are compared ("agree", or exit 1).
 *
 * Sums of three heaps h, h + 2, h + 4 for h from --h (4) up by 2, five sizes: per size the
 * time of each side, the graph's positions, the ratio, and the growth exponent of each side's
 * time against the graph's positions (so 1 for the graph: it is linear in its positions). The
 * quotient is computed once before the clock starts (it is shared by every sum). A sum past
 * the search's budget says so (remoteness not computed) and only the graph's time is shown.
 *
 * usage: bench_misremote [--h H] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "sums/misquot.h"
#include "sums/sums.h"
#include "benchlib.h"

int main(int argc, char **argv) {
    int h0 = 4;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--h") && i + 1 < argc) h0 = atoi(argv[++i]);
    unit u;
    gr_game *k = compile(&u, "game k = octal \"0.77\";", "k");
    /* the quotient first, for the heaps of the largest sum */
    gr_theory t;
    char why[512];
    gr_comp warm = { .game = k };
    warm.c[0] = h0 + 12;
    if (!gr_misere_quotient(&u.c, &warm, 1, &t, NULL, NULL, why, sizeof why)) { fprintf(stderr, "bench: %s\n", why); return 2; }
    printf("remoteness of misere Kayles sums h + (h+2) + (h+4): the quotient's search against the position graph\n");
    printf("%6s %12s %12s %12s %10s %8s %8s\n", "h", "remoteness", "search s", "graph s", "positions", "ratio", "growth");
    double last_s = 0, last_g = 0, last_n = 0;
    int bad = 0;
    for (int step = 0; step < 5; step++) {
        int h = h0 + 2 * step;
        gr_comp comps[3];
        for (int i = 0; i < 3; i++) { comps[i] = (gr_comp){ .game = k }; comps[i].c[0] = h + 2 * i; }
        double t0 = now();
        int ok = gr_misere_quotient(&u.c, comps, 3, &t, NULL, NULL, why, sizeof why);
        double t1 = now();
        gr_sumgraph *s = gr_sumgraph_new(&u.c, &u.mod, CONV_MISERE);
        uint32_t id = gr_sumgraph_add(s, comps, 3);
        gr_sumgraph_solve(s);
        int64_t r = gr_pg_remoteness(gr_sumgraph_pg(s), id);
        double n = (double)gr_pg_count(gr_sumgraph_pg(s));
        gr_sumgraph_free(s);
        double t2 = now();
        if (ok && t.remoteness < 0) {   /* past the search's budget: said, not wrong */
            printf("%6d %12lld %12s %12.4f %10.0f   (the search: remoteness not computed, %s)\n", h, (long long)r, "-", t2 - t1, n, t.remoteness_skipped);
            continue;
        }
        if (!ok || t.remoteness != r) {
            printf("h %d: the search gave %lld (%s), the graph %lld\n", h, (long long)t.remoteness, t.remoteness_skipped, (long long)r);
            bad = 1;
            continue;
        }
        double ds = t1 - t0, dg = t2 - t1;
        printf("%6d %12lld %12.4f %12.4f %10.0f %8.1f", h, (long long)r, ds, dg, n, dg / ds);
        if (last_n > 0) printf(" %4.2f/%4.2f", log(ds / last_s) / log(n / last_n), log(dg / last_g) / log(n / last_n));
        printf("\n");
        last_s = ds; last_g = dg; last_n = n;
    }
    printf("%s\n", bad ? "DISAGREE" : "remoteness agrees");
    return bad;
}
