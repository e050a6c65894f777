/* heap: the heap-recurrence evaluator and its kernels; see heap.h. */
#include "eval/heap/heap.h"
#include "ir.h"
#include "grow.h"
#include "progress.h"
#include "eval/rules.h"
#include "eval/heap/sgtable.h"
#include "eval/heap/tablefile.h"
#include "eval/heap/sparse.h"
#include "pace.h"
#include "proved.h"
#include "eval/heap/octpar.h"
#include "eval/heap/genpar.h"
#include "eval/heap/subthreads.h"
#include "worker.h"
#include "eval/heap/octscan.h"
#include "eval/heap/octneed.h"
#include "eval/heap/checkpoint.h"
#include "eval/heap/heapstate.h"
#include <stdlib.h>
#include <string.h>

enum { PROGRESS_STEP = 1 << 12 };  /* heaps between progress updates */

void gr_heap_tune(gr_ctx *c, gr_game *g, int64_t sparse_warmup, int prove_periods) {
    struct gr_heap_state *hs = gr_heap_state_of(c, g);
    hs->sparse_warmup = sparse_warmup;
    hs->no_proof = !prove_periods;
}

/* ---- the generic recurrence ---------------------------------------------------------- */
typedef struct generic_state {
    gr_ctx *c;
    int64_t n;
    const gr_sgtable *table;     /* values come from the table ... */
    const int64_t *array;        /* ... or from a plain array */
    int64_t *vals; size_t nvals, cap;
    int64_t bad_heap;            /* a part that was not smaller than n, or -1 */
} generic_state;

static void generic_option(void *user, const int64_t *heaps, int nheaps) {
    generic_state *s = user;
    int64_t x = 0;
    for (int i = 0; i < nheaps; i++) {
        if (heaps[i] >= s->n) { if (s->bad_heap < 0) s->bad_heap = heaps[i]; return; }
        x ^= s->table ? gr_sgt_get(s->table, heaps[i]) : s->array[heaps[i]];
    }
    if (s->nvals == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->vals = gr_realloc(s->c, s->vals, gr_size_mul(s->c, s->cap, sizeof *s->vals));
    }
    s->vals[s->nvals++] = x;
}

/* sg(n) from the options, or -1 if an option is not smaller. */
static int64_t generic_value(gr_ctx *c, gr_game *g, int64_t n, generic_state *s, gr_mex *mex) {
    s->n = n;
    s->nvals = 0;
    s->bad_heap = -1;
    gr_heap_options(c, g, n, generic_option, s);
    if (s->bad_heap >= 0) return -1;
    gr_mex_reserve(c, mex, s->nvals);
    for (size_t i = 0; i < s->nvals; i++) gr_mex_add(mex, s->nvals, (uint64_t)s->vals[i]);
    return (int64_t)gr_mex_take(mex, s->nvals);
}

static void not_recurrence(gr_game *g, int64_t n, int64_t heap) {
    g->state->not_recurrence = 1;
    gr_grow_found(g, n, heap);
    snprintf(g->state->found, sizeof g->state->found,
             "; but heap %lld has a move to a heap of %lld, not smaller, so values come from the position graph",
             (long long)n, (long long)heap);
}

void gr_heap_fill_generic(gr_ctx *c, gr_game *g, int64_t n, int64_t *out) {
    generic_state s = { .c = c, .array = out };
    gr_mex mex = { 0 };
    for (int64_t m = 0; m <= n; m++) {
        gr_poll(c);
        out[m] = generic_value(c, g, m, &s, &mex);
        if (out[m] < 0) gr_fail(c, GR_EXIT_INPUT, "%s: heap %lld has a move to heap %lld, which is not smaller",
                                g->name, (long long)m, (long long)s.bad_heap);
    }
    gr_free(c, s.vals);
    gr_free(c, mex.bits);
}

