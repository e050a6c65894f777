/* sparseheap: one heap's value in the rare-value kernel (sparse.h): its options of the common
 * class by look-ups of the rare heaps, the least common-class value they miss, and the search
 * for the rare-class values below it (sparsescan.c), or, for the speculating member of a team
 * (sparsespec.c), all but that search. And the commit of a value: the rare heaps' list grows. */
#include "eval/heap/sparseint.h"
#include "simd.h"

void gr_sparse_push_rare(gr_ctx *c, gr_sparse *s, int64_t n, uint64_t v) {
    if (s->nr == s->rcap) {
        s->rcap = s->rcap ? s->rcap * 2 : 256;
        s->ra = gr_realloc(c, s->ra, gr_size_mul(c, (size_t)s->rcap, sizeof *s->ra));
        s->rk = gr_realloc(c, s->rk, gr_size_mul(c, (size_t)s->rcap, sizeof *s->rk));
    }
    s->ra[s->nr] = n;
    s->rk[s->nr++] = (uint64_t)v << 32 | (uint32_t)(-n & 0xffffffff);
}


/* Heap n's value from its options. mark and need are P bytes (need clear, and left clear). The
 * value is capped at P (of the rare class, never an option). With front (the speculating
 * member, sparsespec.c): no search; the least common-class value the look-ups miss is
 * returned, the rare-class values below it (and below P) not seen yet are left set in need,
 * and their count in *front. */
#define FINISH_HEAP(NAME, T, MARKS, NEED)                                                             \
    uint64_t NAME(gr_sparse *s, const T *restrict t, int64_t n, uint8_t *restrict mark,              \
                  uint8_t *restrict need, int64_t *front) {                                           \
        const uint64_t P = s->P;                                                                      \
        /* the batched look-ups, when made for this heap */                                          \
        int batched = s->bvalid && s->bchosen == s->chosen_n && n >= s->bn0 && n < s->bn0 + BATCH_HEAPS; \
        uint64_t fused;                /* batch_least's value and count, when fused_ok */             \
        int64_t fcount;                                                                               \
        int fused_ok;                                                                                 \
    again:                                                                                            \
        fused = 0;                                                                                    \
        fcount = 0;                                                                                   \
        fused_ok = 0;                                                                                 \
        memset(mark, 0, (size_t)P);                                                                   \
        for (int i = 0; i < s->ntake && s->take[i] < n; i++) mark[t[n - s->take[i]]] = 1;             \
        for (int i = 0; i < s->ntakeall; i++) if (s->takeall[i] == n) mark[0] = 1;                    \
        for (int i = 0; i < s->nequal; i++) {                                                         \
            int64_t r = n - s->equal[i];                                                              \
            if (r >= 2 && !(r & 1)) mark[0] = 1;                                                      \
        }                                                                                             \
        if (batched) {                                                                                \
            /* the batch's values, and the rare heaps it left out: one by one */                     \
            int k = (int)(n - s->bn0);                                                                \
            int64_t m = n - s->split[0];                                                              \
            int64_t top = first_above(s->ra, s->nr, m - 1);                                           \
            MARKS(s->ra, s->rk, mark, t, m, 0, s->bilo < top ? s->bilo : top, s->uneq[0]);            \
            MARKS(s->ra, s->rk, mark, t, m, s->bihi, top, s->uneq[0]);                                \
            /* the batch's values last, with the least common value and the need below 256 */       \
            fused_ok = batch_least(s, &s->bbits[0][0], s->btop, k, mark, P,                            \
                                   s->rclass + (size_t)(s->hp & (int)(n & 1)) * P, need, &fused, &fcount);    \
        } else {                                                                                      \
            /* every split with a rare part: all options of the common class */                     \
            for (int j = 0; j < s->nsplit; j++) {                                                     \
                int64_t m = n - s->split[j];                                                          \
                if (m < 2) continue;                                                                  \
                MARKS(s->ra, s->rk, mark, t, m, 0, first_above(s->ra, s->nr, m - 1), s->uneq[j]);     \
            }                                                                                         \
        }                                                                                             \
        int nb = s->hp & (int)(n & 1);                                                                \
        const uint8_t *rc = s->rclass + (size_t)nb * P;                                               \
        /* the batch's pass found it below 256 (or there is none below P <= 256), and the need */  \
        uint64_t v = fused_ok ? fused : least_common(mark, rc, P);                                    \
        /* the batch holds values below btop only: every common one there is an option, so the     \
         * least one missing is above: this heap again, all of its look-ups here (seldom) */        \
        if (batched && v >= s->btop) { batched = 0; goto again; }                                     \
        /* rare-class values below v not seen yet: only common-common splits give them */            \
        uint64_t vlim = v < P ? v : P;   /* values >= P are never options */                          \
        int64_t count = fused_ok ? fcount : needed(mark, rc, need, vlim);                             \
        if (front) { *front = count; return v; }                                                      \
        if (count && NEED(t, s, n, 0, need, count, vlim)) {                                           \
            uint64_t w = 0;                                                                           \
            while (!need[w]) w++;                                                                     \
            for (uint64_t x = w; x < vlim; x++) need[x] = 0;                                          \
            v = w;                                                                                    \
        }                                                                                             \
        return v > P ? P : v;                                                                         \
    }
FINISH_HEAP(gr_sparse_finish_u8, uint8_t, rare_marks_u8, gr_sparse_need_scan_u8)
FINISH_HEAP(gr_sparse_finish_u16, uint16_t, rare_marks_u16, gr_sparse_need_scan_u16)
FINISH_HEAP(gr_sparse_finish_u32, uint32_t, rare_marks_u32, gr_sparse_need_scan_u32)

