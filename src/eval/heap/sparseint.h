/* sparseint.h: the inside of the rare-value kernel (sparse.h), shared by its files: sparse.c
 * (the kernel's state, the choice of classes, the runs, checkpoints and --explain),
 * sparseheap.c (one heap's value from its options), sparsescan.c (the pair scans that look for
 * the rare-class values) and sparsespec.c (the team across threads, by speculation). Private to
 * eval/heap/. */
#ifndef GRUNDY_SPARSEINT_H
#define GRUNDY_SPARSEINT_H
#include "eval/heap/sparse.h"
#include "simd.h"
#include "pace.h"
#include <string.h>

enum { PROGRESS_MASK = (1 << 12) - 1 };
enum { MODE_UNDECIDED = 0, MODE_SPARSE = 1, MODE_PLAIN = 2 };
enum { PAR_FROM = 4096, CHUNK = 1 << 16 };   /* --threads: from heap PAR_FROM, CHUNK heaps a team */
enum { BATCH_HEAPS = 32 };                    /* a batch of look-ups: heaps at once (sparsevec.c) */
#define ONES_u8 UINT64_C(0x0101010101010101)

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
    /* the rare heaps, in increasing order, with their values: rk[i] = value << 32 | the low 32
     * bits of -ra[i], so the look-up t[m - ra[i]] is one load at tm + (int32_t)rk[i] from tm =
     * t + m (and one entry is read, not two); for rare heaps at 2^31 or beyond (-ra no longer
     * fits 32 bits) the look-ups read ra */
    int64_t *ra; uint64_t *rk; int64_t nr, rcap;
    /* scratch */
    uint8_t *mark, *need; size_t scap;
    uint8_t *rclass;                   /* 2P bytes: [nb * P + x] = 1 when x is of the rare class at heap parity nb */
    uint8_t *bmarks; size_t bcap;      /* --threads: the team's ring (sparsespec.c) */
    int solo;                          /* tests: the team's way with one thread (gr_sparse_solo) */
    struct gr_pool *pool;              /* --threads: the team, for one gr_sparse_fill call */
    /* --threads: each chunk by the team or by one thread, whichever the rates say is faster
     * (core/pace.h); a chunk of one thread runs to one_until, timed while one_timed */
    gr_pace pace;
    int64_t one_until;
    int one_timed;
    /* the table, when it is in a file (tablefile.h): a search that reads more than a piece of
     * pairs gives back, piece by piece, the pages it has read (sparsescan.c); else NULL */
    const gr_sgtable *filetab;
    int64_t piece;                     /* pairs a piece (0: PIECE; tests set a small one) */
    /* one thread with AVX-512: the look-ups of BATCH_HEAPS heaps bn0 .. bn0 + 31 done at once
     * (sparseheap.c), for the rare heaps i in [bilo, bihi): bbits[q][k] are heap bn0 + k's
     * common-class values below btop by index, 16 per q (bval: index to value), for the choice
     * bchosen */
    int bvalid;
    int64_t bn0, bilo, bihi, bchosen, btables;
    uint64_t btop;                     /* the batch holds every common value below it (256, or
                                        * more with a ninth register: bbits[8], indices 128..143) */
    uint16_t bbits[9][32];
    uint16_t bval[144];
    uint32_t b9pos;                    /* bit j: 256 + j is bval[128 + i] for some i, when the
                                        * ninth register's values all lie in 256 .. 287 (the
                                        * mask's lowest bit below 5); else 0 */
    uint8_t bix[256], bcm[256];        /* value to index, and 1 for the common class (v < 256) */
    int64_t speculated;                /* heaps a team worked out ahead and checked (sparsespec.c), */
    int64_t spec_failed;               /* and the checks that found a new rare heap */
};

static inline int cls(const gr_sparse *s, uint64_t v, int64_t n) {
    return __builtin_parityll(v & s->mask) ^ (s->hp & (int)(n & 1));
}

/* Where a search of the pairs stopped (split j, the pairs a to b not looked at, b = 0: to the
 * split's half); at.j = nsplit when the search is complete. */
typedef struct spec_at { int64_t j, a, b; } spec_at;

/* A batch with a ninth register (indices 128..143) holds every common value below this: the
 * least value of index 144 or more (an index drops the mask's lowest bit b, so the indices
 * grow with the values). */
static inline uint64_t batch_top9(int b) {
    uint64_t v = 256;
    while (((v & ((UINT64_C(1) << b) - 1)) | ((v >> (b + 1)) << b)) < 144) v++;
    return v;
}

