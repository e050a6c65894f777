/* sparsescan: the rare-value kernel's search over the pairs of a split (sparse.h): the values
 * of the rare class that only two common-class parts give, from both ends of the pairs, a word
 * or 16 bytes (SSE2) at a time once few are left. */
#include "eval/heap/sparseint.h"
#include "eval/heap/tablefile.h"

/* The pairs (a, m - a) for a in [a, hi]: each needed value met (need[x]) is cleared from need,
 * set in mark (when given: it is an option) and counted off *count; stops when none is needed
 * any more or after *budget pairs. Returns the next a not looked at.
 *
 * Most needed values turn up in the first few hundred pairs; the last few (usually small
 * values: two parts of nearly the same value) take thousands. So once at most TAIL are left,
 * the pairs go a 64-bit word at a time (8, 4 or 2 of them): t[a..] against t[..m-a] with its
 * lanes reversed, each value still needed tested by the exact has-a-zero-lane test, and only
 * a word with a hit is looked at pair by pair. (Plain C: right on either byte order.) */
#include "simd.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif
/* values left when the word (or SSE2) tail takes over: the word test costs four instructions
 * per value per 8 pairs, SSE2's two per 16 */
enum { TAIL_WORD = 6, TAIL_SSE2 = 12, TAIL_MAX = 12 };
enum { BOTH_RUN = 512, BOTH_RUN_MAX = 1 << 16 };   /* range_*'s runs from each end, by turns */
#define ONES_u16 UINT64_C(0x0001000100010001)
#define ONES_u32 UINT64_C(0x0000000100000001)
/* After W pairs from a were tested at once: on a hit, those pairs one by one (the values
 * found leave the list ys/yv; none left: done); then on past them. */
#define TAIL_STEP(HIT)                                                                                \
    if (HIT) {                                                                                        \
        int64_t b = a, one = W;                                                                       \
        PAIRS_SCALAR(b, a + W - 1, &one);                                                             \
        if (!*count) { *budget -= b - a; return b; }                                                  \
        int k2 = 0;                                                                                   \
        for (int k = 0; k < ny; k++)                                                                  \
            if (need[yv[k]]) { yv[k2] = yv[k]; ys[k2++] = ys[k]; }                                     \
        ny = k2;                                                                                      \
    }                                                                                                 \
    a += W;                                                                                           \
    *budget -= W;
static inline uint64_t rev_u8(uint64_t b) { return __builtin_bswap64(b); }
static inline uint64_t rev_u16(uint64_t b) {
    b = __builtin_bswap64(b);
    return ((b >> 8) & UINT64_C(0x00ff00ff00ff00ff)) | ((b & UINT64_C(0x00ff00ff00ff00ff)) << 8);
}
static inline uint64_t rev_u32(uint64_t b) { return (b >> 32) | (b << 32); }
#define WORD_TAIL(T, TAIL, ONES, REV, VREV, VSET, VEQ)                                                 \
    if (*count <= TAIL) {                                                                             \
        enum { W = (int)(8 / sizeof(T)) };                                                            \
        const uint64_t highs = ONES << (8 * sizeof(T) - 1);                                           \
        uint64_t ys[TAIL_MAX], yv[TAIL_MAX];   /* the values still needed, in every lane and plain */ \
        int ny = 0;                                                                                   \
        for (uint64_t y = 0; y < lim && ny < *count; y++)                                             \
            if (need[y]) { yv[ny] = y; ys[ny++] = y * ONES; }                                         \
        while (a + W - 1 <= hi && *budget >= W) {                                                     \
            uint64_t wa, wb;                                                                          \
            memcpy(&wa, t + a, 8);                                                                    \
            memcpy(&wb, tm - a - (W - 1), 8);                                                         \
            uint64_t x = wa ^ REV(wb), hit = 0;                                                       \
            for (int k = 0; k < ny; k++) {                                                            \
                uint64_t z = x ^ ys[k];                                                               \
                hit |= (z - ONES) & ~z;                                                               \
            }                                                                                         \
            TAIL_STEP(hit & highs)                                                                    \
        }                                                                                             \
    }
