/* sparse: the rare-value kernel; see sparse.h. */
#include "eval/heap/sparse.h"
#include "pool.h"
#include <stdatomic.h>
#include <string.h>

enum { WARMUP = 1024, PROGRESS_MASK = (1 << 12) - 1 };
enum { SPEC_MIN = 64, SPEC_START = 1 << 13, SPEC_MAX = 1 << 20 };   /* the team's search budget */
enum { MODE_UNDECIDED = 0, MODE_SPARSE = 1, MODE_PLAIN = 2 };
#define MAX_SPARSE_P (UINT64_C(1) << 20)   /* values beyond: the histogram is not worth it */

struct gr_sparse {
    /* the moves of the code, by place */
    int64_t *take; int ntake;          /* digit bit 1: leave one heap of n - k */
    int64_t *takeall; int ntakeall;    /* digit bit 0: take a whole heap of k */
    int64_t *equal; int nequal;        /* '=' splits: two equal heaps */
    int64_t *split; uint8_t *uneq; int nsplit;  /* splits into two heaps; '!'/'?': unequal */
    int kappa;                         /* the parity of every split place, or -1 if mixed */
    int64_t warmup;                    /* heaps before the first choice */
    /* the choice */
    int mode;
    uint64_t mask, P;                  /* P: a power of two above every value at the choice */
    int hp, cc;                        /* heap-parity bit; the common class */
    int64_t chosen_n, chosen_rare, plain_until, best_rare;
    /* the rare heaps, in increasing order, with their values */
    int64_t *ra; uint32_t *rv; int64_t nr, rcap;
    /* scratch */
    uint8_t *mark, *need; size_t scap;
    uint8_t *bmarks; size_t bcap;      /* --threads: the marks of a block of heaps */
    int64_t spec_budget;               /* --threads: pairs per heap the team searches */
};

int gr_sparse_applies(const gr_game *g) {
    const gr_tbcode *t = &g->tb;
    if (g->kernel != KER_OCTAL || t->period || t->max_heaps > 2 || t->last_place < 0) return 0;
    if (t->d[0].mask & 3u) return 0;
    for (int k = 0; k <= t->last_place; k++)
        if ((t->d[k].mask & 4u) && t->d[k].constraint != TB_EQUAL) return 1;
    return 0;
}

static int64_t *push_place(gr_ctx *c, int64_t *a, int *n, int64_t k) {
    a = gr_realloc(c, a, (size_t)(*n + 1) * sizeof *a);
    a[(*n)++] = k;
    return a;
}

gr_sparse *gr_sparse_new(gr_ctx *c, const gr_game *g, int64_t warmup) {
    gr_sparse *s = gr_alloc(c, sizeof *s);
    s->warmup = warmup > 0 ? warmup : WARMUP;
    s->spec_budget = SPEC_START;
    const gr_tbcode *t = &g->tb;
    s->kappa = -2;
    for (int k = 0; k <= t->last_place; k++) {
        gr_tbdigit d = t->d[k];
        if (d.mask & 1u) s->takeall = push_place(c, s->takeall, &s->ntakeall, k);
        if (d.mask & 2u) s->take = push_place(c, s->take, &s->ntake, k);
        if (!(d.mask & 4u)) continue;
        if (d.constraint == TB_EQUAL) { s->equal = push_place(c, s->equal, &s->nequal, k); continue; }
        s->split = push_place(c, s->split, &s->nsplit, k);
        s->uneq = gr_realloc(c, s->uneq, (size_t)s->nsplit);
        s->uneq[s->nsplit - 1] = d.constraint != TB_ANY;
        s->kappa = s->kappa == -2 ? (k & 1) : s->kappa == (k & 1) ? s->kappa : -1;
    }
    return s;
}

void gr_sparse_free(gr_ctx *c, gr_sparse *s) {
    if (!s) return;
    gr_free(c, s->take); gr_free(c, s->takeall); gr_free(c, s->equal);
    gr_free(c, s->split); gr_free(c, s->uneq);
    gr_free(c, s->ra); gr_free(c, s->rv);
    gr_free(c, s->mark); gr_free(c, s->need); gr_free(c, s->bmarks);
    gr_free(c, s);
}

int64_t gr_sparse_plain_until(const gr_sparse *s) { return s->plain_until; }

static inline int cls(const gr_sparse *s, uint64_t v, int64_t n) {
    return __builtin_parityll(v & s->mask) ^ (s->hp & (int)(n & 1));
}

