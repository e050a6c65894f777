/* qcheck: the walk over the states of sums of heaps that proves a candidate quotient or finds
 * the least sum it misclassifies; see qcheck.h for why it is a proof. */
#include "eval/heap/qcheck.h"
#include "core/worker.h"
#include "core/simd.h"
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define QCHECK_AVX512 1
#endif

/* Heap types: heaps with the same image and the same option images make the same transitions. */
typedef struct qtypes {
    int32_t T;
    int32_t *img;                 /* [T] */
    uint8_t *acc;                 /* [T * n]: acc[t][y] = some option image o of t has P(y o) */
    int32_t *erow;                /* [T * n]: img[t] z for every z */
    int32_t *of_atom;             /* [atoms]: -1 for an atom without a move */
} qtypes;

static int cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void make_types(gr_ctx *c, const gr_qmon *k, const gr_qatoms *at, const int32_t *img, qtypes *ty) {
    size_t n = (size_t)k->n;
    memset(ty, 0, sizeof *ty);
    ty->of_atom = gr_alloc(c, (size_t)(at->n + 1) * sizeof *ty->of_atom);
    ty->img = gr_alloc(c, (size_t)(at->n + 1) * sizeof *ty->img);
    int32_t **sets = gr_alloc(c, (size_t)(at->n + 1) * sizeof *sets), *setn = gr_alloc(c, (size_t)(at->n + 1) * sizeof *setn);
    for (int64_t a = 0; a < at->n; a++) {
        ty->of_atom[a] = -1;
        if (at->opt_off[a] == at->opt_off[a + 1]) continue;
        int32_t cap = 0;
        for (int64_t o = at->opt_off[a]; o < at->opt_off[a + 1]; o += at->words[o] + 1) cap++;
        int32_t *t = gr_alloc(c, (size_t)cap * sizeof *t), m = 0;
        for (int64_t o = at->opt_off[a]; o < at->opt_off[a + 1]; o += at->words[o] + 1) {
            int32_t x = 0;
            for (int32_t i = 0; i < at->words[o]; i++) x = gr_qmon_mul(k, x, img[at->words[o + 1 + i]]);
            t[m++] = x;
        }
        qsort(t, (size_t)m, sizeof *t, cmp_i32);
        int32_t u = 0;
        for (int32_t i = 0; i < m; i++) if (!u || t[u - 1] != t[i]) t[u++] = t[i];
        int32_t found = -1;
        for (int32_t j = 0; j < ty->T && found < 0; j++)
            if (ty->img[j] == img[a] && setn[j] == u && !memcmp(sets[j], t, (size_t)u * sizeof *t)) found = j;
        if (found < 0) {
            found = ty->T++;
            ty->img[found] = img[a];
            sets[found] = t; setn[found] = u;
        } else gr_free(c, t);
        ty->of_atom[a] = found;
    }
    ty->acc = gr_alloc(c, gr_size_mul(c, (size_t)(ty->T ? ty->T : 1), n) + 4);   /* (+4: step_bits) */
    ty->erow = gr_alloc(c, gr_size_mul(c, (size_t)(ty->T ? ty->T : 1), n * sizeof *ty->erow));
    for (int32_t j = 0; j < ty->T; j++)
        for (size_t z = 0; z < n; z++) ty->erow[(size_t)j * n + z] = gr_qmon_mul(k, (int32_t)z, ty->img[j]);
    for (int32_t j = 0; j < ty->T; j++) {
        gr_poll_clock(c);
        for (size_t y = 0; y < n; y++) {
            int hit = 0;
            for (int32_t i = 0; i < setn[j] && !hit; i++) hit = k->P[gr_qmon_mul(k, (int32_t)y, sets[j][i])];
            ty->acc[(size_t)j * n + y] = (uint8_t)hit;
        }
        gr_free(c, sets[j]);
    }
    gr_free(c, sets); gr_free(c, setn);
}