#ifdef __SSE2__
/* The same 16 bytes at a time with SSE2 (every x86-64 has it): the lanes of t[..m-a] reversed
 * by shuffles of dwords and words (and of the bytes in words), a compare per value still
 * needed. */
static inline __m128i vrev_u32(__m128i v) { return _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 1, 2, 3)); }
static inline __m128i vrev_u16(__m128i v) {
    v = vrev_u32(v);
    v = _mm_shufflelo_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
    return _mm_shufflehi_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
}
static inline __m128i vrev_u8(__m128i v) {
    v = vrev_u16(v);
    return _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
}
static inline __m128i vset_u8(uint64_t y) { return _mm_set1_epi8((char)y); }
static inline __m128i vset_u16(uint64_t y) { return _mm_set1_epi16((short)y); }
static inline __m128i vset_u32(uint64_t y) { return _mm_set1_epi32((int)y); }
static inline __m128i veq_u8(__m128i a, __m128i b) { return _mm_cmpeq_epi8(a, b); }
static inline __m128i veq_u16(__m128i a, __m128i b) { return _mm_cmpeq_epi16(a, b); }
static inline __m128i veq_u32(__m128i a, __m128i b) { return _mm_cmpeq_epi32(a, b); }
#define VEC_TAIL(T, TAIL, ONES, REV, VREV, VSET, VEQ)                                                  \
    if (*count <= TAIL) {                                                                             \
        enum { W = (int)(16 / sizeof(T)) };                                                           \
        __m128i ys[TAIL_MAX];                                                                         \
        uint64_t yv[TAIL_MAX];                                                                        \
        int ny = 0;                                                                                   \
        for (uint64_t y = 0; y < lim && ny < *count; y++)                                             \
            if (need[y]) { yv[ny] = y; ys[ny++] = VSET(y); }                                          \
        while (a + W - 1 <= hi && *budget >= W) {                                                     \
            __m128i va = _mm_loadu_si128((const __m128i *)(const void *)(t + a));                     \
            __m128i vb = _mm_loadu_si128((const __m128i *)(const void *)(tm - a - (W - 1)));          \
            __m128i x = _mm_xor_si128(va, VREV(vb));                                                  \
            __m128i hit = VEQ(x, ys[0]);                                                              \
            for (int k = 1; k < ny; k++) hit = _mm_or_si128(hit, VEQ(x, ys[k]));                      \
            TAIL_STEP(_mm_movemask_epi8(hit))                                                         \
        }                                                                                             \
    }
#endif
/* the scalar loop: a from A to H while pairs are left in *B */
#define PAIRS_SCALAR(A, H, B)                                                                         \
    for (; A <= (H); A++) {                                                                           \
        if (*(B) <= 0) break;                                                                         \
        --*(B);                                                                                       \
        uint64_t x_ = (uint64_t)(t[A] ^ tm[-A]);                                                      \
        if (need[x_]) {                                                                               \
            need[x_] = 0;                                                                             \
            if (mark) mark[x_] = 1;                                                                   \
            if (!--*count) { A++; break; }                                                            \
        }                                                                                             \
    }
/* One path: TAIL_OF is WORD_TAIL or VEC_TAIL, TAIL its threshold. */
#define PAIRS(NAME, T, TAIL_OF, TAIL, ONES, REV, VREV, VSET, VEQ)                                     \
    static int64_t NAME(const T *restrict t, int64_t m, int64_t a, int64_t hi, uint8_t *restrict need, \
                        uint8_t *restrict mark, int64_t *count, int64_t *budget, uint64_t lim) {      \
        const T *restrict tm = t + m;                                                                 \
        /* without branches on the values: a hit every few pairs would be mispredicted */         \
        int64_t cnt = *count, left = hi - a + 1 < *budget ? hi - a + 1 : *budget;                     \
        const int64_t a0 = a;                                                                         \
        if (mark)                                                                                     \
            for (; cnt > TAIL && a - a0 < left; a++) {                                                \
                uint64_t x = (uint64_t)(t[a] ^ tm[-a]);                                               \
                uint8_t h = need[x];                                                                  \
                need[x] = 0;                                                                          \
                mark[x] |= h;                                                                         \
                cnt -= h;                                                                             \
            }                                                                                         \
        else                                                                                          \
            for (; cnt > TAIL && a - a0 < left; a++) {                                                \
                uint64_t x = (uint64_t)(t[a] ^ tm[-a]);                                               \
                cnt -= need[x];                                                                       \
                need[x] = 0;                                                                          \
            }                                                                                         \
        *count = cnt;                                                                                 \
        *budget -= a - a0;                                                                            \
        TAIL_OF(T, TAIL, ONES, REV, VREV, VSET, VEQ)                                                        \
        PAIRS_SCALAR(a, hi, budget);                                                                  \
        return a;                                                                                     \
    }