/* A batch's indices 64 q4 .. 64 q4 + 63 of its heap k, from its eight registers' 16 each (bits:
 * the batch's [8][BATCH_HEAPS] array, flat). */
static inline uint64_t batch_word(const uint16_t *bits, int k, int q4) {
    const uint16_t *b = bits + (size_t)q4 * BATCH_HEAPS + k;
    return b[0] | (uint64_t)b[BATCH_HEAPS] << 16 | (uint64_t)b[2 * BATCH_HEAPS] << 32 | (uint64_t)b[3 * BATCH_HEAPS] << 48;
}

/* The first index i < nr with ra[i] > x (ra increasing). */
static inline int64_t first_above(const int64_t *ra, int64_t nr, int64_t x) {
    if (!nr || ra[nr - 1] <= x) return nr;   /* the common case past the last rare heap */
    int64_t lo = 0, hi = nr;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (ra[mid] > x) hi = mid; else lo = mid + 1;
    }
    return lo;
}

/* The marks mark[v ^ t[m - a]] of rare heaps a = ra[i] with their values v, i in [i0, i1), tm =
 * t + m; on a '!' split (uneq) not the one a = m - a. The loop in which the kernel spends a third
 * of its time with one look-up per rare heap (of them a thousand or more): two loads, a store,
 * four at a time. (Measured: 1.5x the plain loop over ra[] and rv[]; AVX-512 gathers of the t
 * values, then byte stores or a scatter, were no faster on a Sapphire Rapids.) */
#define RARE_MARKS(NAME, T)                                                                           \
    static inline void NAME(const int64_t *ra, const uint64_t *restrict rk, uint8_t *restrict mark,      \
                            const T *restrict t, int64_t m, int64_t i0, int64_t i1, int uneq) {       \
        if (i0 >= i1) return;                                                                         \
        const T *restrict tm = t + m;                                                                 \
        if (uneq && !(m & 1)) {        /* skip the rare heap m / 2 if there is one */                 \
            int64_t k = i0 + first_above(ra + i0, i1 - i0, m / 2 - 1);                                \
            if (k < i1 && 2 * ra[k] == m) {                                                           \
                NAME(ra, rk, mark, t, m, i0, k, 0);                                                   \
                NAME(ra, rk, mark, t, m, k + 1, i1, 0);                                               \
                return;                                                                               \
            }                                                                                         \
        }                                                                                             \
        if (ra[i1 - 1] > INT32_MAX) {   /* (increasing: the last is the largest) */                   \
            for (int64_t i = i0; i < i1; i++) mark[(uint32_t)(rk[i] >> 32) ^ t[m - ra[i]]] = 1;       \
            return;                                                                                   \
        }                                                                                             \
        int64_t i = i0;                                                                               \
        for (; i + 4 <= i1; i += 4) {                                                                 \
            uint64_t e0 = rk[i], e1 = rk[i + 1], e2 = rk[i + 2], e3 = rk[i + 3];                      \
            uint32_t x0 = (uint32_t)(e0 >> 32) ^ tm[(int32_t)(uint32_t)e0];                           \
            uint32_t x1 = (uint32_t)(e1 >> 32) ^ tm[(int32_t)(uint32_t)e1];                           \
            uint32_t x2 = (uint32_t)(e2 >> 32) ^ tm[(int32_t)(uint32_t)e2];                           \
            uint32_t x3 = (uint32_t)(e3 >> 32) ^ tm[(int32_t)(uint32_t)e3];                           \
            mark[x0] = 1; mark[x1] = 1; mark[x2] = 1; mark[x3] = 1;                                   \
        }                                                                                             \
        for (; i < i1; i++) mark[(uint32_t)(rk[i] >> 32) ^ tm[(int32_t)(uint32_t)rk[i]]] = 1;         \
    }
RARE_MARKS(rare_marks_u8, uint8_t)
RARE_MARKS(rare_marks_u16, uint16_t)
RARE_MARKS(rare_marks_u32, uint32_t)

/* The least common-class value not in mark (rc: the rare-class table of the heap's parity),
 * or P when every one below P is; and the rare-class values below vlim not in mark, set in
 * need (clear there before) and counted. Bytes are 0 or 1, so eight go at a time. */
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
uint64_t gr_sparse_least_common_avx512(const uint8_t *mark, const uint8_t *rc, uint64_t P);
int64_t gr_sparse_needed_avx512(const uint8_t *mark, const uint8_t *rc, uint8_t *need, uint64_t vlim);
#endif
static inline uint64_t least_common(const uint8_t *mark, const uint8_t *rc, uint64_t P) {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    if (gr_simd_level() >= GR_SIMD_AVX512) return gr_sparse_least_common_avx512(mark, rc, P);
#endif
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
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    if (gr_simd_level() >= GR_SIMD_AVX512) return gr_sparse_needed_avx512(mark, rc, need, vlim);
#endif
    int64_t count = 0;
    for (uint64_t x = 0; x < vlim; x++) {
        uint8_t h = rc[x] & (uint8_t)~mark[x];
        need[x] = h;
        count += h;
    }
    return count;
}

