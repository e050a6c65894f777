/* bench_boards: games on boards (Cram = Arc Kayles on grids, Node Kayles on grids) by the search
 * of eval/board/ (components under nauty's canonical forms, a table of exact sets in front)
 * against a plain memoised search over exact vertex sets in the same run: the whole position's
 * set of cells is its key, no components, no canonical forms, no pruning. For each board: both
 * times, their ratio, and each one's growth from the board before (how the cost grows with the
 * board). Both start cold on every board. Boards up to 64 cells (the baseline's key is a word).
 * Times are the process's CPU time (both run on one thread, one after the other), so a busy
 * machine's share of the cores does not tilt the ratio.
 * Then the same search with two threads against one (bteam.h) on boards a few seconds long,
 * by the clock (a team's gain is in wall time), each from a cold store.
 *   bench_boards [--quick]   (--quick: the smaller boards only, no threads) */
#include "benchlib.h"
#include "eval/board/bsolve.h"
#include "eval/board/bteam.h"

static double cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the baseline: a memo from the set of cells left to the SG value ---- */
typedef struct plain { uint64_t *keys; int8_t *vals; size_t cap, n; const gr_board *b; int edge; } plain;

static int8_t *plain_slot(plain *p, uint64_t set) {
    if (2 * (p->n + 1) > p->cap) {
        plain old = *p;
        p->cap = old.cap ? old.cap * 2 : 1 << 16;
        p->keys = xmalloc(p->cap * sizeof *p->keys);
        p->vals = xmalloc(p->cap * sizeof *p->vals);
        memset(p->vals, -1, p->cap);
        for (size_t i = 0; i < old.cap; i++)
            if (old.vals[i] >= 0) {
                size_t k = (old.keys[i] * UINT64_C(0x9e3779b97f4a7c15)) >> 20 & (p->cap - 1);
                while (p->vals[k] >= 0) k = (k + 1) & (p->cap - 1);
                p->keys[k] = old.keys[i];
                p->vals[k] = old.vals[i];
            }
        free(old.keys);
        free(old.vals);
    }
    size_t k = (set * UINT64_C(0x9e3779b97f4a7c15)) >> 20 & (p->cap - 1);
    while (p->vals[k] >= 0 && p->keys[k] != set) k = (k + 1) & (p->cap - 1);
    return &p->vals[k];
}

/* Recursion as deep as the moves of a game: at most 32 on these boards. */
static int plain_sg(plain *p, uint64_t set) {
    int8_t *slot = plain_slot(p, set);
    if (*slot >= 0) return *slot;
    uint64_t seen = 0;
    for (int v = 0; v < p->b->n; v++) {
        if (!(set >> v & 1)) continue;
        uint64_t nb = p->b->adj[v] & set;
        if (!p->edge) { seen |= UINT64_C(1) << plain_sg(p, set & ~(nb | UINT64_C(1) << v)); continue; }
        for (uint64_t x = nb & ~((UINT64_C(2) << v) - 1); x; x &= x - 1)
            seen |= UINT64_C(1) << plain_sg(p, set & ~(UINT64_C(1) << v | (x & (0 - x))));
    }
    int m = 0;
    while (seen >> m & 1) m++;
    slot = plain_slot(p, set);   /* the table may have grown meanwhile */
    if (*slot < 0) p->n++;
    p->keys[slot - p->vals] = set;
    *slot = (int8_t)m;
    return m;
}

typedef struct row { const char *game; int edge; int r, c; } row;

/* One board of a row, its search's value from a cold store, in `secs` by the clock clk. */
typedef struct bench_board { gr_ctx c; gr_game g; gr_board b; gr_board_rule rule; } bench_board;
static void board_open(bench_board *k, const row *w) {
    gr_ctx_init(&k->c, "bench", "", 0);
    int64_t pos[GR_MAX_ARITY] = { w->r, w->c, BK_GRID };
    memset(&k->g, 0, sizeof k->g);
    gr_board_make(&k->c, &k->g, pos, &k->b);
    k->rule = (gr_board_rule){ w->edge, w->edge ? 0 : 1, NULL };
}
static int64_t board_value(bench_board *k, int threads, double (*clk)(void), double *secs) {
    gr_bstore store;
    memset(&store, 0, sizeof store);
    uint64_t all = k->b.n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << k->b.n) - 1;
    double t0 = clk();
    gr_bsearch s;
    gr_bsearch_init(&s, &k->c, &k->b, &k->rule, &store, GR_CANON_GRAPH);
    gr_bteam_use(&s, threads);
    int64_t v = gr_bsearch_sg(&s, &all);
    gr_bsearch_free(&s);
    *secs = clk() - t0;
    gr_bstore_free(&k->c, &store);
    return v;
}