static int fill_generic_kernel(gr_ctx *c, gr_game *g, int64_t to, gr_progress *pr) {
    gr_sgtable *t = GR_CACHED(g, sg);
    generic_state s = { .c = c, .table = t };
    gr_mex mex = { 0 };
    int rc = 0;
    int64_t *opts = &gr_heap_state_of(c, g)->opts, serial_until = 0;   /* the work per heap */
    while (t->n <= to) {
        if (c->threads > 1 && t->n >= serial_until) {
            /* large heaps with many options across threads (genpar.h); it stops where the
             * serial kernel must take over, and is asked again a little later */
            int64_t bad = -1;
            int r = gr_genpar_fill(c, g, t, to, pr, opts, &bad, 0);
            if (r == -2) { not_recurrence(g, t->n, bad); rc = -1; break; }
            if (r == 0) continue;
            serial_until = t->n + 64 + t->n / 16;
        }
        gr_poll(c);
        int64_t v = generic_value(c, g, t->n, &s, &mex);
        if (v < 0) { not_recurrence(g, t->n, s.bad_heap); rc = -1; break; }
        *opts = (int64_t)s.nvals;
        gr_sgt_push(c, t, v);
        if ((t->n & (PROGRESS_STEP - 1)) == 0) gr_progress_update(pr, (uint64_t)t->n);
    }
    gr_free(c, s.vals);
    gr_free(c, mex.bits);
    return rc;
}

/* ---- subtraction kernels ------------------------------------------------------------ */
/* Values of a finite subtraction game are at most |S|, so the table width is fixed at the
 * start and the mex fits in one 64-bit mask when |S| < 64. */
#define SUBTRACT_FILL(NAME, T)                                                                  \
    static void NAME(gr_ctx *c, gr_game *g, gr_sgtable *tab, int64_t to, gr_progress *pr) {    \
        T *t = tab->data;                                                                       \
        const int64_t *S = g->sub;                                                              \
        size_t m = g->nsub;                                                                     \
        int64_t smax = m ? S[m - 1] : 0;                                                        \
        gr_mex mex = { 0 };                                                                     \
        for (int64_t n = tab->n; n <= to; n++) {                                                \
            gr_poll(c);                                                                         \
            uint64_t v;                                                                         \
            if (m < 64) {                                                                       \
                uint64_t bits = 0;                                                              \
                if (n >= smax) for (size_t j = 0; j < m; j++) bits |= UINT64_C(1) << t[n - S[j]]; \
                else for (size_t j = 0; j < m && S[j] <= n; j++) bits |= UINT64_C(1) << t[n - S[j]]; \
                v = (uint64_t)__builtin_ctzll(~bits);                                           \
            } else {                                                                            \
                gr_mex_reserve(c, &mex, m);                                                     \
                for (size_t j = 0; j < m && S[j] <= n; j++) gr_mex_add(&mex, m, t[n - S[j]]);   \
                v = gr_mex_take(&mex, m);                                                       \
            }                                                                                   \
            t[n] = (T)v;                                                                        \
            if (v > (uint64_t)tab->max) tab->max = (int64_t)v;                                  \
            if ((n & (PROGRESS_STEP - 1)) == 0) { tab->n = n; gr_progress_update(pr, (uint64_t)n); } \
        }                                                                                       \
        tab->n = to + 1;                                                                        \
        gr_free(c, mex.bits);                                                                   \
    }
SUBTRACT_FILL(subtract_fill_u8, uint8_t)
SUBTRACT_FILL(subtract_fill_u16, uint16_t)
SUBTRACT_FILL(subtract_fill_u32, uint32_t)
SUBTRACT_FILL(subtract_fill_u64, int64_t)

static void fill_subtract(gr_ctx *c, gr_game *g, int64_t to, gr_progress *pr) {
    gr_sgtable *t = GR_CACHED(g, sg);
    switch (t->width) {
    case 1: subtract_fill_u8(c, g, t, to, pr); break;
    case 2: subtract_fill_u16(c, g, t, to, pr); break;
    case 4: subtract_fill_u32(c, g, t, to, pr); break;
    default: subtract_fill_u64(c, g, t, to, pr); break;
    }
}

/* An infinite set: the generated (or listed) elements below the open tail, plus, if there is
 * an open tail lo.., every heap 0..n-lo. The tail's values are kept in a growing bitset and
 * its least missing value advances as heaps are added. */
