/* unit_sparsevec: the rare-value kernel's vector paths (core/simd.h, eval/heap/sparsevec.c) give
 * the values of the portable one. Each path this processor has (AVX-512, AVX2, SSE2, scalar) is
 * forced in turn and must give, byte for byte, the scalar path's values:
 *   - 150 random octal codes with splits (the kernel applies: at most two heaps), some with
 *     '!', to 9000 heaps, the kernel from heap 64 (chosen again many times): one thread (its
 *     16-heap look-ups from heap 4096 on with AVX-512), and
 *     the --threads team's solo mode to 6100 (its one member speculates, then checks);
 *   - Officers (0.6, u16 table, P = 512) and Grundy's game (4!.0, u8 table) to 2^16, both
 *     ways;
 *   - the known columns of both at 20000 (largest value and where, rare mask, rare heaps and
 *     the last one), as unit_api pins them.
 *   - the pair search itself (x86-64): each vector function against a plain loop on random
 *     tables (u8; u16 with values below 64 to 1024, the AVX-512 path's two-register bitset
 *     past 512), random needed sets, ranges and budgets, with and without marks: the same
 *     stop, count, budget, need and marks; and the search from both ends (AVX-512), then the
 *     plain loop over the range it left, against the plain loop over the whole: the same
 *     count, need and marks, and the pairs it counted are those it did not leave;
 *   - the 32-heap look-ups (AVX-512: 8 registers, and 9 for values past 256) against a count
 *     in the test;
 *   - a split place's search (both ends, by turns or at once) on every path, P 256 to 8192,
 *     against the plain loop, stopped by budgets too.
 * Forcing a path the processor lacks falls back (a note on stderr): checked too. */
#include "gamefix.h"
#include "simd.h"
#include "grundy.h"
#include "eval/heap/heap.h"
#include "eval/heap/sparseint.h"

#ifdef T_SANITIZED
enum { CODES = 30, BIG = 1 << 13 };
#else
enum { CODES = 150, BIG = 1 << 16 };
#endif
enum { N = 9000, UP = 4096 + 2000 };   /* N past 4096: the one-thread 32-heap batches */

static int sparse_used;

/* The values of octal code cs to n (solo: the team's solo mode) into out; 0 if it fails. */
static int values(const char *cs, int64_t n, int solo, int64_t *out) {
    char src[256];
    snprintf(src, sizeof src, "game a = octal \"%s\";\n", cs);
    gf f;
    if (!gf_open(&f, src)) { gf_close(&f); return 0; }
    gr_game *a = gf_game(&f, "a");
    gr_heap_tune(&f.c, a, 64, 0);
    f.c.threads = 1;
    if (solo) gr_heap_sparse_solo(&f.c, a);
    int ok = gr_heap_ensure(&f.c, a, n) == 0;
    for (int64_t i = 0; i <= n && ok; i++) out[i] = gr_heap_value(a, i);
    char why[512];
    gr_heap_describe(a, why, sizeof why);
    sparse_used += strstr(why, "mask") != NULL;
    gf_close(&f);
    return ok;
}

/* A random code whose splits leave at most two heaps (digits 0..7), a split somewhere. */
static void random_code(t_rng *r, char *cs) {
    int nd = (int)t_range(r, 2, 7), split = 1 + (int)t_range(r, 0, nd - 2);
    size_t pos = 0;
    for (int p = 0; p < nd; p++) {
        int d = (int)t_range(r, 0, 7);
        if (p == 0) d &= 4;
        if (p == split) d |= 4;
        cs[pos++] = (char)('0' + d);
        if ((d & 4) && t_range(r, 0, 3) == 0) cs[pos++] = '!';
        if (p == 0) cs[pos++] = '.';
    }
    cs[pos] = '\0';
}

static int same(const char *what, const char *cs, int path, const int64_t *ref, const int64_t *got, int64_t n) {
    for (int64_t i = 0; i <= n; i++)
        if (ref[i] != got[i]) {
            printf("%s %s: heap %lld: %s path %lld, scalar %lld\n", what, cs, (long long)i, gr_simd_name(path),
                   (long long)got[i], (long long)ref[i]);
            return 0;
        }
    return 1;
}