static void push_rare(gr_ctx *c, gr_sparse *s, int64_t n, uint64_t v) {
    if (s->nr == s->rcap) {
        s->rcap = s->rcap ? s->rcap * 2 : 256;
        s->ra = gr_realloc(c, s->ra, gr_size_mul(c, (size_t)s->rcap, sizeof *s->ra));
        s->rv = gr_realloc(c, s->rv, gr_size_mul(c, (size_t)s->rcap, sizeof *s->rv));
    }
    s->ra[s->nr] = n;
    s->rv[s->nr++] = (uint32_t)v;
}

/* The mask and heap-parity bit whose rare class is smallest, from the Walsh-Hadamard transform
 * of the histogram of (value, heap parity): coefficient (M, h) is #class 0 - #class 1. The
 * common class must be 1 xor (h and kappa): a mixed split then gives the common class. */
static void choose(gr_ctx *c, gr_sparse *s, const gr_sgtable *tab) {
    int64_t N = tab->n;
    uint64_t P = 2;
    while (P <= (uint64_t)tab->max) P <<= 1;
    s->chosen_n = N;
    s->P = P;
    s->nr = 0;
    if (N < s->warmup || P > MAX_SPARSE_P || tab->width > 4) {
        s->mode = MODE_PLAIN;
        s->plain_until = P > MAX_SPARSE_P || tab->width > 4 ? INT64_MAX : s->warmup;
        return;
    }
    size_t L = (size_t)(2 * P);
    int64_t *w = gr_alloc(c, gr_size_mul(c, L, sizeof *w));
    for (int64_t x = 0; x < N; x++) w[((uint64_t)gr_sgt_get(tab, x) << 1) | (uint64_t)(x & 1)]++;
    for (size_t h = 1; h < L; h <<= 1)
        for (size_t i = 0; i < L; i += 2 * h)
            for (size_t j = i; j < i + h; j++) {
                int64_t a = w[j], b = w[j + h];
                w[j] = a + b;
                w[j + h] = a - b;
            }
    int64_t best = N + 1;
    size_t best_s = 0;
    for (size_t i = 2; i < L; i++) {
        int hp = (int)(i & 1);
        if (hp && s->kappa < 0) continue;
        int cc = 1 ^ (hp & s->kappa);
        int64_t rare = cc ? (N + w[i]) / 2 : (N - w[i]) / 2;
        if (rare < best) { best = rare; best_s = i; }
    }
    gr_free(c, w);
    s->best_rare = best;
    if (best_s == 0 || best * 8 > N) {
        s->mode = MODE_PLAIN;
        s->plain_until = 2 * N;
        return;
    }
    s->mode = MODE_SPARSE;
    s->mask = best_s >> 1;
    s->hp = (int)(best_s & 1);
    s->cc = 1 ^ (s->hp & s->kappa);
    for (int64_t x = 1; x < N; x++) {
        uint64_t v = (uint64_t)gr_sgt_get(tab, x);
        if (cls(s, v, x) != s->cc) push_rare(c, s, x, v);
    }
    s->chosen_rare = s->nr;
    if (s->scap < (size_t)P + 1) {
        s->scap = (size_t)P + 1;
        s->mark = gr_realloc(c, s->mark, s->scap);
        s->need = gr_realloc(c, s->need, s->scap);
    }
    memset(s->need, 0, s->scap);
}

/* One width. Returns 1 when the next value does not fit T (tab->n is that heap); 0 when done
 * to `to` or when a new choice is due (mode reset to undecided). */
/* The pairs (a, m - a) for a in [a, hi]: each needed value met (need[x]) is cleared from need,
 * set in mark (when given: it is an option) and counted off *count; stops when none is needed
 * any more or after *budget pairs. Returns the next a not looked at.
 *
 * Most needed values turn up in the first few hundred pairs; the last few (usually small
 * values: two parts of nearly the same value) take thousands. So once at most TAIL are left,
 * the pairs go a 64-bit word at a time (8, 4 or 2 of them): t[a..] against t[..m-a] with its
 * lanes reversed, each value still needed tested by the exact has-a-zero-lane test, and only
 * a word with a hit is looked at pair by pair. (Plain C: right on either byte order.) */
