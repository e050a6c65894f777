/* sparsescan: the rare-value kernel's search over the pairs of a split (sparse.h): the values
 * of the rare class that only two common-class parts give, a word or 16 bytes (SSE2) at a time
 * once few are left. */
#include "eval/heap/sparseint.h"

/* The pairs (a, m - a) for a in [a, hi]: each needed value met (need[x]) is cleared from need,
 * set in mark (when given: it is an option) and counted off *count; stops when none is needed
 * any more or after *budget pairs. Returns the next a not looked at.
 *
 * Most needed values turn up in the first few hundred pairs; the last few (usually small
 * values: two parts of nearly the same value) take thousands. So once at most TAIL are left,
 * the pairs go a 64-bit word at a time (8, 4 or 2 of them): t[a..] against t[..m-a] with its
 * lanes reversed, each value still needed tested by the exact has-a-zero-lane test, and only
 * a word with a hit is looked at pair by pair. (Plain C: right on either byte order.) */
#ifdef __SSE2__
#include <emmintrin.h>
enum { TAIL = 12 };   /* two instructions per value per 16 pairs */
#else
enum { TAIL = 6 };    /* four per value per 8 pairs */
#endif
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
#ifndef __SSE2__
static inline uint64_t rev_u8(uint64_t b) { return __builtin_bswap64(b); }
static inline uint64_t rev_u16(uint64_t b) {
    b = __builtin_bswap64(b);
    return ((b >> 8) & UINT64_C(0x00ff00ff00ff00ff)) | ((b & UINT64_C(0x00ff00ff00ff00ff)) << 8);
}
static inline uint64_t rev_u32(uint64_t b) { return (b >> 32) | (b << 32); }
#endif
#define WORD_TAIL(T, ONES, REV)                                                                       \
    if (*count <= TAIL) {                                                                             \
        enum { W = (int)(8 / sizeof(T)) };                                                            \
        const uint64_t highs = ONES << (8 * sizeof(T) - 1);                                           \
        uint64_t ys[TAIL], yv[TAIL];   /* the values still needed, in every lane and plain */      \
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
#define VEC_TAIL(T, VREV, VSET, VEQ)                                                                  \
    if (*count <= TAIL) {                                                                             \
        enum { W = (int)(16 / sizeof(T)) };                                                           \
        __m128i ys[TAIL];                                                                             \
        uint64_t yv[TAIL];                                                                            \
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
#define TAIL_OF(T, ONES, REV, VREV, VSET, VEQ) VEC_TAIL(T, VREV, VSET, VEQ)
#else
#define TAIL_OF(T, ONES, REV, VREV, VSET, VEQ) WORD_TAIL(T, ONES, REV)
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
#define PAIRS(NAME, T, ONES, REV, VREV, VSET, VEQ)                                                    \
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
        TAIL_OF(T, ONES, REV, VREV, VSET, VEQ)                                                        \
        PAIRS_SCALAR(a, hi, budget);                                                                  \
        return a;                                                                                     \
    }
PAIRS(pairs_u8, uint8_t, ONES_u8, rev_u8, vrev_u8, vset_u8, veq_u8)
PAIRS(pairs_u16, uint16_t, ONES_u16, rev_u16, vrev_u16, vset_u16, veq_u16)
PAIRS(pairs_u32, uint32_t, ONES_u32, rev_u32, vrev_u32, vset_u32, veq_u32)

/* The search for rare-class values that only common-common splits give, over the pairs
 * (a, m - a) of every split place (m = n - place) with a part at n0 or above: a in
 * [1, min(half, m - n0)] (all pairs when n0 = 0). Each needed value met (all below lim) is
 * cleared from need. Returns how many are still needed. */
#define NEED_SCAN(NAME, T, PAIRS_T)                                                               \
    int64_t NAME(const T *restrict t, const gr_sparse *s, int64_t n, int64_t n0,                 \
                        uint8_t *restrict need, int64_t count, uint64_t lim) {                    \
        int64_t budget = INT64_MAX;                                                               \
        for (int j = 0; j < s->nsplit && count; j++) {                                            \
            int64_t m = n - s->split[j];                                                          \
            int64_t half = s->uneq[j] ? (m - 1) / 2 : m / 2;                                      \
            int64_t hi = m - n0 > half ? half : m - n0;                                           \
            PAIRS_T(t, m, 1, hi, need, NULL, &count, &budget, lim);                               \
        }                                                                                         \
        return count;                                                                             \
    }
/* The same over the pairs with both parts below n0, a in [max(1, m - n0 + 1), half], from
 * split j = at->j, a = at->a on (a = 0: the range's start), at most `budget` pairs; values met
 * are also set in mark (when given: they are options). When the budget runs out with values
 * still needed, at says where to go on; otherwise at->j = nsplit (the search is complete). */
#define NEED_UPPER(NAME, T, PAIRS_T)                                                              \
    int64_t NAME(const T *restrict t, const gr_sparse *s, int64_t n, int64_t n0,                 \
                        uint8_t *restrict need, uint8_t *restrict mark, int64_t count,            \
                        spec_at *at, int64_t budget, uint64_t lim) {                              \
        int64_t a = at->a;                                                                        \
        for (int64_t j = at->j; j < s->nsplit && count; j++, a = 0) {                             \
            int64_t m = n - s->split[j];                                                          \
            int64_t half = s->uneq[j] ? (m - 1) / 2 : m / 2;                                      \
            if (a < m - n0 + 1) a = m - n0 + 1;                                                   \
            if (a < 1) a = 1;                                                                     \
            a = PAIRS_T(t, m, a, half, need, mark, &count, &budget, lim);                         \
            if (count && a <= half) { at->j = j; at->a = a; return count; }                       \
        }                                                                                         \
        at->j = s->nsplit;                                                                        \
        at->a = 0;                                                                                \
        return count;                                                                             \
    }
NEED_SCAN(gr_sparse_need_scan_u8, uint8_t, pairs_u8)
NEED_SCAN(gr_sparse_need_scan_u16, uint16_t, pairs_u16)
NEED_SCAN(gr_sparse_need_scan_u32, uint32_t, pairs_u32)
NEED_UPPER(gr_sparse_need_upper_u8, uint8_t, pairs_u8)
NEED_UPPER(gr_sparse_need_upper_u16, uint16_t, pairs_u16)
NEED_UPPER(gr_sparse_need_upper_u32, uint32_t, pairs_u32)