static void columns(gr_program *p, const char *claim, int64_t largest, int64_t at, uint64_t mask, int64_t count,
                    int64_t last) {
    gr_check_answer c;
    CHECK_EQ(gr_check_to(p, claim, 20000, &c), GR_OK);
    CHECK_EQ(c.largest, largest);
    CHECK_EQ(c.largest_at, at);
    CHECK_EQ(c.rare_mask, mask);
    CHECK_EQ(c.rare_count, count);
    CHECK_EQ(c.last_rare, last);
}

#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
/* The search as sparsescan.c's scalar loop does it. */
#define PLAIN(NAME, T)                                                                                \
    static int64_t NAME(const T *t, int64_t m, int64_t a, int64_t hi, uint8_t *need, uint8_t *mark,  \
                        int64_t *count, int64_t *budget) {                                            \
        for (; a <= hi; a++) {                                                                        \
            if (*budget <= 0) break;                                                                  \
            --*budget;                                                                                \
            unsigned x = (unsigned)(t[a] ^ t[m - a]);                                                 \
            if (need[x]) {                                                                            \
                need[x] = 0;                                                                          \
                if (mark) mark[x] = 1;                                                                \
                if (!--*count) return a + 1;                                                          \
            }                                                                                         \
        }                                                                                             \
        return a;                                                                                     \
    }
PLAIN(plain_u8, uint8_t)
PLAIN(plain_u16, uint16_t)

