/* bench_rare: the rare-value kernel (src/eval/heap/sparse.h) at the machine's limit: each vector
 * path (core/simd.h: avx512, avx2, sse2, scalar; those this processor has), forced in turn in
 * this process, on Officers (0.6: u16 table, P = 512) and Grundy's game (4!.0: u8 table) to
 * 2^K heaps (default 22) with one thread and no proved period: seconds, ns per heap, ns per
 * look-up of a rare heap (per heap and rare heap: the kernel's unit of work), millions of
 * values a second, and whether the values are byte for byte those of the first path (the scalar
 * path is the baseline in the same process); the first path's growth as the heaps double (its
 * times to 2^(K-2), 2^(K-1), 2^K and the exponent of each doubling: 1, the same cost a heap).
 * Then the
 * best path with 1 thread against N (default 2), best of R rounds (default 2), their ratio and
 * the cores each run got (CPU time over wall time: on a shared machine read the ratio with it).
 * The load average is printed first.
 *
 * Under the one-thread table, the peer researchers use: T. Czajka's octal-games analyzer (his
 * C++ program, built by bench/peer_tczajka.sh from a snapshot of his repository; never part of
 * this one), run as a separate program on each code to the same 2^K heaps, timed by wall and
 * CPU clock, its rate beside our best path's, and the numbers it prints (largest value, rare
 * count and last rare heap) checked against our values. Where it is not given or cannot run,
 * one line says so and how to build it.
 *
 * usage: bench_rare [--size K] [--threads N] [--rounds R] [--paths avx512,sse2,...] [--only 1|2]
 *                   [--peer PATH]   (default: $GRUNDY_PEER_TCZAJKA) */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "benchoctal.h"
#include "simd.h"
#include "eval/evaluator.h"
#include "eval/cache.h"
#include "eval/heap/sgtable.h"
#include "eval/heap/heap.h"

/* The rare class's size at the end, from --explain's line (0 if the kernel was not in use). */
static int64_t rare_heaps(const gr_game *g) {
    char why[512];
    gr_heap_describe(g, why, sizeof why);
    const char *p = strstr(why, "rare class ");
    return p ? strtoll(p + 11, NULL, 10) : 0;
}

/* --- The peer: T. Czajka's octal-games analyzer, run as a separate program ----------------- */

/* How to get it, for the line printed when it is not given or cannot run. */
#define PEER_HOW                                                                                   \
    "build T. Czajka's analyzer with bench/peer_tczajka.sh SRC_DIR OUT_DIR (SRC_DIR from git clone " \
    "https://github.com/tczajka/octal-games), then --peer OUT_DIR/tczajka-analyze"
/* Its analyzer keeps at most 2^28 values (maxn in analyze_exec.cc). */
enum { PEER_MAX_K = 28 };

extern char **environ;

/* Our values, reduced to what the peer's line can be checked against: per bucket (value << 1 |
 * heap parity) the number of heaps and the last one, and the largest value and its first heap. */
typedef struct values_seen {
    int64_t max, max_at, buckets;
    int kappa;                  /* gr_heap_rare_orientation: the parity of the split places */
    int64_t *count, *last;
} values_seen;

/* Of heaps 0..heaps-1 (tb->max is a bound, not always a value: the largest is found here). */
static values_seen see_values(const gr_game *g, const gr_sgtable *tb, int64_t heaps) {
    values_seen v = { .max = -1, .kappa = gr_heap_rare_orientation(g) };
    for (int64_t x = 0; x < heaps; x++)
        if (gr_sgt_get(tb, x) > v.max) { v.max = gr_sgt_get(tb, x); v.max_at = x; }
    v.buckets = 2 * (v.max + 1);
    v.count = xmalloc((size_t)v.buckets * sizeof *v.count);
    v.last = xmalloc((size_t)v.buckets * sizeof *v.last);
    for (int64_t x = 0; x < heaps; x++) {
        int64_t b = (gr_sgt_get(tb, x) << 1) | (x & 1);
        v.count[b]++;
        v.last[b] = x;
    }
    return v;
}

