/* qmonoid: explicit monoids, direct sums with cyclic monoids, and the candidate a sum gives
 * (marking through least sums, then merging indistinguishable elements); see qmonoid.h. */
#include "eval/heap/qmonoid.h"
#include <stdlib.h>
#include <string.h>

void gr_qmon_free(gr_ctx *c, gr_qmon *k) {
    gr_free(c, k->mul);
    gr_free(c, k->P);
    gr_free(c, k->gnext);
    gr_free(c, k->par);
    gr_free(c, k->pgen);
    memset(k, 0, sizeof *k);
}

void gr_qmon_table(gr_ctx *c, gr_qmon *k) {
    if (k->mul) return;
    size_t n = (size_t)k->n, ng = (size_t)k->ng;
    int32_t *mul = gr_alloc(c, gr_size_mul(c, n, n * sizeof *mul));
    /* the normal forms' parents come first in the walk's numbering (par[x] < x) */
    for (size_t a = 0; a < n; a++) {
        int32_t *row = mul + a * n;
        row[0] = (int32_t)a;
        for (size_t x = 1; x < n; x++) row[x] = k->gnext[(size_t)row[k->par[x]] * ng + (size_t)k->pgen[x]];
        if ((a & 255) == 0) gr_poll_clock(c);
    }
    k->mul = mul;
}

void gr_qmon_cycle(gr_ctx *c, const gr_qmon *k, int32_t x, int32_t *index, int32_t *period) {
    /* powers of x until one repeats; at most n steps */
    int32_t y = 0, step = 0;
    int32_t *seen = gr_alloc(c, (size_t)k->n * sizeof *seen);
    for (int32_t i = 0; i < k->n; i++) seen[i] = -1;
    while (seen[y] < 0) {
        seen[y] = step++;
        y = gr_qmon_mul(k, y, x);
    }
    *index = seen[y];
    *period = step - seen[y];
    gr_free(c, seen);
}

void gr_qmon_regenerate(gr_ctx *c, const gr_qmon *k, const gr_qatoms *at, int32_t *img, gr_qmon *out) {
    size_t n = (size_t)k->n;
    int32_t *map = gr_alloc(c, n * sizeof *map), *old = gr_alloc(c, n * sizeof *old);
    int32_t *gens = gr_alloc(c, (size_t)(at->n + 1) * sizeof *gens);
    int32_t ng = 0;
    for (int64_t a = 0; a < at->n; a++) {
        if (at->opt_off[a] == at->opt_off[a + 1]) continue;
        int dup = 0;
        for (int32_t j = 0; j < ng && !dup; j++) dup = gens[j] == img[a];
        if (!dup) gens[ng++] = img[a];
    }
    for (size_t i = 0; i < n; i++) map[i] = -1;
    /* the breadth-first walk from 0 by the generators: the numbering, the normal forms and
     * the products by generators at once (the submonoid's generator form, no table) */
    int32_t *par = gr_alloc(c, n * sizeof *par), *pgen = gr_alloc(c, n * sizeof *pgen);
    int32_t *gnext = gr_alloc(c, gr_size_mul(c, n, (size_t)(ng ? ng : 1) * sizeof *gnext));
    int32_t cnt = 0;
    map[0] = cnt; old[cnt] = 0; par[cnt] = -1; pgen[cnt++] = 0;
    for (int32_t at_i = 0; at_i < cnt; at_i++) {
        if ((at_i & 4095) == 0) gr_poll_clock(c);
        for (int32_t j = 0; j < ng; j++) {
            int32_t y = gr_qmon_mul(k, old[at_i], gens[j]);
            if (map[y] < 0) { map[y] = cnt; old[cnt] = y; par[cnt] = at_i; pgen[cnt++] = j; }
            gnext[(size_t)at_i * (size_t)ng + (size_t)j] = map[y];
        }
    }
    out->n = cnt;
    out->mul = NULL;
    out->ng = ng;
    out->P = gr_alloc(c, (size_t)cnt);
    for (int32_t a = 0; a < cnt; a++) out->P[a] = k->P[old[a]];
    out->gnext = gr_realloc(c, gnext, gr_size_mul(c, (size_t)cnt, (size_t)(ng ? ng : 1) * sizeof *gnext));
    out->par = gr_realloc(c, par, (size_t)cnt * sizeof *par);
    out->pgen = gr_realloc(c, pgen, (size_t)cnt * sizeof *pgen);
    for (int64_t a = 0; a < at->n; a++) img[a] = at->opt_off[a] == at->opt_off[a + 1] ? 0 : map[img[a]];
    gr_free(c, map); gr_free(c, old); gr_free(c, gens);
}

