/* sparsepar: the rare-value kernel's pipeline across threads (--threads, past heap PAR_FROM;
 * sparse.h): members work ahead of the finished heaps into slots, one member at a time
 * finishes the heaps in order, lock-free; the values are those of one thread. */
#include "eval/heap/sparseint.h"
#include "pool.h"
#include "simd.h"
#include <sched.h>
#include <time.h>
#include <stdatomic.h>

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
enum { AHEAD = 128, STEAL_SPINS = 1024 };
#define PAR_MAX_SLOTS_BYTES ((size_t)16 << 20)

/* where[] entries adjacent, 8 a cache line: a member publishes a whole run's at once (publish) */
typedef struct where_at { atomic_llong w; } where_at;

typedef struct pipe {
    const gr_sparse *s;
    const void *t;
    const int64_t *ra; const uint64_t *rk;
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
    int bb;              /* batches of look-ups (the mask's lowest bit), or -1: none */
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

/* A slot's marks as bits (one cache line for P = 256 rather than four: the slot goes from one
 * core to another); the marks are bytes 0 or 1. sparseheap.c unpacks them. */
static void pack_marks(uint8_t *restrict bits, const uint8_t *restrict mark, size_t P) {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    if (P % 64 == 0 && gr_simd_level() >= GR_SIMD_AVX512) { gr_sparse_pack_avx512(bits, mark, P); return; }
#endif
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

/* A member's work for heap n into its slot e (of its `ahead`). */
#define PRECOMPUTE(NAME, T, MARKS, UPPER, LOOKUPS)                                                        \
    static void NAME(const pipe *J, int64_t n, int64_t L, int64_t nrL, uint8_t *restrict need,       \
                     int member, int64_t e, member_batch *mb) {                                       \
        const gr_sparse *s = J->s;                                                                    \
        const T *restrict t = J->t;                                                                   \
        const int64_t *ra = J->ra;                                                                    \
        size_t own = (size_t)member * (size_t)J->ahead + (size_t)e;                                   \
        slot *sl = &J->slots[own];                                                                    \
        uint8_t *restrict mark = need + J->P;          /* the member's own, packed into the slot */   \
        sl->L = L;                                                                                    \
        sl->nrL = nrL;                                                                                \
        /* a batch (see sparseheap.c) for n .. n + 15 unless the member's last one holds n: the    \
         * rare heaps whose look-ups read heaps below L only, whose other part is common */     \
        int batched = 0;                                                                              \
        const uint64_t P = J->P;                                                                      \
        if (J->bb >= 0 && nrL && ra[nrL - 1] <= INT32_MAX) {   /* (the offsets -a: see sparseheap.c) */ \
            if (!(mb->valid && n >= mb->n0 && n < mb->n0 + BATCH_HEAPS && mb->L <= L)) {                       \
                int64_t s0 = s->split[0], last = ra[nrL - 1];                                        \
                int64_t lim = n - s0 - last < (n - s0) / 2 ? n - s0 - last : (n - s0) / 2;            \
                int64_t i0 = first_above(ra, nrL, n + BATCH_HEAPS - 1 - s0 - L), i1 = first_above(ra, nrL, lim - 1); \
                mb->valid = i1 - i0 >= 64;                                                            \
                if (mb->valid) {                                                                      \
                    mb->top = LOOKUPS(t, n - s0, J->rk, i0, i1, J->bb, mb->bits, P);                  \
                    mb->n0 = n; mb->L = L; mb->lo = i0; mb->hi = i1;                                  \
                }                                                                                     \
            }                                                                                         \
            batched = mb->valid && n >= mb->n0 && n < mb->n0 + BATCH_HEAPS && mb->L <= L;             \
        }                                                                                             \
        int nb = s->hp & (int)(n & 1);                                                                \
        uint64_t v = 0;                                                                               \
        const uint8_t *rc = s->rclass + (size_t)nb * P;                                               \
        uint64_t fused;                /* as in sparseheap.c's FINISH_HEAP */                         \
        int64_t fcount;                                                                               \
        int fused_ok;                                                                                 \
    again:                                                                                            \
        fused = 0;                                                                                    \
        fcount = 0;                                                                                   \
        fused_ok = 0;                                                                                 \
        memset(mark, 0, J->P);                                                                        \
        if (batched) {                                                                                \
            int k = (int)(n - mb->n0);                                                                \
            int64_t m = n - s->split[0];                                                              \
            MARKS(ra, J->rk, mark, t, m, first_above(ra, nrL, m - L), mb->lo, s->uneq[0]);            \
            MARKS(ra, J->rk, mark, t, m, mb->hi, first_above(ra, nrL, m - 1), s->uneq[0]);            \
            fused_ok = batch_least(s, &mb->bits[0][0], mb->top, k, mark, P, rc, need, &fused, &fcount, 1); \
        } else                                                                                        \
            for (int j = 0; j < s->nsplit; j++) {                                                     \
                int64_t m = n - s->split[j];                                                          \
                if (m < 2) continue;                                                                  \
                MARKS(ra, J->rk, mark, t, m, first_above(ra, nrL, m - L), first_above(ra, nrL, m - 1), s->uneq[j]); \
            }                                                                                         \
        v = fused_ok ? fused : least_common(mark, rc, P);                                             \
        if (batched && v >= mb->top) { batched = 0; goto again; }   /* values past the batch's */   \
        sl->batched = batched ? (int32_t)mb->top : 0;                                                 \
        uint64_t vlim = v < P ? v : P;                                                                \
        int64_t count = fused_ok ? fcount : needed(mark, rc, need, vlim);                             \
        sl->sp.v = vlim;                                                                              \
        sl->sp.at = (spec_at){ 0, 0, 0 };                                                                \
        sl->all = !count;                                                                             \
        if (count && (count = UPPER(t, s, n, L, need, mark, count, &sl->sp.at, J->budget, vlim)))     \
            memset(need, 0, vlim);                                                                    \
        if (!count) {                                                                                 \
            sl->sp.at.j = s->nsplit;                                                                  \
            sl->all = vlim < P;                                                                       \
        }                                                                                             \
        pack_marks(J->bits + own * J->bstride, mark, J->P);                                           \
    }
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
/* A member's batch, with a ninth register when values pass 256; returns its top. */
static inline uint64_t lookups_u8(const uint8_t *t, int64_t base, const uint64_t *rk, int64_t i0, int64_t i1, int b,
                                  uint16_t bits[9][BATCH_HEAPS], uint64_t P) {
    (void)P;
    gr_sparse_batch32_u8(t, base, rk, i0, i1, b, bits);
    return 256;
}
static inline uint64_t lookups_u16(const uint16_t *t, int64_t base, const uint64_t *rk, int64_t i0, int64_t i1, int b,
                                   uint16_t bits[9][BATCH_HEAPS], uint64_t P) {
    if (P > 256) {
        gr_sparse_batch32_u16x9(t, base, rk, i0, i1, b, bits);
        return batch_top9(b);
    }
    gr_sparse_batch32_u16(t, base, rk, i0, i1, b, bits);
    return 256;
}
#define LOOKUPS_u8 lookups_u8
#define LOOKUPS_u16 lookups_u16
#else
#define LOOKUPS_u8(t, base, rk, i0, i1, b, bits, P) ((void)(t), (void)(rk), (void)(bits), (uint64_t)256)
#define LOOKUPS_u16(t, base, rk, i0, i1, b, bits, P) ((void)(t), (void)(rk), (void)(bits), (uint64_t)256)
#endif
#define LOOKUPS_u32(t, base, rk, i0, i1, b, bits, P) ((void)(t), (void)(rk), (void)(bits), (uint64_t)256)
PRECOMPUTE(precompute_u8, uint8_t, rare_marks_u8, gr_sparse_need_upper_u8, LOOKUPS_u8)
PRECOMPUTE(precompute_u16, uint16_t, rare_marks_u16, gr_sparse_need_upper_u16, LOOKUPS_u16)
PRECOMPUTE(precompute_u32, uint32_t, rare_marks_u32, gr_sparse_need_upper_u32, LOOKUPS_u32)
/* A member's run of heaps n0 .. n0 + len - 1, in its slots e0, e0 + 1, ..., published at once
 * when all are done: their where[] entries are adjacent (8 a cache line, a run's own lines),
 * so the finisher reads them with a miss or two, not one per heap, and fetches the run's
 * slots all at once (see prefetch_run). */
static void publish(pipe *J, int64_t n0, int64_t len, int member, int64_t e0) {
    for (int64_t i = 0, e = e0; i < len; i++, e = e + 1 == J->ahead ? 0 : e + 1)
        atomic_store_explicit(&J->where[(n0 + i) % J->ahead].w, (long long)((n0 + i) * 65536 + member * 256 + e),
                              memory_order_release);
}

/* The finisher, at heap h of another member's run: the slots and marks of the complete heaps
 * after it, up to a run's, asked for at once (a line from another core takes 140 ns here, one way) */
static void prefetch_run(const pipe *J, int64_t h) {
    for (int64_t k = 1; k <= BATCH_HEAPS; k++) {
        long long w = atomic_load_explicit(&J->where[(h + k) % J->ahead].w, memory_order_relaxed);
        if (w < 0 || w >> 16 != h + k) break;
        size_t own = (size_t)(w >> 8 & 255) * (size_t)J->ahead + (size_t)(w & 255);
        __builtin_prefetch(&J->slots[own]);
        __builtin_prefetch(J->bits + own * J->bstride);
    }
}

/* After B heaps, of whose searches `stopped` ran out of budget and `wasted` of those were not
 * gone on with (the heap got the values otherwise): a quarter wasted shrinks the budget, a
 * sixteenth gone on with grows it. Only the work moves. */
static void adapt_budget(gr_sparse *s, int64_t stopped, int64_t wasted, int64_t B) {
    if (B <= 0) return;
    if (4 * wasted > B) s->spec_budget = s->spec_budget / 4 > SPEC_MIN ? s->spec_budget / 4 : SPEC_MIN;
    else if (16 * (stopped - wasted) > B && s->spec_budget < SPEC_MAX) s->spec_budget *= 2;
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
        int64_t pf = 0;                  /* the finisher asked for the slots below it */              \
        member_batch mb;                 /* its last batch */                                 \
        mb.valid = 0;                                                                                 \
        while (!atomic_load_explicit(&J->stop, memory_order_acquire)) {                               \
            long long h = atomic_load_explicit(&J->done, memory_order_acquire);                       \
            long long q = atomic_load(&J->claim);                                                     \
            if (s->solo && q <= h) {         /* tests: a run of heaps ahead, as members would */      \
                int64_t k = 1 + (h * 7919) % J->ahead;                                                \
                if (k > J->end - h + 1) k = J->end - h + 1;                                           \
                if (!atomic_compare_exchange_weak(&J->claim, &q, h + k)) continue;                    \
                int64_t e0 = e;                                                                       \
                for (int64_t i = 0; i < k; i++) {                                                     \
                    PRE(J, h + i, h, s->nr, need, member, e, &mb);                                    \
                    e = e + 1 == J->ahead ? 0 : e + 1;                                                \
                }                                                                                     \
                publish(J, h, k, member, e0);                                                         \
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
                    /* a finisher before it stopped the chunk (a new choice, a widening): a heap   \
                     * past that is not finished with the old choice, whose cap at P would stand    \
                     * for a value that can now be above it (the member had passed the loop's test) */ \
                    if (atomic_load_explicit(&J->stop, memory_order_relaxed)) break;                  \
                    if (h > J->end) { atomic_store(&J->stop, 1); break; }                             \
                    if (s->nr > 2 * s->chosen_rare + 1024) { J->status = 2; atomic_store(&J->stop, 1); break; } \
                    uint64_t v;                                                                       \
                    w = atomic_load_explicit(&J->where[h % J->ahead].w, memory_order_acquire);         \
                    int ready = w >= 0 && w >> 16 == h;                                               \
                    /* (claim only when the slot is not there: its line goes between the cores) */   \
                    if (!ready) q = atomic_load(&J->claim);                                           \
                    if (ready) {                                                                      \
                        size_t own = (size_t)(w >> 8 & 255) * (size_t)J->ahead + (size_t)(w & 255);   \
                        if ((w >> 8 & 255) != member && h >= pf) { prefetch_run(J, h); pf = h + BATCH_HEAPS; } \
                        v = FIN(s, t, h, &J->slots[own], J->bits + own * J->bstride, mark, need,      \
                                &J->stopped, &J->wasted);                                             \
                        s->piped++;                                                                   \
                        late = 0;                    /* its member runs again */                      \
                    } else if (q <= h) {             /* nobody took it: all of it here */             \
                        /* with a team, as a slot outside `finishing` (which a member the machine \
                         * stops while it holds it holds from all); tests: the next run ahead */    \
                        if (!whole) break;                                                            \
                        if (!atomic_compare_exchange_weak(&J->claim, &q, h + 1)) continue;            \
                        v = FIN(s, t, h, NULL, NULL, mark, need, &J->stopped, &J->wasted);            \
                    } else if (late >= STEAL_SPINS) { /* its member is late (not running?) */         \
                        /* and the heaps after it too, without waiting again, until one of its  \
                         * slots is ready: a member the machine stopped holds a run of heaps, and \
                         * waiting STEAL_SPINS for each cost more than the work (Grundy's game to  \
                         * 2^22 beside a busy program: 1.77-1.85 s, 1.63-1.75 s after) */           \
                        v = FIN(s, t, h, NULL, NULL, mark, need, &J->stopped, &J->wasted);            \
                    } else {                         /* a member is on it: help meanwhile */          \
                        break;                                                                        \
                    }                                                                                 \
                    if (v > (uint64_t)(TMAX)) { J->status = 1; atomic_store(&J->stop, 1); break; }    \
                    t[h] = (T)v;                                                                      \
                    int again = gr_sparse_commit(NULL, s, tab, h, v);                                      \
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
                /* with batches, a batch's heaps at a time: the heaps of a member's batch    \
                 * are its own, done in order, so the finisher waits on one heap at most */          \
                long long len = J->bb >= 0 ? BATCH_HEAPS - (q & (BATCH_HEAPS - 1)) : 1;                  \
                if (len > h + J->ahead - q) len = h + J->ahead - q;                                   \
                if (len > J->end + 1 - q) len = J->end + 1 - q;                                       \
                if (atomic_compare_exchange_weak(&J->claim, &q, q + len)) {                           \
                    int64_t e0 = e;                                                                   \
                    long long nr = atomic_load_explicit(&J->pubnr, memory_order_acquire);            \
                    /* L at a cache line's start: the line the finisher is writing values into is  \
                     * not read (each of its writes would take it from this core again) */          \
                    long long hl = h - (long long)(((uintptr_t)((const T *)J->t + h) & 63) / sizeof(T)); \
                    if (hl < 1) hl = h;                                                               \
                    int64_t nrl = first_above(J->ra, nr, hl - 1);                                     \
                    for (long long i = 0; i < len; i++) {                                             \
                        PRE(J, q + i, hl, nrl, need, member, e, &mb);                                 \
                        e = e + 1 == J->ahead ? 0 : e + 1;                                            \
                    }                                                                                 \
                    publish(J, q, len, member, e0);                                                   \
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
PIPE_JOB(pipe_job_u8, uint8_t, UINT8_MAX, precompute_u8, gr_sparse_finish_u8)
PIPE_JOB(pipe_job_u16, uint16_t, UINT16_MAX, precompute_u16, gr_sparse_finish_u16)
PIPE_JOB(pipe_job_u32, uint32_t, UINT32_MAX, precompute_u32, gr_sparse_finish_u32)

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
        s->rk = gr_realloc(c, s->rk, gr_size_mul(c, (size_t)want, sizeof *s->rk));
    }
    size_t marks = gr_size_mul(c, gr_size_mul(c, members, (size_t)ahead), bstride);
    size_t needs = gr_size_mul(c, members, gr_size_mul(c, 2, P));
    size_t at = (marks + needs + 63) & ~(size_t)63;
    size_t wat = at + gr_size_mul(c, gr_size_mul(c, members, (size_t)ahead), sizeof(slot));
    size_t bytes = wat + gr_size_mul(c, (size_t)ahead, sizeof(where_at));
    /* from a cache line's start, as the layout means (the allocation is not: a member's need
     * array shared a line with the next member's, and slots and where[] entries straddled two;
     * measured to 2^22 with two threads, no faster nor slower within the noise) */
    if (bytes + 63 > s->bcap) {
        s->bmarks = gr_realloc(c, s->bmarks, bytes + 63);
        s->bcap = bytes + 63;
    }
    uint8_t *base = (uint8_t *)(((uintptr_t)s->bmarks + 63) & ~(uintptr_t)63);
    memset(base + marks, 0, needs);                   /* the need arrays start clear */
    pipe *J = gr_alloc(c, sizeof *J);
    J->s = s; J->t = tab->data; J->ra = s->ra; J->rk = s->rk; J->P = P;
    J->end = end; J->ahead = ahead;
    J->slots = (slot *)(void *)(base + at);
    J->where = (where_at *)(void *)(base + wat);
    J->bits = base;
    J->bstride = bstride;
    J->needs = base + marks;
    J->budget = s->spec_budget;
    J->bb = c->threads > 1 || s->solo ? gr_sparse_batch_prep(s) : -1;   /* (serial: it may build tables) */
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

int gr_sparse_pipe(gr_ctx *c, gr_sparse *s, gr_sgtable *tab, int64_t end, gr_progress *pr) {
    s->bvalid = 0;                       /* the one-thread batch (sparseheap.c) is not the team's */
    switch (tab->width) {
    case 1: return pipe_chunk(c, s, tab, end, pipe_job_u8, pr);
    case 2: return pipe_chunk(c, s, tab, end, pipe_job_u16, pr);
    default: return pipe_chunk(c, s, tab, end, pipe_job_u32, pr);
    }
}
