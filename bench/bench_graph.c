/* bench_graph: the position graph and the line kernel, each beside a baseline run in the same
 * program (rates are printed, never asserted).
 *
 * 1. Position graph: a misere sum of K heaps of H of a subtraction game, solved through
 *    gr_sumgraph (canonical encodings, hash table; acyclic, so depth first with no stored
 *    edges, as every sum's solve; the line "solved ..." says which path ran). Reported:
 *    positions/s, edges/s and bytes per position. The baseline is a dense solver written here:
 *    a multiset of K heap sizes in 0..H is ranked in the combinatorial number system (colex
 *    order, in which every move leads to a smaller rank), so one pass over an array of
 *    C(H + K, K) outcomes settles everything. The graph must have exactly C(H + K, K)
 *    positions, and the outcomes of the start and of many random positions must agree.
 *    Default: subtract {1, 2}, K = 3, H = 390: C(393, 3) = 10,090,895 positions. (Nim heaps
 *    would make ~H edges per heap per position, so a graph of 10^7 positions would have
 *    billions of edges; a smaller Nim sum is run too, to show the edge rate on wide fans.)
 * 2. Wythoff 2000 x 2000: gr_lines_fill (per-line bitsets) beside a naive mex that clears a
 *    seen[] array per cell and walks every option; values compared.
 * 3. A cyclic position graph of N positions (default 3,000,000; three moves a position to
 *    pseudo-random targets, 15% terminal losses: wins, losses and draws): expanded and solved once, then solved again (reverse edges, retrograde levels,
 *    Kahn levels; no expansion) with --threads 1 and 2 (the team, pgteam.h). The solve times are
 *    printed apart from the expansion, with their ratio; the three solves' values must agree.
 *
 * usage: bench_graph [--heaps K] [--size H] [--nim-size H] [--wythoff N] [--cyclic N] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ctx.h"
#include "eval/box/lines.h"
#include "parse.h"
#include "eval/graph/posgraph.h"
#include "sema.h"
#include "sums.h"
#include "benchlib.h"

static int failed;

/* ---- 1. the position graph beside a dense colex solver ------------------------------------ */
enum { MAXK = 16 };
static uint64_t binom[1024][MAXK + 2];   /* C(n, r) for n < 1024, r <= MAXK + 1 */

static void init_binom(void) {
    for (int n = 0; n < 1024; n++) {
        binom[n][0] = 1;
        for (int r = 1; r <= MAXK + 1; r++) binom[n][r] = n == 0 ? 0 : binom[n - 1][r - 1] + binom[n - 1][r];
    }
}

/* Rank of a nondecreasing tuple h[0..k-1]: the colex rank of the combination c_i = h_i + i. */
static uint64_t rank_of(const int *h, int k) {
    uint64_t r = 0;
    for (int i = 0; i < k; i++) r += binom[h[i] + i][i + 1];
    return r;
}

/* Misere outcomes (1: the player to move wins) of every multiset of k heaps in 0..H, moves
 * taking s in S (ns amounts) from one heap; out has C(H + k, k) entries. Returns the number of
 * (position, move) pairs examined, for an edge rate. */
static uint64_t dense_solve(int k, int H, const int *S, int ns, uint8_t *out) {
    int h[MAXK] = { 0 }, ch[MAXK];
    uint64_t total = binom[H + k][k], edges = 0;
    for (uint64_t r = 0; r < total; r++) {
        int any = 0, win = 0;
        for (int i = 0; i < k && !win; i++) {
            if (i + 1 < k && h[i] == h[i + 1]) continue;   /* one copy of each size */
            for (int j = 0; j < ns && S[j] <= h[i]; j++) {
                memcpy(ch, h, (size_t)k * sizeof *h);
                int p = i;
                ch[p] = h[i] - S[j];
                while (p > 0 && ch[p - 1] > ch[p]) { int t = ch[p]; ch[p] = ch[p - 1]; ch[p - 1] = t; p--; }
                any = 1;
                edges++;
                if (!out[rank_of(ch, k)]) { win = 1; break; }
            }
        }
        out[r] = any ? (uint8_t)win : 1;   /* misere: no move, the mover wins */
        /* next multiset in colex order */
        for (int i = 0; i < k; i++) {
            if (h[i] < (i + 1 < k ? h[i + 1] : H)) {
                h[i]++;
                for (int j = 0; j < i; j++) h[j] = 0;
                break;
            }
        }
    }
    return edges;
}

