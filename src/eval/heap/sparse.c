/* sparse: the rare-value kernel; see sparse.h. */
#include "eval/heap/sparse.h"
#include "pool.h"
#include <sched.h>
#include <time.h>
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
    uint8_t *rclass;                   /* 2P bytes: [nb * P + x] = 1 when x is of the rare class at heap parity nb */
    uint8_t *bmarks; size_t bcap;      /* --threads: the marks of a block of heaps */
    int64_t spec_budget;               /* --threads: pairs per heap the team searches */
    int64_t piped;                     /* heaps finished from a slot of the pipeline */
    int solo;                          /* tests: the pipeline with one thread (gr_sparse_solo) */
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
    gr_free(c, s->mark); gr_free(c, s->need); gr_free(c, s->rclass); gr_free(c, s->bmarks);
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

/* The marks and need arrays for a choice (P + 1 bytes), and its table of rare-class values. */
static void scratch_for_choice(gr_ctx *c, gr_sparse *s) {
    size_t P = (size_t)s->P;
    if (s->scap < P + 1) {
        s->scap = P + 1;
        s->mark = gr_realloc(c, s->mark, s->scap);
        s->need = gr_realloc(c, s->need, s->scap);
        s->rclass = gr_realloc(c, s->rclass, gr_size_mul(c, 2, s->scap));
    }
    memset(s->need, 0, s->scap);
    for (int nb = 0; nb < 2; nb++)
        for (size_t x = 0; x < P; x++)
            s->rclass[(size_t)nb * P + x] = (uint8_t)((__builtin_parityll(x & s->mask) ^ nb) != s->cc);
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
    scratch_for_choice(c, s);
}

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
#define ONES_u8 UINT64_C(0x0101010101010101)
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

typedef struct spec {
    uint64_t v;          /* the values below it were searched for */
    spec_at at;          /* where the search stopped (at.j = nsplit: complete) */
} spec;

/* The first index i < nr with ra[i] > x (ra increasing). */
static int64_t first_above(const int64_t *ra, int64_t nr, int64_t x) {
    int64_t lo = 0, hi = nr;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (ra[mid] > x) hi = mid; else lo = mid + 1;
    }
    return lo;
}

/* With --threads, a pipeline. The heaps are finished in order by one member at a time (any
 * member: whichever holds `finishing`); every member takes the next heap ahead of the finished
 * ones and does, into a slot of its own, everything that reads only heaps below L (the heaps
 * finished when it was taken): the split look-ups with a rare part whose other part is below
 * L, and then, speculatively, the search for the rare-class values below v' (the least
 * common-class value those marks miss) over the pairs with both parts below L. Finishing adds
 * what reads heaps from L on: the look-ups of rare heaps at L or above or whose other part is
 * (the few smallest rare heaps), the pairs with a part at L or above, and the search for
 * values past v'. Heaps run at most AHEAD past the finished ones, so L trails by about that
 * much and finishing stays a small share. A heap whose member is late (a loaded machine may
 * not be running it) is done whole by the finishing member after STEAL_SPINS waits. The values
 * never depend on timing: a slot only says which options are known already. No allocation
 * happens while the team lives; it ends every CHUNK heaps (limits, Ctrl-C and a new search
 * budget are seen then). */
enum { PAR_FROM = 4096, AHEAD = 128, CHUNK = 1 << 16, STEAL_SPINS = 1024 };
#define PAR_MAX_SLOTS_BYTES ((size_t)16 << 20)

typedef struct slot {
    int64_t L, nrL;      /* its work read heaps below L, and the nrL rare heaps below L */
    spec sp;             /* its search */
    char pad[64 - 2 * sizeof(int64_t) - sizeof(spec)];   /* a cache line each */
} slot;

/* where[] entries a cache line apart: members writing neighbouring heaps' entries at once */
typedef struct where_at { atomic_llong w; char pad[64 - sizeof(atomic_llong)]; } where_at;