/* ---- direct sums ---- */
int64_t gr_qsum_gen(const gr_qsum *d, int j) {
    int64_t place = d->R->n;
    for (int i = 0; i < j; i++) place *= d->index[i] + d->period[i];
    return place;
}

static int64_t gr_qsum_mul(const gr_qsum *d, int64_t a, int64_t b) {
    int64_t rn = d->R->n;
    int64_t out = gr_qmon_mul(d->R, (int32_t)(a % rn), (int32_t)(b % rn)), place = rn;
    a /= rn; b /= rn;
    for (int j = 0; j < d->m; j++) {
        int64_t len = d->index[j] + d->period[j];
        int64_t e = a % len + b % len;
        if (e >= len) e = d->index[j] + (e - d->index[j]) % d->period[j];
        out += e * place;
        place *= len;
        a /= len; b /= len;
    }
    return out;
}

/* Products in a direct sum without a division per component: an element is r + |R| c, c the
 * index of its cyclic part; x / |R| by a multiply and a shift (Lemire, Kaser and Kurz, "Faster
 * remainder by direct computation", 2019: exact for x below 2^32), and the cyclic parts' products
 * from a table when they are few. The marking walk does hundreds of millions of these. */
__extension__ typedef unsigned __int128 qs_u128;
typedef struct qsfast {
    const gr_qsum *d;
    uint64_t rn, M;          /* M = 2^64 / rn, rounded up (rn > 1) */
    int32_t C;               /* cyclic parts */
    int32_t *cyc;            /* [C * C], or NULL: by components */
} qsfast;
enum { QS_CYC_TABLE = 2048 };   /* cyclic parts up to this many get a product table */

static void qsfast_init(gr_ctx *c, qsfast *f, const gr_qsum *d) {
    f->d = d;
    f->rn = (uint64_t)d->R->n;
    f->M = UINT64_MAX / f->rn + 1;
    f->C = (int32_t)(d->size / d->R->n);
    f->cyc = NULL;
    if (f->C <= QS_CYC_TABLE) {
        f->cyc = gr_alloc(c, gr_size_mul(c, (size_t)f->C * (size_t)f->C, sizeof *f->cyc));
        for (int64_t a = 0; a < f->C; a++)
            for (int64_t b = 0; b < f->C; b++)
                f->cyc[a * f->C + b] = (int32_t)(gr_qsum_mul(d, a * d->R->n, b * d->R->n) / d->R->n);
    }
}

static inline int64_t qsfast_mul(const qsfast *f, int64_t x, int64_t y) {
    /* (rn = 1: 2^64 / 1 does not fit, and x is its own cyclic part) */
    uint64_t cx = f->rn == 1 ? (uint64_t)x : (uint64_t)(((qs_u128)f->M * (uint64_t)x) >> 64);
    uint64_t cy = f->rn == 1 ? (uint64_t)y : (uint64_t)(((qs_u128)f->M * (uint64_t)y) >> 64);
    int32_t rx = (int32_t)((uint64_t)x - cx * f->rn), ry = (int32_t)((uint64_t)y - cy * f->rn);
    int64_t r = gr_qmon_mul(f->d->R, rx, ry);
    if (f->cyc) return r + (int64_t)f->rn * f->cyc[(size_t)cx * (size_t)f->C + cy];
    return r + (int64_t)f->rn * (gr_qsum_mul(f->d, (int64_t)(cx * f->rn), (int64_t)(cy * f->rn)) / (int64_t)f->rn);
}