PAIRS(pairs_word_u8, uint8_t, WORD_TAIL, TAIL_WORD, ONES_u8, rev_u8, 0, 0, 0)
PAIRS(pairs_word_u16, uint16_t, WORD_TAIL, TAIL_WORD, ONES_u16, rev_u16, 0, 0, 0)
PAIRS(pairs_word_u32, uint32_t, WORD_TAIL, TAIL_WORD, ONES_u32, rev_u32, 0, 0, 0)
#ifdef __SSE2__
PAIRS(pairs_sse2_u8, uint8_t, VEC_TAIL, TAIL_SSE2, 0, 0, vrev_u8, vset_u8, veq_u8)
PAIRS(pairs_sse2_u16, uint16_t, VEC_TAIL, TAIL_SSE2, 0, 0, vrev_u16, vset_u16, veq_u16)
PAIRS(pairs_sse2_u32, uint32_t, VEC_TAIL, TAIL_SSE2, 0, 0, vrev_u32, vset_u32, veq_u32)
#else
#define pairs_sse2_u8 pairs_word_u8
#define pairs_sse2_u16 pairs_word_u16
#define pairs_sse2_u32 pairs_word_u32
#endif

/* The path for a search: level is gr_simd_level()'s, P the choice's bound on values. The AVX
 * paths hold the needed values as a bitset in registers (sparsevec.c): AVX-512 for u16 up to
 * P = 1024 or values needed below 8192, AVX2 for u16 up to 512; u32 tables keep SSE2's
 * compares. */
static inline int64_t pairs_u8(const uint8_t *restrict t, int64_t m, int64_t a, int64_t hi, uint8_t *restrict need,
                               uint8_t *restrict mark, int64_t *count, int64_t *budget, uint64_t lim, uint64_t P,
                               int level) {
    (void)P;
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    if (level >= GR_SIMD_AVX512) return gr_sparse_pairs_avx512_u8(t, m, a, hi, need, mark, count, budget, lim);
    if (level >= GR_SIMD_AVX2) return gr_sparse_pairs_avx2_u8(t, m, a, hi, need, mark, count, budget, lim);
#endif
#ifdef __wasm_simd128__
    if (level >= GR_SIMD_SSE2) return gr_sparse_pairs_wasm_u8(t, m, a, hi, need, mark, count, budget, lim);
#endif
    if (level >= GR_SIMD_SSE2) return pairs_sse2_u8(t, m, a, hi, need, mark, count, budget, lim);
    return pairs_word_u8(t, m, a, hi, need, mark, count, budget, lim);
}
static inline int64_t pairs_u16(const uint16_t *restrict t, int64_t m, int64_t a, int64_t hi, uint8_t *restrict need,
                                uint8_t *restrict mark, int64_t *count, int64_t *budget, uint64_t lim, uint64_t P,
                                int level) {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    if (level >= GR_SIMD_AVX512 && (P <= 1024 || lim <= 8192))
        return gr_sparse_pairs_avx512_u16(t, m, a, hi, need, mark, count, budget, lim, P);
    if (level >= GR_SIMD_AVX2 && P <= 512) return gr_sparse_pairs_avx2_u16(t, m, a, hi, need, mark, count, budget, lim);
#elif defined(__wasm_simd128__)
    if (level >= GR_SIMD_SSE2 && P <= 512) return gr_sparse_pairs_wasm_u16(t, m, a, hi, need, mark, count, budget, lim);
#else
    (void)P;
#endif
    if (level >= GR_SIMD_SSE2) return pairs_sse2_u16(t, m, a, hi, need, mark, count, budget, lim);
    return pairs_word_u16(t, m, a, hi, need, mark, count, budget, lim);
}
static inline int64_t pairs_u32(const uint32_t *restrict t, int64_t m, int64_t a, int64_t hi, uint8_t *restrict need,
                                uint8_t *restrict mark, int64_t *count, int64_t *budget, uint64_t lim, uint64_t P,
                                int level) {
    (void)P;
    if (level >= GR_SIMD_SSE2) return pairs_sse2_u32(t, m, a, hi, need, mark, count, budget, lim);
    return pairs_word_u32(t, m, a, hi, need, mark, count, budget, lim);
}