/* Rows of products x z (every z) for a candidate without a table: computed from the row of
 * x's parent in its normal form (x = par[x] g: x z = (par[x] z) g), kept in a direct-mapped
 * cache of rows, the ancestors not in it made on the way down from the nearest one that is
 * (a loop, not a recursion: a normal form can be long). */
typedef struct qrows {
    const gr_qmon *k;
    int32_t slots;
    int32_t *key;                 /* [slots]: the element whose row a slot holds, -1: none */
    int32_t *rows;                /* [slots * n] */
    int32_t *chain;               /* [n]: ancestors to make */
    int32_t *scratch;             /* [n] */
} qrows;
enum { QROWS_BYTES = 256 << 20 };

static void qrows_init(gr_ctx *c, qrows *r, const gr_qmon *k) {
    memset(r, 0, sizeof *r);
    r->k = k;
    if (k->mul) return;
    size_t n = (size_t)k->n;
    size_t slots = QROWS_BYTES / (n * sizeof *r->rows);
    if (slots < 16) slots = 16;
    if (slots > 4096) slots = 4096;
    r->slots = (int32_t)slots;
    r->key = gr_alloc(c, slots * sizeof *r->key);
    for (size_t i = 0; i < slots; i++) r->key[i] = -1;
    r->rows = gr_alloc(c, gr_size_mul(c, slots, n * sizeof *r->rows));
    r->chain = gr_alloc(c, n * sizeof *r->chain);
    r->scratch = gr_alloc(c, n * sizeof *r->scratch);
}

static void qrows_free(gr_ctx *c, qrows *r) {
    gr_free(c, r->key); gr_free(c, r->rows); gr_free(c, r->chain); gr_free(c, r->scratch);
}

static const int32_t *qrow(qrows *r, int32_t x) {
    const gr_qmon *k = r->k;
    size_t n = (size_t)k->n, ng = (size_t)k->ng;
    if (k->mul) return k->mul + (size_t)x * n;
    int32_t len = 0, y = x;
    while (y && r->key[y % r->slots] != y) { r->chain[len++] = y; y = k->par[y]; }
    const int32_t *from = y ? r->rows + (size_t)(y % r->slots) * n : NULL;   /* NULL: the identity's */
    while (len-- > 0) {
        int32_t z = r->chain[len];
        size_t g = (size_t)k->pgen[z];
        for (size_t i = 0; i < n; i++) r->scratch[i] = k->gnext[(size_t)(from ? from[i] : (int32_t)i) * ng + g];
        int32_t *slot = r->rows + (size_t)(z % r->slots) * n;
        memcpy(slot, r->scratch, n * sizeof *slot);
        r->key[z % r->slots] = z;
        from = slot;
    }
    if (!x) {   /* the identity's row: z itself */
        for (size_t i = 0; i < n; i++) r->scratch[i] = (int32_t)i;
        return r->scratch;
    }
    return from;
}

/* The states: (phi, has a move, F bits), interned in a hash table, each with its transitions
 * by type (computed when first needed) and whether the walk has reached it. */
typedef struct qstates {
    int width, T;
    int32_t *vec; int64_t n, cap;
    int32_t *trans;               /* [cap * T], -1: not yet */
    int64_t *seen;                /* the least weight a sum reached it with (INT64_MAX: not yet) */
    int64_t *ht; int64_t hcap;
    int64_t since_clock;          /* element steps since the clock was last read */
} qstates;

static uint64_t hash_vec(const int32_t *v, int w) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < w; i++) { h ^= (uint32_t)v[i]; h *= 1099511628211ull; h ^= h >> 29; }
    return h;
}