typedef struct pipe {
    const gr_sparse *s;
    const void *t;
    const int64_t *ra; const uint32_t *rv;
    size_t P;
    int64_t end, ahead;  /* the last heap of the chunk; how far the members may run ahead */
    /* `ahead` slots per member, used in turn, so that a member late with a heap the finisher
     * did meanwhile writes only its own; where[n % ahead] says whose slot holds heap n */
    slot *slots;
    uint8_t *bits;       /* the marks of each slot as bits, bstride bytes per slot */
    size_t bstride;
    where_at *where;     /* n * 65536 + member * 256 + its slot, stored when complete (-1: none) */
    uint8_t *needs;      /* per member 2P bytes: a need array (all clear between uses), marks */
    int64_t budget;      /* pairs per heap for the speculative search */
    /* each written by its own writer, on cache lines of their own (64 bytes apart) */
    char pad0[64];
    atomic_llong claim;  /* the next heap no member took yet */
    char pad1[64];
    atomic_llong done;   /* the finisher's heaps below it are final (release) */
    atomic_llong pubnr;  /* rare heaps published, stored before done */
    char pad2[64];
    atomic_int stop;
    atomic_int finishing;   /* held by the member finishing heaps (any member may) */
    char pad3[64];
    /* the finisher's own (read and written under `finishing`) */
    gr_sparse *fs;
    gr_sgtable *tab;
    gr_progress *pr;
    int status;          /* 0: chunk done, 1: widen, 2: choose again */
    int64_t stopped, wasted;
} pipe;

/* Waiting for another member: a few pauses (its heap takes microseconds), then the processor
 * for others (a loaded machine may not be running it), then short sleeps (members far ahead
 * of the finisher have a hundred heaps of its work queued: no need to burn a core meanwhile). */
static inline void pause_once(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}
static inline void spin_wait(unsigned *spins) {
    ++*spins;
    if (*spins < 64) {
        pause_once();
    } else if (*spins < 96) {
        sched_yield();
    } else {
        nanosleep(&(struct timespec){ 0, 20 * 1000 }, NULL);
    }
}

/* The least common-class value not in mark (rc: the rare-class table of the heap's parity),
 * or P when every one below P is; and the rare-class values below vlim not in mark, set in
 * need (clear there before) and counted. Bytes are 0 or 1, so eight go at a time. */
static inline uint64_t least_common(const uint8_t *mark, const uint8_t *rc, uint64_t P) {
    uint64_t x = 0;
    for (; x + 8 <= P; x += 8) {
        uint64_t a, b;
        memcpy(&a, mark + x, 8);
        memcpy(&b, rc + x, 8);
        if (~(a | b) & ONES_u8) break;
    }
    while (x < P && (mark[x] | rc[x])) x++;
    return x;
}
static inline int64_t needed(const uint8_t *mark, const uint8_t *rc, uint8_t *need, uint64_t vlim) {
    int64_t count = 0;
    for (uint64_t x = 0; x < vlim; x++) {
        uint8_t h = rc[x] & (uint8_t)~mark[x];
        need[x] = h;
        count += h;
    }
    return count;
}

/* A slot's marks as bits (one cache line for P = 256 rather than four: the slot goes from one
 * core to another) and back; the marks are bytes 0 or 1. */
static void pack_marks(uint8_t *restrict bits, const uint8_t *restrict mark, size_t P) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (P % 8 == 0) {
        for (size_t i = 0; i < P / 8; i++) {
            uint64_t w;
            memcpy(&w, mark + 8 * i, 8);
            bits[i] = (uint8_t)((w * UINT64_C(0x0102040810204080)) >> 56);   /* byte k's bit 0 to bit k */
        }
        return;
    }
#endif
    memset(bits, 0, (P + 7) / 8);
    for (size_t x = 0; x < P; x++) bits[x >> 3] |= (uint8_t)(mark[x] << (x & 7));
}
static void unpack_marks(uint8_t *restrict mark, const uint8_t *restrict bits, size_t P) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (P % 8 == 0) {
        for (size_t i = 0; i < P / 8; i++) {
            uint64_t w = ((uint64_t)bits[i] * ONES_u8) & UINT64_C(0x8040201008040201);   /* byte k: bit k */
            w = ((w + UINT64_C(0x7f7f7f7f7f7f7f7f)) >> 7) & ONES_u8;
            memcpy(mark + 8 * i, &w, 8);
        }
        return;
    }
#endif
    for (size_t x = 0; x < P; x++) mark[x] = (uint8_t)(bits[x >> 3] >> (x & 7) & 1);
}