typedef struct inf_state { uint64_t *tail; size_t tail_words; int64_t tail_n, tail_mex; } inf_state;

static int bit_get(const uint64_t *b, size_t words, uint64_t v) {
    return (v >> 6) < words && (b[v >> 6] >> (v & 63) & 1u);
}

static int cmp_value(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Extends a generated set ahead of the heaps to about upto, for a block of heaps across threads.
 * A failure of the generator there is dropped: the serial kernel meets it again, at the heap
 * where it meets it with one thread, since the generator's state stops before its failing
 * element. */
static void extend_ahead(gr_ctx *c, gr_game *g, int64_t upto) {
    if (!g->sub_gen || g->gen_done || (g->nsub && g->sub[g->nsub - 1] > upto)) return;
    gr_guard guard;
    gr_guard_enter(c, &guard);
    if (setjmp(guard.jb) == 0) gr_sub_extend(c, g, upto);
    gr_guard_leave(c, &guard);
}

static void fill_subtract_inf_with(gr_ctx *c, gr_game *g, int64_t to, gr_progress *pr, gr_subthreads *par) {
    gr_sgtable *t = GR_CACHED(g, sg);
    inf_state *st = GR_CACHED(g, inf);
    if (!st) { st = gr_eval_cache_of(c, g)->inf = gr_alloc(c, sizeof *st); }
    uint64_t *seen = NULL;
    size_t seen_words = 0, vals_cap = 0;
    int64_t *vals = NULL;
    int64_t block0 = -1, block_end = -1;
    for (int64_t n = t->n; n <= to; n++) {
        gr_poll(c);
        if (par && n > block_end && n >= GR_SUBPAR_FROM) {
            gr_sub_extend(c, g, n);            /* as the serial kernel does at heap n */
            extend_ahead(c, g, n + (n < 4096 * 4 ? n / 4 : 4096));
            block0 = gr_subthreads_scan(c, par, g, t, to, &block_end) ? n : -1;
            if (block0 < 0) block_end = n + 1023;   /* one thread for a while */
        }
        gr_sub_extend(c, g, n);
        if (g->sub_open_from) {           /* the tail now reaches heap n - lo */
            while (st->tail_n <= n - g->sub_open_from) {
                uint64_t v = (uint64_t)gr_sgt_get(t, st->tail_n++);
                if ((v >> 6) >= st->tail_words) {
                    size_t nw = st->tail_words ? st->tail_words : 4;
                    while (nw <= (v >> 6)) nw *= 2;
                    st->tail = gr_realloc(c, st->tail, nw * sizeof *st->tail);
                    memset(st->tail + st->tail_words, 0, (nw - st->tail_words) * sizeof *st->tail);
                    st->tail_words = nw;
                }
                st->tail[v >> 6] |= UINT64_C(1) << (v & 63);
                while (bit_get(st->tail, st->tail_words, (uint64_t)st->tail_mex)) st->tail_mex++;
            }
        }
        /* The listed elements' values: marked in a bitset over 0..max while that is small next
         * to their number, else sorted and merged (max grows like n for sets such as 2..). */
        size_t count = 0;
        while (block0 < 0 && count < g->nsub && g->sub[count] <= n) count++;
        size_t words = (size_t)((uint64_t)t->max / 64 + 2);
        uint64_t v = (uint64_t)st->tail_mex;
        if (block0 >= 0) {
            /* the members' marks, and the elements s <= n - block0 that land in the block */
            size_t pw = gr_subthreads_words(par);
            if (words < pw) words = pw;
            if (words > seen_words) {
                seen = gr_realloc(c, seen, words * sizeof *seen);
                seen_words = words;
            }
            memset(seen, 0, words * sizeof *seen);
            memcpy(seen, gr_subthreads_marks(par, n), pw * sizeof *seen);
            for (size_t j = 0; j < g->nsub && g->sub[j] <= n - block0; j++) {
                uint64_t x = (uint64_t)gr_sgt_get(t, n - g->sub[j]);
                seen[x >> 6] |= UINT64_C(1) << (x & 63);
            }
            while (bit_get(seen, words, v) || bit_get(st->tail, st->tail_words, v)) v++;
        } else if (words <= 4 * count + 16) {
            if (words > seen_words) {
                seen = gr_realloc(c, seen, words * sizeof *seen);
                seen_words = words;
            }
            memset(seen, 0, words * sizeof *seen);
            for (size_t j = 0; j < count; j++) {
                uint64_t x = (uint64_t)gr_sgt_get(t, n - g->sub[j]);
                seen[x >> 6] |= UINT64_C(1) << (x & 63);
            }
            while (bit_get(seen, words, v) || bit_get(st->tail, st->tail_words, v)) v++;
        } else {
            if (count > vals_cap) {
                vals_cap = count * 2;
                vals = gr_realloc(c, vals, vals_cap * sizeof *vals);
            }
            for (size_t j = 0; j < count; j++) vals[j] = gr_sgt_get(t, n - g->sub[j]);
            if (count > 1) qsort(vals, count, sizeof *vals, cmp_value);
            size_t j = 0;
            for (;;) {
                while (j < count && (uint64_t)vals[j] < v) j++;
                if ((j < count && (uint64_t)vals[j] == v) || bit_get(st->tail, st->tail_words, v)) v++;
                else break;
            }
        }
        gr_sgt_push(c, t, (int64_t)v);
        if ((n & (PROGRESS_STEP - 1)) == 0) gr_progress_update(pr, (uint64_t)n);
        if (n == block_end) block0 = -1;
    }
    gr_free(c, seen);
    gr_free(c, vals);
}

/* With --threads, blocks of large heaps: the members mark the moves to heaps below the block
 * (subthreads.h), and the kernel adds the few elements that land inside it. The team is freed
 * before any failure goes on outward (pool.h). */
static void fill_subtract_inf(gr_ctx *c, gr_game *g, int64_t to, gr_progress *pr) {
    int64_t run = to - GR_CACHED(g, sg)->n + 1;    /* a team only for a run of heaps that can fill blocks */
    gr_subthreads *par = c->threads > 1 && to >= GR_SUBPAR_FROM && run >= 4 * c->threads && run >= 256 ? gr_subthreads_new(c) : NULL;
    if (!par) { fill_subtract_inf_with(c, g, to, pr, NULL); return; }
    gr_guard guard;
    gr_guard_enter(c, &guard);
    if (setjmp(guard.jb)) {
        gr_subthreads_free(c, par);
        gr_guard_rethrow(c, &guard);
    }
    fill_subtract_inf_with(c, g, to, pr, par);
    gr_guard_leave(c, &guard);
    gr_subthreads_free(c, par);
}

/* ---- octal kernel --------------------------------------------------------------------- */
/* At most two heaps after a move (pairs may be constrained: '!' and '?' mean unequal, '='
 * equal). Values of the pairs are xors of table
 * entries, all below P, the power of two above the largest value so far; while P <= 64 they
 * are OR-ed into 64-bit masks (four, to break the dependency chain), else marked in a byte
 * array of P entries. Returns the first heap whose value does not fit the width T. */
#define OCTAL_FILL(NAME, T, TMAX)                                                               \
    static int64_t NAME(gr_ctx *c, gr_game *g, gr_sgtable *tab, int64_t to, gr_progress *pr,  \
                        uint8_t **seen, size_t *seen_cap) {                                    \
        T *restrict t = tab->data;   /* never aliases the marks below */                    \
        const gr_tbcode *code = &g->tb;                                                        \
        int k0 = code->d[0].mask ? 0 : 1;                                                       \
        for (int64_t n = tab->n; n <= to; n++) {                                                \
            gr_poll(c);                                                                         \
            uint64_t P = 1;                                                                     \
            while (P <= (uint64_t)tab->max) P <<= 1;                                            \
            int64_t last = code->last_place < n ? code->last_place : n;                        \
            uint64_t v;                                                                         \
            if (P <= 64) {                                                                      \
                uint64_t m0 = 0, m1 = 0, m2 = 0, m3 = 0;                                        \
                for (int64_t k = k0; k <= last; k++) {                                          \
                    uint32_t d = code->d[k].mask;                                               \
                    int64_t r = n - k;                                                          \
                    if (r == 0) { if (d & 1u) m0 |= 1; continue; }                              \
                    if (d & 2u) m0 |= UINT64_C(1) << t[r];                                      \
                    if ((d & 4u) && code->d[k].constraint == TB_EQUAL) {                        \
                        if (r % 2 == 0) m0 |= 1;            /* x ^ x: equal halves give 0 */     \
                    } else if (d & 4u) {                                                        \
                        int64_t a = 1, half = code->d[k].constraint ? (r - 1) / 2 : r / 2;      \
                        const T *restrict tr = t + r;                                           \
                        GR_OCT_SCAN_MASKS(t, tr, a, half, m0, m1, m2, m3);                      \
                    }                                                                           \
                }                                                                               \
                uint64_t all = m0 | m1 | m2 | m3;                                               \
                v = ~all ? (uint64_t)__builtin_ctzll(~all) : 64;                                \
            } else {                                                                            \
                v = UINT64_MAX;                                                                 \
                if (*seen_cap < P + 1) {                                                        \
                    *seen = gr_realloc(c, *seen, (size_t)P + 1);                                \
                    *seen_cap = (size_t)P + 1;                                                  \
                }                                                                               \
                /* a search for every value: no store per pair (octneed.h) */                   \
                if (sizeof(T) == 2 && gr_octneed_ok(P))                                         \
                    v = gr_octneed_value(code, (const uint16_t *)(const void *)t, n, P, *seen); \
            }                                                                                   \
            if (v == UINT64_MAX) {      /* the byte marks */                                    \
                uint8_t *restrict s = *seen;                                                    \
                memset(s, 0, (size_t)P + 1);                                                    \
                for (int64_t k = k0; k <= last; k++) {                                          \
                    uint32_t d = code->d[k].mask;                                               \
                    int64_t r = n - k;                                                          \
                    if (r == 0) { if (d & 1u) s[0] = 1; continue; }                             \
                    if (d & 2u) s[t[r]] = 1;                                                    \
                    if ((d & 4u) && code->d[k].constraint == TB_EQUAL) {                        \
                        if (r % 2 == 0) s[0] = 1;                                               \
                    } else if (d & 4u) {                                                        \
                        int64_t half = code->d[k].constraint ? (r - 1) / 2 : r / 2, a = 1;      \
                        const T *restrict tr = t + r;                                           \
                        GR_OCT_SCAN_BYTES(t, tr, a, half, s);                                   \
                    }                                                                           \
                }                                                                               \
                v = 0;                                                                          \
                while (s[v]) v++;                                                               \
            }                                                                                   \
            if (v > (uint64_t)(TMAX)) { tab->n = n; return n; }                                 \
            t[n] = (T)v;                                                                        \
            if ((int64_t)v > tab->max) tab->max = (int64_t)v;                                   \
            tab->n = n + 1;                                                                     \
            if ((n & (PROGRESS_STEP - 1)) == 0) gr_progress_update(pr, (uint64_t)n);            \
        }                                                                                       \
        return to + 1;                                                                          \
    }
OCTAL_FILL(octal_fill_u8, uint8_t, UINT8_MAX)
OCTAL_FILL(octal_fill_u16, uint16_t, UINT16_MAX)
OCTAL_FILL(octal_fill_u32, uint32_t, UINT32_MAX)
OCTAL_FILL(octal_fill_u64, int64_t, INT64_MAX)

static void fill_octal(gr_ctx *c, gr_game *g, int64_t to, gr_progress *pr) {
    gr_sgtable *t = GR_CACHED(g, sg);
    uint8_t *seen = NULL;
    size_t cap = 0;
    struct gr_heap_state *hs = gr_heap_state_of(c, g);
    if (!hs->sparse && hs->sparse_warmup >= 0 && gr_sparse_applies(g)) hs->sparse = gr_sparse_new(c, g, hs->sparse_warmup);
    while (t->n <= to) {
        int64_t upto = to;
        if (hs->sparse) {
            /* the rare-value kernel while it pays; the plain one in between */
            int64_t had = t->n;
            int wide = gr_sparse_fill(c, g, hs->sparse, t, to, pr);
            hs->counts.rare += t->n - had;
            if (wide) { gr_sgt_fit(c, t, t->max * 2 + 2); continue; }
            if (t->n > to) break;
            int64_t until = gr_sparse_plain_until(hs->sparse);
            if (until - 1 < upto) upto = until - 1;
        }
        if (c->threads > 1) {
            /* large heaps across threads; the serial kernel below GR_OCTPAR_FROM */
            int64_t had = t->n;
            int r = t->n >= GR_OCTPAR_FROM ? gr_octpar_fill(c, g, t, upto, pr) : -1;
            hs->counts.threaded += t->n - had;
            if (r == 1) gr_sgt_fit(c, t, t->max * 2 + 2);
            if (r >= 0) continue;
            if (t->n < GR_OCTPAR_FROM && upto >= GR_OCTPAR_FROM) upto = GR_OCTPAR_FROM - 1;
        }
        int64_t stop;
        switch (t->width) {
        case 1: stop = octal_fill_u8(c, g, t, upto, pr, &seen, &cap); break;
        case 2: stop = octal_fill_u16(c, g, t, upto, pr, &seen, &cap); break;
        case 4: stop = octal_fill_u32(c, g, t, upto, pr, &seen, &cap); break;
        default: stop = octal_fill_u64(c, g, t, upto, pr, &seen, &cap); break;
        }
        if (stop <= upto) gr_sgt_fit(c, t, t->max * 2 + 2);   /* the next value needs more width */
    }
    gr_free(c, seen);
}

/* ---- the dispatcher -------------------------------------------------------------------- */
static int width_for(uint64_t maxval) { return maxval < 256 ? 1 : maxval < 65536 ? 2 : maxval < (UINT64_C(1) << 32) ? 4 : 8; }

/* Fills the table to heap n with the game's kernel. */
static int fill_to(gr_ctx *c, gr_game *g, int64_t n, gr_progress *pr) {
    switch (g->kernel) {
    case KER_SUBTRACT: fill_subtract(c, g, n, pr); return 0;
    case KER_SUBTRACT_INF: fill_subtract_inf(c, g, n, pr); return 0;
    case KER_OCTAL: fill_octal(c, g, n, pr); return 0;
    default: return fill_generic_kernel(c, g, n, pr);
    }
}

/* The least period the window theorem proves from the table so far (period/proved.h, the one
 * finder the check queries use too), scanned in place at the table's width; 0 if none. The
 * detector's array (4 bytes a heap, 8 past 2^31) lives only during the scan; when it would
 * pass --max-memory the proof waits for a later stage rather than failing the run. */
static int64_t prove_period(gr_ctx *c, const gr_game *g, const gr_sgtable *t, int64_t *pre) {
    size_t z = (size_t)t->n * (t->n > INT32_MAX ? 8 : 4);
    if (c->mem_limit && (c->store.mem_used > c->mem_limit || z > c->mem_limit - c->store.mem_used)) return 0;
    gr_window w = gr_window_of(g);
    gr_detect d;
    gr_detect_init(&d, c);
    switch (t->width) {
    case 1: gr_detect_scan_u8(&d, t->data, t->n); break;
    case 2: gr_detect_scan_u16(&d, t->data, t->n); break;
    case 4: gr_detect_scan_u32(&d, t->data, t->n); break;
    default: gr_detect_scan_i64(&d, t->data, t->n); break;
    }
    int64_t p = gr_proved_least(&w, &d, pre);
    gr_detect_free(&d);
    return p;
}

/* A long search's table (--histogram) that would pass --table-memory goes to a file, mapped
 * (tablefile.h): beside the checkpoint when there is one, its values then saved in place. */
static void to_file_if_large(gr_ctx *c, const gr_game *g, gr_sgtable *t, int64_t need) {
    size_t budget = c->table_memory ? c->table_memory : GR_TABLE_MEMORY_DEFAULT;
    if (!gr_tablefile_supported() || (uint64_t)need * (uint64_t)t->width <= budget) return;
    gr_sgt_to_file(c, t, c->checkpoint ? gr_ckpt_values_path(c, g->name) : NULL, budget);
}

int gr_heap_ensure(gr_ctx *c, gr_game *g, int64_t n) {
    if (g->kernel == KER_NIM) return 0;
    if (g->state->not_recurrence) return -1;
    if (c->ckpt) gr_ckpt_claim(c, g);    /* the first time: the values saved by an earlier run */
    if (!GR_CACHED(g, sg)) gr_eval_cache_of(c, g)->sg = gr_sgt_new(c, g->kernel == KER_SUBTRACT ? width_for(g->nsub) : 1);
    gr_sgtable *t = GR_CACHED(g, sg);
    struct gr_heap_state *hs = gr_heap_state_of(c, g);
    if (t->n > n || hs->period) return 0;
    /* a long search (--histogram) asks for no period: no detector array beside the table */
    int proving = gr_proved_applies(g) && !hs->no_proof && !c->histogram;
    gr_progress pr;
    gr_progress_begin_at(&pr, c, g->name, (uint64_t)(c->heap_goal > n ? c->heap_goal : n) + 1, (uint64_t)t->n);
    int rc = 0;
    int64_t had = t->n;
    /* In stages that double, looking for a proved period after each: once one is proved the
     * rest of the values come from it and nothing more is computed or stored. */
    while (t->n <= n && rc == 0 && !hs->period) {
        int64_t upto = n;
        if (proving && hs->next_proof - 1 < upto) upto = hs->next_proof - 1;
        /* In chunks of about a quarter second, each ending at a safe point: for a checkpoint,
         * and for the limits when the threaded kernels (which cannot jump out while their
         * team runs) do the work. */
        int chunked = c->ckpt || c->threads > 1 || c->histogram;
        double t0 = 0;
        if (chunked) {
            if (!hs->chunk) hs->chunk = 4096;
            if (t->n + hs->chunk - 1 < upto) upto = t->n + hs->chunk - 1;
            t0 = gr_now();
        }
        if (c->histogram && !t->file) to_file_if_large(c, g, t, upto + 1);
        gr_sgt_reserve(c, t, upto + 1);
        /* With a checkpoint, --max-time stops the run at the safe point below (where the chunk's
         * work is saved first), not inside the kernel: a chunk is short, so it overruns little. */
        double deadline = c->deadline;
        if (c->ckpt) c->deadline = 0;
        rc = fill_to(c, g, upto, &pr);
        c->deadline = deadline;
        if (chunked) {
            double dt = gr_now() - t0;
            if (dt < 0.1 && hs->chunk < (INT64_C(1) << 30)) hs->chunk *= 2;
            else if (dt > 0.5 && hs->chunk > 64) hs->chunk /= 2;
        }
        if (t->file && hs->sparse) {                    /* the look-ups' window stays resident */
            int64_t rare, w = gr_sparse_window(hs->sparse, &rare);
            gr_sgt_keep_behind(c, t, w, rare, g->name);
        }
        gr_sgt_trim(t);                                 /* a table in a file: what it need not keep */
        if (proving && rc == 0 && t->n >= hs->next_proof) {
            hs->period = prove_period(c, g, t, &hs->pre);
            hs->next_proof = t->n * 2;
        }
        if (c->ckpt && rc == 0) gr_ckpt_point(c, g);   /* saves now and then; stops on a signal */
        if (chunked) gr_poll_clock(c);                  /* --max-time, a reader gone */
    }
    gr_progress_end(&pr);
    c->store.values_computed += (uint64_t)(t->n - had);   /* the engine's count (api/engine.h) */
    return rc;
}

int gr_heap_prefill(gr_ctx *c, gr_game *g, int64_t n) {
    if (g->kernel != KER_RULES || g->state->not_recurrence || !GR_CACHED(g, sg) || c->threads <= 1) return -1;
    gr_progress quiet = { 0 };
    int64_t bad, had = GR_CACHED(g, sg)->n;
    int rc = gr_genpar_fill(c, g, GR_CACHED(g, sg), n, &quiet, &gr_heap_state_of(c, g)->opts, &bad, 1);
    c->store.values_computed += (uint64_t)(GR_CACHED(g, sg)->n - had);
    return rc;
}

int64_t gr_heap_value(const gr_game *g, int64_t n) {
    if (g->kernel == KER_NIM) return n;
    const gr_sgtable *t = GR_CACHED(g, sg);
    if (n < t->n) return gr_sgt_get(t, n);
    const struct gr_heap_state *hs = GR_CACHED(g, hstate);
    return gr_sgt_get(t, hs->pre + (n - hs->pre) % hs->period);
}

int64_t gr_heap_sg(gr_ctx *c, gr_game *g, int64_t n) {
    if (g->kernel == KER_NIM) return n;
    if (gr_heap_ensure(c, g, n) < 0)
        gr_fail(c, GR_EXIT_INPUT, "%s is not a heap recurrence (%s%s)", g->name, g->explain, g->state->found);
    return gr_heap_value(g, n);
}

gr_heap_counts gr_heap_count(const gr_game *g) {
    gr_heap_counts none = { 0, 0, 0, 0, 0, 0 };
    const struct gr_heap_state *hs = GR_CACHED(g, hstate);
    if (!hs) return none;
    gr_heap_counts k = hs->counts;
    if (hs->sparse) gr_sparse_spec_counts(hs->sparse, &k.speculated, &k.spec_failed);
    if (hs->sparse) gr_sparse_paced(hs->sparse, &k.paced_one, &k.paced_team);
    return k;
}

struct gr_pace *gr_heap_sparse_pace(gr_ctx *c, gr_game *g) {
    struct gr_heap_state *hs = gr_heap_state_of(c, g);
    if (!hs->sparse && hs->sparse_warmup >= 0 && gr_sparse_applies(g)) hs->sparse = gr_sparse_new(c, g, hs->sparse_warmup);
    return hs->sparse ? gr_sparse_pace_of(hs->sparse) : NULL;
}

int gr_heap_sparse_piece(gr_ctx *c, gr_game *g, int64_t pairs) {
    gr_pace *p = gr_heap_sparse_pace(c, g);      /* (makes the kernel when it applies) */
    if (p) gr_sparse_piece(gr_heap_state_of(c, g)->sparse, pairs);
    return p != NULL;
}

int gr_heap_sparse_solo(gr_ctx *c, gr_game *g) {
    struct gr_heap_state *hs = gr_heap_state_of(c, g);
    if (!hs->sparse && hs->sparse_warmup >= 0 && gr_sparse_applies(g)) hs->sparse = gr_sparse_new(c, g, hs->sparse_warmup);
    if (hs->sparse) gr_sparse_solo(hs->sparse, 1);
    return hs->sparse != NULL;
}

int gr_heap_period(const gr_game *g, int64_t *period, int64_t *pre) {
    if (g->kernel == KER_NIM) { *period = 1; *pre = 0; return 1; }
    const struct gr_heap_state *hs = GR_CACHED(g, hstate);
    if (!hs || !hs->period) return 0;
    *period = hs->period;
    *pre = hs->pre;
    return 1;
}

void gr_heap_describe(const gr_game *g, char *buf, size_t cap) {
    buf[0] = '\0';
    const struct gr_heap_state *hs = GR_CACHED(g, hstate);
    if (!hs || g->kernel != KER_OCTAL) return;
    if (hs->period) snprintf(buf, cap, "period %lld from heap %lld proved (Guy-Smith): no further values are computed",
                             (long long)hs->period, (long long)hs->pre);
    else if (hs->sparse) gr_sparse_describe(hs->sparse, buf, cap);
}

int gr_heap_rare_classes(const gr_game *g, uint64_t *mask, int *heap_parity, int *common) {
    const struct gr_heap_state *hs = GR_CACHED(g, hstate);
    return hs && hs->sparse && gr_sparse_classes(hs->sparse, mask, heap_parity, common);
}

int gr_heap_rare_orientation(const gr_game *g) { return gr_sparse_kappa(g); }

int gr_heap_streams(const gr_game *g, gr_conv conv) {
    return conv == CONV_NORMAL && g->evaluator == EVAL_HEAP && g->shape == SHAPE_HEAP && g->kernel <= KER_TB;
}