/* The pairs a in [*a, *hi] from both ends: [*a, *hi] is left as the range not looked at.
 * Returns how many values are still needed. The ends find different values (the pairs with a
 * small part give the values of the large heaps xor a few small values; the balanced pairs
 * give more), so a search from both ends stops after about half the pairs of one from the
 * bottom. AVX-512 reads both at once (sparsevec.c: u8, and u16 up to P = 1024); the others take
 * them by turns, in runs that double (the first few hundred pairs decide most heaps), the top
 * end read downwards as its mirror: the pairs a from hi down are the pairs m - a from m - hi
 * up, the same values, so the one-ended search serves. */
#define BY_TURNS(T)                                                                                   \
    for (int64_t run = BOTH_RUN; count && *a <= *hi && *budget > 0; run = run < BOTH_RUN_MAX ? 2 * run : run) { \
        int64_t end = *hi - *a < run ? *hi : *a + run - 1;                                            \
        *a = pairs_##T(t, m, *a, end, need, mark, &count, budget, lim, P, level);                     \
        if (!count || *a <= end || *a > *hi) break;   /* done, out of budget, or all read */          \
        int64_t b = m - *hi, bend = *hi - *a < run ? m - *a : b + run - 1;                            \
        b = pairs_##T(t, m, b, bend, need, mark, &count, budget, lim, P, level);                      \
        *hi = m - b;                                                                                  \
        if (b <= bend) break;                                                                         \
    }                                                                                                 \
    return count;
static inline int64_t range_u8(const uint8_t *restrict t, int64_t m, int64_t *a, int64_t *hi, uint8_t *restrict need,
                               uint8_t *restrict mark, int64_t count, int64_t *budget, uint64_t lim, uint64_t P,
                               int level) {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    if (level >= GR_SIMD_AVX512) return gr_sparse_both_avx512_u8(t, m, a, hi, need, mark, count, budget, lim);
#endif
    BY_TURNS(u8)
}
static inline int64_t range_u16(const uint16_t *restrict t, int64_t m, int64_t *a, int64_t *hi, uint8_t *restrict need,
                                uint8_t *restrict mark, int64_t count, int64_t *budget, uint64_t lim, uint64_t P,
                                int level) {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    if (level >= GR_SIMD_AVX512 && P <= 1024) return gr_sparse_both_avx512_u16(t, m, a, hi, need, mark, count, budget, lim, P);
#endif
    BY_TURNS(u16)
}
static inline int64_t range_u32(const uint32_t *restrict t, int64_t m, int64_t *a, int64_t *hi, uint8_t *restrict need,
                                uint8_t *restrict mark, int64_t count, int64_t *budget, uint64_t lim, uint64_t P,
                                int level) {
    BY_TURNS(u32)
}
#undef BY_TURNS

/* A search over a table in a file (s->filetab) that reads more than PIECE pairs goes on a
 * piece of PIECE pairs at a time, and after each the pages it has read and will not read again
 * are given back (gr_sgt_trim_search): a search that reads every pair (a heap whose value is
 * rare, a few dozen in millions) would otherwise make the whole table resident for a moment,
 * which is the run's peak memory. The values found are the same (each piece goes on from where
 * the last stopped); a search that finishes within a piece, nearly all of them, is the one call
 * it always was. */