/* A member's work for heap n into its slot e (of its `ahead`). */
#define PRECOMPUTE(NAME, T, UPPER)                                                                    \
    static void NAME(const pipe *J, int64_t n, int64_t L, int64_t nrL, uint8_t *restrict need,       \
                     int member, int64_t e) {                                                         \
        const gr_sparse *s = J->s;                                                                    \
        const T *restrict t = J->t;                                                                   \
        const int64_t *ra = J->ra;                                                                    \
        const uint32_t *rv = J->rv;                                                                   \
        size_t own = (size_t)member * (size_t)J->ahead + (size_t)e;                                   \
        slot *sl = &J->slots[own];                                                                    \
        uint8_t *restrict mark = need + J->P;          /* the member's own, packed into the slot */   \
        sl->L = L;                                                                                    \
        sl->nrL = nrL;                                                                                \
        memset(mark, 0, J->P);                                                                        \
        for (int j = 0; j < s->nsplit; j++) {                                                         \
            int64_t m = n - s->split[j];                                                              \
            if (m < 2) continue;                                                                      \
            int64_t i = first_above(ra, nrL, m - L);                                                  \
            if (s->uneq[j]) {                                                                         \
                for (; i < nrL && ra[i] < m; i++)                                                     \
                    if (2 * ra[i] != m) mark[rv[i] ^ t[m - ra[i]]] = 1;                               \
            } else {                                                                                  \
                for (; i < nrL && ra[i] < m; i++) mark[rv[i] ^ t[m - ra[i]]] = 1;                     \
            }                                                                                         \
        }                                                                                             \
        int nb = s->hp & (int)(n & 1);                                                                \
        uint64_t v = 0, P = J->P;                                                                     \
        const uint8_t *rc = s->rclass + (size_t)nb * P;                                               \
        v = least_common(mark, rc, P);                                                                \
        uint64_t vlim = v < P ? v : P;                                                                \
        int64_t count = 0;                                                                            \
        count = needed(mark, rc, need, vlim);                                                         \
        sl->sp.v = vlim;                                                                              \
        sl->sp.at = (spec_at){ 0, 0 };                                                                \
        if (count && UPPER(t, s, n, L, need, mark, count, &sl->sp.at, J->budget, vlim))               \
            memset(need, 0, vlim);                                                                    \
        if (!count) sl->sp.at.j = s->nsplit;                                                          \
        pack_marks(J->bits + own * J->bstride, mark, J->P);                                           \
        atomic_store_explicit(&J->where[n % J->ahead].w, (long long)(n * 65536 + member * 256 + e),     \
                              memory_order_release);                                                  \
    }
PRECOMPUTE(precompute_u8, uint8_t, need_upper_u8)
PRECOMPUTE(precompute_u16, uint16_t, need_upper_u16)
PRECOMPUTE(precompute_u32, uint32_t, need_upper_u32)

/* Heap n's value from its options: sl NULL, all of them here; else the slot's work plus what
 * reads heaps from sl->L on (see the pipeline above). mark and need are P bytes (need clear,
 * and left clear). The value is capped at P (of the rare class, never an option). */