/* ---- the candidate ---- */
typedef struct letter {
    int64_t e;               /* the image */
    int64_t *opts; int32_t nopts;   /* the option images, distinct */
} letter;

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The letters: atoms with a move by (image, option images), in the order of their least atom. */
static letter *make_letters(gr_ctx *c, const gr_qsum *d, const gr_qatoms *at, const int64_t *img, int32_t *nl) {
    letter *L = gr_alloc(c, (size_t)(at->n + 1) * sizeof *L);
    int32_t n = 0;
    for (int64_t a = 0; a < at->n; a++) {
        if (at->opt_off[a] == at->opt_off[a + 1]) continue;
        int64_t cap = 0;
        for (int64_t o = at->opt_off[a]; o < at->opt_off[a + 1]; o += at->words[o] + 1) cap++;
        int64_t *t = gr_alloc(c, (size_t)cap * sizeof *t), m = 0;
        for (int64_t o = at->opt_off[a]; o < at->opt_off[a + 1]; o += at->words[o] + 1) {
            int64_t x = 0;
            for (int32_t i = 0; i < at->words[o]; i++) x = gr_qsum_mul(d, x, img[at->words[o + 1 + i]]);
            t[m++] = x;
        }
        qsort(t, (size_t)m, sizeof *t, cmp_i64);
        int64_t u = 0;
        for (int64_t i = 0; i < m; i++) if (!u || t[u - 1] != t[i]) t[u++] = t[i];
        int found = 0;
        for (int32_t l = 0; l < n && !found; l++)
            found = L[l].e == img[a] && L[l].nopts == u && !memcmp(L[l].opts, t, (size_t)u * sizeof *t);
        if (found) { gr_free(c, t); continue; }
        L[n].e = img[a]; L[n].opts = t; L[n].nopts = (int32_t)u;
        n++;
    }
    *nl = n;
    return L;
}

static uint64_t hash_i32(const int32_t *v, int w) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < w; i++) { h ^= (uint32_t)v[i]; h *= 1099511628211ull; h ^= h >> 29; }
    return h;
}

/* The marking: the least-sum walk over the products of the letters (levels are letters, the
 * last letter outermost; each level holds the element and the option images of the sum built so
 * far), each element reached marked, with whether it is P (no option image of its sum is), and
 * added to reach[*nreach..]; stamp: D words of scratch (the caller's, allocated before reach as
 * ever, so that a memory limit is met at the same allocation). Returns 1 if the work budget
 * ran out first. qf by value: a local the multiplications read from registers (the walk does
 * hundreds of millions of them). */
static int mark_sums(gr_ctx *c, qsfast qf, size_t D, const letter *let, int32_t L, uint8_t *marked,
                     uint8_t *P, uint32_t *stamp, int64_t *reach, int64_t *nreach, int64_t *work, int64_t work_cap) {
    uint32_t cur = 0;
    int64_t nr = *nreach;
    int32_t levels = L > 0 ? L : 1;
    int32_t *exps = gr_alloc(c, (size_t)levels * sizeof *exps);
    int64_t *elem = gr_alloc(c, (size_t)levels * sizeof *elem);
    int64_t **tset = gr_alloc(c, (size_t)levels * sizeof *tset), *tn = gr_alloc(c, (size_t)levels * sizeof *tn);
    int64_t *tcap = gr_alloc(c, (size_t)levels * sizeof *tcap);
    int32_t *tsrc = gr_alloc(c, (size_t)levels * sizeof *tsrc);   /* whose buffer each level reads */
    for (int32_t l = 0; l < levels; l++) tsrc[l] = -1;
    int64_t *tmp = NULL, tmpcap = 0;
    int depth = -1, spent = 0;
    while (depth < L && !spent) {
        if (depth == -1) {
            int64_t x = elem[0];
            int p = 0;
            if (tsrc[0] >= 0 && tn[tsrc[0]] > 0) {
                p = 1;
                for (int64_t i = 0; i < tn[tsrc[0]] && p; i++) {
                    int64_t t = tset[tsrc[0]][i];
                    if (!marked[t]) gr_fail(c, GR_EXIT_LIMIT, "misere quotient: an option marked after its sum (a bug)");
                    if (P[t]) p = 0;
                }
            }
            marked[x] = 1; P[x] = (uint8_t)p;
            reach[nr++] = x;
            depth = 0;
            gr_poll(c);
            continue;
        }
        exps[depth]++;
        if (exps[depth] > 0) {
            const letter *lt = &let[depth];
            int64_t nx = qsfast_mul(&qf, elem[depth], lt->e);
            if (marked[nx]) { exps[depth] = -1; depth++; continue; }
            /* T' = T e  +  x opts */
            int64_t need = (tsrc[depth] >= 0 ? tn[tsrc[depth]] : 0) + lt->nopts;
            if (need > tmpcap) { tmpcap = need * 2; tmp = gr_realloc(c, tmp, (size_t)tmpcap * sizeof *tmp); }
            int64_t m = 0;
            if (++cur == 0) { memset(stamp, 0, D * sizeof *stamp); cur = 1; }
            if (tsrc[depth] >= 0)
                for (int64_t i = 0; i < tn[tsrc[depth]]; i++) {
                    int64_t y = qsfast_mul(&qf, tset[tsrc[depth]][i], lt->e);
                    if (stamp[y] != cur) { stamp[y] = cur; tmp[m++] = y; }
                }
            for (int32_t i = 0; i < lt->nopts; i++) {
                int64_t y = qsfast_mul(&qf, elem[depth], lt->opts[i]);
                if (stamp[y] != cur) { stamp[y] = cur; tmp[m++] = y; }
            }
            if (m > tcap[depth]) { tcap[depth] = m * 2; tset[depth] = gr_realloc(c, tset[depth], (size_t)tcap[depth] * sizeof **tset); }
            memcpy(tset[depth], tmp, (size_t)m * sizeof *tmp);
            tn[depth] = m;
            *work += m + 1;
            if (work_cap && *work > work_cap) spent = 1;
            tsrc[depth] = depth;
            elem[depth] = nx;
        }
        depth--;
        if (depth >= 0) { elem[depth] = elem[depth + 1]; tsrc[depth] = tsrc[depth + 1]; }
    }
    gr_free(c, tmp); gr_free(c, stamp);   /* (the caller's) */
    for (int32_t l = 0; l < levels; l++) gr_free(c, tset[l]);
    gr_free(c, tset); gr_free(c, tn); gr_free(c, tcap); gr_free(c, tsrc); gr_free(c, exps); gr_free(c, elem);
    *nreach = nr;
    return spent;
}

