/* canon: the keys of sets of a board's vertices, by nauty's canonical labelling or exactly
 * up to the board's symmetries; see canon.h. */
#include "eval/board/canon.h"
#include <string.h>
#ifdef GRUNDY_HAVE_NAUTY
#include <nauty/nauty.h>
#endif

#ifdef GRUNDY_HAVE_NAUTY
int gr_canon_have_graph(void) { return 1; }
#else
int gr_canon_have_graph(void) { return 0; }
#endif

void gr_canon_init(gr_ctx *c, gr_canon *k, gr_canon_mode mode, int maxn) {
    memset(k, 0, sizeof *k);
    k->mode = gr_canon_have_graph() ? mode : GR_CANON_EXACT;
    k->maxn = maxn < 1 ? 1 : maxn;
    size_t m = (size_t)(k->maxn + 63) / 64, n = (size_t)k->maxn;
    k->img = gr_alloc(c, m * sizeof *k->img);
    k->verts = gr_alloc(c, n * sizeof *k->verts);
    if (k->mode != GR_CANON_GRAPH) return;
    k->g = gr_alloc(c, gr_size_mul(c, n * m, sizeof *k->g));
    k->cg = gr_alloc(c, gr_size_mul(c, n * m, sizeof *k->cg));
    k->lab = gr_alloc(c, n * sizeof *k->lab);
    k->ptn = gr_alloc(c, n * sizeof *k->ptn);
    k->orbits = gr_alloc(c, n * sizeof *k->orbits);
}

void gr_canon_free(gr_ctx *c, gr_canon *k) {
    void *blocks[] = { k->g, k->cg, k->lab, k->ptn, k->orbits, k->verts, k->img };
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
        if (blocks[i]) gr_free(c, blocks[i]);
    memset(k, 0, sizeof *k);
}

void gr_canon_thread_done(void) {
#ifdef GRUNDY_HAVE_NAUTY
    nauty_freedyn();
    nautil_freedyn();
    naugraph_freedyn();
#endif
}

size_t gr_canon_cap(const gr_board *b) {
    size_t n = (size_t)b->n;
    return 4 + (size_t)b->words + (n * n / 2 + 63) / 64;
}

/* ---- exact sets, the least image under the board's symmetries ---- */
static int symmetries(const gr_board *b) {
    if (b->kind == BK_PATH) return 2;
    if (b->kind == BK_GRID) return b->p0 == b->p1 ? 8 : 4;
    return 1;
}

/* The image of v under symmetry s (0 the identity). */
static int image(const gr_board *b, int s, int v) {
    if (b->kind == BK_PATH) return s ? b->n - 1 - v : v;
    int64_t r = b->p0, cols = b->p1, i = v / cols, j = v % cols;
    if (s & 1) i = r - 1 - i;
    if (s & 2) j = cols - 1 - j;
    if (s & 4) { int64_t t = i; i = j; j = t; }   /* square boards only */
    return (int)(i * cols + j);
}

static size_t exact_key(gr_canon *k, const gr_board *b, const uint64_t *set, uint64_t *out) {
    int w = b->words;
    out[0] = (uint64_t)b->kind | (uint64_t)(b->p0 & 0xffffff) << 8 | (uint64_t)(b->p1 & 0xffffff) << 32;
    if (b->kind == BK_COMPLETE) {   /* every set of k vertices is K_k */
        uint64_t n = 0;
        for (int i = 0; i < w; i++) n += (uint64_t)__builtin_popcountll(set[i]);
        out[1] = n;
        return 2;
    }
    memcpy(out + 1, set, (size_t)w * sizeof *set);
    for (int s = 1; s < symmetries(b); s++) {
        memset(k->img, 0, (size_t)w * sizeof *k->img);
        for (int i = 0; i < w; i++)
            for (uint64_t x = set[i]; x; x &= x - 1) {
                int v = image(b, s, i * 64 + __builtin_ctzll(x));
                k->img[v >> 6] |= UINT64_C(1) << (v & 63);
            }
        for (int i = w - 1; i >= 0; i--) {
            if (k->img[i] == out[1 + i]) continue;
            if (k->img[i] < out[1 + i]) memcpy(out + 1, k->img, (size_t)w * sizeof *set);
            break;
        }
    }
    return 1 + (size_t)w;
}

#ifdef GRUNDY_HAVE_NAUTY
/* nauty numbers a set's elements from the top bit of each word down. */
#define NBIT(j) ((setword)1 << (WORDSIZE - 1 - ((j) & (WORDSIZE - 1))))

static size_t graph_key(gr_canon *k, const gr_board *b, const uint64_t *set, uint64_t *out) {
    int n = 0;
    for (int i = 0; i < b->words; i++)
        for (uint64_t x = set[i]; x; x &= x - 1) k->verts[n++] = i * 64 + __builtin_ctzll(x);
    out[0] = (uint64_t)n;
    if (n <= 2) {   /* no nauty needed: the empty graph, a vertex, an edge or two vertices */
        out[1] = n == 2 && (b->adj[(size_t)k->verts[0] * (size_t)b->words + (size_t)(k->verts[1] >> 6)] >> (k->verts[1] & 63) & 1);
        return 2;
    }
    int m = SETWORDSNEEDED(n);
    setword *g = (setword *)k->g;
    memset(g, 0, (size_t)n * (size_t)m * sizeof *g);
    for (int a = 0; a < n; a++) {
        const uint64_t *row = b->adj + (size_t)k->verts[a] * (size_t)b->words;
        setword *ga = g + (size_t)m * (size_t)a;
        for (int c2 = a + 1; c2 < n; c2++)
            if (row[k->verts[c2] >> 6] >> (k->verts[c2] & 63) & 1) {
                ga[c2 / WORDSIZE] |= NBIT(c2);
                setword *gc = g + (size_t)m * (size_t)c2;
                gc[a / WORDSIZE] |= NBIT(a);
            }
    }
    static DEFAULTOPTIONS_GRAPH(opts);
    optionblk o = opts;
    o.getcanon = TRUE;
    statsblk stats;
    densenauty(g, k->lab, k->ptn, k->orbits, &o, &stats, m, n, (setword *)k->cg);
    /* the upper triangle of the canonical adjacency, row after row */
    size_t len = 1, nbit = 0;
    uint64_t acc = 0;
    setword *cg = (setword *)k->cg;
    for (int a = 0; a < n; a++) {
        setword *row = cg + (size_t)m * (size_t)a;
        for (int c2 = a + 1; c2 < n; c2++) {
            if (row[c2 / WORDSIZE] & NBIT(c2)) acc |= UINT64_C(1) << nbit;
            if (++nbit == 64) { out[len++] = acc; acc = 0; nbit = 0; }
        }
    }
    if (nbit) out[len++] = acc;
    return len;
}
#endif

size_t gr_canon_key(gr_canon *k, const gr_board *b, const uint64_t *set, uint64_t *out) {
#ifdef GRUNDY_HAVE_NAUTY
    if (k->mode == GR_CANON_GRAPH) return graph_key(k, b, set, out);
#endif
    return exact_key(k, b, set, out);
}
