/* bench_rare: the rare-value kernel (src/eval/heap/sparse.h) at the machine's limit: each vector
 * path (core/simd.h: avx512, avx2, sse2, scalar; those this processor has), forced in turn in
 * this process, on Officers (0.6: u16 table, P = 512) and Grundy's game (4!.0: u8 table) to
 * 2^K heaps (default 22) with one thread and no proved period: seconds, ns per heap, ns per
 * look-up of a rare heap (per heap and rare heap: the kernel's unit of work), millions of
 * values a second, and whether the values are byte for byte those of the first path. Then the
 * best path with 1 thread against N (default 2), best of R rounds (default 2), their ratio and
 * the cores each run got (CPU time over wall time: on a shared machine read the ratio with it).
 * The load average is printed first.
 *
 * usage: bench_rare [--size K] [--threads N] [--rounds R] [--paths avx512,sse2,...] [--only 1|2] */
#include <unistd.h>
#include "benchoctal.h"
#include "simd.h"
#include "eval/evaluator.h"
#include "eval/cache.h"
#include "eval/heap/sgtable.h"

/* The rare class's size at the end, from --explain's line (0 if the kernel was not in use). */
static int64_t rare_heaps(const gr_game *g) {
    char why[512];
    gr_heap_describe(g, why, sizeof why);
    const char *p = strstr(why, "rare class ");
    return p ? strtoll(p + 11, NULL, 10) : 0;
}

int main(int argc, char **argv) {
    int K = 22, threads = 2, rounds = 2, only = 0;
    const char *paths = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) K = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--paths") && i + 1 < argc) paths = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = atoi(argv[++i]);
        else { fprintf(stderr, "usage: bench_rare [--size K] [--threads N] [--rounds R] [--paths avx512,sse2,...] [--only 1|2]\n"); return 2; }
    }
    if (K < 12 || K > 30 || threads < 2 || threads > 256 || rounds < 1) {
        fprintf(stderr, "bench_rare: --size from 12 to 30, --threads from 2\n");
        return 2;
    }
    print_load(0.5, ": busy, times are high");
    int best = gr_simd_best();
    printf("vector paths: best here %s\n", gr_simd_name(best));
    static const char *codes[] = { "0.6", "4!.0" };
    int64_t n = ((int64_t)1 << K) - 1;
    int bad = 0;
    if (only != 2) {
        printf("rare-value kernel, one thread, to 2^%d, each path forced\n", K);
        printf("%-5s %-7s %8s %8s %12s %9s %7s  %s\n", "code", "path", "seconds", "ns/heap", "ns/look-up", "M/s", "rare", "values");
        for (size_t ci = 0; ci < sizeof codes / sizeof *codes; ci++) {
            unsigned char *first = NULL;
            size_t bytes = 0;
            for (int path = best; path >= GR_SIMD_SCALAR; path--) {
                if (paths && !strstr(paths, gr_simd_name(path))) continue;
                gr_simd_force(path);
                unit u;
                gr_game *g = octal_fresh(&u, codes[ci], 1, 0);
                double t = octal_fill(&u, g, n);
                int64_t nr = rare_heaps(g);
                const gr_sgtable *tb = GR_CACHED(g, sg);
                size_t sz = (size_t)tb->n * (size_t)tb->width;
                int same = 1;
                if (!first) {
                    first = xmalloc(sz);
                    memcpy(first, tb->data, sz);
                    bytes = sz;
                } else {
                    same = sz == bytes && !memcmp(first, tb->data, sz);
                }
                bad |= !same;
                printf("%-5s %-7s %8.3f %8.1f %12.3f %9.3f %7lld  %s\n", codes[ci], gr_simd_name(path), t, t / (double)(n + 1) * 1e9,
                       nr ? t / (double)(n + 1) / (double)nr * 1e9 : 0.0, (double)(n + 1) / t * 1e-6, (long long)nr,
                       same ? "same bytes" : "DIFFER");
                fflush(stdout);
                gr_ctx_free(&u.c);
            }
            free(first);
        }
    }
    if (only != 1) {
        gr_simd_force(-1);
        printf("%s path, 1 thread against %d, to 2^%d, best of %d alternating rounds\n", gr_simd_name(gr_simd_level()), threads, K, rounds);
        printf("%-5s %10s %10s %9s %13s  %s\n", "code", "1 thread", "threads", "speed-up", "cores got", "values");
        for (size_t ci = 0; ci < sizeof codes / sizeof *codes; ci++) {
            double bt[2] = { 1e300, 1e300 }, cpu1 = 0, cpu2 = 0;
            int same = 1;
            for (int r = 0; r < rounds; r++) {
                double cpu[2] = { 0, 0 };
                double prev[2] = { bt[0], bt[1] };
                same &= octal_thread_round(codes[ci], threads, 0, n, bt, cpu);
                if (bt[0] < prev[0]) cpu1 = cpu[0];
                if (bt[1] < prev[1]) cpu2 = cpu[1];
            }
            printf("%-5s %10.3f %10.3f %8.2fx %6.2f %6.2f  %s\n", codes[ci], bt[0], bt[1], bt[0] / bt[1], cpu1 / bt[0],
                   cpu2 / bt[1], same ? "same bytes" : "DIFFER");
            fflush(stdout);
            bad |= !same;
        }
    }
    return bad;
}