/* sparseheap.c: a rare heap joins the list (c NULL: the room is reserved); heap n gets value
 * v, returning 1 when the choice is due again; heap n's value from its options (front: all
 * but the pair search, for the speculating member; see FINISH_HEAP there). */
void gr_sparse_push_rare(gr_ctx *c, gr_sparse *s, int64_t n, uint64_t v);
int gr_sparse_commit(gr_ctx *c, gr_sparse *s, gr_sgtable *tab, int64_t n, uint64_t v);
#define GR_SPARSE_FINISH_DECL(NAME, T)                                                            \
    uint64_t NAME(gr_sparse *s, const T *restrict t, int64_t n, uint8_t *restrict mark,          \
                  uint8_t *restrict need, int64_t *front);
GR_SPARSE_FINISH_DECL(gr_sparse_finish_u8, uint8_t)
GR_SPARSE_FINISH_DECL(gr_sparse_finish_u16, uint16_t)
GR_SPARSE_FINISH_DECL(gr_sparse_finish_u32, uint32_t)

/* sparseheap.c: one thread, before heap n: the look-ups of heaps n .. n + 15 at once when the
 * processor and the choice allow (AVX-512; one split place; no heap-parity bit; P <= 512). */
int gr_sparse_batch_prep(gr_sparse *s);   /* the mask's lowest bit, or -1: no batches */
void gr_sparse_batch_u8(gr_sparse *s, const uint8_t *t, int64_t n);
void gr_sparse_batch_u16(gr_sparse *s, const uint16_t *t, int64_t n);

/* sparsescan.c: the search for rare-class values over the pairs with a part at n0 or above
 * (need_scan), and over those with both parts below n0, resumable, within a budget (need_upper). */
#define GR_SPARSE_SCAN_DECL(NAME, T)                                                              \
    int64_t NAME(const T *restrict t, const gr_sparse *s, int64_t n, int64_t n0,                   \
                 uint8_t *restrict need, int64_t count, uint64_t lim);
#define GR_SPARSE_UPPER_DECL(NAME, T)                                                             \
    int64_t NAME(const T *restrict t, const gr_sparse *s, int64_t n, int64_t n0,                   \
                 uint8_t *restrict need, uint8_t *restrict mark, int64_t count,                     \
                 spec_at *at, int64_t budget, uint64_t lim);
GR_SPARSE_SCAN_DECL(gr_sparse_need_scan_u8, uint8_t)
GR_SPARSE_SCAN_DECL(gr_sparse_need_scan_u16, uint16_t)
GR_SPARSE_SCAN_DECL(gr_sparse_need_scan_u32, uint32_t)
GR_SPARSE_UPPER_DECL(gr_sparse_need_upper_u8, uint8_t)
GR_SPARSE_UPPER_DECL(gr_sparse_need_upper_u16, uint16_t)
GR_SPARSE_UPPER_DECL(gr_sparse_need_upper_u32, uint32_t)

/* sparsevec.c (x86-64, not WebAssembly): the pair search with AVX-512 and AVX2, with the
 * arguments of sparsescan.c's (P: the choice's bound on values; u16 with AVX-512: P <= 1024
 * or, past it, values needed only below lim <= 8192; with AVX2: P <= 512). */
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
int64_t gr_sparse_pairs_avx512_u16(const uint16_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                   uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                   int64_t *budget, uint64_t lim, uint64_t P);
int64_t gr_sparse_pairs_avx512_u8(const uint8_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                  uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                  int64_t *budget, uint64_t lim);
/* The plain kernel's search for every value in [base, base + lim), lim <= 4096 (octneed.c):
 * the pairs a in [a, hi], each value x met cleared in need[x - base]; returns how many are
 * still needed. */
int64_t gr_sparse_pairs_all_avx512_u16(const uint16_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                       uint8_t *restrict need, int64_t count, uint64_t lim, uint64_t base);
int64_t gr_sparse_pairs_avx2_u16(const uint16_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                 uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                 int64_t *budget, uint64_t lim);
int64_t gr_sparse_pairs_avx2_u8(const uint8_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                int64_t *budget, uint64_t lim);
/* The search of the pairs a in [*a, *hi] from both ends at once (u16: P <= 1024), with the
 * arguments of the one-ended ones; [*a, *hi] is left as the range not looked at. Returns how
 * many values are still needed. */
