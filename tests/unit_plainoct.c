/* unit_plainoct: the plain octal kernel for codes with no sparse split (0.04, 0.06: the rare
 * class stays large, so the rare-value kernel never runs) and its search for every value
 * (eval/heap/octneed.h, the AVX-512 path of u16 tables):
 *   - gr_octneed_value against the mex of every option, byte marks as the old loop set them,
 *     on random u16 tables (values below P = 128 .. 16384: every register count of the
 *     bitset, and past 4096 the window, whose heaps with a value from 4096 on are left
 *     undecided), random codes (take, whole, '=', '!' and plain splits) and heaps;
 *   - the kernel end to end, the rare-value kernel off: 0.04, 0.06 and other codes with
 *     growing values, and random codes, to 20000 heaps, every vector path forced, one thread
 *     and two (octpar.c), and with AVX-512 also a window of 256 (the heaps past it done by the
 *     byte marks: serially, and again by octpar's finisher), against a brute-force twin in
 *     this file (the mex of every option);
 *   - the research columns of 0.04 and 0.06 to 20000 through the C API, against the columns
 *     computed here from the twin's values (every mask tried, oriented as the rare-value
 *     kernel: split place 2, so heap parity allowed and the common class 1); and to 2^17
 *     (heaps 0..131071) against tczajka's published rows (UnsolvedGames.md: .04 largest 1024
 *     at 109363, mask 7b8, 18860 rare, the last 131003; .06 1045 at 127083, 5a0, 52923,
 *     131070). */
#include "gamefix.h"
#include "simd.h"
#include "grundy.h"
#include "eval/heap/heap.h"
#include "eval/heap/octneed.h"

#ifdef T_SANITIZED
enum { N = 6000, TRIALS = 300 };
#else
enum { N = 20000, TRIALS = 3000 };
#endif

/* The values of octal code cs to n by the plain kernel (the rare-value kernel off). */
static int values(const char *cs, int64_t n, int threads, int64_t *out) {
    char src[320];
    snprintf(src, sizeof src, "game a = octal \"%.200s\";\n", cs);
    gf f;
    if (!gf_open(&f, src)) { gf_close(&f); return 0; }
    gr_game *a = gf_game(&f, "a");
    gr_heap_tune(&f.c, a, -1, 0);
    f.c.threads = threads;
    int ok = gr_heap_ensure(&f.c, a, n) == 0;
    for (int64_t i = 0; i <= n && ok; i++) out[i] = gr_heap_value(a, i);
    gf_close(&f);
    return ok;
}

/* The twin: digits of "0.d1d2..." (d & 1: take a whole heap of k, d & 2: leave one heap of
 * n - k >= 1, d & 4: leave two heaps, a '!' after it: unequal), the mex of every option. */
static void brute(const char *cs, int64_t n, int64_t *g) {
    int dig[16] = { 0 }, uneq[16] = { 0 }, nd = 0;
    for (const char *p = strchr(cs, '.') + 1; *p && nd < 15; p++) {
        if (*p == '!') { uneq[nd] = 1; continue; }
        dig[++nd] = *p - '0';
    }
    uint8_t *seen = calloc(1 << 17, 1);
    for (int64_t m = 0; m <= n; m++) {
        int64_t top = 0;
        for (int k = 1; k <= nd; k++) {
            int64_t r = m - k;
            if (r < 0) continue;
            if ((dig[k] & 1) && r == 0) seen[0] = 1;
            if ((dig[k] & 2) && r >= 1) seen[g[r]] = 1;
            if (dig[k] & 4)
                for (int64_t a = 1; 2 * a <= r; a++)
                    if (!(uneq[k] && 2 * a == r)) seen[g[a] ^ g[r - a]] = 1;
        }
        while (seen[top]) top++;
        g[m] = top;
        memset(seen, 0, 1 << 17);
    }
    free(seen);
}