static void bench_posgraph(const char *label, const char *src, const char *name, int k, int H, const int *S, int ns) {
    unit u;
    gr_game *g = compile(&u, src, name);
    gr_comp comps[MAXK];
    for (int i = 0; i < k; i++) { memset(&comps[i], 0, sizeof comps[i]); comps[i].game = g; comps[i].c[0] = H; }

    double t0 = now();
    gr_sumgraph *s = gr_sumgraph_new(&u.c, &u.mod, CONV_MISERE);
    gr_sumgraph_add(s, comps, k);
    gr_sumgraph_solve(s);
    double t = now() - t0;
    gr_pg *pg = gr_sumgraph_pg(s);
    uint64_t npos = gr_pg_count(pg), nedges = gr_pg_edges(pg);
    size_t bytes = gr_pg_bytes(pg);

    uint64_t total = binom[H + k][k];
    uint8_t *dense = xmalloc((size_t)total);
    double d0 = now();
    uint64_t dedges = dense_solve(k, H, S, ns, dense);
    double dt = now() - d0;

    printf("\n%s: misere sum of %d heaps of %d, %llu positions\n", label, k, H, (unsigned long long)npos);
    printf("  %-34s %14s %14s %14s %10s\n", "", "positions/s", "edges/s", "bytes/position", "seconds");
    printf("  %-34s %14.3e %14.3e %14.1f %10.2f\n", "grundy position graph", (double)npos / t, (double)nedges / t,
           (double)bytes / (double)npos, t);
    printf("  %-34s %14.3e %14.3e %14.1f %10.2f\n", "dense colex retrograde (baseline)", (double)total / dt,
           (double)dedges / dt, 1.0, dt);
    printf("  (the baseline's edges/s counts the moves it examines: it stops at a position's first losing child)\n");
    printf("  solved %s\n", gr_pg_stores_edges(pg) ? "over stored edges (breadth first, retrograde analysis)"
                                                  : "depth first with no stored edges (values only)");
    printf("  graph: %llu edges (%.1f per position), tracked peak %.1f MiB (%.1f bytes/position)\n",
           (unsigned long long)nedges, (double)nedges / (double)npos, (double)u.c.store.mem_peak / 1048576.0,
           (double)u.c.store.mem_peak / (double)npos);
    if (npos != total) {
        printf("  position count DIFFERS: graph %llu, C(%d, %d) = %llu\n", (unsigned long long)npos, H + k, k,
               (unsigned long long)total);
        failed = 1;
    }
    /* outcomes: the start, then random positions */
    uint64_t seed = 12345;
    int checked = 0, bad = 0;
    for (int trial = 0; trial < 20000; trial++) {
        int h[MAXK];
        for (int i = 0; i < k; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            h[i] = trial == 0 ? H : (int)((seed >> 33) % (uint64_t)(H + 1));
        }
        for (int i = 1; i < k; i++)   /* sort */
            for (int j = i; j > 0 && h[j - 1] > h[j]; j--) { int x = h[j]; h[j] = h[j - 1]; h[j - 1] = x; }
        for (int i = 0; i < k; i++) comps[i].c[0] = h[i];
        uint32_t id = gr_sumgraph_id(s, comps, k);
        int want = dense[rank_of(h, k)];
        int got = gr_pg_outcome(pg, id) == GR_WIN;
        checked++;
        if (got != want && bad++ < 3) {
            printf("  outcome DIFFERS at (");
            for (int i = 0; i < k; i++) printf("%s%d", i ? ", " : "", h[i]);
            printf("): graph %c, dense %c\n", got ? 'N' : 'P', want ? 'N' : 'P');
        }
    }
    if (bad) failed = 1;
    else printf("  values agree (the start and %d random positions; start is %c)\n", checked - 1,
                dense[total - 1] ? 'N' : 'P');
    free(dense);
    gr_sumgraph_free(s);
    gr_ctx_free(&u.c);
}