int64_t gr_sparse_both_avx512_u16(const uint16_t *restrict t, int64_t m, int64_t *a, int64_t *hi,
                                  uint8_t *restrict need, uint8_t *restrict mark, int64_t count,
                                  int64_t *budget, uint64_t lim, uint64_t P);
int64_t gr_sparse_both_avx512_u8(const uint8_t *restrict t, int64_t m, int64_t *a, int64_t *hi,
                                 uint8_t *restrict need, uint8_t *restrict mark, int64_t count,
                                 int64_t *budget, uint64_t lim);
/* The look-ups of BATCH_HEAPS consecutive heaps at once (see gr_sparse_batch_u16). */
void gr_sparse_batch32_u16(const uint16_t *t, int64_t base, const uint64_t *rk, int64_t i0, int64_t i1, int b,
                           uint16_t bits[8][32]);
void gr_sparse_batch32_u8(const uint8_t *t, int64_t base, const uint64_t *rk, int64_t i0, int64_t i1, int b,
                          uint16_t bits[8][32]);
/* The same with a ninth register, indices 128..143 (values from 256 up: u16 tables). */
void gr_sparse_batch32_u16x9(const uint16_t *t, int64_t base, const uint64_t *rk, int64_t i0, int64_t i1, int b,
                             uint16_t bits[9][32]);
uint64_t gr_sparse_batch_least(uint8_t *mark, uint64_t lo, uint64_t hi, uint32_t w9, uint32_t pos9, const uint8_t *ix,
                               const uint8_t *cm, uint64_t P, const uint8_t *rc, uint8_t *need, int64_t *count);
/* Bytes 0 or 1 to bits and back, P a multiple of 64 (little-endian bit order). */
void gr_sparse_pack_avx512(uint8_t *restrict bits, const uint8_t *restrict mark, size_t P);
void gr_sparse_unpack_avx512(uint8_t *restrict mark, const uint8_t *restrict bits, size_t P);
#endif

/* sparsewasm.c (WebAssembly SIMD only): the pair search with a bitset in registers, with the
 * arguments of sparsescan.c's (u16: P <= 512). */
#ifdef __wasm_simd128__
int64_t gr_sparse_pairs_wasm_u8(const uint8_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                int64_t *budget, uint64_t lim);
int64_t gr_sparse_pairs_wasm_u16(const uint16_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                 uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                 int64_t *budget, uint64_t lim);
#endif

/* sparsespec.c: heaps tab->n .. end (at most CHUNK) by a team across threads, by speculation.
 * tab->n is left at the first heap not final: end + 1; or past a new rare heap the checks
 * found (its value committed; the heaps after it go to one thread for a while, s->one_until);
 * or at a heap whose value does not fit the table or is P (for one thread: s->one_until).
 * Returns 2 when the choice is due again, else 0. */
int gr_sparse_spec(gr_ctx *c, gr_sparse *s, gr_sgtable *tab, int64_t end, gr_progress *pr);
/* A batched heap k's marks (bits: its batch's registers, [9][BATCH_HEAPS] flat; top: the batch
 * holds every common value below it), the ninth register's and then those below 256 in one
 * pass with the least common value missing and the need below it (gr_sparse_batch_least).
 * Returns 1 when that pass decides
 * the value (*v: the least below min(P, 256), or P when there is none below P <= 256) and
 * *count (the need's ones below *v); 0: least_common and needed to follow. Only x86-64 makes
 * batches. */
static inline int batch_least(const gr_sparse *s, const uint16_t *bits, uint64_t top, int k, uint8_t *mark,
                              uint64_t P, const uint8_t *rc, uint8_t *need, uint64_t *v, int64_t *count) {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    uint32_t w9 = 0, pos9 = 0;     /* the ninth register's marks: in one store when they fit */
    if (top > 256) {
        w9 = bits[8 * BATCH_HEAPS + k];
        pos9 = s->b9pos;
        if (!pos9) {
            for (; w9; w9 &= w9 - 1) mark[s->bval[128 + __builtin_ctz(w9)]] = 1;
        }
    }
    *v = gr_sparse_batch_least(mark, batch_word(bits, k, 0), batch_word(bits, k, 4), w9, pos9, s->bix, s->bcm, P, rc,
                               need, count);
    return *v < (P < 256 ? P : 256) || *v == P;
#else
    (void)s; (void)bits; (void)top; (void)k; (void)mark; (void)P; (void)rc; (void)need; (void)v; (void)count;
    return 0;
#endif
}

#endif
