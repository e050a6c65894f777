/* sparsespec: the rare-value kernel across threads by speculation (--threads, past heap
 * PAR_FROM; sparse.h). One member works out the heaps in order as one thread does, but stops
 * short of the pair search: each heap gets the least common-class value its look-ups of the
 * rare heaps miss, as if every rare-class value below it were an option. The other members
 * (and it, when it is far enough ahead) check that in blocks of heaps, in any order: the pair
 * search, about half of one thread's work. A heap where a rare-class value below is not an
 * option is a new rare heap; its value is that one, and the values worked out past it are
 * dropped. The values are those of one thread, whatever the timing. */
#include "eval/heap/sparseint.h"
#include "pool.h"
#include <stdatomic.h>
#include <limits.h>
#include <sched.h>

/* Why speculation: the pair search of heap n reads heaps up to n - 1 and nothing else of the
 * heap, and a heap's value is common in all but the rare heaps, all of them near the start
 * (Grundy's game: 1,287 to 2^35, the last at 48,399,022). The pipeline this kernel had before
 * split each heap instead, and its members could not search the pairs that read the newest
 * heaps, the ones that decide most values: 18% more work in all, measured. Here the two halves
 * of one thread's work are each done once, by different members (docs/periodicity.md,
 * "Two threads by speculation"). */
enum { SPEC_BLOCK = 64,                    /* heaps a member checks at a time */
       SPEC_RING = 4096,                   /* the speculating member's lead over the oldest heap
                                            * not yet checked, at most (a multiple of SPEC_BLOCK) */
       SPEC_QUIET = 8192 };                /* after a new rare heap, one thread this far: more
                                            * may come soon, and each drops the lead */
/* the ring's need bits at most (P up to 2^20: 128 KB a heap, two blocks) */
#define SPEC_RING_BYTES ((size_t)16 << 20)

typedef struct spec_team {
    gr_sparse *s;
    gr_sgtable *tab;
    gr_progress *pr;
    const gr_sparse *vs;   /* what the checking members read: the split places, the bound P */
    int64_t from, end;
    int64_t ring;          /* heaps in the ring (SPEC_RING, fewer for a large P) */
    size_t bstride;        /* bytes of need bits a heap */
    uint8_t *bits;         /* the ring: each heap's values needed, as bits */
    int32_t *count;        /* how many, and the bound vlim they are below */
    uint32_t *vlim;
    uint8_t *needs;        /* per member P bytes, all clear between uses */
    atomic_llong *blockdone;   /* block b (from `from`) is checked: blockdone[b % (ring / SPEC_BLOCK)] = b + 1 */
    char pad0[64];
    atomic_llong spec;     /* the heaps below it are worked out (release) */
    atomic_int over;       /* the speculating member stopped: spec is final */
    char pad1[64];
    atomic_llong claim;    /* the next block no member took */
    char pad2[64];
    atomic_llong fail;     /* the least heap found to be rare (LLONG_MAX: none) */
    char pad3[64];
    int front_stop;        /* the speculating member stopped at a value that does not fit or is P */
} spec_team;

/* Waiting for another member: a few pauses (a heap takes a microsecond or less), then the
 * processor to others: on a machine that runs both members on one vCPU for a while, spinning
 * would take the time the other member needs. */
static inline void spec_wait(unsigned *spins) {
    if (++*spins < 256) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } else {
        sched_yield();
    }
}

/* Bytes 0 or 1 as bits and back (little-endian bit order): the values a speculated heap needs,
 * from the speculating member to the one that checks it (one cache line for P = 256 rather
 * than four). */