#define FINISH_HEAP(NAME, T, NEED, UPPER)                                                             \
    static uint64_t NAME(gr_sparse *s, const T *restrict t, int64_t n, const slot *sl,                \
                         const uint8_t *slot_bits, uint8_t *restrict mark, uint8_t *restrict need,    \
                         int64_t *stopped, int64_t *wasted) {                                         \
        const uint64_t P = s->P;                                                                      \
        int64_t L = sl ? sl->L : 0, nrL = sl ? sl->nrL : 0;                                           \
        if (sl) unpack_marks(mark, slot_bits, (size_t)P);                                             \
        else memset(mark, 0, (size_t)P);                                                              \
        for (int i = 0; i < s->ntake && s->take[i] < n; i++) mark[t[n - s->take[i]]] = 1;             \
        for (int i = 0; i < s->ntakeall; i++) if (s->takeall[i] == n) mark[0] = 1;                    \
        for (int i = 0; i < s->nequal; i++) {                                                         \
            int64_t r = n - s->equal[i];                                                              \
            if (r >= 2 && !(r & 1)) mark[0] = 1;                                                      \
        }                                                                                             \
        /* every split with a rare part: all options of the common class */                         \
        for (int j = 0; j < s->nsplit; j++) {                                                         \
            int64_t m = n - s->split[j];                                                              \
            if (m < 2) continue;                                                                      \
            const int64_t *ra = s->ra;                                                                \
            const uint32_t *rv = s->rv;                                                               \
            int64_t nr = s->nr;                                                                       \
            /* with a slot the members did the rare heaps i in [lo, nrL): skip them */                \
            int64_t lo = sl ? first_above(ra, nrL, m - L) : nr;                                       \
            int64_t hi = sl ? nrL : nr;                                                               \
            int64_t top = first_above(ra, nr, m - 1);   /* ra[i] < m */                               \
            int64_t e1 = lo < top ? lo : top;                                                         \
            if (s->uneq[j]) {                                                                         \
                for (int64_t i = 0; i < e1; i++)                                                      \
                    if (2 * ra[i] != m) mark[rv[i] ^ t[m - ra[i]]] = 1;                               \
                for (int64_t i = hi; i < top; i++)                                                    \
                    if (2 * ra[i] != m) mark[rv[i] ^ t[m - ra[i]]] = 1;                               \
            } else {                                                                                  \
                for (int64_t i = 0; i < e1; i++) mark[rv[i] ^ t[m - ra[i]]] = 1;                      \
                for (int64_t i = hi; i < top; i++) mark[rv[i] ^ t[m - ra[i]]] = 1;                    \
            }                                                                                         \
        }                                                                                             \
        int nb = s->hp & (int)(n & 1);                                                                \
        uint64_t v = 0;                                                                               \
        const uint8_t *rc = s->rclass + (size_t)nb * P;                                               \
        v = least_common(mark, rc, P);                                                                \
        /* rare-class values below v not seen yet: only common-common splits give them */            \
        int64_t count = 0;                                                                            \
        int resumed = 0;                                                                              \
        uint64_t vlim = v < P ? v : P;   /* values >= P are never options */                          \
        count = needed(mark, rc, need, vlim);                                                         \
        if (count) {                                                                                  \
            /* with a slot the members searched the pairs below L for those below v' */              \
            count = NEED(t, s, n, L, need, count, vlim);                                              \
            if (count && sl) {                                                                        \
                /* the least value still needed, and whether one is past the members' v' */         \
                uint64_t w = 0;                                                                       \
                while (!need[w]) w++;                                                                 \
                uint64_t top = vlim;                                                                  \
                while (top > sl->sp.v && !need[top - 1]) top--;                                       \
                spec_at at = sl->sp.at;                                                               \
                if (top > sl->sp.v) at = (spec_at){ 0, 0 };   /* searched for by nobody yet */       \
                resumed = w < sl->sp.v;                                                               \
                if (w >= sl->sp.v || at.j < s->nsplit)                                                \
                    count = UPPER(t, s, n, L, need, NULL, count, &at, INT64_MAX, vlim);               \
            }                                                                                         \
            if (count) {                                                                              \
                uint64_t w = 0;                                                                       \
                while (!need[w]) w++;                                                                 \
                for (uint64_t x = w; x < vlim; x++) need[x] = 0;                                      \
                v = w;                                                                                \
            }                                                                                         \
        }                                                                                             \
        if (sl && sl->sp.at.j < s->nsplit) {                                                          \
            ++*stopped;                /* the members' search stopped at its budget */                \
            *wasted += !resumed;       /* and the heap did not go on with it */                       \
        }                                                                                             \
        return v > P ? P : v;                                                                         \
    }
FINISH_HEAP(finish_u8, uint8_t, need_scan_u8, need_upper_u8)
FINISH_HEAP(finish_u16, uint16_t, need_scan_u16, need_upper_u16)
FINISH_HEAP(finish_u32, uint32_t, need_scan_u32, need_upper_u32)

/* After B heaps, of whose searches `stopped` ran out of budget and `wasted` of those were not
 * gone on with (the heap got the values otherwise): a quarter wasted shrinks the budget, a
 * sixteenth gone on with grows it. Only the work moves. */
static void adapt_budget(gr_sparse *s, int64_t stopped, int64_t wasted, int64_t B) {
    if (B <= 0) return;
    if (4 * wasted > B) s->spec_budget = s->spec_budget / 4 > SPEC_MIN ? s->spec_budget / 4 : SPEC_MIN;
    else if (16 * (stopped - wasted) > B && s->spec_budget < SPEC_MAX) s->spec_budget *= 2;
}

/* Heap n gets value v (below P, or P: the rare class); returns 1 when the rare-value choice
 * is to be made again (v >= P). The caller checked that v fits T. */