/* The mex of every option of heap n of a random code (as the old byte-mark loop). */
static uint64_t mex_marks(const gr_tbcode *code, const uint16_t *t, int64_t n, uint8_t *s, uint64_t P) {
    memset(s, 0, P + 1);
    int64_t last = code->last_place < n ? code->last_place : n;
    for (int64_t k = code->d[0].mask ? 0 : 1; k <= last; k++) {
        uint32_t d = code->d[k].mask;
        int64_t r = n - k;
        if (r == 0) { if (d & 1u) s[0] = 1; continue; }
        if (d & 2u) s[t[r]] = 1;
        if (!(d & 4u)) continue;
        if (code->d[k].constraint == TB_EQUAL) { if (r % 2 == 0) s[0] = 1; continue; }
        int64_t half = code->d[k].constraint ? (r - 1) / 2 : r / 2;
        for (int64_t a = 1; a <= half; a++) s[t[a] ^ t[r - a]] = 1;
    }
    uint64_t v = 0;
    while (s[v]) v++;
    return v;
}

static void search_function(void) {
    if (!gr_octneed_ok(4096)) { printf("octneed: no AVX-512 here, the function is not used\n"); return; }
    enum { TN = 9000, PLANT = 32800 };
    static uint16_t t[PLANT];
    static uint8_t need[32769], s[32769];
    t_rng r = { t_seed(3030) };
    int agree = 0, missing = 0, undecided = 0, later = 0;
    /* the search's own window, then one of 512 (so that heaps pass it and the next ones often) */
    for (int it = 0; it < 2 * TRIALS; it++) {
        uint64_t win = it < TRIALS ? GR_OCTNEED_WINDOW : 512;
        gr_octneed_test_window(it < TRIALS ? 0 : 512);
        /* past 4096 the window: values below 4096 decided by the first, the rest by the next */
        static const uint64_t Ps[8] = { 128, 256, 512, 1024, 2048, 4096, 8192, 16384 };
        uint64_t P = Ps[t_range(&r, 0, 7)];
        /* values skewed low (as in the games), some up to P - 1; a few left out: missing values */
        uint64_t hole = (uint64_t)t_range(&r, 0, (int64_t)P - 1);
        for (int i = 0; i < TN; i++) {
            uint64_t v = t_range(&r, 0, 2) ? (uint64_t)t_range(&r, 0, (int64_t)P / 4) : (uint64_t)t_range(&r, 0, (int64_t)P - 1);
            t[i] = (uint16_t)(v == hole ? 0 : v);
        }
        gr_tbcode code;
        gr_tbdigit digs[5];
        memset(&code, 0, sizeof code);
        memset(digs, 0, sizeof digs);
        code.d = digs;
        code.last_place = (int)t_range(&r, 1, 4);
        code.ndigits = code.last_place + 1;
        code.max_heaps = 2;
        for (int k = 1; k <= code.last_place; k++) {
            code.d[k].mask = (uint32_t)t_range(&r, 0, 7);
            if (code.d[k].mask & 4u) code.d[k].constraint = (int)t_range(&r, 0, 5) == 0 ? TB_EQUAL : (int)t_range(&r, 0, 3) == 0 ? TB_UNEQUAL : TB_ANY;
        }
        code.d[code.last_place].mask |= 4u;
        int64_t n = t_range(&r, 1, TN - 1);
        uint64_t want = mex_marks(&code, t, n, s, P), got = gr_octneed_value(&code, t, n, P, need);
        /* not decided there: past the windows, or heap n - 1's value is (the byte marks then) */
        if ((want >= GR_OCTNEED_WINDOWS * win || t[n - 1] >= GR_OCTNEED_WINDOWS * win) && P > GR_OCTNEED_WINDOWS * win)
            want = UINT64_MAX;
        undecided += got == UINT64_MAX;
        later += got != UINT64_MAX && got >= win;
        agree += want == got;
        missing += want < P;
        if (want != got) printf("octneed: P %llu, heap %lld: %llu, the marks' mex %llu\n", (unsigned long long)P, (long long)n,
                                (unsigned long long)got, (unsigned long long)want);
    }
    gr_octneed_test_window(0);
    {
        /* planted: every value 0..top an option of heap 2 top + 2 (0.6: the splits (a, 2 top - a)
         * hold a ^ (2 top + 1 - a); P = 2 top, the power of two past top): top 4096 and 8192 are decided by
         * the second and third windows, 16384 is past the four (the byte marks decide it) */
        gr_tbdigit digs[2] = { { 0, 0 }, { 6, TB_ANY } };
        gr_tbcode code = { digs, 2, 0, 2, 1 };
        static const int64_t tops[3] = { 4096, 8192, 16384 };
        for (int q = 0; q < 3; q++) {
            int64_t top = tops[q], heap = 2 * top + 2;
            uint64_t P = 2 * (uint64_t)top;
            for (int i = 0; i < PLANT; i++) t[i] = (uint16_t)(i <= top ? i : 0);
            uint64_t want = mex_marks(&code, t, heap, s, P), got = gr_octneed_value(&code, t, heap, P, need);
            printf("octneed, planted: every value to %lld an option; the marks' mex %llu, the search %llu\n", (long long)top,
                   (unsigned long long)want, (unsigned long long)got);
            CHECK(want > (uint64_t)top);
            if (q < 2) {
                CHECK_EQ(got, want);
                later++;
            } else {
                CHECK_EQ(got, UINT64_MAX);
                undecided++;
            }
        }
        /* and with P = 4096 (no window) the search decides it: every value below P met */
        for (int i = 0; i < TN; i++) t[i] = (uint16_t)(i < 4096 ? i : 0);
        CHECK_EQ(gr_octneed_value(&code, t, 8194, 4096, need), mex_marks(&code, t, 8194, s, 4096));
    }
    printf("octneed: %d of %d random heaps as the mex of the marks (%d with a value below P); %d decided past the first "
           "window, %d past the last\n", agree, 2 * TRIALS, missing, later, undecided);
    CHECK_EQ(agree, 2 * TRIALS);
    CHECK(missing > TRIALS / 4);
    CHECK(later > TRIALS / 20);
    CHECK(undecided > 0);
}

