/* unit_threads: every --threads value gives the same values. Octal codes (Grundy's game, 0.16,
 * 0.007, 0.6, Kayles and others, '!' included) are computed past the heap where the kernels
 * split their work across threads, with the plain kernel and with the default kernels (rare
 * values, proved periods), by 1, 2, 3 and 8 threads; every value must equal the plain kernel's
 * values with one thread, and those the naive recurrence over gr_heap_options. */
#include <stdlib.h>
#include "gamefix.h"
#include "eval/heap/heap.h"
#include "eval/heap/octpar.h"
#include "pace.h"
#include "eval/cache.h"
#include "eval/heap/sgtable.h"
#include "eval/heap/tablefile.h"

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

/* The choice between one thread and a team (core/pace.h), on made-up rates: the team first,
 * then one thread once, then the faster, the other every GR_PACE_PROBE chunks; a change of
 * load turns the choice within a few chunks. */
static int picks(gr_pace *p, double team, double one, int chunks, int64_t *work, double *clock) {
    int teams = 0;
    for (int i = 0; i < chunks; i++) {
        int way = gr_pace_pick(p);
        teams += way == GR_PACE_TEAM;
        gr_pace_begin(p, way, *clock, *work);
        *clock += 1.0;
        *work += (int64_t)(way == GR_PACE_TEAM ? team : one);
        gr_pace_end(p, *clock, *work);
    }
    return teams;
}
static void pace_rules(void) {
    gr_pace p;
    gr_pace_init(&p);
    int64_t work = 0;
    double clock = 0;
    CHECK_EQ(gr_pace_pick(&p), GR_PACE_TEAM);
    CHECK(gr_pace_measuring(&p));                      /* (a shorter chunk: only a rate) */
    CHECK_EQ(picks(&p, 2000, 1000, 1, &work, &clock), 1);
    CHECK_EQ(gr_pace_pick(&p), GR_PACE_ONE);           /* one thread measured once */
    CHECK(gr_pace_measuring(&p));
    CHECK_EQ(picks(&p, 2000, 1000, 1, &work, &clock), 0);
    /* both known, the team twice as fast: the team but for one probe every 16 chunks, and the
     * chunks that only measure are exactly the probes */
    int measuring = 0, probes = 0;
    for (int i = 0; i < 160; i++) {
        int m = gr_pace_measuring(&p);
        measuring += m;
        probes += gr_pace_pick(&p) == GR_PACE_ONE;
        CHECK_EQ(m, gr_pace_pick(&p) == GR_PACE_ONE);
        picks(&p, 2000, 1000, 1, &work, &clock);
    }
    CHECK_EQ(measuring, 10);
    CHECK_EQ(probes, 10);
    /* the team slows to a third of one thread (a busy machine): one thread within a few
     * chunks, the team again only at its probes */
    int t = picks(&p, 300, 1000, 160, &work, &clock);
    CHECK(t >= 10 && t <= 16);
    CHECK_EQ(picks(&p, 300, 1000, 16, &work, &clock), 1);
    /* and back */
    /* the first probe of the team (within 16 chunks) turns it; then one thread at its probes */
    t = picks(&p, 2000, 1000, 160, &work, &clock);
    CHECK(t >= 160 - 16 - 10 && t <= 151);
    /* a team's chunk cut short (a new rare heap dropped its lead: a few heaps in a long time)
     * is counted, but its rate is not the team's: the choice stays */
    gr_pace q;
    gr_pace_init(&q);
    work = 0;
    clock = 0;
    picks(&q, 2000, 1000, 2, &work, &clock);
    double team_rate = q.rate[GR_PACE_TEAM];
    int64_t taken = q.taken[GR_PACE_TEAM];
    CHECK_EQ(gr_pace_pick(&q), GR_PACE_TEAM);
    gr_pace_begin(&q, GR_PACE_TEAM, clock, work);
    clock += 1.0;
    work += 5;
    gr_pace_cut(&q, clock, work);
    CHECK(q.rate[GR_PACE_TEAM] == team_rate);
    CHECK_EQ(q.taken[GR_PACE_TEAM], taken + 1);
    CHECK_EQ(gr_pace_pick(&q), GR_PACE_TEAM);
    /* the same chunk timed would have made one thread the faster */
    gr_pace_begin(&q, GR_PACE_TEAM, clock, work);
    clock += 1.0;
    work += 5;
    gr_pace_end(&q, clock, work);
    CHECK_EQ(gr_pace_pick(&q), GR_PACE_ONE);
}

