/* octpar: the plain octal kernel across threads; see octpar.h. */
#include "eval/heap/octpar.h"
#include "eval/heap/octscan.h"
#include "eval/heap/octneed.h"
#include "pool.h"
#include "worker.h"
#include <stdatomic.h>
#include <string.h>

enum { PROGRESS_STEP = 1 << 12, MAX_BLOCK = 1024 };
#define MAX_P (UINT64_C(1) << 16)         /* larger values: the serial kernel */
/* pairs per block: a few ms at the search's 0.06 ns a pair, longer than a time slice, so that
 * the team's start and end per block stay small (0.06 to 2^20 with two threads: 33.6 s at 2^22
 * pairs, 28.2 at 2^24, 26.6 at 2^26; one thread 45.9 s) */
#define BLOCK_WORK (INT64_C(1) << 26)

typedef struct block {
    const gr_tbcode *code;
    const void *t;           /* the table: only heaps below n0 are read by the members */
    int64_t n0, B;
    uint64_t P0;             /* a power of two above every value below n0 */
    uint64_t w;              /* the members search the values a window of w at a time
                              * (octneed.h; P0: all at once) */
    size_t stride;           /* bytes of reached values per heap: 8 (a mask) or P0 */
    uint8_t *marks;
    uint64_t *ends;          /* heap j's marks hold the values below ends[j] (with windows) */
    int bytes;               /* the byte marks, not windows: the last value before the block is
                              * past GR_OCTNEED_WINDOWS windows (octneed.h) */
    atomic_llong next;       /* the next heap of the block to scan, taken by whoever is free */
} block;

static inline int64_t split_half(const gr_tbdigit *d, int64_t r) { return d->constraint ? (r - 1) / 2 : r / 2; }

/* The members take the block's heaps one at a time from a shared counter (so a member the
 * system has paused holds up no one) and scan the splits (a, r - a) with r - a < n0 into the
 * heap's own marks: while P0 <= 64 four 64-bit masks (as the serial kernel), else bytes. */
#define SCAN(NAME, T)                                                                             \
    static void NAME(void *arg, int member, int members) {                                       \
        (void)member; (void)members;                                                              \
        block *J = arg;                                                                           \
        const T *restrict t = J->t;                                                               \
        const gr_tbcode *code = J->code;                                                          \
        int k0 = code->d[0].mask ? 0 : 1;                                                         \
        for (int64_t j; (j = atomic_fetch_add(&J->next, 1)) < J->B;) {                            \
            int64_t n = J->n0 + j;                                                                \
            int64_t last = code->last_place < n ? code->last_place : n;                          \
            uint8_t *restrict s = J->marks + (size_t)j * J->stride;                               \
            uint64_t m0 = 0, m1 = 0, m2 = 0, m3 = 0;                                              \
            /* u16 with AVX-512: a search for every value of a window (octneed.h), then need ->  \
             * marks; a window whose every value is met, the next one (at most GR_OCTNEED_WINDOWS) */ \
            int byneed = sizeof(T) == 2 && J->P0 > 64 && gr_octneed_ok(J->P0) && !J->bytes;       \
            if (J->P0 > 64) memset(s, 0, J->stride);                                              \
            uint64_t base = 0;                                                                    \
            do {                                                                                  \
                uint64_t len = J->P0 - base < J->w ? J->P0 - base : J->w;                         \
                int64_t count = (int64_t)len;                                                     \
                if (byneed) memset(s + base, 1, (size_t)len);                                     \
                for (int64_t k = k0; k <= last; k++) {                                            \
                    const gr_tbdigit *d = &code->d[k];                                            \
                    int64_t r = n - k;                                                            \
                    if (!(d->mask & 4u) || d->constraint == TB_EQUAL || r < 2) continue;          \
                    int64_t half = split_half(d, r), a = r - J->n0 + 1;                           \
                    if (a < 1) a = 1;                                                             \
                    const T *restrict tr = t + r;                                                 \
                    if (J->P0 <= 64) GR_OCT_SCAN_MASKS(t, tr, a, half, m0, m1, m2, m3);           \
                    else if (byneed) gr_octneed_splits((const uint16_t *)(const void *)t, r, a, half, s + base, &count, len, base); \
                    else GR_OCT_SCAN_BYTES(t, tr, a, half, s);                                    \
                }                                                                                 \
                if (byneed) for (size_t x = 0; x < len; x++) s[base + x] ^= 1;                    \
                base += len;                                                                      \
                if (!byneed || count) break;                                                      \
            } while (base < J->P0 && base < GR_OCTNEED_WINDOWS * J->w);                           \
            J->ends[j] = byneed ? base : J->P0;                                                   \
            if (J->P0 <= 64) {                                                                    \
                uint64_t all = m0 | m1 | m2 | m3;                                                 \
                memcpy(s, &all, sizeof all);                                                      \
            }                                                                                     \
        }                                                                                         \
    }

