/* qbound: certified lower bounds from a refuted candidate (qbound.h says why they hold). The
 * elements y^e r (y the newest heap's image, r in the submonoid R0 the older heaps generate,
 * e <= E) are told apart by the distinguishers y^f s (s in R0, f <= e_w - 1 - E): every such
 * product is the image of a sum with fewer than e_w copies of the newest heap. Each element's
 * row of P bits over the distinguishers is hashed; distinct hashes are distinct true classes
 * (a collision only lowers the count: the bound stays a bound). */
#include "eval/heap/qbound.h"
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 32);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The distinct hashes among h[0..m). */
static int64_t distinct(uint64_t *h, int64_t m) {
    qsort(h, (size_t)m, sizeof *h, cmp_u64);
    int64_t d = 0;
    for (int64_t i = 0; i < m; i++) if (!i || h[i] != h[i - 1]) d++;
    return d;
}

gr_qbound gr_qbound_of(gr_ctx *c, const gr_qmon *k, const int32_t *img, const uint8_t *has_move, int64_t n,
                       int32_t e_w, int64_t max_products) {
    gr_qbound b = { 1, 1 };
    if (e_w < 1) return b;
    size_t N = (size_t)k->n;
    /* R0 by a breadth-first walk under the older heaps' distinct images: each element its
     * parent and generator, so a row over R0 costs one product an element */
    int32_t *gens = gr_alloc(c, (size_t)(n + 1) * sizeof *gens), ng = 0;
    for (int64_t a = 0; a < n; a++) {
        if (!has_move[a]) continue;
        int dup = 0;
        for (int32_t j = 0; j < ng && !dup; j++) dup = gens[j] == img[a];
        if (!dup) gens[ng++] = img[a];
    }
    int32_t *r0 = gr_alloc(c, N * sizeof *r0), *par = gr_alloc(c, N * sizeof *par), *gen = gr_alloc(c, N * sizeof *gen);
    uint8_t *in = gr_alloc(c, N);
    memset(in, 0, N);
    int32_t m = 0;
    r0[m] = 0; par[m] = -1; gen[m] = -1; m++; in[0] = 1;
    for (int32_t i = 0; i < m; i++) {
        for (int32_t j = 0; j < ng; j++) {
            int32_t z = gr_qmon_mul(k, r0[i], gens[j]);
            if (in[z]) continue;
            in[z] = 1;
            r0[m] = z; par[m] = i; gen[m] = gens[j]; m++;
        }
    }
    int32_t *ypow = gr_alloc(c, (size_t)e_w * sizeof *ypow);
    ypow[0] = 0;
    for (int32_t e = 1; e < e_w; e++) ypow[e] = gr_qmon_mul(k, ypow[e - 1], img[n]);
    int32_t *row = gr_alloc(c, (size_t)m * sizeof *row);
    int64_t since_clock = 0;   /* products since the clock was read (the limits, by work) */
    /* the P row of element a over y^f R0, f = 0..F, hashed */
    #define ROW_HASH(a, F, h) do { \
        h = 1469598103934665603ull; \
        for (int32_t f = 0; f <= (F); f++) { \
            row[0] = gr_qmon_mul(k, (a), ypow[f]); \
            uint64_t word = 0; int bits = 0; \
            for (int32_t s = 0; s < m; s++) { \
                if (s) row[s] = gr_qmon_mul(k, row[par[s]], gen[s]); \
                word |= (uint64_t)k->P[row[s]] << bits; \
                if (++bits == 64) { h = mix(h, word); word = 0; bits = 0; } \
            } \
            h = mix(h, word); \
            if ((since_clock += m) > ((int64_t)1 << 22)) { since_clock = 0; gr_poll_clock(c); } \
        } \
    } while (0)
    /* the powers of y, told apart by y^f R0 with f + e < e_w (largest at e = 0: F = e_w - 1 - e
     * varies, so compare over the distinguishers all powers share, f = 0) */
    if ((int64_t)e_w * m <= max_products) {
        uint64_t *h = gr_alloc(c, (size_t)e_w * sizeof *h);
        for (int32_t e = 0; e < e_w; e++) ROW_HASH(ypow[e], 0, h[e]);
        b.powers = (int32_t)distinct(h, e_w);
        gr_free(c, h);
    }
    /* the order: elements y^e R0 for e <= E against y^f R0 for f <= e_w - 1 - E, the best E
     * of three (all powers against R0, half and half, R0 against all powers) within the work bound */
    uint8_t *seen = gr_alloc(c, N);
    int32_t *elems = gr_alloc(c, N * sizeof *elems);
    uint64_t *h = gr_alloc(c, N * sizeof *h);
    int32_t tries[3] = { e_w - 1, (e_w - 1) / 2, 0 };
    for (int t = 0; t < 3; t++) {
        int32_t E = tries[t], F = e_w - 1 - E;
        if (t && E == tries[t - 1]) continue;
        memset(seen, 0, N);
        int32_t na = 0;
        for (int32_t e = 0; e <= E; e++)
            for (int32_t s = 0; s < m; s++) {
                int32_t a = gr_qmon_mul(k, ypow[e], r0[s]);
                if (!seen[a]) { seen[a] = 1; elems[na++] = a; }
            }
        if ((int64_t)na * m * (F + 1) > max_products) continue;
        gr_poll_clock(c);
        for (int32_t i = 0; i < na; i++) ROW_HASH(elems[i], F, h[i]);
        int64_t d = distinct(h, na);
        if (d > b.order) b.order = d;
    }
    #undef ROW_HASH
    gr_free(c, seen); gr_free(c, elems); gr_free(c, h);
    gr_free(c, gens); gr_free(c, r0); gr_free(c, par); gr_free(c, gen); gr_free(c, in);
    gr_free(c, ypow); gr_free(c, row);
    return b;
}