static void pack_bits(uint8_t *restrict bits, const uint8_t *restrict bytes, size_t P) {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    if (P % 64 == 0 && gr_simd_level() >= GR_SIMD_AVX512) { gr_sparse_pack_avx512(bits, bytes, P); return; }
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (P % 8 == 0) {
        for (size_t i = 0; i < P / 8; i++) {
            uint64_t w;
            memcpy(&w, bytes + 8 * i, 8);
            bits[i] = (uint8_t)((w * UINT64_C(0x0102040810204080)) >> 56);   /* byte k's bit 0 to bit k */
        }
        return;
    }
#endif
    memset(bits, 0, (P + 7) / 8);
    for (size_t x = 0; x < P; x++) bits[x >> 3] |= (uint8_t)(bytes[x] << (x & 7));
}
static void unpack_bits(uint8_t *restrict bytes, const uint8_t *restrict bits, size_t P) {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    if (P % 64 == 0 && gr_simd_level() >= GR_SIMD_AVX512) { gr_sparse_unpack_avx512(bytes, bits, P); return; }
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (P % 8 == 0) {
        for (size_t i = 0; i < P / 8; i++) {
            uint64_t w = ((uint64_t)bits[i] * ONES_u8) & UINT64_C(0x8040201008040201);   /* byte k: bit k */
            w = ((w + UINT64_C(0x7f7f7f7f7f7f7f7f)) >> 7) & ONES_u8;
            memcpy(bytes + 8 * i, &w, 8);
        }
        return;
    }
#endif
    for (size_t x = 0; x < P; x++) bytes[x] = (uint8_t)(bits[x >> 3] >> (x & 7) & 1);
}

/* The bytes of a need below vlim that go to bits: whole 64s (one AVX-512 step each) while they
 * fit in P (the bytes past vlim are clear). */
static inline size_t need_bytes(uint64_t vlim, uint64_t P) {
    uint64_t k = (vlim + 63) & ~(uint64_t)63;
    return (size_t)(k <= P ? k : P);
}

/* Check one block if one is ready: 1 done, 0 none ready yet, -1 none left. */
#define CHECK_BLOCK(NAME, T, NEED)                                                                    \
    static int NAME(spec_team *J, int member) {                                                       \
        long long q = atomic_load(&J->claim);                                                         \
        int over = atomic_load_explicit(&J->over, memory_order_acquire);                              \
        long long sp = atomic_load_explicit(&J->spec, memory_order_acquire);                          \
        if (q >= atomic_load_explicit(&J->fail, memory_order_relaxed)) return -1;                     \
        long long hi = q + SPEC_BLOCK;                                                                \
        if (hi > sp) {                                                                                \
            if (!over) return 0;                                                                      \
            if (q >= sp) return -1;                                                                   \
            hi = sp;                                                                                  \
        }                                                                                             \
        if (!atomic_compare_exchange_weak(&J->claim, &q, q + SPEC_BLOCK)) return 1;                   \
        const T *restrict t = J->tab->data;                                                           \
        uint8_t *need = J->needs + (size_t)member * J->vs->P;                                         \
        for (long long h = q; h < hi; h++) {                                                          \
            if (h >= atomic_load_explicit(&J->fail, memory_order_relaxed)) break;                     \
            size_t r = (size_t)(h % J->ring);                                                         \
            int64_t count = J->count[r];                                                              \
            if (!count) continue;                                                                     \
            uint64_t vlim = J->vlim[r];                                                               \
            unpack_bits(need, J->bits + r * J->bstride, need_bytes(vlim, J->vs->P));      \
            if (NEED(t, J->vs, h, 0, need, count, vlim)) {                                            \
                memset(need, 0, vlim);                                                                \
                long long f = atomic_load(&J->fail);                                                  \
                while (h < f && !atomic_compare_exchange_weak(&J->fail, &f, h)) {}                    \
                break;                                                                                \
            }                                                                                         \
        }                                                                                             \
        long long b = (q - J->from) / SPEC_BLOCK;                                                     \
        atomic_store_explicit(&J->blockdone[b % (J->ring / SPEC_BLOCK)], b + 1, memory_order_release); \
        return 1;                                                                                     \
    }

/* The speculating member (member 0, the caller: it alone writes the kernel's state and the
 * table), then a checking one like the others. */