/* ---- 2. Wythoff by line bitsets beside a naive mex ------------------------------------------ */
static void naive_wythoff(int64_t n, int64_t *v) {
    uint8_t *seen = xmalloc((size_t)(3 * n + 2));
    for (int64_t a = 0; a < n; a++)
        for (int64_t b = 0; b < n; b++) {
            int64_t opts = a + b + (a < b ? a : b);   /* the mex is at most the number of options */
            memset(seen, 0, (size_t)opts + 1);
            for (int64_t k = 1; k <= a; k++) { int64_t x = v[(a - k) * n + b]; if (x <= opts) seen[x] = 1; }
            for (int64_t k = 1; k <= b; k++) { int64_t x = v[a * n + b - k]; if (x <= opts) seen[x] = 1; }
            for (int64_t k = 1; k <= a && k <= b; k++) { int64_t x = v[(a - k) * n + b - k]; if (x <= opts) seen[x] = 1; }
            int64_t m = 0;
            while (seen[m]) m++;
            v[a * n + b] = m;
        }
    free(seen);
}

static const char WYTHOFF[] =
    "game wythoff {\n"
    "    position (a, b);\n"
    "    move -> (a - k, b)     for k in 1..a;\n"
    "    move -> (a, b - k)     for k in 1..b;\n"
    "    move -> (a - k, b - k) for k in 1..min(a, b);\n"
    "}\n";

static void bench_wythoff(int64_t n) {
    unit u;
    gr_game *g = compile(&u, WYTHOFF, "wythoff");
    char why[200];
    if (!gr_lines_recognise(g, why, sizeof why)) { printf("wythoff not recognised: %s\n", why); failed = 1; return; }
    size_t cells = (size_t)(n * n);
    int64_t *fast = gr_alloc(&u.c, cells * sizeof *fast);
    double t0 = now();
    gr_lines_fill(&u.c, g, n, n, fast);
    double t = now() - t0;
    size_t peak = u.c.store.mem_peak - cells * sizeof *fast;
    int64_t *slow = xmalloc(cells * sizeof *slow);
    double s0 = now();
    naive_wythoff(n, slow);
    double st = now() - s0;
    printf("\nwythoff %lld x %lld (%s)\n", (long long)n, (long long)n, why);
    printf("  %-34s %14s %10s\n", "", "cells/s", "seconds");
    printf("  %-34s %14.3e %10.3f   (line bitsets: %.1f MiB)\n", "grundy line bitsets", (double)cells / t, t,
           (double)peak / 1048576.0);
    printf("  %-34s %14.3e %10.3f\n", "naive mex per cell (baseline)", (double)cells / st, st);
    printf("  ratio %.1fx\n", st / t);
    size_t i = 0;
    while (i < cells && fast[i] == slow[i]) i++;
    if (i < cells) {
        printf("  values DIFFER at (%lld, %lld): lines %lld, naive %lld\n", (long long)(i / (size_t)n),
               (long long)(i % (size_t)n), (long long)fast[i], (long long)slow[i]);
        failed = 1;
    } else printf("  values agree on all %zu cells (largest value %lld)\n", cells, (long long)fast[cells - 1]);
    free(slow);
    gr_ctx_free(&u.c);
}

/* ---- 3. a cyclic position graph solved with 1 and 2 threads ---------------------------------- */
static uint64_t mix64(uint64_t x) {   /* a multiply-xorshift hash: targets that look random */
    x = (x ^ (x >> 32)) * 0xd6e8feb86659fd93ULL;
    return x ^ (x >> 32);
}

static gr_expand_kind cyclic_expand(void *user, const uint8_t *pos, size_t len, gr_pg_sink *sink) {
    uint32_t n = *(const uint32_t *)user, v;
    (void)len;
    memcpy(&v, pos, 4);
    uint64_t h = mix64(v + 0x9e3779b97f4a7c15ULL);
    if (h % 100 < 15) return GR_EXPAND_LOSS;
    for (int k = 0; k < 3; k++) {
        uint32_t to = (uint32_t)(mix64(h + (uint64_t)k) % n);
        gr_pg_emit(sink, (const uint8_t *)&to, 4);
    }
    return GR_EXPAND_MOVES;
}