enum { PIECE = 1 << 22 };
#define RANGE_BY_PIECES(RANGE_T, A, HI, MARK)                                                     \
    if (!s->filetab || budget <= (s->piece ? s->piece : PIECE))                                   \
        count = RANGE_T(t, m, &(A), &(HI), need, MARK, count, &budget, lim, s->P, level);         \
    else                                                                                          \
        for (const int64_t each = s->piece ? s->piece : PIECE;;) {                                \
            int64_t piece = budget < each ? budget : each, rest = budget - piece;                 \
            count = RANGE_T(t, m, &(A), &(HI), need, MARK, count, &piece, lim, s->P, level);      \
            budget = rest + piece;                                                                \
            /* done, the range read, or stopped short of the piece's budget: finished */          \
            if (!count || (A) > (HI) || piece > 0 || budget <= 0) break;                          \
            gr_sgt_trim_search(s->filetab, m, A, HI, each);                                       \
        }

/* The search for rare-class values that only common-common splits give, over the pairs
 * (a, m - a) of every split place (m = n - place) with a part at n0 or above: a in
 * [1, min(half, m - n0)] (all pairs when n0 = 0: then from both ends at once, see range_*).
 * Each needed value met (all below lim) is cleared from need. Returns how many are still
 * needed. */
#define NEED_SCAN(NAME, T, RANGE_T)                                                               \
    int64_t NAME(const T *restrict t, const gr_sparse *s, int64_t n, int64_t n0,                 \
                        uint8_t *restrict need, int64_t count, uint64_t lim) {                    \
        int64_t budget = INT64_MAX;                                                               \
        const int level = gr_simd_level();                                                        \
        for (int j = 0; j < s->nsplit && count; j++) {                                            \
            int64_t m = n - s->split[j];                                                          \
            int64_t half = s->uneq[j] ? (m - 1) / 2 : m / 2;                                      \
            int64_t a = 1, hi = m - n0 > half ? half : m - n0;                                    \
            RANGE_BY_PIECES(RANGE_T, a, hi, NULL)                                                 \
        }                                                                                         \
        return count;                                                                             \
    }
/* The same over the pairs with both parts below n0, a in [max(1, m - n0 + 1), half], from
 * split j = at->j, the pairs at->a to at->b (a = 0: the range's start, b = 0: its end) on, at
 * most `budget` pairs; values met are also set in mark (when given: they are options). When
 * the budget runs out with values still needed, at says what is left; otherwise at->j =
 * nsplit (the search is complete). The kernel itself no longer stops a search at a budget
 * but for a table in a file, piece by piece (RANGE_BY_PIECES); this is how unit_sparsevec
 * holds every vector path's stop and resumption to the plain loop's. */
#define NEED_UPPER(NAME, T, RANGE_T)                                                              \
    int64_t NAME(const T *restrict t, const gr_sparse *s, int64_t n, int64_t n0,                 \
                        uint8_t *restrict need, uint8_t *restrict mark, int64_t count,            \
                        spec_at *at, int64_t budget, uint64_t lim) {                              \
        int64_t a = at->a, b = at->b;                                                             \
        const int level = gr_simd_level();                                                        \
        for (int64_t j = at->j; j < s->nsplit && count; j++, a = b = 0) {                         \
            int64_t m = n - s->split[j];                                                          \
            int64_t half = s->uneq[j] ? (m - 1) / 2 : m / 2;                                      \
            if (a < m - n0 + 1) a = m - n0 + 1;                                                   \
            if (a < 1) a = 1;                                                                     \
            if (!b || b > half) b = half;                                                         \
            RANGE_BY_PIECES(RANGE_T, a, b, mark)                                                  \
            if (count && a <= b) { at->j = j; at->a = a; at->b = b; return count; }               \
        }                                                                                         \
        at->j = s->nsplit;                                                                        \
        at->a = at->b = 0;                                                                        \
        return count;                                                                             \
    }
NEED_SCAN(gr_sparse_need_scan_u8, uint8_t, range_u8)
NEED_SCAN(gr_sparse_need_scan_u16, uint16_t, range_u16)
NEED_SCAN(gr_sparse_need_scan_u32, uint32_t, range_u32)
NEED_UPPER(gr_sparse_need_upper_u8, uint8_t, range_u8)
NEED_UPPER(gr_sparse_need_upper_u16, uint16_t, range_u16)
NEED_UPPER(gr_sparse_need_upper_u32, uint32_t, range_u32)