/* What one call holds, released on every way out: the team, and the block's marks and the
 * caller's mark buffer, tracked memory of the caller's context (counted against --max-memory)
 * grown only while the limit has room for it: else the heaps go to the serial kernel. */
typedef struct held { gr_pool *pool; uint8_t *marks, *buf; size_t marks_cap, cap; } held;

static void release(gr_ctx *c, held *H) {
    gr_pool_free(H->pool);
    gr_free(c, H->marks);
    gr_free(c, H->buf);
    gr_free(c, H);
}

/* p grown to `want` bytes (*cap updated) if the limit has room for it; else NULL, p kept. */
static void *grow(gr_ctx *c, void *p, size_t *cap, size_t want) {
    if (*cap >= want) return p;
    size_t room = c->store.mem_used < c->mem_limit ? c->mem_limit - c->store.mem_used : 0;
    if (want - *cap > room) return NULL;
    p = gr_realloc(c, p, want);
    *cap = want;
    return p;
}

/* The caller finishes the block in heap order: take moves, '=' splits, splits reaching into
 * the block, then the mex over everything. Returns 1 if heap tab->n's value does not fit T,
 * -1 if the limit has no room for its marks, 0 when the block is done. */
#define FINISH(NAME, T, TMAX)                                                                     \
    static int NAME(gr_ctx *c, const block *J, gr_sgtable *tab, held *H, gr_progress *pr) {      \
        T *restrict t = tab->data;                                                                \
        const gr_tbcode *code = J->code;                                                          \
        int k0 = code->d[0].mask ? 0 : 1;                                                         \
        for (int64_t j = 0; j < J->B; j++) {                                                      \
            int64_t n = J->n0 + j;                                                                \
            uint64_t P = 1;                                                                       \
            while (P <= (uint64_t)tab->max) P <<= 1;                                              \
            if (P < 64) P = 64;                                                                   \
            if (H->cap < P + 1) {                                                                 \
                uint8_t *nb = grow(c, H->buf, &H->cap, (size_t)P + 1);                            \
                if (!nb) return -1;                                                               \
                H->buf = nb;                                                                      \
            }                                                                                     \
            uint8_t *restrict s = H->buf;                                                         \
            const uint8_t *own = J->marks + (size_t)j * J->stride;                                \
            if (J->P0 <= 64) {                                                                    \
                uint64_t all;                                                                     \
                memcpy(&all, own, sizeof all);                                                    \
                memset(s, 0, (size_t)P + 1);                                                      \
                for (int b = 0; b < 64; b++) s[b] = (uint8_t)(all >> b & 1u);                     \
            } else {                                                                              \
                memcpy(s, own, J->stride);                                                        \
                memset(s + J->stride, 0, (size_t)P + 1 - J->stride);                              \
            }                                                                                     \
            int64_t last = code->last_place < n ? code->last_place : n;                          \
            for (int64_t k = k0; k <= last; k++) {                                                \
                const gr_tbdigit *d = &code->d[k];                                                \
                int64_t r = n - k;                                                                \
                if (r == 0) { if (d->mask & 1u) s[0] = 1; continue; }                            \
                if (d->mask & 2u) s[t[r]] = 1;                                                    \
                if (!(d->mask & 4u)) continue;                                                    \
                if (d->constraint == TB_EQUAL) { if (r % 2 == 0) s[0] = 1; continue; }            \
                int64_t half = split_half(d, r), hi = r - J->n0;                                  \
                if (hi > half) hi = half;                                                         \
                for (int64_t a = 1; a <= hi; a++) s[t[a] ^ t[r - a]] = 1;                         \
            }                                                                                     \
            uint64_t v = 0;                                                                       \
            while (s[v]) v++;                                                                     \
            uint64_t end = J->P0 > 64 ? J->ends[j] : J->P0;                                      \
            /* the members' marks stop at their last window and every value below it is an     \
             * option: this heap again, every split, by windows (seldom) or, past them (or not \
             * u16 with AVX-512), by byte marks */                                               \
            if (v >= end && end < J->P0)                                                          \
                v = sizeof(T) == 2 && gr_octneed_ok(P)                                             \
                        ? gr_octneed_value(code, (const uint16_t *)(const void *)t, n, P, s)      \
                        : UINT64_MAX;                                                             \
            if (v == UINT64_MAX) {                                                                \
                memset(s, 0, (size_t)P + 1);                                                      \
                for (int64_t k = k0; k <= last; k++) {                                            \
                    const gr_tbdigit *d = &code->d[k];                                            \
                    int64_t r = n - k;                                                            \
                    if (r == 0) { if (d->mask & 1u) s[0] = 1; continue; }                        \
                    if (d->mask & 2u) s[t[r]] = 1;                                                \
                    if (!(d->mask & 4u)) continue;                                                \
                    if (d->constraint == TB_EQUAL) { if (r % 2 == 0) s[0] = 1; continue; }        \
                    int64_t half = split_half(d, r), a = 1;                                       \
                    const T *restrict tr = t + r;                                                 \
                    GR_OCT_SCAN_BYTES(t, tr, a, half, s);                                         \
                }                                                                                 \
                v = 0;                                                                            \
                while (s[v]) v++;                                                                 \
            }                                                                                     \
            if (v > (uint64_t)(TMAX)) return 1;                                                   \
            t[n] = (T)v;                                                                          \
            if ((int64_t)v > tab->max) tab->max = (int64_t)v;                                     \
            tab->n = n + 1;                                                                       \
            if ((n & (PROGRESS_STEP - 1)) == 0) gr_progress_update(pr, (uint64_t)n);              \
        }                                                                                         \
        return 0;                                                                                 \
    }