static int commit_heap(gr_ctx *c, gr_sparse *s, gr_sgtable *tab, int64_t n, uint64_t v) {
    if ((int64_t)v > tab->max) tab->max = (int64_t)v;
    tab->n = n + 1;
    if (cls(s, v, n) != s->cc) push_rare(c, s, n, v);
    return v >= s->P;
}

/* The pipeline's job, the same for every member: finish heaps in order while the next one can
 * be (its slot is complete, or no member took it: it is then done whole; or its member is late:
 * after a while it is done whole too), holding `finishing`, so whichever member the machine
 * runs moves the finished heaps on; else take the next heap ahead and do its slot; else wait.
 * Only the caller (member 0) shows progress. */
#define PIPE_JOB(NAME, T, TMAX, PRE, FIN)                                                             \
    static void NAME(void *arg, int member, int members) {                                           \
        pipe *J = arg;                                                                                \
        gr_sparse *s = J->fs;                                                                         \
        uint8_t *need = J->needs + (size_t)member * 2 * J->P;                                         \
        uint8_t *mark = need + J->P;                                                                  \
        unsigned spins = 0, late = 0;                                                                 \
        long long stalled = -1;          /* a member's last look at the finished heaps */              \
        int64_t e = 0;                   /* the member's next slot */                                 \
        while (!atomic_load_explicit(&J->stop, memory_order_acquire)) {                               \
            long long h = atomic_load_explicit(&J->done, memory_order_acquire);                       \
            long long q = atomic_load(&J->claim);                                                     \
            if (s->solo && q <= h) {         /* tests: a run of heaps ahead, as members would */      \
                int64_t k = 1 + (h * 7919) % J->ahead;                                                \
                if (k > J->end - h + 1) k = J->end - h + 1;                                           \
                if (!atomic_compare_exchange_weak(&J->claim, &q, h + k)) continue;                    \
                for (int64_t i = 0; i < k; i++) {                                                     \
                    PRE(J, h + i, h, s->nr, need, member, e);                                         \
                    e = e + 1 == J->ahead ? 0 : e + 1;                                                \
                }                                                                                     \
                continue;                                                                             \
            }                                                                                         \
            long long w = atomic_load_explicit(&J->where[h % J->ahead].w, memory_order_acquire);       \
            /* with a team a heap nobody took is taken below as a slot, not done whole here */      \
            int whole = members == 1 && !s->solo;                                                     \
            int can = (w >= 0 && w >> 16 == h) || (q <= h && whole) || late >= STEAL_SPINS;           \
            /* the caller finishes; another member only when the heaps stopped moving since its    \
             * last look (the caller is not running): the finishing state stays on one core */     \
            if (member && h != stalled) { stalled = h; can = late >= STEAL_SPINS; }                   \
            if (can && !atomic_exchange_explicit(&J->finishing, 1, memory_order_acquire)) {           \
                gr_sgtable *tab = J->tab;                                                             \
                T *t = tab->data;                                                                     \
                for (h = atomic_load_explicit(&J->done, memory_order_relaxed);;) {                    \
                    if (h > J->end) { atomic_store(&J->stop, 1); break; }                             \
                    if (s->nr > 2 * s->chosen_rare + 1024) { J->status = 2; atomic_store(&J->stop, 1); break; } \
                    uint64_t v;                                                                       \
                    w = atomic_load_explicit(&J->where[h % J->ahead].w, memory_order_acquire);         \
                    q = atomic_load(&J->claim);                                                       \
                    if (w >= 0 && w >> 16 == h) {                                                     \
                        size_t own = (size_t)(w >> 8 & 255) * (size_t)J->ahead + (size_t)(w & 255);   \
                        v = FIN(s, t, h, &J->slots[own], J->bits + own * J->bstride, mark, need,      \
                                &J->stopped, &J->wasted);                                             \
                        s->piped++;                                                                   \
                    } else if (q <= h) {             /* nobody took it: all of it here */             \
                        /* with a team, as a slot outside `finishing` (which a member the machine \
                         * stops while it holds it holds from all); tests: the next run ahead */    \
                        if (!whole) break;                                                            \
                        if (!atomic_compare_exchange_weak(&J->claim, &q, h + 1)) continue;            \
                        v = FIN(s, t, h, NULL, NULL, mark, need, &J->stopped, &J->wasted);            \
                    } else if (late >= STEAL_SPINS) { /* its member is late (not running?) */         \
                        v = FIN(s, t, h, NULL, NULL, mark, need, &J->stopped, &J->wasted);            \
                        late = 0;                                                                     \
                    } else {                         /* a member is on it: help meanwhile */          \
                        break;                                                                        \
                    }                                                                                 \
                    if (v > (uint64_t)(TMAX)) { J->status = 1; atomic_store(&J->stop, 1); break; }    \
                    t[h] = (T)v;                                                                      \
                    int again = commit_heap(NULL, s, tab, h, v);                                      \
                    atomic_store_explicit(&J->pubnr, s->nr, memory_order_release);                    \
                    atomic_store_explicit(&J->done, h + 1, memory_order_release);                     \
                    if (member == 0 && (h & PROGRESS_MASK) == 0) gr_progress_update(J->pr, (uint64_t)h); \
                    h++;                                                                              \
                    spins = 0;                                                                        \
                    if (again) { J->status = 2; atomic_store(&J->stop, 1); break; }                   \
                }                                                                                     \
                atomic_store_explicit(&J->finishing, 0, memory_order_release);                        \
                continue;                                                                             \
            }                                                                                         \
            if (q < h + J->ahead && q <= J->end) {                                                    \
                if (atomic_compare_exchange_weak(&J->claim, &q, q + 1)) {                             \
                    long long nr = atomic_load_explicit(&J->pubnr, memory_order_acquire);            \
                    PRE(J, q, h, first_above(J->ra, nr, h - 1), need, member, e);                     \
                    e = e + 1 == J->ahead ? 0 : e + 1;                                                \
                    spins = late = 0;                                                                 \
                }                                                                                     \
                continue;                                                                             \
            }                                                                                         \
            /* all heaps up to `ahead` past the finished ones are taken: the next heap's member is \
             * late (then it is done here before long), or another member is finishing */          \
            if (q > h && !(w >= 0 && w >> 16 == h) && !atomic_load(&J->finishing)) {                  \
                late++;                      /* no sleeping: it is done here after STEAL_SPINS */     \
                pause_once();                                                                         \
            } else {                                                                                  \
                spin_wait(&spins);                                                                    \
            }                                                                                         \
        }                                                                                             \
    }
