/* sparse: the rare-value kernel (see sparse.h): its state, the choice of its classes, the runs
 * that fill the table (one heap at a time, or by a team across threads, sparsespec.c), checkpoints
 * and --explain. One heap's value is sparseheap.c, the pair scans sparsescan.c. */
#include "eval/heap/sparseint.h"
#include "eval/heap/tablefile.h"
#include "pool.h"
#include "worker.h"
#include <setjmp.h>

enum { WARMUP = 1024 };
#define MAX_SPARSE_P (UINT64_C(1) << 20)   /* values beyond: the histogram is not worth it */

int gr_sparse_applies(const gr_game *g) {
    const gr_tbcode *t = &g->tb;
    if (g->kernel != KER_OCTAL || t->period || t->max_heaps > 2 || t->last_place < 0) return 0;
    if (t->d[0].mask & 3u) return 0;
    for (int k = 0; k <= t->last_place; k++)
        if ((t->d[k].mask & 4u) && t->d[k].constraint != TB_EQUAL) return 1;
    return 0;
}

int gr_sparse_kappa(const gr_game *g) {
    if (!gr_sparse_applies(g)) return -2;
    int kappa = -2;
    for (int k = 0; k <= g->tb.last_place; k++) {
        gr_tbdigit d = g->tb.d[k];
        if (!(d.mask & 4u) || d.constraint == TB_EQUAL) continue;
        kappa = kappa == -2 ? (k & 1) : kappa == (k & 1) ? kappa : -1;
    }
    return kappa;
}

static int64_t *push_place(gr_ctx *c, int64_t *a, int *n, int64_t k) {
    a = gr_realloc(c, a, (size_t)(*n + 1) * sizeof *a);
    a[(*n)++] = k;
    return a;
}

