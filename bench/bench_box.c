/* bench_box: the dense box and checks at table speed, each beside a baseline run in the same
 * program (rates and ratios are printed, never asserted; values are compared).
 *
 * 1. A box with cycles: a token on an N x N board (default N = 3000, 9 x 10^6 positions) moving
 *    (-1, +1), (+1, -2) or (0, +1) on the cells where (7x + 3y) mod 11 != 0 (the holes make
 *    dead ends): cycles, draws, wins and losses. The box
 *    (gr_dense_range: 'where' evaluated per position, a depth-first walk that meets a cycle, then
 *    retrograde analysis with implicit parents) beside a plain dense retrograde loop written
 *    here with the four moves hard-coded. Reported: positions/s of both, the ratio, the box with
 *    2 threads (--threads 2: its passes split across the team, densepar.h) and its speed-up
 *    over 1, and the box's peak bytes per position (every tracked allocation of the run, over
 *    N * N, while the first box is solved).
 * 2. Wythoff N x N (default 2000): the time of 'table' (CSV to /dev/null) and of 'check' of a
 *    claim over the same range, both through the query runner, and their ratio.
 * 3. Dawson's E&D, 'table ed(1..N, 1..N)' through the query runner (CSV to /dev/null) beside
 *    its baseline, the dense box with shared option sets over the same range alone
 *    (gr_dense_range, every cell read), for N doubling up to the given N (default 2000); the
 *    ratio, and the growth exponent in cells as N doubles (1: linear in the table's cells; a
 *    table that grew its box row by row was cubic in N, exponent 1.5). Values are compared
 *    with E&D's formula.
 * (The hashed misere sum of 10^7 positions with its dense baseline is bench_graph.)
 *
 * usage: bench_box [--board N] [--wythoff N] [--ed N] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "eval/box/dense.h"
#include "ctx.h"
#include "query.h"
#include "benchlib.h"

static int failed;

/* CPU seconds of the calling thread. */
static double thread_cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- 1. the box with cycles beside a dense retrograde loop ---------------------------------- */
static const int DX[3] = { -1, 1, 0 }, DY[3] = { 1, -2, 1 };

/* The board's 'where': inside, and not a hole. */
static int on_board(int N, int x, int y) { return x >= 0 && y >= 0 && x < N && y < N && (x * 7 + y * 3) % 11 != 0; }

/* Outcome (0 loss, 1 win, 2 draw) and remoteness of every cell of the N x N board. */
static void dense_retrograde(int N, uint8_t *out, uint32_t *rem) {
    size_t n = (size_t)N * N;
    uint8_t *cnt = xmalloc(n);
    uint32_t *queue = xmalloc(n * sizeof *queue);
    size_t head = 0, tail = 0;
    for (int x = 0; x < N; x++)
        for (int y = 0; y < N; y++) {
            size_t v = (size_t)x * N + y;
            int deg = 0;
            for (int d = 0; d < 3; d++) deg += on_board(N, x + DX[d], y + DY[d]);
            cnt[v] = (uint8_t)deg;
            out[v] = 2;
            rem[v] = 0;
            if (!on_board(N, x, y)) { cnt[v] = 0; continue; }
            if (!deg) { out[v] = 0; queue[tail++] = (uint32_t)v; }
        }
    while (head < tail) {
        uint32_t v = queue[head++];
        int x = (int)(v / (uint32_t)N), y = (int)(v % (uint32_t)N), lost = out[v] == 0;
        for (int d = 0; d < 3; d++) {
            int px = x - DX[d], py = y - DY[d];
            if (!on_board(N, px, py)) continue;
            size_t u = (size_t)px * N + py;
            if (!cnt[u]) continue;
            if (lost) cnt[u] = 0;
            else if (--cnt[u]) continue;
            out[u] = lost ? 1 : 0;
            rem[u] = rem[v] + 1;
            queue[tail++] = (uint32_t)u;
        }
    }
    free(cnt);
    free(queue);
}