/* One board's value with `threads` threads: seconds by the clock. */
static double timed_search(const row *w, int threads, int64_t *value) {
    bench_board k;
    board_open(&k, w);
    double t;
    *value = board_value(&k, threads, now, &t);
    gr_ctx_free(&k.c);
    return t;
}

static void threads_rows(void) {
    static const row rows[] = { { "Cram", 1, 5, 7 }, { "Cram", 1, 4, 9 }, { "Node Kayles", 0, 3, 21 } };
    printf("\n%-12s %-6s %3s %10s %10s %8s\n", "game", "board", "sg", "1 thread s", "2 threads s", "ratio");
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        int64_t v1, v2;
        double t1 = timed_search(&rows[i], 1, &v1), t2 = timed_search(&rows[i], 2, &v2);
        if (v1 != v2) { fprintf(stderr, "bench_boards: %s %dx%d: %lld alone, %lld with two threads\n", rows[i].game, rows[i].r, rows[i].c, (long long)v1, (long long)v2); exit(1); }
        char board[16];
        snprintf(board, sizeof board, "%dx%d", rows[i].r, rows[i].c);
        printf("%-12s %-6s %3lld %10.2f %10.2f %7.2fx\n", rows[i].game, board, (long long)v1, t1, t2, t1 / t2);
        fflush(stdout);
    }
}

int main(int argc, char **argv) {
    int quick = argc > 1 && !strcmp(argv[1], "--quick");
    static const row rows[] = {
        { "Cram", 1, 3, 4 }, { "Cram", 1, 4, 4 }, { "Cram", 1, 4, 5 }, { "Cram", 1, 5, 5 }, { "Cram", 1, 4, 6 },
        { "Node Kayles", 0, 3, 6 }, { "Node Kayles", 0, 3, 8 }, { "Node Kayles", 0, 4, 5 }, { "Node Kayles", 0, 4, 6 },
        { "Node Kayles", 0, 5, 5 },
    };
    print_load(0.5, " (busy: the times are shares of the cores)");
    printf("%-12s %-6s %3s %10s %10s %8s %9s %9s  %s\n", "game", "board", "sg", "search s", "plain s", "ratio", "growth", "(plain)", "plain positions");
    double prev = 0, prev_plain = 0;
    const char *prev_game = "";
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        const row *w = &rows[i];
        if (quick && w->r * w->c > 20) continue;
        bench_board k;
        board_open(&k, w);
        double search;
        int64_t v = board_value(&k, 1, cpu, &search);
        double t1 = cpu();
        plain p = { .b = &k.b, .edge = w->edge };
        int pv = plain_sg(&p, k.b.n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << k.b.n) - 1);
        double plain_s = cpu() - t1;
        if (pv != v) { fprintf(stderr, "bench_boards: %s %dx%d: the search says %lld, the plain search %d\n", w->game, w->r, w->c, (long long)v, pv); return 1; }
        int same = !strcmp(prev_game, w->game);
        char board[16], growth[16] = "", pgrowth[16] = "";
        snprintf(board, sizeof board, "%dx%d", w->r, w->c);
        if (same && prev > 0) snprintf(growth, sizeof growth, "x%.1f", search / prev);
        if (same && prev_plain > 0) snprintf(pgrowth, sizeof pgrowth, "x%.1f", plain_s / prev_plain);
        printf("%-12s %-6s %3lld %10.3f %10.3f %7.1fx %9s %9s  %zu\n", w->game, board, (long long)v, search, plain_s,
               plain_s / (search > 1e-6 ? search : 1e-6), growth, pgrowth, p.n);
        fflush(stdout);
        prev = search; prev_plain = plain_s; prev_game = w->game;
        free(p.keys);
        free(p.vals);
        gr_ctx_free(&k.c);
    }
    if (!quick) threads_rows();
    return 0;
}