/* Grundy's game with two threads whose choice is set to one thread (every chunk past 4096 by
 * the serial loop while --threads is 2), to the team but for one probe, and to a mix: the
 * values of one thread every time, and the chunks counted where they ran. */
static void paced_values(void) {
#ifdef T_SANITIZED
    const int64_t far = 200000;
#else
    const int64_t far = 600000;
#endif
    int64_t m, *ref = values_to("4!.0", far, 1, 0, &m);
    static const double one_rate[3] = { 1e30, 1e-30, 1e30 };
    static const int64_t start[3] = { 0, 0, GR_PACE_PROBE - 2 };
    for (int k = 0; k < 3 && ref; k++) {
        gf f;
        if (!CHECK(gf_open(&f, "game g = octal \"4!.0\";\n"))) { gf_close(&f); break; }
        f.c.threads = 2;
        gr_game *g = gf_game(&f, "g");
        gr_pace *p = gr_heap_sparse_pace(&f.c, g);
        if (!CHECK(p != NULL)) { gf_close(&f); break; }
        p->rate[GR_PACE_ONE] = one_rate[k];
        p->rate[GR_PACE_TEAM] = 1;
        p->chunks = start[k];
        p->held = 1;   /* as given: a loaded machine's measured rates would choose otherwise */
        CHECK_EQ(gr_heap_ensure(&f.c, g, far), 0);
        for (int64_t i = 0; i <= far; i++)
            if (!CHECK_EQ(gr_heap_value(g, i), ref[i])) {
                printf("4!.0 paced (%d): heap %lld differs\n", k, (long long)i);
                break;
            }
        gr_heap_counts c = gr_heap_count(g);
        printf("4!.0 to %lld with two threads, paced (%d): %lld chunks by one thread, %lld by the team\n",
               (long long)far, k, (long long)c.paced_one, (long long)c.paced_team);
        CHECK(c.paced_one + c.paced_team >= 2);
        /* the way given, the other only at its probes, one chunk in GR_PACE_PROBE */
        int64_t probes = (c.paced_one + c.paced_team + GR_PACE_PROBE - 1) / GR_PACE_PROBE;
        if (k == 0) { CHECK(c.paced_team <= probes); CHECK(c.paced_one > c.paced_team); }
        if (k == 1) { CHECK(c.paced_one <= probes); CHECK(c.paced_team > c.paced_one); }
        if (k == 2) { CHECK(c.paced_team >= 1); CHECK(c.paced_one >= 1); }
        gf_close(&f);
    }
    free(ref);
}

/* A long search's table in a file (--histogram past --table-memory, here 16 KB) with the pair
 * searches in pieces of 64 pairs, each piece giving back the pages read (sparsescan.c,
 * tablefile.c): Grundy's game and 0.6 on 1 and 2 threads, every value that of one thread in
 * memory, and pieces given back many times (Grundy's game reads every pair of hundreds of
 * heaps below 82,860). */
static void filed_pieces(void) {
#ifdef T_SANITIZED
    const int64_t far = 40000;
#else
    const int64_t far = 150000;
#endif
    static const char *codes[] = { "4!.0", "0.6" };
    for (int ci = 0; ci < 2; ci++) {
        int64_t m, *ref = values_to(codes[ci], far, 1, 0, &m);
        for (int threads = 1; threads <= 2 && ref; threads++) {
            char src[128];
            snprintf(src, sizeof src, "game g = octal \"%s\";\n", codes[ci]);
            gf f;
            if (!CHECK(gf_open(&f, src))) { gf_close(&f); break; }
            f.c.threads = threads;
            f.c.histogram = "(unit_threads)";       /* a long search: its table may go to a file */
            f.c.table_memory = 16384;
            gr_game *g = gf_game(&f, "g");
            CHECK(gr_heap_sparse_piece(&f.c, g, 64));
            CHECK_EQ(gr_heap_ensure(&f.c, g, far), 0);
            for (int64_t i = 0; i <= far; i++)
                if (!CHECK_EQ(gr_heap_value(g, i), ref[i])) {
                    printf("%s in a file, searched in pieces, %d threads: heap %lld differs\n", codes[ci], threads, (long long)i);
                    break;
                }
            const gr_sgtable *t = GR_CACHED(g, sg);
            int64_t trims = t && t->file ? t->file->search_trims : -1;
            printf("%s to %lld in a file, %d threads: %lld pieces of searches gave pages back\n", codes[ci], (long long)far,
                   threads, (long long)trims);
            CHECK(trims > 10);
            gf_close(&f);
        }
        free(ref);
    }
}

int main(void) {
    pace_rules();
    paced_values();
    filed_pieces();
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