/* The 32-heap look-ups (sparsevec.c's gr_sparse_batch32_*), one thread or a team's
 * speculating member, made before heap n when the last batch does not hold it. Taken: the rare
 * heaps a whose 32 look-ups read only finished heaps (a >= 32 - s, s the split place) and whose
 * other part is of the common class (above the last rare heap) and never a itself (a below half of n - s); with the mask's lowest bit b
 * the class of a value fixes b, so an index of 7 bits holds the 128 common values below 256.
 * Only with AVX-512, one split place, no heap-parity bit and P <= 512. A heap whose common
 * values in the batch are all options is done again without it; with values past 256 (P =
 * 512) a ninth register holds the indices 128..143, the common values from 256 to btop (288
 * for 0.6): of the heaps of 0.6 to 2^22, 8% had every common value below 256 as an option
 * (done again: 5% of the time), and 0.05% every one below 288 (their least common value
 * missing: 256..271 in 99.4% of the 8%). Measured to 2^22, one thread: 0.6 4.30 s -> 3.87 s, 4!.0 3.45 s -> 2.89 s (the look-ups
 * cost about 0.45 cycles each instead of 0.9: no byte store per look-up); 32 heaps in 16-bit
 * lanes instead of 16 in 32-bit ones: see sparsevec.c. */
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
int gr_sparse_batch_prep(gr_sparse *s) {
    if (gr_simd_level() < GR_SIMD_AVX512 || s->nsplit != 1 || s->hp || s->P > 512 || !s->mask) return -1;
    int b = __builtin_ctzll(s->mask);
    if (s->btables != s->chosen_n || !s->bval[1]) {      /* the tables of this choice */
        for (unsigned idx = 0; idx < 144; idx++) {
            unsigned v = ((idx >> b) << (b + 1)) | (idx & ((1u << b) - 1));
            if (__builtin_parityll(v & s->mask) != s->cc) v |= 1u << b;
            s->bval[idx] = (uint16_t)v;
        }
        uint32_t pos = 0;                /* the ninth register's values, when all in 256 .. 287 */
        int fits = 1;
        for (unsigned idx = 128; idx < 144; idx++) {
            unsigned v = s->bval[idx];
            if (v >= 256 && v < 288) pos |= 1u << (v - 256);
            else fits = 0;
        }
        s->b9pos = fits ? pos : 0;
        for (unsigned v = 0; v < 256; v++) {
            s->bix[v] = (uint8_t)((v & ((1u << b) - 1)) | ((v >> (b + 1)) << b));
            s->bcm[v] = __builtin_parityll(v & s->mask) == s->cc;
        }
        s->btables = s->chosen_n;
    }
    return b;
}
#define BATCH(NAME, T, LOOKUPS, NINE)                                                                           \
    void NAME(gr_sparse *s, const T *t, int64_t n) {                                                  \
        s->bvalid = 0;                                                                                \
        if (n < 4096 || !s->nr) return;                                                               \
        int b = gr_sparse_batch_prep(s);                                                              \
        if (b < 0) return;                                                                            \
        int64_t s0 = s->split[0], last = s->ra[s->nr - 1];                                           \
        int64_t lim = n - s0 - last < (n - s0) / 2 ? n - s0 - last : (n - s0) / 2;   /* a < lim */    \
        int64_t i0 = first_above(s->ra, s->nr, BATCH_HEAPS - 1 - s0), i1 = first_above(s->ra, s->nr, lim - 1); \
        /* each look-up is one load at t + (n - s0) - a, the offset -a the entry's low 32 bits:  \
         * the rare heaps, not the heap number, must stay below 2^31 */                            \
        if (i1 - i0 < 64 || s->ra[i1 - 1] > INT32_MAX) return;                                        \
        if (NINE && s->P > 256) {      /* values past 256: a ninth register */                        \
            gr_sparse_batch32_u16x9((const uint16_t *)(const void *)t, n - s0, s->rk, i0, i1, b, s->bbits); \
            s->btop = batch_top9(b);                                                                  \
        } else {                                                                                      \
            LOOKUPS(t, n - s0, s->rk, i0, i1, b, s->bbits);                                           \
            s->btop = 256;                                                                            \
        }                                                                                             \
        s->bn0 = n;                                                                                   \
        s->bilo = i0;                                                                                 \
        s->bihi = i1;                                                                                 \
        s->bchosen = s->chosen_n;                                                                     \
        s->bvalid = 1;                                                                                \
    }
BATCH(gr_sparse_batch_u8, uint8_t, gr_sparse_batch32_u8, 0)
BATCH(gr_sparse_batch_u16, uint16_t, gr_sparse_batch32_u16, 1)
#else
int gr_sparse_batch_prep(gr_sparse *s) { (void)s; return -1; }
void gr_sparse_batch_u8(gr_sparse *s, const uint8_t *t, int64_t n) { (void)t; (void)n; s->bvalid = 0; }
void gr_sparse_batch_u16(gr_sparse *s, const uint16_t *t, int64_t n) { (void)t; (void)n; s->bvalid = 0; }
#endif

/* Heap n gets value v (below P, or P: the rare class); returns 1 when the rare-value choice
 * is to be made again (v >= P). The caller checked that v fits T. */
int gr_sparse_commit(gr_ctx *c, gr_sparse *s, gr_sgtable *tab, int64_t n, uint64_t v) {
    if ((int64_t)v > tab->max) tab->max = (int64_t)v;
    tab->n = n + 1;
    if (cls(s, v, n) != s->cc) gr_sparse_push_rare(c, s, n, v);
    return v >= s->P;
}