static int64_t intern(gr_ctx *c, qstates *s, const int32_t *v) {
    if ((s->n + 1) * 2 > s->hcap) {
        int64_t nc = s->hcap ? s->hcap * 2 : 1024;
        int64_t *nt = gr_alloc(c, (size_t)nc * sizeof *nt);
        for (int64_t i = 0; i < nc; i++) nt[i] = -1;
        for (int64_t i = 0; i < s->n; i++) {
            uint64_t h = hash_vec(s->vec + i * s->width, s->width) & (uint64_t)(nc - 1);
            while (nt[h] >= 0) h = (h + 1) & (uint64_t)(nc - 1);
            nt[h] = i;
        }
        gr_free(c, s->ht);
        s->ht = nt; s->hcap = nc;
    }
    uint64_t h = hash_vec(v, s->width) & (uint64_t)(s->hcap - 1);
    while (s->ht[h] >= 0) {
        if (!memcmp(s->vec + s->ht[h] * s->width, v, (size_t)s->width * sizeof *v)) return s->ht[h];
        h = (h + 1) & (uint64_t)(s->hcap - 1);
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 256;
        s->vec = gr_realloc(c, s->vec, gr_size_mul(c, (size_t)s->cap, (size_t)s->width * sizeof *s->vec));
        s->trans = gr_realloc(c, s->trans, gr_size_mul(c, (size_t)s->cap, (size_t)(s->T ? s->T : 1) * sizeof *s->trans));
        s->seen = gr_realloc(c, s->seen, (size_t)s->cap * sizeof *s->seen);
    }
    memcpy(s->vec + s->n * s->width, v, (size_t)s->width * sizeof *v);
    for (int t = 0; t < s->T; t++) s->trans[s->n * s->T + t] = -1;
    s->seen[s->n] = INT64_MAX;
    s->ht[h] = s->n;
    return s->n++;
}

/* The new state's F bits, G(z) = F(e z) or A(x z) for z in [0, n), given the rows e z and
 * x z: 32 at a time into a word, no branch (a hit is a coin toss: branches mispredict). With
 * AVX-512, 16 lanes and two gathers (F's words, A's bytes, read as dwords: A has 3 bytes of
 * room past its end) per half word; the same bits either way (tests/unit_quotient.c runs the
 * check on both: GRUNDY_SIMD=scalar or gr_simd_force). This loop is the check's cost: n per new transition. */
static void step_bits_scalar(const int32_t *erow, const int32_t *xrow, const uint32_t *F, const uint8_t *A, uint32_t *G, size_t n) {
    for (size_t z0 = 0; z0 < n; z0 += 32) {
        size_t e = z0 + 32 < n ? z0 + 32 : n;
        uint32_t w = 0;
        for (size_t z = z0; z < e; z++) {
            int32_t ez = erow[z];
            uint32_t b = (F[ez >> 5] >> (ez & 31)) | A[xrow[z]];
            w |= (b & 1u) << (z - z0);
        }
        G[z0 >> 5] = w;
    }
}
#ifdef QCHECK_AVX512
__attribute__((target("avx512f")))
static void step_bits_avx512(const int32_t *erow, const int32_t *xrow, const uint32_t *F, const uint8_t *A, uint32_t *G, size_t n) {
    const __m512i m31 = _mm512_set1_epi32(31), one = _mm512_set1_epi32(1), mff = _mm512_set1_epi32(0xff);
    size_t z = 0;
    for (; z + 32 <= n; z += 32) {
        uint32_t w = 0;
        for (int h = 0; h < 2; h++) {
            __m512i ez = _mm512_loadu_si512((const void *)(erow + z + 16 * h));
            __m512i fw = _mm512_i32gather_epi32(_mm512_srli_epi32(ez, 5), (const void *)F, 4);
            __mmask16 mf = _mm512_test_epi32_mask(_mm512_srlv_epi32(fw, _mm512_and_si512(ez, m31)), one);
            __m512i xz = _mm512_loadu_si512((const void *)(xrow + z + 16 * h));
            __m512i av = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), (__mmask16)~mf, xz, (const void *)A, 1);
            __mmask16 ma = _mm512_test_epi32_mask(av, mff);
            w |= (uint32_t)(uint16_t)(mf | ma) << (16 * h);
        }
        G[z >> 5] = w;
    }
    if (z < n) step_bits_scalar(erow + z, xrow + z, F, A, G + (z >> 5), n - z);
}
#endif
/* (core/simd.h: the path GRUNDY_SIMD or the processor chose; AVX-512 there implies F) */
static void step_bits(const int32_t *erow, const int32_t *xrow, const uint32_t *F, const uint8_t *A, uint32_t *G, size_t n) {
#ifdef QCHECK_AVX512
    if (gr_simd_level() >= GR_SIMD_AVX512) { step_bits_avx512(erow, xrow, F, A, G, n); return; }
#endif
    step_bits_scalar(erow, xrow, F, A, G, n);
}