enum { TAIL = 6 };
#define ONES_u8 UINT64_C(0x0101010101010101)
#define ONES_u16 UINT64_C(0x0001000100010001)
#define ONES_u32 UINT64_C(0x0000000100000001)
static inline uint64_t rev_u8(uint64_t b) { return __builtin_bswap64(b); }
static inline uint64_t rev_u16(uint64_t b) {
    b = __builtin_bswap64(b);
    return ((b >> 8) & UINT64_C(0x00ff00ff00ff00ff)) | ((b & UINT64_C(0x00ff00ff00ff00ff)) << 8);
}
static inline uint64_t rev_u32(uint64_t b) { return (b >> 32) | (b << 32); }
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
            if (hit & highs) {                                                                        \
                int64_t b = a, one = W;                                                               \
                PAIRS_SCALAR(b, a + W - 1, &one);                                                     \
                if (!*count) { *budget -= b - a; return b; }                                          \
                int k2 = 0;                                                                           \
                for (int k = 0; k < ny; k++)                                                          \
                    if (need[yv[k]]) { yv[k2] = yv[k]; ys[k2++] = ys[k]; }                             \
                ny = k2;                                                                              \
            }                                                                                         \
            a += W;                                                                                   \
            *budget -= W;                                                                             \
        }                                                                                             \
    }
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
#define PAIRS(NAME, T, ONES, REV)                                                                        \
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
        WORD_TAIL(T, ONES, REV)                                                                           \
        PAIRS_SCALAR(a, hi, budget);                                                                  \
        return a;                                                                                     \
    }
PAIRS(pairs_u8, uint8_t, ONES_u8, rev_u8)
PAIRS(pairs_u16, uint16_t, ONES_u16, rev_u16)
PAIRS(pairs_u32, uint32_t, ONES_u32, rev_u32)

/* The search for rare-class values that only common-common splits give, over the pairs
 * (a, m - a) of every split place (m = n - place) with a part at n0 or above: a in
 * [1, min(half, m - n0)] (all pairs when n0 = 0). Each needed value met (all below lim) is
 * cleared from need. Returns how many are still needed. */