/* Every mask and heap parity, oriented as the rare-value kernel for split place 2 (kappa 0:
 * the common class 1): the fewest rare heaps, the first in the order (mask << 1) | hp. */
typedef struct cols { int64_t largest, at, count, last; uint64_t mask; int hp; } cols;
static cols columns_of(const int64_t *g, int64_t n) {
    cols c = { -1, -1, INT64_MAX, -1, 0, 0 };
    for (int64_t x = 0; x <= n; x++) if (g[x] > c.largest) { c.largest = g[x]; c.at = x; }
    uint64_t P = 1;
    while (P <= (uint64_t)c.largest) P <<= 1;
    int64_t *cnt[2] = { calloc(P, sizeof(int64_t)), calloc(P, sizeof(int64_t)) };
    for (int64_t x = 0; x <= n; x++) cnt[x & 1][g[x]]++;
    for (uint64_t mask = 1; mask < P; mask++)
        for (int hp = 0; hp < 2; hp++) {
            int64_t rare = 0;
            for (int par = 0; par < 2; par++)
                for (uint64_t v = 0; v < P; v++)
                    if ((__builtin_parityll(v & mask) ^ (hp & par)) == 0) rare += cnt[par][v];
            if (rare < c.count) { c.count = rare; c.mask = mask; c.hp = hp; }
        }
    for (int64_t x = 0; x <= n; x++)
        if ((__builtin_parityll((uint64_t)g[x] & c.mask) ^ (c.hp & (int)(x & 1))) == 0) c.last = x;
    free(cnt[0]);
    free(cnt[1]);
    return c;
}

static void check_columns(gr_program *p, const char *claim, int64_t to, int64_t largest, int64_t at, uint64_t mask,
                          int64_t count, int64_t last) {
    gr_check_answer c;
    CHECK_EQ(gr_check_to(p, claim, to, &c), GR_OK);
    CHECK_EQ(c.checked_to, to);
    CHECK_EQ(c.largest, largest);
    CHECK_EQ(c.largest_at, at);
    CHECK_EQ(c.rare_mask, mask);
    CHECK_EQ(c.rare_count, count);
    CHECK_EQ(c.last_rare, last);
}

