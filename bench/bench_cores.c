/* bench_cores: what the threads give against what the cores give, in one process.
 *
 * "What the cores give" is measured, not assumed: the same one-thread job alone, and then two
 * copies of it side by side on two threads of this process (independent contexts, nothing
 * shared); cores = 2 x alone / side-by-side, 2.0 on two whole cores, less where the two vCPUs
 * share a core or the machine is busy (1.0: the second one gives nothing).
 *
 * Then, for each job, --threads 1 against the default (every core), ROUNDS alternating rounds on
 * fresh games, every round printed (the issue is the worst, not the best), the speed-up and
 * its share of what the cores give, and whether the values are byte for byte those of one
 * thread:
 *   the rare-value kernel: Grundy's game (4!.0) to 2^K (default 22), whose team (sparsespec.c)
 *     is chosen per chunk against one thread by measured rates (core/pace.h), with the
 *     chunks each way;
 *   the plain kernel for codes with no sparse split: 0.06 to 2^M (default 20), the heaps of a
 *     block shared by the team (eval/heap/octpar.c).
 *
 * usage: bench_cores [--size K] [--plain-size M] [--rounds R] [--threads N] */
#include <pthread.h>
#include "benchoctal.h"

typedef struct job { const char *code; int64_t n; double t; } job;

static void *alone(void *arg) {
    job *j = arg;
    unit u;
    gr_game *g = octal_fresh(&u, j->code, 1, 0);
    j->t = octal_fill(&u, g, j->n);
    gr_ctx_free(&u.c);
    return NULL;
}

/* 2 x (one copy alone) / (two copies side by side), the best of two tries of each */
static double cores_give(const char *code, int64_t n, double *one) {
    double a = 1e300, pair = 1e300;
    for (int r = 0; r < 2; r++) {
        job j = { code, n, 0 };
        alone(&j);
        if (j.t < a) a = j.t;
        job k[2] = { { code, n, 0 }, { code, n, 0 } };
        pthread_t th[2];
        double t0 = now();
        for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, alone, &k[i]);
        for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
        double t = now() - t0;
        if (t < pair) pair = t;
    }
    *one = a;
    return 2 * a / pair;
}

static void rounds_of(const char *code, int64_t n, int K, int threads, int rounds, double cores) {
    double worst = 1e300, best = 0;
    int same = 1;
    printf("%s to 2^%d: --threads 1 against %d, %d rounds (cores give %.2fx)\n", code, K, threads, rounds, cores);
    printf("  %5s %10s %10s %9s %9s  %s\n", "round", "1 thread", "default", "speed-up", "of cores", "chunks: one thread / team");
    for (int r = 0; r < rounds; r++) {
        unit u[2];
        gr_game *g[2];
        double t[2];
        for (int k = 0; k < 2; k++) {
            g[k] = octal_fresh(&u[k], code, k ? threads : 1, 0);
            t[k] = octal_fill(&u[k], g[k], n);
        }
        const gr_sgtable *ta = GR_CACHED(g[0], sg), *tb = GR_CACHED(g[1], sg);
        same &= ta->n == tb->n && ta->width == tb->width && !memcmp(ta->data, tb->data, (size_t)ta->n * (size_t)ta->width);
        gr_heap_counts kc = gr_heap_count(g[1]);
        double s = t[0] / t[1];
        if (s < worst) worst = s;
        if (s > best) best = s;
        printf("  %5d %9.3fs %9.3fs %8.2fx %8.0f%%  %lld / %lld\n", r + 1, t[0], t[1], s, 100 * s / cores,
               (long long)kc.paced_one, (long long)kc.paced_team);
        gr_ctx_free(&u[0].c);
        gr_ctx_free(&u[1].c);
    }
    printf("  worst %.2fx (%s than one thread), best %.2fx; worst of what the cores give: %.0f%%; values %s\n\n", worst,
           worst >= 1 ? "never slower" : "SLOWER", best, 100 * worst / cores, same ? "the same bytes" : "DIFFER");
}

int main(int argc, char **argv) {
    int K = 22, M = 20, rounds = 5, threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) K = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--plain-size") && i + 1 < argc) M = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_cores [--size K] [--plain-size M] [--rounds R] [--threads N]\n");
            return 2;
        }
    }
    if (K < 12 || K > 30 || M < 10 || M > 26 || rounds < 1 || threads < 2 || threads > 256) {
        fprintf(stderr, "bench_cores: --size 12..30, --plain-size 10..26, --rounds from 1, --threads from 2\n");
        return 2;
    }
    print_load(0.5, " (busy: the cores give less, and the figures say so)");
    double one;
    double c1 = cores_give("4!.0", (INT64_C(1) << K) - 1, &one);
    printf("what the cores give, Grundy's game to 2^%d: one alone %.3fs, two side by side: %.2fx\n", K, one, c1);
    double c2 = cores_give("0.06", (INT64_C(1) << M) - 1, &one);
    printf("what the cores give, 0.06 to 2^%d: one alone %.3fs, two side by side: %.2fx\n\n", M, one, c2);
    rounds_of("4!.0", (INT64_C(1) << K) - 1, K, threads, rounds, c1);
    rounds_of("0.06", (INT64_C(1) << M) - 1, M, threads, rounds, c2);
    return 0;
}