static void bench_board(int N) {
    char src[512];
    snprintf(src, sizeof src,
             "game board { position (x, y) where x >= 0 && y >= 0 && x < %d && y < %d && (x * 7 + y * 3) %% 11 != 0;\n"
             "  move -> (x - 1, y + 1); move -> (x + 1, y - 2); move -> (x, y + 1); }\n"
             "solve board(0, 1);\n", N, N);
    unit u;
    gr_game *g = compile(&u, src, "board");
    size_t n = (size_t)N * N;
    uint8_t *out = xmalloc(n);
    uint32_t *rem = xmalloc(n * sizeof *rem);
    double t0 = now();
    dense_retrograde(N, out, rem);
    double t_dense = now() - t0;
    int64_t lo[2] = { 0, 0 }, hi[2] = { N - 1, N - 1 };   /* the board: no move leaves it, so the box is N x N */
    /* with 2 threads first (the same answers, checked below against the loop), then with 1 */
    u.c.threads = 2;
    t0 = now();
    clock_t c0 = clock();
    double m0 = thread_cpu();
    gr_dense *b2 = gr_dense_range(&u.c, g, CONV_NORMAL, lo, hi);
    double t_box2 = now() - t0, cpu2 = (double)(clock() - c0) / CLOCKS_PER_SEC, main2 = thread_cpu() - m0;
    u.c.threads = 1;
    size_t peak2 = u.c.store.mem_peak;
    t0 = now();
    c0 = clock();
    gr_dense *b = gr_dense_range(&u.c, g, CONV_NORMAL, lo, hi);
    double t_box = now() - t0, cpu1 = (double)(clock() - c0) / CLOCKS_PER_SEC;
    size_t counts[3] = { 0 }, bad = 0;
    for (int x = 0; x < N; x++)
        for (int y = 0; y < N; y++) {
            int64_t p[2] = { x, y };
            size_t v = (size_t)x * N + y;
            if (!on_board(N, x, y)) continue;
            int o = (int)gr_dense_outcome(b, p);
            int64_t r = gr_dense_remoteness(b, p);
            counts[o]++;
            bad += o != out[v] || (o != 2 && r != (int64_t)rem[v]);
            bad += (int)gr_dense_outcome(b2, p) != o || gr_dense_remoteness(b2, p) != r || gr_dense_sg(b2, p) != gr_dense_sg(b, p);
        }
    if (bad || !gr_dense_cyclic(b) || !gr_dense_cyclic(b2)) { fprintf(stderr, "board: box and dense loop disagree at %zu positions\n", bad); failed = 1; }
    printf("box with cycles: token on a %d x %d board, %zu positions (%zu P, %zu N, %zu D)\n", N, N, n, counts[0], counts[1], counts[2]);
    printf("  dense retrograde loop : %7.3f s  %6.1f M positions/s\n", t_dense, (double)n / t_dense / 1e6);
    printf("  box (grundy), 1 thread: %7.3f s  %6.1f M positions/s  (%.2f x the loop's time; %.3f s of CPU)\n", t_box,
           (double)n / t_box / 1e6, t_box / t_dense, cpu1);
    printf("  box, 2 threads        : %7.3f s  %6.1f M positions/s  (%.2f x the loop's time, %.2f x faster than 1 thread; %.3f s of CPU, "
           "%.3f s of it on the main thread)\n", t_box2, (double)n / t_box2 / 1e6, t_box2 / t_dense, t_box / t_box2, cpu2, main2);
    printf("  (a loaded machine gives the threads less than a core each: on idle cores the 2 threads would take about the\n"
           "   larger of the two threads' CPU, here %.3f s, %.2f x faster than 1 thread's CPU)\n",
           main2 > cpu2 - main2 ? main2 : cpu2 - main2, cpu1 / (main2 > cpu2 - main2 ? main2 : cpu2 - main2));
    printf("  box memory            : %.2f bytes/position at peak with 2 threads (%.2f held after solving)\n",
           (double)peak2 / (double)n, (double)gr_dense_bytes(b) / (double)n);
    gr_dense_free(b);
    gr_dense_free(b2);
    free(out);
    free(rem);
    gr_ctx_free(&u.c);
}

/* ---- 2. table and check over Wythoff ------------------------------------------------------- */
static double run_query(unit *u, int i, FILE *sink) {
    gr_module one = u->mod;
    one.queries = &u->mod.queries[i];
    one.nqueries = 1;
    double t0 = now();
    int rc = gr_run_queries(&u->c, &one, GR_FMT_CSV, sink);
    double t = now() - t0;
    if (rc != GR_EXIT_OK) { fprintf(stderr, "wythoff: query %d returned %d\n", i + 1, rc); failed = 1; }
    return t;
}