SCAN(scan_u8, uint8_t)
SCAN(scan_u16, uint16_t)
SCAN(scan_u32, uint32_t)
FINISH(finish_u8, uint8_t, UINT8_MAX)
FINISH(finish_u16, uint16_t, UINT16_MAX)
FINISH(finish_u32, uint32_t, UINT32_MAX)

int gr_octpar_fill(gr_ctx *c, const gr_game *g, gr_sgtable *tab, int64_t to, gr_progress *pr) {
    if (c->threads <= 1 || tab->n < GR_OCTPAR_FROM || tab->n > to || tab->width > 4) return -1;
    if (g->kernel != KER_OCTAL || g->tb.max_heaps > 2 || g->tb.period) return -1;
    gr_pool_fn scan = tab->width == 1 ? scan_u8 : tab->width == 2 ? scan_u16 : scan_u32;
    held *const H = gr_alloc(c, sizeof *H);
    gr_guard guard;
    gr_guard_enter(c, &guard);     /* before setjmp: nothing the handler reads changes after it */
    if (setjmp(guard.jb)) {        /* the system out of memory: the team joins, then the failure */
        release(c, H);
        gr_guard_rethrow(c, &guard);
    }
    int rc = -1;
    int64_t start = tab->n;
    while (tab->n <= to) {
        uint64_t P0 = 1;
        while (P0 <= (uint64_t)tab->max) P0 <<= 1;
        if (P0 > MAX_P) break;
        int64_t n0 = tab->n, B = BLOCK_WORK / n0;
        if (!H->pool && !(H->pool = gr_pool_new(c->threads))) break;
        int members = gr_pool_size(H->pool);
        if (B < 2 * members) B = 2 * members;
        if (B > MAX_BLOCK) B = MAX_BLOCK;
        if (B > n0 / 4) B = n0 / 4;
        if (B > to - n0 + 1) B = to - n0 + 1;
        /* u16 past the window with AVX-512: the members look for the values below it only */
        uint64_t w = tab->width == 2 && P0 > 64 && gr_octneed_ok(P0) ? gr_octneed_window(P0) : P0;
        block J = { &g->tb, tab->data, n0, B, P0, w, P0 <= 64 ? 8 : (size_t)P0, NULL, NULL, 0, 0 };
        J.bytes = P0 > GR_OCTNEED_WINDOWS * w && gr_sgt_get(tab, n0 - 1) >= (int64_t)(GR_OCTNEED_WINDOWS * w);
        /* the marks, then the ends (B * stride is a multiple of 8) */
        size_t want = (size_t)B * J.stride + (size_t)B * sizeof(uint64_t);
        if (H->marks_cap < want) {
            uint8_t *nm = grow(c, H->marks, &H->marks_cap, want);
            if (!nm) break;
            H->marks = nm;
        }
        J.marks = H->marks;
        J.ends = (uint64_t *)(void *)(H->marks + (size_t)B * J.stride);
        gr_pool_run(H->pool, scan, &J);
        int r = tab->width == 1 ? finish_u8(c, &J, tab, H, pr)
              : tab->width == 2 ? finish_u16(c, &J, tab, H, pr)
              : finish_u32(c, &J, tab, H, pr);
        if (r) { rc = r; break; }
    }
    gr_guard_leave(c, &guard);
    release(c, H);
    if (rc == 1) return 1;
    return tab->n > start ? 0 : -1;
}