/* The merge: Moore refinement of the N reached elements (reach, their places loc) by P and by
 * their products with the G distinct images gen (next[i G + g]); returns the number of classes,
 * and next and each element's class (cls), both made here. */
static int32_t moore_classes(gr_ctx *c, const qsfast *qf, const int64_t *reach, size_t N, const int32_t *loc,
                             const int64_t *gen, int32_t G, const uint8_t *P, int32_t **next_out, int32_t **cls_out) {
    int32_t *next = *next_out = gr_alloc(c, gr_size_mul(c, N, (size_t)(G ? G : 1) * sizeof *next));
    for (size_t i = 0; i < N; i++) {
        if ((i & 65535) == 0) gr_poll_clock(c);
        for (int32_t g = 0; g < G; g++) {
            int32_t y = loc[qsfast_mul(qf, reach[i], gen[g])];
            if (y < 0) gr_fail(c, GR_EXIT_LIMIT, "misere quotient: an element the marking did not reach (a bug)");
            next[i * (size_t)G + (size_t)g] = y;
        }
    }
    int32_t *cls = *cls_out = gr_alloc(c, N * sizeof *cls), *ncls = gr_alloc(c, N * sizeof *ncls);
    int32_t ncl = 1;
    for (size_t i = 0; i < N; i++) { cls[i] = P[reach[i]]; if (cls[i] + 1 > ncl) ncl = cls[i] + 1; }
    int w = 1 + G;
    int32_t *sig = gr_alloc(c, gr_size_mul(c, N, (size_t)w * sizeof *sig));
    int64_t hcap = 16;
    while ((size_t)hcap < 2 * N) hcap *= 2;
    int64_t *ht = gr_alloc(c, (size_t)hcap * sizeof *ht);
    for (;;) {
        gr_poll_clock(c);
        for (int64_t i = 0; i < hcap; i++) ht[i] = -1;
        int32_t nn = 0;
        for (size_t i = 0; i < N; i++) {
            if ((i & 65535) == 0) gr_poll_clock(c);
            int32_t *sv = sig + i * (size_t)w;
            sv[0] = cls[i];
            for (int32_t g = 0; g < G; g++) sv[1 + g] = cls[next[i * (size_t)G + (size_t)g]];
            uint64_t h = hash_i32(sv, w) & (uint64_t)(hcap - 1);
            while (ht[h] >= 0 && memcmp(sig + (size_t)ht[h] * (size_t)w, sv, (size_t)w * sizeof *sv)) h = (h + 1) & (uint64_t)(hcap - 1);
            if (ht[h] < 0) { ht[h] = (int64_t)i; ncls[i] = nn++; }
            else ncls[i] = ncls[ht[h]];
        }
        memcpy(cls, ncls, N * sizeof *cls);
        if (nn == ncl) break;
        ncl = nn;
    }
    gr_free(c, sig); gr_free(c, ht); gr_free(c, ncls);
    return ncl;
}

/* The ncl classes numbered breadth-first from the identity's: the result's generator form (its
 * table is made only for a candidate that is checked: gr_qmon_table), and each atom's image. */