#define SPEC_JOB(NAME, T, TMAX, FIN, BATCH, CHECK)                                                   \
    static void NAME(void *arg, int member, int members) {                                           \
        (void)members;                                                                                \
        spec_team *J = arg;                                                                           \
        unsigned spins = 0;                                                                           \
        if (member == 0) {                                                                            \
            gr_sparse *s = J->s;                                                                      \
            T *t = J->tab->data;                                                                      \
            int64_t low = J->from, n = J->from;                                                       \
            int r0;                                                                                   \
            for (; n <= J->end; n++) {                                                                \
                if (atomic_load_explicit(&J->fail, memory_order_relaxed) != LLONG_MAX) break;         \
                /* room in the ring: the heap a ring back is checked */                               \
                while (n - low >= J->ring) {                                                          \
                    long long b = (low - J->from) / SPEC_BLOCK;                                       \
                    if (atomic_load_explicit(&J->blockdone[b % (J->ring / SPEC_BLOCK)], memory_order_acquire) == b + 1) \
                        low += SPEC_BLOCK, spins = 0;                                                 \
                    else if (!(r0 = CHECK(J, 0))) spec_wait(&spins);                                  \
                    else if (r0 < 0) break;                                                           \
                    else spins = 0;                                                                   \
                }                                                                                     \
                if (n - low >= J->ring) break;   /* a heap failed meanwhile */                        \
                if (!s->bvalid || n < s->bn0 || n >= s->bn0 + BATCH_HEAPS || s->bchosen != s->chosen_n) BATCH; \
                int64_t count = 0;                                                                    \
                uint64_t v = FIN(s, t, n, s->mark, s->need, &count);                                   \
                uint64_t vlim = v < s->P ? v : s->P;                                                  \
                if (v > (uint64_t)(TMAX) || v >= s->P) {                                              \
                    memset(s->need, 0, vlim);                                                         \
                    J->front_stop = 1;                                                                \
                    break;                                                                            \
                }                                                                                     \
                t[n] = (T)v;                                                                          \
                size_t r = (size_t)(n % J->ring);                                                     \
                J->count[r] = (int32_t)count;                                                         \
                J->vlim[r] = (uint32_t)vlim;                                                          \
                if (count) {                                                                          \
                    pack_bits(J->bits + r * J->bstride, s->need, need_bytes(vlim, s->P));   \
                    memset(s->need, 0, vlim);                                                         \
                }                                                                                     \
                if ((n - J->from + 1) % SPEC_BLOCK == 0) {                                            \
                    atomic_store_explicit(&J->spec, n + 1, memory_order_release);                     \
                    if ((n & PROGRESS_MASK) < SPEC_BLOCK) gr_progress_update(J->pr, (uint64_t)n);     \
                }                                                                                     \
            }                                                                                         \
            atomic_store_explicit(&J->spec, n, memory_order_release);                                 \
            atomic_store_explicit(&J->over, 1, memory_order_release);                                 \
        }                                                                                             \
        for (;;) {                                                                                    \
            int r = CHECK(J, member);                                                                 \
            if (r < 0) break;                                                                         \
            if (!r) spec_wait(&spins);                                                                \
            else spins = 0;                                                                           \
        }                                                                                             \
    }

CHECK_BLOCK(check_u8, uint8_t, gr_sparse_need_scan_u8)
CHECK_BLOCK(check_u16, uint16_t, gr_sparse_need_scan_u16)
CHECK_BLOCK(check_u32, uint32_t, gr_sparse_need_scan_u32)
SPEC_JOB(spec_job_u8, uint8_t, UINT8_MAX, gr_sparse_finish_u8, gr_sparse_batch_u8(s, t, n), check_u8)
SPEC_JOB(spec_job_u16, uint16_t, UINT16_MAX, gr_sparse_finish_u16, gr_sparse_batch_u16(s, t, n), check_u16)
SPEC_JOB(spec_job_u32, uint32_t, UINT32_MAX, gr_sparse_finish_u32, (void)(s->bvalid = 0), check_u32)