enum { TN = 6000 };
static void pair_functions(int best) {
    static uint16_t t16[TN];
    static uint8_t t8[TN], need0[8193], need1[8193], need2[8193], mark1[8193], mark2[8193];
    t_rng r = { t_seed(77) };
    int bad = 0, runs = 0, both = 0, top_read = 0, packed = 0, past4096 = 0, compared = 0;
    for (int it = 0; it < 6000; it++) {
        /* past 1024 (0.04 from about heap 2^19; the plain kernel's search of every value, 0.06),
         * past 4096 (0.764's rare-value search, values to 4933) */
        static const uint64_t Ps[9] = { 256, 128, 64, 256, 512, 1024, 2048, 4096, 8192 };
        int kind = (int)t_range(&r, 0, 8);     /* 0, 1: u8 tables; 2..8: u16 */
        uint64_t P = Ps[kind];
        for (int i = 0; i < TN; i++) {
            /* skewed: small values common (as in the games), so searches run long */
            uint64_t v = t_range(&r, 0, 3) ? (uint64_t)t_range(&r, 0, (int64_t)P / 8) : (uint64_t)t_range(&r, 0, (int64_t)P - 1);
            t16[i] = (uint16_t)v;
            t8[i] = (uint8_t)v;
        }
        uint64_t lim = (uint64_t)t_range(&r, 1, (int64_t)P);
        memset(need0, 0, sizeof need0);
        int64_t count0 = 0;
        for (uint64_t y = 0; y < lim; y++)
            if (t_range(&r, 0, 2) == 0) { need0[y] = 1; count0++; }
        if (!count0) { need0[0] = 1; count0 = 1; }
        int64_t m = t_range(&r, 100, TN - 1), a = t_range(&r, 1, 40), hi = t_range(&r, a, m / 2);
        int64_t budget0 = t_range(&r, 0, 3) ? INT64_MAX : t_range(&r, 0, 3000);
        /* a third of the u16 searches need only a few values, some met somewhere in the range
         * and some perhaps never: the searches past 2048 compare for them (CMP_TAIL) */
        int few = kind >= 2 && t_range(&r, 0, 2) == 0;
        if (few) {
            memset(need0, 0, sizeof need0);
            count0 = 0;
            for (int k = (int)t_range(&r, 1, 6); k > 0; k--) {
                int64_t i = t_range(&r, a, hi);
                uint64_t x = t_range(&r, 0, 3) ? (uint64_t)(t16[i] ^ t16[m - i]) : (uint64_t)t_range(&r, 0, (int64_t)lim - 1);
                if (x < lim && !need0[x]) { need0[x] = 1; count0++; }
            }
            if (!count0) { need0[lim - 1] = 1; count0 = 1; }
        }
        int withmark = (int)t_range(&r, 0, 1);
        for (int path = GR_SIMD_AVX2; path <= best; path++) {
            if (kind >= 2 && ((path == GR_SIMD_AVX2 && P > 512) || (P > 1024 && lim > 8192))) continue;
            memcpy(need1, need0, sizeof need0);
            memcpy(need2, need0, sizeof need0);
            memset(mark1, 0, sizeof mark1);
            memset(mark2, 0, sizeof mark2);
            int64_t c1 = count0, c2 = count0, b1 = budget0, b2 = budget0, r1, r2, c4;
            uint8_t *mk1 = withmark ? mark1 : NULL, *mk2 = withmark ? mark2 : NULL;
            if (kind < 2) {
                r1 = plain_u8(t8, m, a, hi, need1, mk1, &c1, &b1);
                r2 = path == GR_SIMD_AVX512 ? gr_sparse_pairs_avx512_u8(t8, m, a, hi, need2, mk2, &c2, &b2, lim)
                                            : gr_sparse_pairs_avx2_u8(t8, m, a, hi, need2, mk2, &c2, &b2, lim);
            } else {
                r1 = plain_u16(t16, m, a, hi, need1, mk1, &c1, &b1);
                r2 = path == GR_SIMD_AVX512 ? gr_sparse_pairs_avx512_u16(t16, m, a, hi, need2, mk2, &c2, &b2, lim, P)
                                            : gr_sparse_pairs_avx2_u16(t16, m, a, hi, need2, mk2, &c2, &b2, lim);
            }
            runs++;
            past4096 += kind >= 2 && path == GR_SIMD_AVX512 && lim > 4096;
            compared += few && path == GR_SIMD_AVX512 && P > 1024 && lim > 2048;
            /* the search from both ends: within a budget, it leaves a range not looked at and
             * counts the pairs it looked at; the plain loop over that range after it gives the
             * plain loop's need, marks and count over the whole */
            if (path == GR_SIMD_AVX512 && (kind < 2 || P <= 1024)) {
                static uint8_t need3[8193], need4[8193], mark3[8193], mark4[8193];
                memcpy(need3, need0, sizeof need0);
                memcpy(need4, need0, sizeof need0);
                memset(mark3, 0, sizeof mark3);
                memset(mark4, 0, sizeof mark4);
                uint8_t *mk3 = withmark ? mark3 : NULL, *mk4 = withmark ? mark4 : NULL;
                int64_t c3 = count0, b3 = INT64_MAX, b4 = budget0, a4 = a, h4 = hi, b5 = INT64_MAX;
                if (kind < 2) {
                    plain_u8(t8, m, a, hi, need3, mk3, &c3, &b3);
                    c4 = gr_sparse_both_avx512_u8(t8, m, &a4, &h4, need4, mk4, count0, &b4, lim);
                    if (c4) plain_u8(t8, m, a4, h4, need4, mk4, &c4, &b5);
                } else {
                    plain_u16(t16, m, a, hi, need3, mk3, &c3, &b3);
                    c4 = gr_sparse_both_avx512_u16(t16, m, &a4, &h4, need4, mk4, count0, &b4, lim, P);
                    if (c4) plain_u16(t16, m, a4, h4, need4, mk4, &c4, &b5);
                }
                both++;
                packed += kind >= 2 && lim <= 255;   /* u16 values looked up as bytes */
                top_read += h4 < hi;   /* its top end was read: not only the one-ended rest */
                int64_t left = h4 >= a4 ? h4 - a4 + 1 : 0;
                if (c3 != c4 || memcmp(need3, need4, sizeof need3) || memcmp(mark3, mark4, sizeof mark3) ||
                    budget0 - b4 != (hi - a + 1) - left || a4 < a || h4 > hi) {
                    if (bad++ < 5)
                        printf("both ends, P %llu, m %lld, a %lld..%lld, budget %lld: count %lld/%lld, left %lld..%lld, "
                               "used %lld\n", (unsigned long long)P, (long long)m, (long long)a, (long long)hi,
                               (long long)budget0, (long long)c4, (long long)c3, (long long)a4, (long long)h4,
                               (long long)(budget0 - b4));
                }
            }
            if (r1 != r2 || c1 != c2 || b1 != b2 || memcmp(need1, need2, sizeof need1) || memcmp(mark1, mark2, sizeof mark1)) {
                if (bad++ < 5)
                    printf("pair search, %s, P %llu, m %lld, a %lld..%lld: stop %lld/%lld count %lld/%lld budget %lld/%lld\n",
                           gr_simd_name(path), (unsigned long long)P, (long long)m, (long long)a, (long long)hi,
                           (long long)r2, (long long)r1, (long long)c2, (long long)c1, (long long)b2, (long long)b1);
            }
        }
    }
    CHECK_EQ(bad, 0);
    printf("pair search: %d runs of the vector functions as the plain loop (%d of AVX-512's with values needed past "
           "4096, %d with a few past 2048), %d from both ends (%d read the top end, %d of u16 values packed into bytes)\n",
           runs, past4096, compared, both, top_read, packed);
    if (best >= GR_SIMD_AVX512) CHECK(both > 1000 && top_read > 1000 && packed > 300 && past4096 > 200 && compared > 200);
}