#define NEED_SCAN(NAME, T, PAIRS_T)                                                               \
    static int64_t NAME(const T *restrict t, const gr_sparse *s, int64_t n, int64_t n0,          \
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
typedef struct spec_at { int64_t j, a; } spec_at;
#define NEED_UPPER(NAME, T, PAIRS_T)                                                              \
    static int64_t NAME(const T *restrict t, const gr_sparse *s, int64_t n, int64_t n0,          \
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
NEED_SCAN(need_scan_u8, uint8_t, pairs_u8)
NEED_SCAN(need_scan_u16, uint16_t, pairs_u16)
NEED_SCAN(need_scan_u32, uint32_t, pairs_u32)
NEED_UPPER(need_upper_u8, uint8_t, pairs_u8)
NEED_UPPER(need_upper_u16, uint16_t, pairs_u16)
NEED_UPPER(need_upper_u32, uint32_t, pairs_u32)

/* With --threads: heaps in blocks n0 .. n0 + B - 1. The members of a thread team take the
 * block's heaps one by one and do, for each, everything that reads only heaps below n0: the
 * split look-ups with a rare part (all but those of rare heaps inside the block and the few
 * whose other part is in it) into the heap's own marks, and then, speculatively, the search
 * of common-common splits with both parts below n0 for the rare-class values those marks
 * leave missing below their common-class mex v' (found ones are marked: they are options),
 * within a budget of pairs per heap. The rest is done in heap order as without threads; the
 * final marks only add to the team's, so the final mex is at least v', and a rare-class value
 * below v' still missing was searched for by the team over the pairs below n0 up to where it
 * stopped: only the pairs reaching into the block and those past the stop remain. The budget
 * adapts between blocks: it shrinks when the team's searches are mostly for values the heap
 * then gets otherwise (from a rare part inside the block), and grows when the heaps go on
 * where the team stopped. Same options, same values, for every thread count and budget. */
typedef struct spec {
    uint64_t v;          /* the team's v' (the values below it it searched for) */
    spec_at at;          /* where its search stopped (at.j = nsplit: complete) */
} spec;
typedef struct sblock {
    const gr_sparse *s;
    const void *t;
    const int64_t *ra; const uint32_t *rv; int64_t nr0;   /* the rare heaps below n0 */
    int64_t n0, B;
    size_t P;
    uint8_t *marks;      /* B heaps' marks */
    uint8_t *scratch;    /* a need array of P bytes per member */
    spec *spec;          /* per heap of the block: the team's search */
    int64_t budget;      /* pairs per heap for it */
    atomic_llong next;   /* the next heap of the block, taken by whichever member is free */
} sblock;

/* The first index i < nr with ra[i] > x (ra increasing). */
static int64_t first_above(const int64_t *ra, int64_t nr, int64_t x) {
    int64_t lo = 0, hi = nr;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (ra[mid] > x) hi = mid; else lo = mid + 1;
    }
    return lo;
}

#define SPARSE_SCAN(NAME, T, NEED)                                                                \
    static void NAME(void *arg, int member, int members) {                                       \
        (void)members;                                                                            \
        sblock *J = arg;                                                                          \
        const gr_sparse *s = J->s;                                                                \
        const T *restrict t = J->t;                                                               \
        const int64_t *ra = J->ra;                                                                \
        const uint32_t *rv = J->rv;                                                               \
        uint8_t *restrict need = J->scratch + (size_t)member * J->P;                              \
        for (int64_t q; (q = atomic_fetch_add(&J->next, 1)) < J->B;) {                            \
            int64_t n = J->n0 + q;                                                                \
            uint8_t *restrict mark = J->marks + (size_t)q * J->P;                                 \
            memset(mark, 0, J->P);                                                                \
            for (int j = 0; j < s->nsplit; j++) {                                                 \
                int64_t m = n - s->split[j];                                                      \
                if (m < 2) continue;                                                              \
                int64_t i = first_above(ra, J->nr0, m - J->n0);                                   \
                if (s->uneq[j]) {                                                                 \
                    for (; i < J->nr0 && ra[i] < m; i++)                                          \
                        if (2 * ra[i] != m) mark[rv[i] ^ t[m - ra[i]]] = 1;                       \
                } else {                                                                          \
                    for (; i < J->nr0 && ra[i] < m; i++) mark[rv[i] ^ t[m - ra[i]]] = 1;          \
                }                                                                                 \
            }                                                                                     \
            /* the speculative search: v' from these marks, then the missing rare-class values */ \
            int nb = s->hp & (int)(n & 1);                                                        \
            uint64_t v = 0, P = J->P;                                                             \
            while ((v < P && mark[v]) || (__builtin_parityll(v & s->mask) ^ nb) != s->cc) v++;   \
            uint64_t vlim = v < P ? v : P;                                                        \
            int64_t count = 0;                                                                    \
            for (uint64_t x = 0; x < vlim; x++)                                                   \
                if (!mark[x] && (__builtin_parityll(x & s->mask) ^ nb) != s->cc) { need[x] = 1; count++; } \
            spec *sp = &J->spec[q];                                                               \
            sp->v = vlim;                                                                         \
            sp->at = (spec_at){ 0, 0 };                                                           \
            if (count && NEED(t, s, n, J->n0, need, mark, count, &sp->at, J->budget, vlim))             \
                memset(need, 0, vlim);                                                            \
            if (!count) sp->at.j = s->nsplit;                                                     \
        }                                                                                         \
    }
SPARSE_SCAN(sparse_scan_u8, uint8_t, need_upper_u8)
SPARSE_SCAN(sparse_scan_u16, uint16_t, need_upper_u16)
SPARSE_SCAN(sparse_scan_u32, uint32_t, need_upper_u32)

enum { PAR_FROM = 4096, PAR_MAX_BLOCK = 4096 };
#define PAR_BLOCK_WORK (INT64_C(1) << 26)
#define PAR_MAX_MARKS ((size_t)16 << 20)

/* After a block of B heaps, of whose searches `stopped` ran out of budget and `wasted` of
 * those were not gone on with (the heap got the values otherwise): a quarter of the block
 * wasted shrinks the budget, a sixteenth gone on with grows it. Only the work moves. */
static void adapt_budget(gr_sparse *s, int64_t stopped, int64_t wasted, int64_t B) {
    if (B <= 0) return;
    if (4 * wasted > B) s->spec_budget = s->spec_budget / 4 > SPEC_MIN ? s->spec_budget / 4 : SPEC_MIN;
    else if (16 * (stopped - wasted) > B && s->spec_budget < SPEC_MAX) s->spec_budget *= 2;
}

/* Starts a block at heap n: its size, its marks, and the team's work. The team lives while
 * the kernel runs, but is ended before any tracked allocation (which may fail with a longjmp)
 * and started again after it, so no failure can leave threads behind. */
static int64_t sparse_block(gr_ctx *c, gr_sparse *s, const gr_sgtable *tab, int64_t n, int64_t to, gr_pool_fn scan,
                            gr_pool **pool, const spec **specs) {
    int64_t B = PAR_BLOCK_WORK / (s->nr * s->nsplit + 1);
    if (B < 2 * c->threads) B = 2 * (int64_t)c->threads;
    if (B > PAR_MAX_BLOCK) B = PAR_MAX_BLOCK;
    if ((size_t)B * s->P > PAR_MAX_MARKS) B = (int64_t)(PAR_MAX_MARKS / s->P);
    if (B > to - n + 1) B = to - n + 1;
    if (B > 2 * s->chosen_n - n) B = 2 * s->chosen_n - n;
    if (B < 1) B = 1;
    /* marks, then a need array per member, then the team's search of each heap (aligned) */
    size_t marks = gr_size_mul(c, (size_t)B, (size_t)s->P);
    size_t vat = (marks + gr_size_mul(c, (size_t)c->threads, (size_t)s->P) + 15) & ~(size_t)15;
    size_t bytes = vat + gr_size_mul(c, (size_t)B, sizeof(spec));
    if (bytes > s->bcap) {
        gr_pool_free(*pool);
        *pool = NULL;
        s->bmarks = gr_realloc(c, s->bmarks, bytes);
        s->bcap = bytes;
    }
    memset(s->bmarks + marks, 0, vat - marks);        /* the need arrays start clear */
    sblock J = { s, tab->data, s->ra, s->rv, s->nr, n, B, (size_t)s->P, s->bmarks, s->bmarks + marks,
                 (spec *)(void *)(s->bmarks + vat), s->spec_budget, 0 };
    if (!*pool) *pool = gr_pool_new(c->threads);
    gr_pool_run(*pool, scan, &J);
    *specs = J.spec;
    return B;
}

#define SPARSE_RUN(NAME, T, TMAX, SCAN, NEED, UPPER)                                                  \
    static int NAME(gr_ctx *c, gr_sparse *s, gr_sgtable *tab, int64_t to, gr_progress *pr) {    \
        T *restrict t = tab->data;                                                                \
        const uint64_t P = s->P;                                                                  \
        uint8_t *restrict mark = s->mark, *restrict need = s->need;                               \
        int64_t blk_n0 = 0, blk_end = 0, blk_nr0 = 0;   /* the block of marks from the team */    \
        const spec *blk_spec = NULL;                     /* and its search per heap */            \
        int64_t stopped = 0, wasted = 0;                 /* the block's searches cut short */     \
        gr_pool *pool = NULL;                                                                     \
        for (int64_t n = tab->n; n <= to; n++) {                                                  \
            if (n >= 2 * s->chosen_n || s->nr > 2 * s->chosen_rare + 1024) {                      \
                s->mode = MODE_UNDECIDED;                                                         \
                gr_pool_free(pool);                                                               \
                return 0;                                                                         \
            }                                                                                     \
            if (n >= blk_end && c->threads > 1 && n >= PAR_FROM) {                                \
                adapt_budget(s, stopped, wasted, blk_end - blk_n0);                               \
                stopped = wasted = 0;                                                             \
                blk_n0 = n;                                                                       \
                blk_nr0 = s->nr;                                                                  \
                blk_end = n + sparse_block(c, s, tab, n, to, SCAN, &pool, &blk_spec);             \
            }                                                                                     \
            int in_blk = n < blk_end;                                                             \
            if (in_blk) memcpy(mark, s->bmarks + (size_t)(n - blk_n0) * P, (size_t)P);            \
            else memset(mark, 0, (size_t)P);                                                      \
            for (int i = 0; i < s->ntake && s->take[i] < n; i++) mark[t[n - s->take[i]]] = 1;     \
            for (int i = 0; i < s->ntakeall; i++) if (s->takeall[i] == n) mark[0] = 1;            \
            for (int i = 0; i < s->nequal; i++) {                                                 \
                int64_t r = n - s->equal[i];                                                      \
                if (r >= 2 && !(r & 1)) mark[0] = 1;                                              \
            }                                                                                     \
            /* every split with a rare part: all options of the common class */                 \
            for (int j = 0; j < s->nsplit; j++) {                                                 \
                int64_t m = n - s->split[j];                                                      \
                if (m < 2) continue;                                                              \
                const int64_t *ra = s->ra;                                                        \
                const uint32_t *rv = s->rv;                                                       \
                int64_t nr = s->nr;                                                               \
                /* in a block the team did the rare heaps i in [lo, blk_nr0): skip them */        \
                int64_t lo = in_blk ? first_above(ra, blk_nr0, m - blk_n0) : nr;                  \
                int64_t hi = in_blk ? blk_nr0 : nr;                                               \
                if (s->uneq[j]) {                                                                 \
                    for (int64_t i = lo ? 0 : hi; i < nr && ra[i] < m; i = i + 1 == lo ? hi : i + 1)        \
                        if (2 * ra[i] != m) mark[rv[i] ^ t[m - ra[i]]] = 1;                       \
                } else {                                                                          \
                    for (int64_t i = lo ? 0 : hi; i < nr && ra[i] < m; i = i + 1 == lo ? hi : i + 1)        \
                        mark[rv[i] ^ t[m - ra[i]]] = 1;                                           \
                }                                                                                 \
            }                                                                                     \
            int nb = s->hp & (int)(n & 1);                                                        \
            uint64_t v = 0;                                                                       \
            while ((v < P && mark[v]) || (__builtin_parityll(v & s->mask) ^ nb) != s->cc) v++;   \
            /* rare-class values below v not seen yet: only common-common splits give them */    \
            int64_t count = 0;                                                                    \
            int resumed = 0;                                                                      \
            uint64_t vlim = v < P ? v : P;   /* values >= P are never options */                \
            for (uint64_t x = 0; x < vlim; x++)                                                   \
                if (!mark[x] && (__builtin_parityll(x & s->mask) ^ nb) != s->cc) { need[x] = 1; count++; } \
            if (count) {                                                                          \
                /* in a block the team searched the pairs below blk_n0 for those below v' */      \
                int64_t n0 = in_blk ? blk_n0 : 0;                                                 \
                count = NEED(t, s, n, n0, need, count, vlim);                                           \
                if (count && in_blk) {                                                            \
                    /* the least value still needed, and whether one is past the team's v' */    \
                    const spec *sp = &blk_spec[n - blk_n0];                                       \
                    uint64_t w = 0;                                                               \
                    while (!need[w]) w++;                                                         \
                    uint64_t top = vlim;                                                          \
                    while (top > sp->v && !need[top - 1]) top--;                                  \
                    spec_at at = sp->at;                                                          \
                    if (top > sp->v) at = (spec_at){ 0, 0 };   /* searched for by nobody yet */  \
                    resumed = w < sp->v;                                                          \
                    if (w >= sp->v || at.j < s->nsplit)                                           \
                        count = UPPER(t, s, n, n0, need, NULL, count, &at, INT64_MAX, vlim);            \
                }                                                                                 \
                if (count) {                                                                      \
                    uint64_t w = 0;                                                               \
                    while (!need[w]) w++;                                                         \
                    for (uint64_t x = w; x < vlim; x++) need[x] = 0;                              \
                    v = w;                                                                        \
                }                                                                                 \
            }                                                                                     \
            if (in_blk && blk_spec[n - blk_n0].at.j < s->nsplit) {                                \
                stopped++;                 /* the team's search stopped at its budget */          \
                wasted += !resumed;        /* and the heap did not go on with it */               \
            }                                                                                     \
            if (v > P) v = P;          /* P itself is of the rare class and no option */         \
            if (v > (uint64_t)(TMAX)) { tab->n = n; gr_pool_free(pool); return 1; }               \
            t[n] = (T)v;                                                                          \
            if ((int64_t)v > tab->max) tab->max = (int64_t)v;                                     \
            tab->n = n + 1;                                                                       \
            if (cls(s, v, n) != s->cc) {                                                          \
                if (s->nr == s->rcap) { gr_pool_free(pool); pool = NULL; }  /* it may fail */     \
                push_rare(c, s, n, v);                                                            \
            }                                                                                     \
            if (v >= P) { s->mode = MODE_UNDECIDED; gr_pool_free(pool); return 0; }               \
            if ((n & PROGRESS_MASK) == 0) gr_progress_update(pr, (uint64_t)n);                    \
            if (!pool) gr_poll(c);     /* limits and Ctrl-C; never with the team alive */       \
        }                                                                                         \
        gr_pool_free(pool);                                                                       \
        return 0;                                                                                 \
    }
SPARSE_RUN(sparse_run_u8, uint8_t, UINT8_MAX, sparse_scan_u8, need_scan_u8, need_upper_u8)
SPARSE_RUN(sparse_run_u16, uint16_t, UINT16_MAX, sparse_scan_u16, need_scan_u16, need_upper_u16)
SPARSE_RUN(sparse_run_u32, uint32_t, UINT32_MAX, sparse_scan_u32, need_scan_u32, need_upper_u32)

int gr_sparse_fill(gr_ctx *c, const gr_game *g, gr_sparse *s, gr_sgtable *tab, int64_t to, gr_progress *pr) {
    (void)g;
    for (;;) {
        if (tab->n > to) return 0;
        if (s->mode == MODE_PLAIN && tab->n < s->plain_until) return 0;
        if (s->mode != MODE_SPARSE) choose(c, s, tab);
        if (s->mode == MODE_PLAIN) return 0;
        int r;
        switch (tab->width) {
        case 1: r = sparse_run_u8(c, s, tab, to, pr); break;
        case 2: r = sparse_run_u16(c, s, tab, to, pr); break;
        default: r = sparse_run_u32(c, s, tab, to, pr); break;
        }
        if (r) return 1;
        if (s->mode == MODE_SPARSE) return 0;
    }
}

int gr_sparse_classes(const gr_sparse *s, uint64_t *mask, int *heap_parity, int *common) {
    if (!s->mask) return 0;          /* a choice always has a nonzero mask */
    *mask = s->mask;
    *heap_parity = s->hp;
    *common = s->cc;
    return 1;
}

void gr_sparse_describe(const gr_sparse *s, char *buf, size_t cap) {
    if (s->mode == MODE_SPARSE)
        snprintf(buf, cap, "rare-value kernel at heap %lld: mask 0x%llx%s, rare class %lld heaps",
                 (long long)s->chosen_n, (unsigned long long)s->mask, s->hp ? " with heap parity" : "",
                 (long long)s->nr);
    else
        snprintf(buf, cap, "rare-value kernel not in use at heap %lld (the smallest rare class, %lld heaps, is not under "
                 "1/8 of them): plain kernel", (long long)s->chosen_n, (long long)s->best_rare);
}

void gr_sparse_save(const gr_sparse *s, int64_t *out) {
    int64_t v[GR_SPARSE_SAVED] = { s->mode, (int64_t)s->mask, (int64_t)s->P, s->hp, s->cc,
                                   s->chosen_n, s->chosen_rare, s->plain_until, s->best_rare };
    memcpy(out, v, sizeof v);
}

gr_sparse *gr_sparse_restore(gr_ctx *c, const gr_game *g, int64_t warmup, const int64_t *in, const gr_sgtable *tab) {
    int64_t mode = in[0], P = in[2];
    if (mode < MODE_UNDECIDED || mode > MODE_PLAIN || (in[3] & ~1) || (in[4] & ~1) || in[5] < 0 || in[5] > tab->n)
        return NULL;
    if (mode == MODE_SPARSE && (P < 2 || P > (int64_t)MAX_SPARSE_P || (P & (P - 1)) ||
                                (uint64_t)in[1] >= (uint64_t)P || tab->width > 4))
        return NULL;
    gr_sparse *s = gr_sparse_new(c, g, warmup);
    s->mode = (int)mode;
    s->mask = (uint64_t)in[1];
    s->P = (uint64_t)P;
    s->hp = (int)in[3];
    s->cc = (int)in[4];
    s->chosen_n = in[5];
    s->chosen_rare = in[6];
    s->plain_until = in[7];
    s->best_rare = in[8];
    if (s->mode != MODE_SPARSE) return s;
    /* as choose() left it, with every rare heap computed since */
    for (int64_t x = 1; x < tab->n; x++) {
        uint64_t v = (uint64_t)gr_sgt_get(tab, x);
        if (cls(s, v, x) != s->cc) push_rare(c, s, x, v);
    }
    s->scap = (size_t)P + 1;
    s->mark = gr_realloc(c, s->mark, s->scap);
    s->need = gr_realloc(c, s->need, s->scap);
    memset(s->need, 0, s->scap);
    return s;
}
