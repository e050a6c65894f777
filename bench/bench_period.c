/* bench_period: the cost of finding periods next to the cost of the values, and the rare-value
 * kernel's speed-up with threads.
 *
 * Part 1, detection over table: for four octal codes (Grundy's game 4!.0, 0.6, 0.376, 0.354) the
 * table is computed to 2^K1 and 2^K2 (default 20 and 22) with one thread and no proved period
 * (so the table really has that many values); then the detector (period/detect.h) scans it in
 * the stages `check G periodic` uses (256, 512, ... up to the size) and reads every candidate's
 * saltus and preperiod. Printed: both times and their ratio (the check costs the table plus
 * this).
 *
 * Part 2, threads: Grundy's game and 0.6 to 2^T (default 20) with 1 thread and with N threads
 * (default 2), alternately in the same process, each run from heap 0 on a fresh game; the best
 * of R rounds (default 2) of each, their ratio, and whether the values are byte for byte the
 * same. On a machine shared with other work the ratio is the number to read; the load average
 * is printed first, since past one runnable thread per core it measures the scheduler instead.
 *
 * usage: bench_period [--sizes K1 K2] [--threads-to T] [--threads N] [--rounds R] [--only 1|2] */
#include <unistd.h>
#include "benchoctal.h"
#include "detect.h"
#include "eval/evaluator.h"
#include "eval/cache.h"
#include "eval/heap/sgtable.h"

/* The detector over the table in the check's stages; returns a checksum of what it read so
 * that nothing is optimised away. */
static int64_t detect_stages(gr_ctx *c, const gr_sgtable *t, int64_t n) {
    gr_detect d;
    gr_detect_init(&d, c);
    int64_t sum = 0;
    for (int64_t m = 256; m <= n; m = m * 2 > n && m < n ? n : m * 2) {
        switch (t->width) {   /* in place, as the heap's proof while filling scans it */
        case 1: gr_detect_scan_u8(&d, t->data, m); break;
        case 2: gr_detect_scan_u16(&d, t->data, m); break;
        case 4: gr_detect_scan_u32(&d, t->data, m); break;
        default: gr_detect_scan_i64(&d, t->data, m); break;
        }
        for (int64_t p = 1; p < m; p++) sum += gr_detect_start(&d, p) ^ gr_detect_saltus(&d, p);
        if (m == n) break;
    }
    gr_detect_free(&d);
    return sum;
}

int main(int argc, char **argv) {
    int K1 = 20, K2 = 22, T = 20, threads = 2, rounds = 2, only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sizes") && i + 2 < argc) { K1 = atoi(argv[++i]); K2 = atoi(argv[++i]); }
        else if (!strcmp(argv[i], "--threads-to") && i + 1 < argc) T = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = atoi(argv[++i]);
        else { fprintf(stderr, "usage: bench_period [--sizes K1 K2] [--threads-to T] [--threads N] [--rounds R] [--only 1|2]\n"); return 2; }
    }
    if (K1 < 10 || K2 > 32 || K1 > K2 || T < 12 || T > 32 || threads < 2 || threads > 256 || rounds < 1) {
        fprintf(stderr, "bench_period: sizes from 2^10 to 2^32, --threads-to from 12 to 32, --threads from 2\n");
        return 2;
    }
    static const char *codes[] = { "4!.0", "0.6", "0.376", "0.354" };
    int bad = 0;
    if (only != 2) {
        printf("detection over table (one thread, no proved period): the detector in the check's stages\n");
        printf("%-6s %4s %10s %10s %9s\n", "code", "2^k", "table s", "detect s", "ratio");
        for (size_t ci = 0; ci < sizeof codes / sizeof *codes; ci++) {
            unit u;
            gr_game *g = octal_fresh(&u, codes[ci], 1, 0);
            double tt = 0;
            for (int k = K1; k <= K2; k += K2 - K1 > 0 ? K2 - K1 : 1) {
                int64_t n = (int64_t)1 << k;
                tt += octal_fill(&u, g, n - 1);
                double t0 = now();
                volatile int64_t sum = detect_stages(&u.c, GR_CACHED(g, sg), n);
                (void)sum;
                double td = now() - t0;
                printf("%-6s %4d %10.3f %10.3f %8.3fx\n", codes[ci], k, tt, td, td / (tt > 0 ? tt : 1e-9));
                fflush(stdout);
                if (K1 == K2) break;
            }
            gr_ctx_free(&u.c);
        }
    }
    if (only != 1) {
        printf("rare-value kernel, 1 thread against %d, to 2^%d, best of %d alternating rounds in this process\n",
               threads, T, rounds);
        /* the machine's load (Linux): with more runnable threads than cores the ratio below
         * measures the scheduler's shares, not the kernel (see "cores got") */
        print_load(0, ": busy, the speed-up is not the kernel's");
        printf("%-6s %10s %10s %9s %13s  %s\n", "code", "1 thread", "threads", "speed-up", "cores got", "values");
        static const char *tcodes[] = { "4!.0", "0.6" };
        int64_t n = ((int64_t)1 << T) - 1;
        for (size_t ci = 0; ci < sizeof tcodes / sizeof *tcodes; ci++) {
            double best[2] = { 1e300, 1e300 }, cpu1 = 0, cpu2 = 0;
            int same = 1;
            for (int r = 0; r < rounds; r++) {
                double cpu[2] = { 0, 0 };
                double prev[2] = { best[0], best[1] };
                same &= octal_thread_round(tcodes[ci], threads, 1, n, best, cpu);
                if (best[0] < prev[0]) cpu1 = cpu[0];
                if (best[1] < prev[1]) cpu2 = cpu[1];
            }
            /* cores got: each run's CPU time over its wall time, i.e. how many cores it actually
             * had (on a loaded machine far below its thread count: read the ratio with that) */
            printf("%-6s %10.3f %10.3f %8.2fx %6.2f %6.2f  %s\n", tcodes[ci], best[0], best[1], best[0] / best[1],
                   cpu1 / best[0], cpu2 / best[1], same ? "same bytes" : "DIFFER");
            fflush(stdout);
            bad |= !same;
        }
    }
    return bad;
}