/* The 32-heap look-ups (AVX-512) against a count in the test: rare heap a with value v gives
 * heap base + k the index of x = v ^ t[base + k - a] without bit b (bits below b as they are,
 * those above one down), set in bits[idx / 16][k] bit idx % 16 when idx < 16 R (R registers:
 * 8, or 9 for u16 tables with values past 256); and batch_top9 is the least value whose index
 * is 144 or more. */
static void batch_functions(void) {
    enum { BN = 3000 };
    static uint16_t t16[BN];
    static uint8_t t8[BN];
    static uint64_t rk[400];
    static uint16_t got[9][32], want[9][32];
    t_rng r = { t_seed(91) };
    int bad = 0, ninth = 0;
    for (int it = 0; it < 300; it++) {
        int kind = (int)t_range(&r, 0, 2);     /* 0: u8; 1: u16, 8 registers; 2: u16, 9 */
        int regs = kind == 2 ? 9 : 8, b = (int)t_range(&r, 0, 6);
        uint64_t top = kind == 0 ? 255 : 511;
        for (int i = 0; i < BN; i++) {
            t16[i] = (uint16_t)t_range(&r, 0, (int64_t)top);
            t8[i] = (uint8_t)t16[i];
        }
        int64_t base = t_range(&r, 1000, BN - 40), i1 = t_range(&r, 1, 400);
        for (int64_t i = 0; i < i1; i++) {
            int64_t a = t_range(&r, 32, 900);
            uint64_t v = (uint64_t)t_range(&r, 0, (int64_t)top);
            rk[i] = v << 32 | (uint32_t)(-a & 0xffffffff);
        }
        int64_t i0 = t_range(&r, 0, i1 - 1);
        memset(want, 0, sizeof want);
        for (int64_t i = i0; i < i1; i++)
            for (int k = 0; k < 32; k++) {
                int64_t a = -(int64_t)(int32_t)(uint32_t)rk[i];
                uint64_t x = (rk[i] >> 32) ^ (kind == 0 ? t8[base + k - a] : t16[base + k - a]);
                uint64_t idx = (x & ((UINT64_C(1) << b) - 1)) | ((x >> (b + 1)) << b);
                if (idx < 16 * (uint64_t)regs) want[idx / 16][k] |= (uint16_t)(1u << (idx % 16));
            }
        memset(got, 0, sizeof got);
        if (kind == 0) gr_sparse_batch32_u8(t8, base, rk, i0, i1, b, got);
        else if (kind == 1) gr_sparse_batch32_u16(t16, base, rk, i0, i1, b, got);
        else gr_sparse_batch32_u16x9(t16, base, rk, i0, i1, b, got);
        for (int k = 0; k < 32; k++) ninth += kind == 2 && want[8][k] != 0;
        if (memcmp(got, want, sizeof got) && bad++ < 5)
            printf("batch look-ups, kind %d, b %d, rare heaps %lld..%lld: bits differ\n", kind, b, (long long)i0, (long long)i1);
    }
    CHECK_EQ(bad, 0);
    CHECK(ninth > 100);
    for (int b = 0; b < 8; b++) {
        uint64_t top = batch_top9(b);
        int wrong = 0;
        for (uint64_t v = 256; v <= top; v++) {
            uint64_t idx = (v & ((UINT64_C(1) << b) - 1)) | ((v >> (b + 1)) << b);
            wrong += v < top ? idx >= 144 : idx < 144;
        }
        CHECK_EQ(wrong, 0);
    }
    printf("batch look-ups: 300 runs (8 registers u8 and u16, 9 u16) as the count in the test\n");
}