/* --threads: the F bits of a new state in two halves, the second by a partner thread that
 * waits for it spinning (a step takes microseconds: a sleeping thread would take longer to
 * wake). Only for candidates of QCHECK_SPLIT elements or more, where the steps are the check's
 * cost. The bits are the same as from one thread. */
enum { QCHECK_SPLIT = 8192 };
static int qcheck_split = QCHECK_SPLIT;   /* gr_qcheck_force (tests) */

void gr_qcheck_split_from(int elements) {
    __atomic_store_n(&qcheck_split, elements > 0 ? elements : QCHECK_SPLIT, __ATOMIC_RELAXED);
}
typedef struct qhalf {
    pthread_t th;
    const int32_t *erow, *xrow; const uint32_t *F; const uint8_t *A; uint32_t *G; size_t n;
    unsigned seq, done;   /* posted and finished jobs (atomics) */
    int quit;
} qhalf;

static void *qhalf_main(void *arg) {
    qhalf *h = arg;
    unsigned seen = 0;
    for (long spins = 0;;) {
        unsigned s = __atomic_load_n(&h->seq, __ATOMIC_ACQUIRE);
        if (s == seen) {
            if (__atomic_load_n(&h->quit, __ATOMIC_ACQUIRE)) return NULL;
            if (++spins > 100000) sched_yield();   /* a long walk between steps: let others run */
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
            continue;
        }
        spins = 0;
        seen = s;
        step_bits(h->erow, h->xrow, h->F, h->A, h->G, h->n);
        __atomic_store_n(&h->done, s, __ATOMIC_RELEASE);
    }
}

__attribute__((noinline)) static qhalf *qhalf_start(const gr_ctx *c, int32_t n) {
    if (c->threads < 2 || n < __atomic_load_n(&qcheck_split, __ATOMIC_RELAXED)) return NULL;
    qhalf *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    if (pthread_create(&h->th, NULL, qhalf_main, h)) { free(h); return NULL; }
    return h;
}

static void qhalf_stop(qhalf *h) {
    if (!h) return;
    __atomic_store_n(&h->quit, 1, __ATOMIC_RELEASE);
    pthread_join(h->th, NULL);
    free(h);
}

static void step_bits_split(qhalf *h, const int32_t *erow, const int32_t *xrow, const uint32_t *F, const uint8_t *A, uint32_t *G, size_t n) {
    if (!h) { step_bits(erow, xrow, F, A, G, n); return; }
    size_t mid = (n / 2) & ~(size_t)31;   /* (below QCHECK_SPLIT only in tests: mid may be 0) */
    h->erow = erow + mid; h->xrow = xrow + mid; h->F = F; h->A = A; h->G = G + mid / 32; h->n = n - mid;
    unsigned s = h->seq + 1;
    __atomic_store_n(&h->seq, s, __ATOMIC_RELEASE);
    step_bits(erow, xrow, F, A, G, mid);
    while (__atomic_load_n(&h->done, __ATOMIC_ACQUIRE) != s) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}

static int64_t step(gr_ctx *c, qstates *s, const gr_qmon *k, const qtypes *ty, qrows *rows, qhalf *half, int64_t from, int32_t t, int32_t *nv) {
    int64_t to = s->trans[from * s->T + t];
    if (to >= 0) return to;
    size_t n = (size_t)k->n;
    const int32_t *v = s->vec + from * s->width;
    const uint32_t *F = (const uint32_t *)(v + 2);
    nv[0] = ty->erow[(size_t)t * n + (size_t)v[0]];
    nv[1] = 1;
    uint32_t *G = (uint32_t *)(nv + 2);
    const uint8_t *A = ty->acc + (size_t)t * n;
    const int32_t *xrow = qrow(rows, v[0]), *erow = ty->erow + (size_t)t * n;
    step_bits_split(half, erow, xrow, F, A, G, n);
    /* the limits read the clock by work done, not by the walk's cheap polls: a step of a large
     * candidate costs microseconds, and the adaptive poll, tuned on small ones, came far too
     * seldom (--max-time 1 on 0.6's quotient ran 20 s) */
    if ((s->since_clock += (int64_t)n) > ((int64_t)1 << 24)) { s->since_clock = 0; gr_poll_clock(c); }
    to = intern(c, s, nv);
    s->trans[from * s->T + t] = (int32_t)to;
    return to;
}