int gr_sparse_spec(gr_ctx *c, gr_sparse *s, gr_sgtable *tab, int64_t end, gr_progress *pr) {
    size_t P = (size_t)s->P;
    size_t bstride = ((P + 7) / 8 + 63) & ~(size_t)63;
    size_t members = (size_t)(c->threads < 256 ? c->threads : 256);
    int64_t ring = SPEC_RING_BYTES / bstride / SPEC_BLOCK * SPEC_BLOCK;
    if (ring > SPEC_RING) ring = SPEC_RING;
    if (ring < 2 * SPEC_BLOCK) ring = 2 * SPEC_BLOCK;
    size_t blocks = (size_t)ring / SPEC_BLOCK;
    size_t bytes = (size_t)ring * (bstride + sizeof(int32_t) + sizeof(uint32_t)) + members * P +
                   blocks * sizeof(atomic_llong) + 64;
    if (bytes > s->bcap) {
        s->bmarks = gr_realloc(c, s->bmarks, bytes);
        s->bcap = bytes;
    }
    uint8_t *base = (uint8_t *)(((uintptr_t)s->bmarks + 63) & ~(uintptr_t)63);
    spec_team *J = gr_alloc(c, sizeof *J);
    J->s = s; J->tab = tab; J->pr = pr; J->vs = s;
    J->from = tab->n; J->end = end;
    J->ring = ring;
    J->bstride = bstride;
    J->bits = base;
    J->blockdone = (atomic_llong *)(void *)(base + (size_t)ring * bstride);
    J->count = (int32_t *)(void *)(base + (size_t)ring * bstride + blocks * sizeof(atomic_llong));
    J->vlim = (uint32_t *)(void *)(J->count + ring);
    J->needs = (uint8_t *)(void *)(J->vlim + ring);
    memset(J->needs, 0, members * P);
    for (size_t i = 0; i < blocks; i++) atomic_init(&J->blockdone[i], 0);
    atomic_init(&J->spec, tab->n);
    atomic_init(&J->over, 0);
    atomic_init(&J->claim, tab->n);
    atomic_init(&J->fail, LLONG_MAX);
    J->front_stop = 0;
    s->bvalid = 0;
    if (!s->pool) s->pool = gr_pool_new(c->threads);   /* (freed by gr_sparse_fill) */
    gr_pool_run(s->pool, tab->width == 1 ? spec_job_u8 : tab->width == 2 ? spec_job_u16 : spec_job_u32, J);
    long long fail = atomic_load(&J->fail);
    int64_t top = fail != LLONG_MAX ? fail : atomic_load(&J->spec);
    /* the heaps from..top are final: their largest value (those past top were not) */
    int64_t mx = tab->max;
    for (int64_t h = J->from; h < top; h++)
        if (gr_sgt_get(tab, h) > mx) mx = gr_sgt_get(tab, h);
    tab->max = mx;
    s->speculated += top - J->from;
    tab->n = top;
    int status = 0;
    if (fail != LLONG_MAX) {
        /* a new rare heap: its value again, from nothing (every heap below it is final) */
        uint64_t v;
        switch (tab->width) {
        case 1: v = gr_sparse_finish_u8(s, tab->data, fail, s->mark, s->need, NULL); ((uint8_t *)tab->data)[fail] = (uint8_t)v; break;
        case 2: v = gr_sparse_finish_u16(s, tab->data, fail, s->mark, s->need, NULL); ((uint16_t *)tab->data)[fail] = (uint16_t)v; break;
        default: v = gr_sparse_finish_u32(s, tab->data, fail, s->mark, s->need, NULL); ((uint32_t *)tab->data)[fail] = (uint32_t)v; break;
        }
        s->spec_failed++;
        if (gr_sparse_commit(c, s, tab, fail, v)) status = 2;
        s->one_until = fail + 1 + SPEC_QUIET;
    } else if (J->front_stop) {
        s->one_until = top + 1;          /* that heap by one thread: it widens or chooses again */
    }
    s->bvalid = 0;
    gr_free(c, J);
    return status;
}