/* A split place's search (gr_sparse_need_upper_u16: from both ends, by turns in runs that
 * double with the top end read as its mirror, or at once with AVX-512 up to P = 1024), P from
 * 256 to 8192, on each path the processor has, against the plain loop over the whole range: the
 * same count, need and marks; stopped by a budget, the range it left, finished by the plain
 * loop, gives them too. */
static void upper_both_ends(int best) {
    static uint16_t t16[TN];
    static uint8_t need0[8193], need1[8193], need2[8193], mark1[8193], mark2[8193];
    t_rng r = { t_seed(4242) };
    int bad = 0, runs = 0, stopped = 0, top_read = 0;
    for (int path = GR_SIMD_SCALAR; path <= best; path++) {
        gr_simd_force(path);
        for (int it = 0; it < 300; it++) {
            uint64_t P = (uint64_t)256 << t_range(&r, 0, 5);
            for (int i = 0; i < TN; i++)
                t16[i] = (uint16_t)(t_range(&r, 0, 3) ? t_range(&r, 0, (int64_t)P / 8) : t_range(&r, 0, (int64_t)P - 1));
            int64_t k = t_range(&r, 1, 3), m = t_range(&r, 1000, TN - 1 - k), n = m + k;
            int64_t split[1] = { k };
            uint8_t uneq[1] = { (uint8_t)t_range(&r, 0, 1) };
            int64_t half = uneq[0] ? (m - 1) / 2 : m / 2;
            uint64_t lim = (uint64_t)t_range(&r, 1, (int64_t)P);
            memset(need0, 0, sizeof need0);
            int64_t count0 = 0;
            if (t_range(&r, 0, 1)) {
                for (uint64_t y = 0; y < lim; y++)
                    if (t_range(&r, 0, 2) == 0) { need0[y] = 1; count0++; }
            } else {   /* a few values, most met somewhere in the range */
                for (int j = (int)t_range(&r, 1, 6); j > 0; j--) {
                    int64_t i = t_range(&r, 1, half);
                    uint64_t x = t_range(&r, 0, 3) ? (uint64_t)(t16[i] ^ t16[m - i]) : (uint64_t)t_range(&r, 0, (int64_t)lim - 1);
                    if (x < lim && !need0[x]) { need0[x] = 1; count0++; }
                }
            }
            if (!count0) { need0[0] = 1; count0 = 1; }
            gr_sparse s;
            memset(&s, 0, sizeof s);
            s.split = split;
            s.uneq = uneq;
            s.nsplit = 1;
            s.P = P;
            int64_t budget = t_range(&r, 0, 2) ? INT64_MAX : t_range(&r, 0, 3 * half / 2);
            int withmark = (int)t_range(&r, 0, 1);
            memcpy(need1, need0, sizeof need0);
            memcpy(need2, need0, sizeof need0);
            memset(mark1, 0, sizeof mark1);
            memset(mark2, 0, sizeof mark2);
            int64_t c1 = count0, b1 = INT64_MAX, b2 = INT64_MAX;
            plain_u16(t16, m, 1, half, need1, withmark ? mark1 : NULL, &c1, &b1);
            spec_at at = { 0, 0, 0 };
            int64_t c2 = gr_sparse_need_upper_u16(t16, &s, n, n, need2, withmark ? mark2 : NULL, count0, &at, budget, lim);
            runs++;
            if (at.j == 0) {   /* the budget ran out: [at.a, at.b] not looked at */
                stopped++;
                top_read += at.b < half;
                plain_u16(t16, m, at.a, at.b, need2, withmark ? mark2 : NULL, &c2, &b2);
            }
            if (c1 != c2 || memcmp(need1, need2, sizeof need1) || memcmp(mark1, mark2, sizeof mark1) ||
                (at.j == 0 && (at.a < 1 || at.b > half || at.a > at.b)) || (at.j != 0 && at.j != 1)) {
                if (bad++ < 5)
                    printf("split search, %s, P %llu, m %lld, half %lld, budget %lld: count %lld/%lld, left %lld %lld..%lld\n",
                           gr_simd_name(path), (unsigned long long)P, (long long)m, (long long)half, (long long)budget,
                           (long long)c2, (long long)c1, (long long)at.j, (long long)at.a, (long long)at.b);
            }
        }
    }
    gr_simd_force(-1);
    CHECK_EQ(bad, 0);
    printf("split search: %d runs as the plain loop, %d stopped by a budget (%d had read the top end)\n",
           runs, stopped, top_read);
    CHECK(stopped > 100 && top_read > 50);
}
#endif