static void bench_cyclic(uint32_t n) {
    gr_ctx c;
    gr_ctx_init(&c, "bench", "", 0);
    c.mem_limit = (size_t)20 << 30;
    c.threads = 1;
    gr_pg *g = gr_pg_new(&c, cyclic_expand, &n, 0);
    for (uint32_t v = 0; v < n; v += 1024) gr_pg_add(g, (const uint8_t *)&v, 4);
    double t0 = now();
    gr_pg_solve(g);
    double first = now() - t0;
    uint32_t count = gr_pg_count(g);
    uint64_t *sig = xmalloc((size_t)count * sizeof *sig);   /* outcome, remoteness, SG of each */
    uint64_t draws = 0;
    for (uint32_t id = 0; id < count; id++) {
        sig[id] = (uint64_t)gr_pg_outcome(g, id) | (uint64_t)(gr_pg_remoteness(g, id) + 1) << 2 | (uint64_t)(gr_pg_sg(g, id) + 1) << 32;
        draws += gr_pg_outcome(g, id) == GR_DRAW;
    }
    double t[3];
    int bad = 0;
    for (int threads = 1; threads <= 2; threads++) {
        c.threads = threads;
        double s0 = now();
        gr_pg_solve(g);
        t[threads] = now() - s0;
        for (uint32_t id = 0; id < count; id++)
            bad += sig[id] != ((uint64_t)gr_pg_outcome(g, id) | (uint64_t)(gr_pg_remoteness(g, id) + 1) << 2 | (uint64_t)(gr_pg_sg(g, id) + 1) << 32);
    }
    printf("\ncyclic position graph: %u positions, %llu edges, %llu draws\n", count, (unsigned long long)gr_pg_edges(g),
           (unsigned long long)draws);
    printf("  %-34s %14s %10s\n", "", "positions/s", "seconds");
    printf("  %-34s %14.3e %10.2f\n", "expansion and first solve", (double)count / first, first);
    printf("  %-34s %14.3e %10.2f\n", "solve, --threads 1 (serial queue)", (double)count / t[1], t[1]);
    printf("  %-34s %14.3e %10.2f\n", "solve, --threads 2 (the team)", (double)count / t[2], t[2]);
    printf("  ratio %.2fx (a shared machine: the second thread competes with whatever else runs)\n", t[1] / t[2]);
    if (bad) { printf("  values DIFFER at %d positions\n", bad); failed = 1; }
    else printf("  values agree (every position, all three solves)\n");
    free(sig);
    gr_pg_free(g);
    gr_ctx_free(&c);
}

int main(int argc, char **argv) {
    int k = 3, H = 390, nimH = 60;
    int64_t wn = 2000, cyc = 3000000;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--heaps")) k = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--size")) H = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--nim-size")) nimH = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--wythoff")) wn = atoll(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--cyclic")) cyc = atoll(argv[++i]);
        else { fprintf(stderr, "usage: bench_graph [--heaps K] [--size H] [--nim-size H] [--wythoff N] [--cyclic N]\n"); return 2; }
    }
    if (k < 1 || k > MAXK || H < 1 || H + k >= 1024 || nimH < 0 || nimH + k >= 1024 || wn < 1 || cyc < 0 || cyc > INT32_MAX) {
        fprintf(stderr, "bench_graph: sizes out of range\n");
        return 2;
    }
    init_binom();
    static const int S12[] = { 1, 2 };
    bench_posgraph("subtract {1, 2}", "game s = subtract {1, 2};", "s", k, H, S12, 2);
    if (nimH > 0) {
        int *all = xmalloc(sizeof *all * (size_t)nimH);
        for (int i = 0; i < nimH; i++) all[i] = i + 1;
        bench_posgraph("nim", "game nim = subtract 1..;", "nim", k, nimH, all, nimH);
        free(all);
    }
    bench_wythoff(wn);
    if (cyc > 0) bench_cyclic((uint32_t)cyc);
    if (failed) { printf("\nvalues DIFFER\n"); return 1; }
    printf("\nvalues agree\n");
    return 0;
}