int main(void) {
    int best = gr_simd_best();
    printf("paths: best %s\n", gr_simd_name(best));
    search_function();

    /* codes with no sparse split and growing values, then random ones */
    enum { FIXED = 6, RANDOM = 10 };
    static const char *fixed[FIXED] = { "0.04", "0.06", "0.14", "0.16", "0.64", "0.007" };
    char codes[FIXED + RANDOM][16];
    t_rng r = { t_seed(515) };
    for (int i = 0; i < FIXED + RANDOM; i++) {
        if (i < FIXED) { snprintf(codes[i], sizeof codes[i], "%s", fixed[i]); continue; }
        int nd = (int)t_range(&r, 1, 3), pos = 2;
        codes[i][0] = '0';
        codes[i][1] = '.';
        for (int k = 0; k < nd; k++) codes[i][pos++] = (char)('0' + t_range(&r, k + 1 == nd ? 4 : 0, 7));
        codes[i][pos] = '\0';
    }
    int64_t *twin = malloc((N + 1) * sizeof *twin), *got = malloc((N + 1) * sizeof *got);
    int bad = 0, runs = 0, wide = 0;
    for (int i = 0; i < FIXED + RANDOM; i++) {
        brute(codes[i], N, twin);
        int64_t top = 0;
        for (int64_t x = 0; x <= N; x++) if (twin[x] > top) top = twin[x];
        wide += top >= 256;    /* a u16 table: the search for every value runs (AVX-512) */
        for (int path = GR_SIMD_SCALAR; path <= best; path++) {
            gr_simd_force(path);
            /* window 0: the search's own (4096, past these values); 256: heaps past it go on
             * to the next windows, serially and in octpar's members; 64: heaps past its four
             * windows too (the byte marks), and octpar's finisher doing heaps again */
            static const int wins[3] = { 0, 256, 64 };
            for (int wi = 0; wi < (path == GR_SIMD_AVX512 ? 3 : 1); wi++)
                for (int threads = 1, win = wins[wi]; threads <= 2; threads++) {
                    gr_octneed_test_window((uint64_t)win);
                    runs++;
                    int ok = values(codes[i], N, threads, got);
                    int64_t x = 0;
                    while (ok && x <= N && got[x] == twin[x]) x++;
                    if (!ok || x <= N) {
                        bad++;
                        printf("%s, %s path, window %d, %d threads: heap %lld differs from the twin\n", codes[i],
                               gr_simd_name(path), win, threads, (long long)x);
                    }
                }
            gr_octneed_test_window(0);
        }
    }
    gr_simd_force(-1);
    printf("plain kernel: %d runs (%d codes, every path, 1 and 2 threads) as the twin to %d; %d codes past 255\n", runs,
           FIXED + RANDOM, N, wide);
    CHECK_EQ(bad, 0);
    CHECK(wide >= 2);

    /* the columns: to N against the twin's, to 2^17 against the published rows */
    gr_program *p = gr_compile("game a = octal \"0.04\";\ngame b = octal \"0.06\";\n", "cols.game", NULL);
    if (CHECK(p != NULL)) {
        gr_limits lim = { .threads = 2 };
        CHECK_EQ(gr_set_limits(p, &lim), GR_OK);
        const char *cs[2] = { "0.04", "0.06" }, *claims[2] = { "a periodic", "b periodic" };
        for (int i = 0; i < 2; i++) {
            brute(cs[i], N, twin);
            cols c = columns_of(twin, N);
            printf("%s to %d: largest %lld at %lld, mask 0x%llx%s, %lld rare, the last %lld\n", cs[i], N, (long long)c.largest,
                   (long long)c.at, (unsigned long long)c.mask, c.hp ? " with heap parity" : "", (long long)c.count,
                   (long long)c.last);
            check_columns(p, claims[i], N, c.largest, c.at, c.mask, c.count, c.last);
        }
#ifndef T_SANITIZED
        check_columns(p, "a periodic", 131071, 1024, 109363, 0x7b8, 18860, 131003);
        check_columns(p, "b periodic", 131071, 1045, 127083, 0x5a0, 52923, 131070);
#endif
        gr_program_free(p);
    }
    free(twin);
    free(got);
    return t_finish("unit_plainoct");
}