int main(void) {
    int best = gr_simd_best();
    printf("paths: best %s\n", gr_simd_name(best));
    CHECK_EQ(gr_simd_force(GR_SIMD_SCALAR), GR_SIMD_SCALAR);
    /* the references, by the scalar path */
    static char codes[CODES][32];
    int64_t **ref = malloc(CODES * sizeof *ref), **refp = malloc(CODES * sizeof *refp);
    int64_t *six = malloc((BIG + 1) * sizeof *six), *grundy = malloc((BIG + 1) * sizeof *grundy);
    int64_t most = (int64_t)BIG > (int64_t)UP ? (int64_t)BIG : (int64_t)UP;
    if (most < N) most = N;
    int64_t *got = malloc((size_t)(most + 1) * sizeof *got);
    t_rng r = { t_seed(2024) };
    for (int i = 0; i < CODES; i++) {
        random_code(&r, codes[i]);
        ref[i] = malloc((N + 1) * sizeof **ref);
        refp[i] = malloc((UP + 1) * sizeof **refp);
        CHECK(values(codes[i], N, 0, ref[i]));
        CHECK(values(codes[i], UP, 1, refp[i]));
    }
    CHECK(values("0.6", BIG, 0, six));
    CHECK(values("4!.0", BIG, 0, grundy));
    for (int path = GR_SIMD_SCALAR; path < GR_SIMD_LEVELS; path++) {
        int now = gr_simd_force(path);
        CHECK_EQ(now, path <= best ? path : best);      /* lacking it: the best below */
        if (path > best) continue;
        int bad = 0;
        for (int i = 0; i < CODES; i++) {
            bad += !(values(codes[i], N, 0, got) && same("code", codes[i], path, ref[i], got, N));
            bad += !(values(codes[i], UP, 1, got) && same("team, code", codes[i], path, refp[i], got, UP));
        }
        bad += !(values("0.6", BIG, 0, got) && same("officers", "0.6", path, six, got, BIG));
        bad += !(values("0.6", BIG, 1, got) && same("officers, team", "0.6", path, six, got, BIG));
        bad += !(values("4!.0", BIG, 0, got) && same("grundy", "4!.0", path, grundy, got, BIG));
        bad += !(values("4!.0", BIG, 1, got) && same("grundy, team", "4!.0", path, grundy, got, BIG));
        CHECK_EQ(bad, 0);
        gr_program *p = gr_compile("game a = octal \"0.6\";\ngame g = octal \"4!.0\";\n", "cols.game", NULL);
        if (CHECK(p != NULL)) {
            gr_limits lim = { .threads = 1 };
            CHECK_EQ(gr_set_limits(p, &lim), GR_OK);
            columns(p, "a periodic", 284, 18855, 0x1ee, 1583, 18833);
            columns(p, "g periodic", 147, 17751, 0xfe, 1196, 19687);
            gr_program_free(p);
        }
        printf("%s path: %d codes, 0.6 and 4!.0 to %d as the scalar path\n", gr_simd_name(path), CODES, BIG);
    }
    printf("rare-value kernel chosen in %d of %d runs\n", sparse_used, (2 * CODES + 4) * (best + 2));
    CHECK(sparse_used > CODES);
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    pair_functions(best);
    if (best >= GR_SIMD_AVX512) batch_functions();
    upper_both_ends(best);
#endif
    gr_simd_force(-1);
    for (int i = 0; i < CODES; i++) { free(ref[i]); free(refp[i]); }
    free(ref); free(refp); free(six); free(grundy); free(got);
    return t_finish("unit_sparsevec");
}