PIPE_JOB(pipe_job_u8, uint8_t, UINT8_MAX, precompute_u8, finish_u8)
PIPE_JOB(pipe_job_u16, uint16_t, UINT16_MAX, precompute_u16, finish_u16)
PIPE_JOB(pipe_job_u32, uint32_t, UINT32_MAX, precompute_u32, finish_u32)

/* Heaps tab->n .. end (at most CHUNK) by the pipeline. Returns its status (0, 1: widen, 2:
 * choose again). Everything that may fail is allocated before the team starts. */
static int pipe_chunk(gr_ctx *c, gr_sparse *s, gr_sgtable *tab, int64_t end, gr_pool_fn job, gr_progress *pr) {
    size_t P = (size_t)s->P;
    int64_t ahead = AHEAD;
    size_t members = (size_t)(c->threads < 256 ? c->threads : 256);
    size_t bstride = ((P + 7) / 8 + 63) & ~(size_t)63;
    if ((size_t)ahead * bstride * members > PAR_MAX_SLOTS_BYTES) ahead = (int64_t)(PAR_MAX_SLOTS_BYTES / (bstride * members));
    if (ahead < 4) ahead = 4;
    /* the rare heaps may grow to where the choice is made again (and one past) */
    int64_t want = 2 * s->chosen_rare + 1026;
    if (s->rcap < want) {
        s->rcap = want;
        s->ra = gr_realloc(c, s->ra, gr_size_mul(c, (size_t)want, sizeof *s->ra));
        s->rv = gr_realloc(c, s->rv, gr_size_mul(c, (size_t)want, sizeof *s->rv));
    }
    size_t marks = gr_size_mul(c, gr_size_mul(c, members, (size_t)ahead), bstride);
    size_t needs = gr_size_mul(c, members, gr_size_mul(c, 2, P));
    size_t at = (marks + needs + 63) & ~(size_t)63;
    size_t wat = at + gr_size_mul(c, gr_size_mul(c, members, (size_t)ahead), sizeof(slot));
    size_t bytes = wat + gr_size_mul(c, (size_t)ahead, sizeof(where_at));
    if (bytes > s->bcap) {
        s->bmarks = gr_realloc(c, s->bmarks, bytes);
        s->bcap = bytes;
    }
    memset(s->bmarks + marks, 0, needs);              /* the need arrays start clear */
    pipe *J = gr_alloc(c, sizeof *J);
    J->s = s; J->t = tab->data; J->ra = s->ra; J->rv = s->rv; J->P = P;
    J->end = end; J->ahead = ahead;
    J->slots = (slot *)(void *)(s->bmarks + at);
    J->where = (where_at *)(void *)(s->bmarks + wat);
    J->bits = s->bmarks;
    J->bstride = bstride;
    J->needs = s->bmarks + marks;
    J->budget = s->spec_budget;
    for (int64_t i = 0; i < ahead; i++) atomic_init(&J->where[i].w, -1);
    atomic_init(&J->claim, tab->n);
    atomic_init(&J->done, tab->n);
    atomic_init(&J->pubnr, s->nr);
    atomic_init(&J->stop, 0);
    atomic_init(&J->finishing, 0);
    J->fs = s; J->tab = tab; J->pr = pr;
    J->status = 0;
    J->stopped = J->wasted = 0;
    int64_t from = tab->n;
    gr_pool *pool = gr_pool_new(c->threads);
    gr_pool_run(pool, job, J);
    gr_pool_free(pool);
    adapt_budget(s, J->stopped, J->wasted, tab->n - from);
    int status = J->status;
    gr_free(c, J);
    return status;
}