int gr_qcheck(gr_ctx *c, const gr_qmon *k, const gr_qatoms *at, const int32_t *img,
              int32_t *fail_exps, int64_t *states, int64_t max_states) {
    qtypes ty;
    make_types(c, k, at, img, &ty);
    qrows rows;
    qrows_init(c, &rows, k);
    /* the partner thread is joined whatever happens: a limit (memory, time) raised in the
     * walk comes here first */
    qhalf *half = qhalf_start(c, k->n);
    gr_guard guard;
    gr_guard_enter(c, &guard);
    if (setjmp(guard.jb)) {
        qhalf_stop(half);
        gr_guard_rethrow(c, &guard);
    }
    qstates s;
    memset(&s, 0, sizeof s);
    s.T = ty.T;
    s.width = 2 + (k->n + 31) / 32;
    int32_t *v = gr_alloc(c, (size_t)s.width * sizeof *v);
    int64_t s0 = intern(c, &s, v);
    s.seen[s0] = 0;
    int64_t N = at->n;
    int64_t levels = N > 0 ? N : 1;
    int bounded = at->bound > 0 && at->weight;
    int32_t *exps = gr_alloc(c, (size_t)levels * sizeof *exps);
    int64_t *st = gr_alloc(c, (size_t)levels * sizeof *st);
    int64_t *wt = gr_alloc(c, (size_t)levels * sizeof *wt);   /* the weight of st[l]'s sum */
    for (int64_t l = 0; l < levels; l++) st[l] = s0;
    int result = 1;
    int64_t depth = -1;
    while (depth < N) {
        if (depth == -1) {
            const int32_t *sv = s.vec + st[0] * s.width;
            int implied = sv[1] && !(((const uint32_t *)(sv + 2))[0] & 1u);
            if (implied != k->P[sv[0]]) {
                result = 0;
                if (fail_exps) for (int64_t a = 0; a < N; a++) fail_exps[a] = exps[a] > 0 ? exps[a] : 0;
                break;
            }
            depth = 0;
            gr_poll(c);
            continue;
        }
        exps[depth]++;
        if (exps[depth] > 0) {
            int32_t t = ty.of_atom[depth];
            if (t < 0) { exps[depth] = -1; depth++; continue; }
            int64_t nw = bounded ? wt[depth] + at->weight[depth] : 0;
            if (bounded && nw > at->bound) { exps[depth] = -1; depth++; continue; }
            int64_t to = step(c, &s, k, &ty, &rows, half, st[depth], t, v);
            if (s.seen[to] <= nw) { exps[depth] = -1; depth++; continue; }
            s.seen[to] = nw;
            st[depth] = to;
            wt[depth] = nw;
            if (s.n > max_states) { result = -1; break; }
        }
        depth--;
        if (depth >= 0) { st[depth] = st[depth + 1]; wt[depth] = wt[depth + 1]; }
    }
    gr_guard_leave(c, &guard);
    qhalf_stop(half);
    if (states) *states += s.n;
    gr_free(c, exps); gr_free(c, st); gr_free(c, wt); gr_free(c, v);
    gr_free(c, s.vec); gr_free(c, s.trans); gr_free(c, s.seen); gr_free(c, s.ht);
    gr_free(c, ty.img); gr_free(c, ty.acc); gr_free(c, ty.of_atom); gr_free(c, ty.erow);
    qrows_free(c, &rows);
    return result;
}