/* What the peer printed at 2^K heaps ("n=2^K largest G[i]=v rare_mask=m[pos] num_rare=r
 * last_rare=l"), its times, or how it ended without that line. */
typedef struct peer_report {
    double wall, cpu;
    int reached, pos;
    long long largest_at, largest, rare, last_rare;
    unsigned long long mask;
    char end[200];
} peer_report;

/* Whether line is the peer's line for 2^K (its numbers then in r). */
static int peer_line(const char *line, int K, peer_report *r) {
    int k, at = 0;
    if (sscanf(line, "n=2^%d largest G[%lld]=%lld rare_mask=%llx%n", &k, &r->largest_at, &r->largest, &r->mask, &at) != 4 ||
        k != K)
        return 0;
    r->pos = !strncmp(line + at, "pos", 3);
    return sscanf(line + at + (r->pos ? 3 : 0), " num_rare=%lld last_rare=%lld", &r->rare, &r->last_rare) == 2;
}

static double child_cpu(void) {
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* How a child that ended by itself ended, after its last line. */
static void describe_end(int status, const char *last, char *buf, size_t cap) {
    if (WIFEXITED(status)) snprintf(buf, cap, "ended with status %d", WEXITSTATUS(status));
    else snprintf(buf, cap, "killed by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    if (*last) snprintf(buf + strlen(buf), cap - strlen(buf), " after \"%.80s\"", last);
}

/* Starts `path game` with its standard output on a pipe (its input /dev/null: it reads nothing,
 * so it never waits on ours); the pipe's read end, or -1 with why. */
static int spawn_reading(const char *path, const char *game, pid_t *pid, char *why, size_t cap) {
    int fd[2];
    if (pipe(fd) != 0) { snprintf(why, cap, "no pipe: %s", strerror(errno)); return -1; }
    fcntl(fd[0], F_SETFD, FD_CLOEXEC);
    fcntl(fd[1], F_SETFD, FD_CLOEXEC);         /* fd 1 of the child is a dup2, kept across exec */
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    char *argv[] = { strdup(path), strdup(game), NULL };   /* exec's argv is not const */
    fflush(stdout);
    int err = argv[0] && argv[1] ? posix_spawn(pid, path, &fa, NULL, argv, environ) : ENOMEM;
    posix_spawn_file_actions_destroy(&fa);
    free(argv[0]);
    free(argv[1]);
    close(fd[1]);
    if (err) {
        close(fd[0]);
        snprintf(why, cap, "cannot run: %s", strerror(err));
        return -1;
    }
    return fd[0];
}

/* Runs the peer on game until its line for 2^K heaps, then kills it: it has no heap limit of
 * its own. wall is the time to that line; cpu the child's CPU time (RUSAGE_CHILDREN across the
 * wait: POSIX, and this process has no other children), which includes the moments between its
 * line and the kill. Returns 0, or -1 if it could not start. */
static int peer_run(const char *path, const char *game, int K, peer_report *r) {
    memset(r, 0, sizeof *r);
    pid_t pid;
    double cpu0 = child_cpu(), t0 = now();
    int fd = spawn_reading(path, game, &pid, r->end, sizeof r->end);
    if (fd < 0) return -1;
    FILE *out = fdopen(fd, "r");
    char line[512], last[512] = "";
    while (out && fgets(line, sizeof line, out)) {
        if ((r->reached = peer_line(line, K, r))) {
            r->wall = now() - t0;
            kill(pid, SIGKILL);
            break;
        }
        line[strcspn(line, "\n")] = 0;
        memcpy(last, line, sizeof last);
    }
    if (out) fclose(out);
    else close(fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    r->cpu = child_cpu() - cpu0;
    if (!r->reached) describe_end(status, last, r->end, sizeof r->end);
    return 0;
}

/* The peer's numbers against ours: its largest value and where it first is, and its rare
 * count and last rare heap recounted from our values under its own mask and rule (heap x is
 * rare when parity(sg(x) & mask) is even, flipped for "pos" when x's parity differs from the
 * split places'). Its count includes heap 0 where ours (the "rare" column) does not, and its
 * mask is chosen when values appear, ours at each doubling, so this recount is the fair test. */
static int peer_agrees(const values_seen *v, const peer_report *r, char *buf, size_t cap) {
    long long rare = 0, last = 0;
    for (int64_t b = 0; b < v->buckets; b++) {
        int flip = r->pos && v->kappa >= 0 && ((int)(b & 1) ^ v->kappa);
        if ((__builtin_parityll((unsigned long long)(b >> 1) & r->mask) ^ flip) || !v->count[b]) continue;
        rare += v->count[b];
        if (v->last[b] > last) last = v->last[b];
    }
    int same = r->largest == v->max && r->largest_at == v->max_at && r->rare == rare && r->last_rare == last;
    int k = snprintf(buf, cap, "largest G[%lld]=%lld, %lld rare to %lld (mask %llx%s)", r->largest_at, r->largest, r->rare,
                     r->last_rare, r->mask, r->pos ? " pos" : "");
    if (same) snprintf(buf + k, cap - (size_t)k, ": same in ours");
    else snprintf(buf + k, cap - (size_t)k, ": DIFFER, ours G[%lld]=%lld, %lld rare to %lld", (long long)v->max_at,
                  (long long)v->max, rare, last);
    return same;
}

/* The peer's lines under the one-thread table: each code run by the peer to 2^K, its seconds
 * and rate beside ours (ours_t: our one-thread time on path ours_path), and its numbers
 * checked. Returns 1 if they disagree with ours. */
static int peer_table(const char *path, int K, const char *const *codes, const char *const *names, size_t ncodes,
                      const double *ours_t, const char *ours_path, const values_seen *seen) {
    if (!path) { printf("peer: none given (--peer PATH or GRUNDY_PEER_TCZAJKA); " PEER_HOW "\n"); return 0; }
    if (access(path, X_OK) != 0) { printf("peer: %s is not runnable (%s); " PEER_HOW "\n", path, strerror(errno)); return 0; }
    if (K > PEER_MAX_K) { printf("peer: T. Czajka's analyzer stops at 2^%d heaps; not run to 2^%d\n", PEER_MAX_K, K); return 0; }
    printf("peer: T. Czajka's analyzer %s (one thread: it has no other), to 2^%d, stopped at its line for 2^%d\n", path, K, K);
    printf("%-5s %-7s %8s %8s %9s %9s %10s  %s\n", "code", "as", "seconds", "cpu", "M/s", "ours M/s", "ours/peer",
           "its numbers");
    int bad = 0;
    double heaps = (double)((int64_t)1 << K);
    for (size_t ci = 0; ci < ncodes; ci++) {
        peer_report r;
        char check[300];
        if (peer_run(path, names[ci], K, &r) != 0 || !r.reached) {
            printf("%-5s %-7s did not reach 2^%d: %s\n", codes[ci], names[ci], K, r.end);
            continue;
        }
        int same = peer_agrees(&seen[ci], &r, check, sizeof check);
        bad |= !same;
        printf("%-5s %-7s %8.3f %8.3f %9.3f %9.3f %9.2fx  %s\n", codes[ci], names[ci], r.wall, r.cpu, heaps / r.wall * 1e-6,
               ours_t[ci] > 0 ? heaps / ours_t[ci] * 1e-6 : 0.0, ours_t[ci] > 0 ? r.wall / ours_t[ci] : 0.0, check);
        fflush(stdout);
    }
    printf("(ours M/s: the %s path above; ours/peer: our rate over its)\n", ours_path);
    return bad;
}

int main(int argc, char **argv) {
    int K = 22, threads = 2, rounds = 2, only = 0;
    const char *paths = NULL, *peer = getenv("GRUNDY_PEER_TCZAJKA");
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) K = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--paths") && i + 1 < argc) paths = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--peer") && i + 1 < argc) peer = argv[++i];
        else {
            fprintf(stderr, "usage: bench_rare [--size K] [--threads N] [--rounds R] [--paths avx512,sse2,...] [--only 1|2] "
                            "[--peer PATH]\n");
            return 2;
        }
    }
    if (K < 12 || K > 30 || threads < 2 || threads > 256 || rounds < 1) {
        fprintf(stderr, "bench_rare: --size from 12 to 30, --threads from 2\n");
        return 2;
    }
    print_load(0.5, ": busy, times are high");
    int best = gr_simd_best();
    printf("vector paths: best here %s\n", gr_simd_name(best));
    static const char *const codes[] = { "0.6", "4!.0" };
    /* The same games as the peer names them: it reads only the digits of an octal code, and
     * Grundy's game (4!.0 here) by the name "grundy". */
    static const char *const peer_names[] = { "0.6", "grundy" };
    enum { NCODES = sizeof codes / sizeof *codes };
    double ours_t[NCODES] = { 0 };      /* our one-thread time on the first path timed: the peer's rival */
    values_seen seen[NCODES] = { { 0 } };
    const char *ours_path = gr_simd_name(best);
    int64_t n = ((int64_t)1 << K) - 1;
    int bad = 0;
    if (only != 2) {
        printf("rare-value kernel, one thread, to 2^%d, each path forced\n", K);
        printf("%-5s %-7s %8s %8s %12s %9s %7s  %s\n", "code", "path", "seconds", "ns/heap", "ns/look-up", "M/s", "rare", "values");
        for (size_t ci = 0; ci < NCODES; ci++) {
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
                    ours_t[ci] = t;
                    ours_path = gr_simd_name(path);
                    if (peer) seen[ci] = see_values(g, tb, n + 1);
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
        /* the growth as the heaps double, on the first path timed: the exponent e of time ~ n^e
         * (1: the same cost a heap at every size) */
        printf("growth on the %s path: seconds to 2^%d, 2^%d, 2^%d and the exponent of each doubling\n", ours_path, K - 2,
               K - 1, K);
        gr_simd_force(gr_simd_parse(ours_path));
        for (size_t ci = 0; ci < NCODES && ours_t[ci] > 0; ci++) {
            double tk[3];
            for (int d = 2; d >= 1; d--) {
                unit u;
                gr_game *g = octal_fresh(&u, codes[ci], 1, 0);
                tk[2 - d] = octal_fill(&u, g, ((int64_t)1 << (K - d)) - 1);
                gr_ctx_free(&u.c);
            }
            tk[2] = ours_t[ci];
            printf("%-5s %8.3f %8.3f %8.3f   exponents %.2f %.2f\n", codes[ci], tk[0], tk[1], tk[2], log2(tk[1] / tk[0]),
                   log2(tk[2] / tk[1]));
        }
        bad |= peer_table(peer, K, codes, peer_names, NCODES, ours_t, ours_path, seen);
        for (size_t ci = 0; ci < NCODES; ci++) {
            free(seen[ci].count);
            free(seen[ci].last);
        }
    } else if (peer) {
        printf("peer: timed under the one-thread table, which --only 2 leaves out\n");
    }
    if (only != 1) {
        gr_simd_force(-1);
        printf("%s path, 1 thread against %d, to 2^%d, best of %d alternating rounds\n", gr_simd_name(gr_simd_level()), threads, K, rounds);
        printf("%-5s %10s %10s %9s %13s  %s\n", "code", "1 thread", "threads", "speed-up", "cores got", "values");
        for (size_t ci = 0; ci < NCODES; ci++) {
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