static void number_classes(gr_ctx *c, const gr_qatoms *at, const int64_t *img, const int64_t *reach,
                           const int32_t *loc, const int32_t *next, int32_t G, const int32_t *cls, int32_t ncl,
                           const uint8_t *P, gr_qmon *out, int32_t *out_img) {
    int32_t *num = gr_alloc(c, (size_t)ncl * sizeof *num), *rep = gr_alloc(c, (size_t)ncl * sizeof *rep);
    int32_t *par = gr_alloc(c, (size_t)ncl * sizeof *par), *pgen = gr_alloc(c, (size_t)ncl * sizeof *pgen);
    int32_t *gnext = gr_alloc(c, gr_size_mul(c, (size_t)ncl, (size_t)(G ? G : 1) * sizeof *gnext));
    for (int32_t i = 0; i < ncl; i++) num[i] = -1;
    int32_t cnt = 0;
    num[cls[loc[0]]] = cnt; par[cnt] = -1; pgen[cnt] = 0; rep[cnt++] = loc[0];
    for (int32_t a = 0; a < cnt; a++)
        for (int32_t g = 0; g < G; g++) {
            int32_t y = next[(size_t)rep[a] * (size_t)G + (size_t)g];
            if (num[cls[y]] < 0) { num[cls[y]] = cnt; par[cnt] = a; pgen[cnt] = g; rep[cnt++] = y; }
            gnext[(size_t)a * (size_t)G + (size_t)g] = num[cls[y]];
        }
    out->n = cnt;
    out->mul = NULL;
    out->ng = G;
    out->gnext = gnext; out->par = par; out->pgen = pgen;
    out->P = gr_alloc(c, (size_t)cnt);
    for (int32_t a = 0; a < cnt; a++) out->P[a] = P[reach[rep[a]]];
    for (int64_t a = 0; a < at->n; a++)
        out_img[a] = at->opt_off[a] == at->opt_off[a + 1] ? 0 : num[cls[loc[img[a]]]];
    gr_free(c, num); gr_free(c, rep);
}

int gr_qsum_candidate(gr_ctx *c, const gr_qsum *d, const gr_qatoms *at, const int64_t *img,
                      int64_t max_sum, int32_t max_out, gr_qmon *out, int32_t *out_img,
                      int64_t *work, int64_t work_cap) {
    if (d->size > max_sum) return 0;
    size_t D = (size_t)d->size;
    if (d->size >= ((int64_t)1 << 32)) return 0;   /* (qsfast_mul's division is exact below 2^32) */
    qsfast qf;
    qsfast_init(c, &qf, d);
    int32_t L;
    letter *let = make_letters(c, d, at, img, &L);
    uint8_t *marked = gr_alloc(c, D), *P = gr_alloc(c, D);
    uint32_t *stamp = gr_alloc(c, D * sizeof *stamp);   /* freed by mark_sums */
    int64_t *reach = gr_alloc(c, D * sizeof *reach), nreach = 0;
    int ok = 0;
    if (!mark_sums(c, qf, D, let, L, marked, P, stamp, reach, &nreach, work, work_cap)) {
        /* merge: Moore refinement over the reached elements, letters the distinct images */
        int32_t *loc = gr_alloc(c, D * sizeof *loc);
        for (size_t i = 0; i < D; i++) loc[i] = -1;
        for (int64_t i = 0; i < nreach; i++) loc[reach[i]] = (int32_t)i;
        int64_t *gen = gr_alloc(c, (size_t)(L + 1) * sizeof *gen);
        int32_t G = 0;
        for (int32_t l = 0; l < L; l++) {
            int dup = 0;
            for (int32_t j = 0; j < G && !dup; j++) dup = gen[j] == let[l].e;
            if (!dup) gen[G++] = let[l].e;
        }
        size_t N = (size_t)nreach;
        int32_t *next, *cls;
        int32_t ncl = moore_classes(c, &qf, reach, N, loc, gen, G, P, &next, &cls);
        ok = ncl <= max_out;
        if (ok) number_classes(c, at, img, reach, loc, next, G, cls, ncl, P, out, out_img);
        gr_free(c, cls); gr_free(c, next); gr_free(c, gen); gr_free(c, loc);
    }
    gr_free(c, reach); gr_free(c, marked); gr_free(c, P);
    for (int32_t l = 0; l < L; l++) gr_free(c, let[l].opts);
    gr_free(c, let);
    gr_free(c, qf.cyc);
    return ok;
}
