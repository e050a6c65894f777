/* estimate: how large a position graph will be before it is built, and the note said before a
 * long search; see estimate.h. */
#include "estimate.h"
#include "figure.h"
#include "board.h"
#include "eval/evaluator.h"
#include <math.h>
#include <pthread.h>
#include <stdio.h>

/* The multisets of heaps of total at most n (partitions of 0..n, by Euler's pentagonal
 * recurrence): about what a heap of n that splits (Kayles) leaves; 1e300 past 4000. The sums
 * are made once per process (a solve's remoteness rule asks for them on every solve). */
enum { PARTITIONS_CAP = 4000 };
static double partition_sums[PARTITIONS_CAP + 1];
static pthread_once_t partition_once = PTHREAD_ONCE_INIT;

static void partition_sums_make(void) {
    static double p[PARTITIONS_CAP + 1];
    double sum = 0;
    p[0] = 1;
    for (int64_t k = 0; k <= PARTITIONS_CAP; k++) {
        if (k > 0) {
            p[k] = 0;
            for (int64_t j = 1; j * (3 * j - 1) / 2 <= k; j++) {
                double t = p[k - j * (3 * j - 1) / 2] + (j * (3 * j + 1) / 2 <= k ? p[k - j * (3 * j + 1) / 2] : 0);
                p[k] += j % 2 ? t : -t;
            }
        }
        sum += p[k];
        partition_sums[k] = sum;
    }
}

static double partitions_upto(int64_t n) {
    if (n > PARTITIONS_CAP) return 1e300;
    pthread_once(&partition_once, partition_sums_make);
    return partition_sums[n < 0 ? 0 : n];
}

/* Positions at or below one component (its own moves only). */
static double comp_positions(const gr_comp *x) {
    const gr_game *g = x->game;
    switch (g->shape) {
    case SHAPE_HEAP: return gr_eval_splits(g) ? partitions_upto(x->c[0]) : (double)x->c[0] + 1;
    case SHAPE_TUPLE: {
        double v = 1;
        for (int k = 0; k < g->arity; k++) v *= fabs((double)x->c[k]) + 1;
        return v;
    }
    case SHAPE_GRAPH: return g->nvertices;
    case SHAPE_FIGURE: return ldexp(1, g->figure->ne < 1000 ? g->figure->ne : 1000);
    case SHAPE_COINS: return ldexp(1, 64);
    case SHAPE_BOARD: {   /* at most every set of the vertices left */
        gr_board b;
        int left = 0;
        if (!gr_board_head(g, x->c, &b)) return ldexp(1, 1000);
        for (int v = 0; v < b.n; v++) left += !gr_board_removed(x->c, v);
        return ldexp(1, left);
    }
    }
    return 1;
}

double gr_sum_graph_estimate(const gr_comp *comps, int n, gr_conv conv) {
    double v = 1;
    int merge = conv == CONV_NORMAL || conv == CONV_MISERE;   /* one multiset of atoms */
    for (int i = 0; i < n; i++) {
        if (!merge || !gr_eval_splits(comps[i].game)) { v *= comp_positions(&comps[i]); continue; }
        int first = 1;
        int64_t total = 0;
        for (int k = 0; k < n; k++)
            if (comps[k].game == comps[i].game) {
                if (k < i) first = 0;
                total += comps[k].c[0];
            }
        if (first) v *= partitions_upto(total);   /* the heaps of one splitting game mix */
    }
    return v > 1e300 ? 1e300 : v;
}

void gr_sum_fallback_note(gr_ctx *c, const char *why, double expected) {
    if (!c->diag || expected < GR_FALLBACK_NOTE_AT) return;
    char about[48];
    if (expected >= 1e18) snprintf(about, sizeof about, "more than 10^18");
    else snprintf(about, sizeof about, "up to about %.2g", expected);
    fprintf(c->diag, "grundy: note: %s: no theory applies (%s), searching the position graph (%s positions "
            "expected; --max-positions and --max-time bound it)\n", c->query_text ? c->query_text : "a query", why, about);
    fflush(c->diag);
}