static void bench_wythoff(int N) {
    char src[1024];
    snprintf(src, sizeof src,
             "game w { position (a, b);\n  move -> (a - k, b) for k in 1..a;\n  move -> (a, b - k) for k in 1..b;\n"
             "  move -> (a - k, b - k) for k in 1..min(a, b); }\n"
             "table w(0..%d, 0..%d);\n"
             "check w: sg(x, y) == sg(y, x) && (P(x, y) <=> sg(x, y) == 0) for x in 0..%d, y in 0..%d;\n",
             N - 1, N - 1, N - 1, N - 1);
    FILE *sink = fopen("/dev/null", "w");
    if (!sink) { perror("/dev/null"); exit(2); }
    unit u1, u2;
    compile(&u1, src, "w");
    double t_table = run_query(&u1, 0, sink);
    gr_ctx_free(&u1.c);
    compile(&u2, src, "w");
    double t_check = run_query(&u2, 1, sink);
    gr_ctx_free(&u2.c);
    fclose(sink);
    printf("wythoff %d x %d through the query runner (each in a fresh compilation):\n", N, N);
    printf("  table (CSV to /dev/null) : %7.3f s\n", t_table);
    printf("  check (a claim per cell) : %7.3f s  (%.2f x the table's time)\n", t_check, t_check / t_table);
}

/* ---- 3. table ed(1..N, 1..N) ------------------------------------------------------------- */
static const char ED[] = "game ed { position (x, y) where x >= 1 && y >= 1;\n"
                         "  move -> (i, x - i) for i in 1..x-1;\n  move -> (i, y - i) for i in 1..y-1; }\n";

static void bench_ed(int top) {
    printf("E&D table ed(1..N, 1..N): the query runner beside the dense box alone\n");
    printf("  %6s %10s %10s %7s %9s\n", "N", "table s", "box s", "ratio", "exponent");
    double last = 0;
    for (int N = top / 8 > 0 ? top / 8 : top; N <= top; N *= 2) {
        char src[512];
        snprintf(src, sizeof src, "%stable ed(1..%d, 1..%d);\n", ED, N, N);
        FILE *sink = fopen("/dev/null", "w");
        if (!sink) { perror("/dev/null"); exit(2); }
        unit u1, u2;
        compile(&u1, src, "ed");
        double t_table = run_query(&u1, 0, sink);
        gr_ctx_free(&u1.c);
        fclose(sink);
        gr_game *g = compile(&u2, src, "ed");
        int64_t lo[2] = { 1, 1 }, hi[2] = { N, N };
        double t0 = now();
        gr_dense *b = gr_dense_range(&u2.c, g, CONV_NORMAL, lo, hi);
        int64_t bad = 0;
        for (int64_t x = 1; x <= N; x++)
            for (int64_t y = 1; y <= N; y++) {
                int64_t p[2] = { x, y };
                bad += gr_dense_sg(b, p) != __builtin_ctzll(~(uint64_t)((x - 1) | (y - 1)));
            }
        double t_box = now() - t0;
        gr_dense_free(b);
        gr_ctx_free(&u2.c);
        if (bad) { fprintf(stderr, "ed %d: %lld cells differ from the formula\n", N, (long long)bad); failed = 1; }
        char ex[16] = "-";
        if (last > 0) snprintf(ex, sizeof ex, "%.2f", log(t_table / last) / log(4.0));
        printf("  %6d %10.3f %10.3f %6.2fx %9s\n", N, t_table, t_box, t_table / (t_box > 0 ? t_box : 1e-9), ex);
        last = t_table;
    }
}

int main(int argc, char **argv) {
    int board = 3000, wythoff = 2000, ed = 2000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--board") && i + 1 < argc) board = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--wythoff") && i + 1 < argc) wythoff = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ed") && i + 1 < argc) ed = atoi(argv[++i]);
        else { fprintf(stderr, "usage: bench_box [--board N] [--wythoff N] [--ed N]\n"); return 2; }
    }
    bench_board(board);
    bench_wythoff(wythoff);
    bench_ed(ed);
    return failed;
}