gr_sparse *gr_sparse_new(gr_ctx *c, const gr_game *g, int64_t warmup) {
    gr_sparse *s = gr_alloc(c, sizeof *s);
    s->warmup = warmup > 0 ? warmup : WARMUP;
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

int64_t gr_sparse_plain_until(const gr_sparse *s) { return s->plain_until; }
int64_t gr_sparse_window(const gr_sparse *s, int64_t *rare) {
    int64_t place = 0;
    for (int j = 0; j < s->nsplit; j++)
        if (s->split[j] > place) place = s->split[j];
    *rare = s->nr ? s->ra[s->nr - 1] : 0;
    return *rare + place + 1;
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

/* In a scan of the whole table: a table in a file gives back the pages read so far, now and
 * then, so a scan of 2^32 heaps does not make them all resident (tablefile.h). */
static inline void scanned(const gr_sgtable *tab, int64_t x) {
    if (tab->file && (x & ((INT64_C(1) << 20) - 1)) == 0) gr_sgt_trim_below(tab, x);
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
    for (int64_t x = 0; x < N; x++) {
        w[((uint64_t)gr_sgt_get(tab, x) << 1) | (uint64_t)(x & 1)]++;
        scanned(tab, x);
    }
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
        if (cls(s, v, x) != s->cc) gr_sparse_push_rare(c, s, x, v);
        scanned(tab, x);
    }
    s->chosen_rare = s->nr;
    scratch_for_choice(c, s);
}

/* One width. Returns 1 when the next value does not fit T (tab->n is that heap); 0 when done
 * to `to` or when a new choice is due (mode reset to undecided). */
#define SPARSE_RUN(NAME, T, TMAX, FIN, BATCH)                                                              \
    static int NAME(gr_ctx *c, gr_sparse *s, gr_sgtable *tab, int64_t to, gr_progress *pr) {        \
        T *restrict t = tab->data;                                                                    \
        s->filetab = tab->file ? tab : NULL;                                                          \
        for (int64_t n = tab->n; n <= to; n = tab->n) {                                               \
            if (s->one_timed && n >= s->one_until) {      /* a chunk of one thread ends */            \
                gr_pace_end(&s->pace, gr_now(), n);                                                   \
                s->one_timed = 0;                                                                     \
            }                                                                                         \
            if (n >= 2 * s->chosen_n || s->nr > 2 * s->chosen_rare + 1024) {                          \
                s->mode = MODE_UNDECIDED;                                                             \
                return 0;                                                                             \
            }                                                                                         \
            if ((c->threads > 1 || s->solo) && n >= PAR_FROM && n >= s->one_until) {                  \
                int64_t end = to;                                                                     \
                if (end > 2 * s->chosen_n - 1) end = 2 * s->chosen_n - 1;                             \
                /* a chunk that only measures a way is shorter (pace.h) */                             \
                int64_t len = !s->solo && gr_pace_measuring(&s->pace) ? CHUNK / GR_PACE_SHORT : CHUNK; \
                if (end > n + len - 1) end = n + len - 1;                                             \
                if (!s->solo && gr_pace_pick(&s->pace) == GR_PACE_ONE) {                              \
                    s->one_until = end + 1;                                                           \
                    s->one_timed = 1;                                                                 \
                    gr_pace_begin(&s->pace, GR_PACE_ONE, gr_now(), n);                                \
                    continue;                                                                         \
                }                                                                                     \
                gr_pace_begin(&s->pace, GR_PACE_TEAM, gr_now(), n);                                   \
                int again = gr_sparse_spec(c, s, tab, end, pr);                                       \
                if (tab->n > end) gr_pace_end(&s->pace, gr_now(), tab->n);                            \
                else gr_pace_cut(&s->pace, gr_now(), tab->n);   /* cut short: not the way's rate */   \
                if (again) { s->mode = MODE_UNDECIDED; return 0; }                                    \
                gr_poll(c);                                                                           \
                continue;                                                                             \
            }                                                                                         \
            if (!s->bvalid || n < s->bn0 || n >= s->bn0 + BATCH_HEAPS || s->bchosen != s->chosen_n) BATCH;      \
            uint64_t v = FIN(s, t, n, s->mark, s->need, NULL);                                       \
            if (v > (uint64_t)(TMAX)) { tab->n = n; return 1; }                                       \
            t[n] = (T)v;                                                                              \
            if (gr_sparse_commit(c, s, tab, n, v)) { s->mode = MODE_UNDECIDED; return 0; }                 \
            if ((n & PROGRESS_MASK) == 0) gr_progress_update(pr, (uint64_t)n);                        \
            gr_poll(c);                  /* limits and Ctrl-C */                                      \
        }                                                                                             \
        return 0;                                                                                     \
    }
SPARSE_RUN(sparse_run_u8, uint8_t, UINT8_MAX, gr_sparse_finish_u8, gr_sparse_batch_u8(s, t, n))
SPARSE_RUN(sparse_run_u16, uint16_t, UINT16_MAX, gr_sparse_finish_u16, gr_sparse_batch_u16(s, t, n))
SPARSE_RUN(sparse_run_u32, uint32_t, UINT32_MAX, gr_sparse_finish_u32, (void)(s->bvalid = 0))

static int fill_runs(gr_ctx *c, gr_sparse *s, gr_sgtable *tab, int64_t to, gr_progress *pr) {
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
        /* a chunk of one thread that ended with the call (at `to`) is timed; one cut short (a
         * widening, a new choice) is not: the time until the next call would count as its own */
        if (s->one_timed && tab->n >= s->one_until) gr_pace_end(&s->pace, gr_now(), tab->n);
        s->one_timed = 0;
        s->one_until = 0;
        if (r) return 1;
        if (s->mode == MODE_SPARSE) return 0;
    }
}

/* With --threads the team (s->pool, made at its first chunk) lives for the whole call, not a
 * chunk: a thread made for each chunk of 16 ms started on its maker's vCPU, and the machine
 * took a while to move it. Freed on every way out, a failure too (pool.h). */
int gr_sparse_fill(gr_ctx *c, const gr_game *g, gr_sparse *s, gr_sgtable *tab, int64_t to, gr_progress *pr) {
    (void)g;
    if (c->threads <= 1) return fill_runs(c, s, tab, to, pr);
    gr_guard guard;
    gr_guard_enter(c, &guard);
    if (setjmp(guard.jb)) {
        gr_pool_free(s->pool);
        s->pool = NULL;
        gr_guard_rethrow(c, &guard);
    }
    int r = fill_runs(c, s, tab, to, pr);
    gr_guard_leave(c, &guard);
    gr_pool_free(s->pool);
    s->pool = NULL;
    return r;
}

void gr_sparse_spec_counts(const gr_sparse *s, int64_t *speculated, int64_t *failed) {
    *speculated = s->speculated;
    *failed = s->spec_failed;
}
struct gr_pace *gr_sparse_pace_of(gr_sparse *s) { return &s->pace; }
void gr_sparse_piece(gr_sparse *s, int64_t pairs) { s->piece = pairs; }
void gr_sparse_paced(const gr_sparse *s, int64_t *one, int64_t *team) {
    *one = s->pace.taken[GR_PACE_ONE];
    *team = s->pace.taken[GR_PACE_TEAM];
}
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
        if (cls(s, v, x) != s->cc) gr_sparse_push_rare(c, s, x, v);
        scanned(tab, x);
    }
    scratch_for_choice(c, s);
    return s;
}
