/* subthreads: an infinite subtraction set's look-ups across threads; see subthreads.h. */
#include "eval/heap/subthreads.h"
#include "pool.h"
#include <stdatomic.h>
#include <string.h>

enum { MAX_BLOCK = 1024 };
#define MAX_P (UINT64_C(1) << 16)         /* larger values: the serial kernel */
#define BLOCK_WORK (INT64_C(1) << 22)     /* look-ups per block: a few ms */

struct gr_subthreads {
    gr_pool *pool;
    uint64_t *marks;
    size_t cap;                /* words allocated */
    size_t words;              /* per heap */
    int64_t n0, B;
    /* the job */
    const int64_t *sub;
    size_t nsub;
    const void *t;
    int width;
    atomic_llong next;
};

gr_subthreads *gr_subthreads_new(gr_ctx *c) {
    if (c->threads <= 1) return NULL;
    gr_pool *pool = gr_pool_new(c->threads);
    if (!pool) return NULL;
    gr_subthreads *s = gr_alloc(c, sizeof *s);
    s->pool = pool;
    return s;
}

void gr_subthreads_free(gr_ctx *c, gr_subthreads *s) {
    if (!s) return;
    gr_pool_free(s->pool);
    gr_free(c, s->marks);
    gr_free(c, s);
}

size_t gr_subthreads_words(const gr_subthreads *s) { return s->words; }
const uint64_t *gr_subthreads_marks(const gr_subthreads *s, int64_t n) { return s->marks + (size_t)(n - s->n0) * s->words; }

/* The first index of a sorted set whose element exceeds x. */
static size_t first_above(const int64_t *a, size_t n, int64_t x) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] <= x) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* Members take heaps one at a time from a shared counter and mark t[n - s] for the elements s
 * with n0 + ... : n - s < n0, that is n - n0 < s <= n. */
#define SCAN(NAME, T)                                                                             \
    static void NAME(gr_subthreads *S) {                                                              \
        const T *restrict t = S->t;                                                               \
        for (int64_t j; (j = atomic_fetch_add(&S->next, 1)) < S->B;) {                           \
            int64_t n = S->n0 + j;                                                                \
            uint64_t *restrict m = S->marks + (size_t)j * S->words;                               \
            memset(m, 0, S->words * sizeof *m);                                                   \
            size_t k = first_above(S->sub, S->nsub, j);                                           \
            for (; k < S->nsub && S->sub[k] <= n; k++) {                                          \
                uint64_t v = t[n - S->sub[k]];                                                    \
                m[v >> 6] |= UINT64_C(1) << (v & 63);                                             \
            }                                                                                     \
        }                                                                                         \
    }
SCAN(scan_u8, uint8_t)
SCAN(scan_u16, uint16_t)
SCAN(scan_u32, uint32_t)

static void scan_job(void *arg, int member, int members) {
    (void)member; (void)members;
    gr_subthreads *S = arg;
    switch (S->width) {
    case 1: scan_u8(S); break;
    case 2: scan_u16(S); break;
    default: scan_u32(S); break;
    }
}

int gr_subthreads_scan(gr_ctx *c, gr_subthreads *s, const gr_game *g, const gr_sgtable *tab, int64_t to, int64_t *end) {
    int64_t n0 = tab->n;
    if (n0 < GR_SUBPAR_FROM || n0 > to || tab->width > 4 || !g->nsub) return 0;
    uint64_t P = 64;
    while (P <= (uint64_t)tab->max) P <<= 1;
    if (P > MAX_P) return 0;
    size_t count = first_above(g->sub, g->nsub, n0);          /* elements a heap n0 looks up */
    if (count < GR_SUBPAR_ELEMENTS) return 0;
    int members = gr_pool_size(s->pool);
    int64_t B = BLOCK_WORK / (int64_t)count;
    if (B < 2 * members) B = 2 * members;
    if (B > MAX_BLOCK) B = MAX_BLOCK;
    if (B > n0 / 4) B = n0 / 4;
    if (B > to - n0 + 1) B = to - n0 + 1;
    /* no heap of the block may need the set extended: below its last element so far */
    if (!g->gen_done && g->sub_gen && g->sub[g->nsub - 1] - n0 < B) B = g->sub[g->nsub - 1] - n0;
    if (B < 2 * members) return 0;
    size_t words = (size_t)(P / 64);
    size_t need = gr_size_mul(c, (size_t)B, words);
    if (need > s->cap) {
        gr_free(c, s->marks);
        s->marks = NULL;
        s->marks = gr_alloc(c, gr_size_mul(c, need, sizeof *s->marks));
        s->cap = need;
    }
    s->words = words;
    s->n0 = n0;
    s->B = B;
    s->sub = g->sub;
    s->nsub = first_above(g->sub, g->nsub, n0 + B - 1);
    s->t = tab->data;
    s->width = tab->width;
    atomic_store(&s->next, 0);
    gr_pool_run(s->pool, scan_job, s);
    *end = n0 + B - 1;
    return 1;
}