/* One width. Returns 1 when the next value does not fit T (tab->n is that heap); 0 when done
 * to `to` or when a new choice is due (mode reset to undecided). */
#define SPARSE_RUN(NAME, T, TMAX, JOB, FIN)                                                           \
    static int NAME(gr_ctx *c, gr_sparse *s, gr_sgtable *tab, int64_t to, gr_progress *pr) {        \
        T *restrict t = tab->data;                                                                    \
        int64_t stopped = 0, wasted = 0;                                                              \
        for (int64_t n = tab->n; n <= to; n = tab->n) {                                               \
            if (n >= 2 * s->chosen_n || s->nr > 2 * s->chosen_rare + 1024) {                          \
                s->mode = MODE_UNDECIDED;                                                             \
                return 0;                                                                             \
            }                                                                                         \
            if ((c->threads > 1 || s->solo) && n >= PAR_FROM) {                                       \
                int64_t end = to;                                                                     \
                if (end > 2 * s->chosen_n - 1) end = 2 * s->chosen_n - 1;                             \
                if (end > n + CHUNK - 1) end = n + CHUNK - 1;                                         \
                int r = pipe_chunk(c, s, tab, end, JOB, pr);                                          \
                if (r == 1) return 1;                                                                 \
                if (r == 2) {                                                                         \
                    if (s->nr > 2 * s->chosen_rare + 1024 || (uint64_t)tab->max >= s->P)              \
                        { s->mode = MODE_UNDECIDED; return 0; }                                       \
                }                                                                                     \
                gr_poll(c);                                                                           \
                continue;                                                                             \
            }                                                                                         \
            uint64_t v = FIN(s, t, n, NULL, NULL, s->mark, s->need, &stopped, &wasted);              \
            if (v > (uint64_t)(TMAX)) { tab->n = n; return 1; }                                       \
            t[n] = (T)v;                                                                              \
            if (commit_heap(c, s, tab, n, v)) { s->mode = MODE_UNDECIDED; return 0; }                 \
            if ((n & PROGRESS_MASK) == 0) gr_progress_update(pr, (uint64_t)n);                        \
            gr_poll(c);                  /* limits and Ctrl-C */                                      \
        }                                                                                             \
        return 0;                                                                                     \
    }
SPARSE_RUN(sparse_run_u8, uint8_t, UINT8_MAX, pipe_job_u8, finish_u8)
SPARSE_RUN(sparse_run_u16, uint16_t, UINT16_MAX, pipe_job_u16, finish_u16)
SPARSE_RUN(sparse_run_u32, uint32_t, UINT32_MAX, pipe_job_u32, finish_u32)

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

int64_t gr_sparse_piped(const gr_sparse *s) { return s->piped; }
void gr_sparse_solo(gr_sparse *s, int on) { s->solo = on; }

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
    scratch_for_choice(c, s);
    return s;
}
