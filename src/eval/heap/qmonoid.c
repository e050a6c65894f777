/* qmonoid: explicit monoids, direct sums with cyclic monoids, and the candidate a sum gives
 * (marking through least sums, then merging indistinguishable elements); see qmonoid.h. */
#include "eval/heap/qmonoid.h"
#include <stdlib.h>
#include <string.h>

void gr_qmon_free(gr_ctx *c, gr_qmon *k) {
    gr_free(c, k->mul);
    gr_free(c, k->P);
    memset(k, 0, sizeof *k);
}

void gr_qmon_cycle(gr_ctx *c, const gr_qmon *k, int32_t x, int32_t *index, int32_t *period) {
    /* powers of x until one repeats; at most n steps */
    int32_t y = 0, step = 0;
    int32_t *seen = gr_alloc(c, (size_t)k->n * sizeof *seen);
    for (int32_t i = 0; i < k->n; i++) seen[i] = -1;
    while (seen[y] < 0) {
        seen[y] = step++;
        y = k->mul[(size_t)y * (size_t)k->n + (size_t)x];
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
    int32_t cnt = 0;
    map[0] = cnt; old[cnt++] = 0;
    for (int32_t at_i = 0; at_i < cnt; at_i++)
        for (int32_t j = 0; j < ng; j++) {
            int32_t y = k->mul[(size_t)old[at_i] * n + (size_t)gens[j]];
            if (map[y] < 0) { map[y] = cnt; old[cnt++] = y; }
        }
    out->n = cnt;
    out->P = gr_alloc(c, (size_t)cnt);
    out->mul = gr_alloc(c, gr_size_mul(c, (size_t)cnt, (size_t)cnt * sizeof *out->mul));
    for (int32_t a = 0; a < cnt; a++) {
        out->P[a] = k->P[old[a]];
        for (int32_t b = 0; b < cnt; b++) out->mul[(size_t)a * (size_t)cnt + (size_t)b] = map[k->mul[(size_t)old[a] * n + (size_t)old[b]]];
    }
    for (int64_t a = 0; a < at->n; a++) img[a] = at->opt_off[a] == at->opt_off[a + 1] ? 0 : map[img[a]];
    gr_free(c, map); gr_free(c, old); gr_free(c, gens);
}

/* ---- direct sums ---- */
int64_t gr_qsum_gen(const gr_qsum *d, int j) {
    int64_t place = d->R->n;
    for (int i = 0; i < j; i++) place *= d->index[i] + d->period[i];
    return place;
}

int64_t gr_qsum_mul(const gr_qsum *d, int64_t a, int64_t b) {
    int64_t rn = d->R->n;
    int64_t out = d->R->mul[(size_t)(a % rn) * (size_t)rn + (size_t)(b % rn)], place = rn;
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

int gr_qsum_candidate(gr_ctx *c, const gr_qsum *d, const gr_qatoms *at, const int64_t *img,
                      int64_t max_sum, int32_t max_out, gr_qmon *out, int32_t *out_img,
                      int64_t *work, int64_t work_cap) {
    if (d->size > max_sum) return 0;
    size_t D = (size_t)d->size;
    int32_t L;
    letter *let = make_letters(c, d, at, img, &L);
    uint8_t *marked = gr_alloc(c, D), *P = gr_alloc(c, D);
    uint32_t *stamp = gr_alloc(c, D * sizeof *stamp);
    uint32_t cur = 0;
    int64_t *reach = gr_alloc(c, D * sizeof *reach), nreach = 0;
    /* the least-sum walk: levels are letters, the last letter outermost; each level holds the
     * element and the option images of the sum built so far */
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
            reach[nreach++] = x;
            depth = 0;
            gr_poll(c);
            continue;
        }
        exps[depth]++;
        if (exps[depth] > 0) {
            const letter *lt = &let[depth];
            int64_t nx = gr_qsum_mul(d, elem[depth], lt->e);
            if (marked[nx]) { exps[depth] = -1; depth++; continue; }
            /* T' = T e  +  x opts */
            int64_t need = (tsrc[depth] >= 0 ? tn[tsrc[depth]] : 0) + lt->nopts;
            if (need > tmpcap) { tmpcap = need * 2; tmp = gr_realloc(c, tmp, (size_t)tmpcap * sizeof *tmp); }
            int64_t m = 0;
            if (++cur == 0) { memset(stamp, 0, D * sizeof *stamp); cur = 1; }
            if (tsrc[depth] >= 0)
                for (int64_t i = 0; i < tn[tsrc[depth]]; i++) {
                    int64_t y = gr_qsum_mul(d, tset[tsrc[depth]][i], lt->e);
                    if (stamp[y] != cur) { stamp[y] = cur; tmp[m++] = y; }
                }
            for (int32_t i = 0; i < lt->nopts; i++) {
                int64_t y = gr_qsum_mul(d, elem[depth], lt->opts[i]);
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
    gr_free(c, tmp); gr_free(c, stamp);
    for (int32_t l = 0; l < levels; l++) gr_free(c, tset[l]);
    gr_free(c, tset); gr_free(c, tn); gr_free(c, tcap); gr_free(c, tsrc); gr_free(c, exps); gr_free(c, elem);
    if (spent) {
        gr_free(c, reach); gr_free(c, marked); gr_free(c, P);
        for (int32_t l = 0; l < L; l++) gr_free(c, let[l].opts);
        gr_free(c, let);
        return 0;
    }

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
    int32_t *next = gr_alloc(c, gr_size_mul(c, N, (size_t)(G ? G : 1) * sizeof *next));
    for (size_t i = 0; i < N; i++)
        for (int32_t g = 0; g < G; g++) {
            int32_t y = loc[gr_qsum_mul(d, reach[i], gen[g])];
            if (y < 0) gr_fail(c, GR_EXIT_LIMIT, "misere quotient: an element the marking did not reach (a bug)");
            next[i * (size_t)G + (size_t)g] = y;
        }
    int32_t *cls = gr_alloc(c, N * sizeof *cls), *ncls = gr_alloc(c, N * sizeof *ncls);
    int32_t ncl = 1;
    for (size_t i = 0; i < N; i++) { cls[i] = P[reach[i]]; if (cls[i] + 1 > ncl) ncl = cls[i] + 1; }
    int w = 1 + G;
    int32_t *sig = gr_alloc(c, gr_size_mul(c, N, (size_t)w * sizeof *sig));
    int64_t hcap = 16;
    while ((size_t)hcap < 2 * N) hcap *= 2;
    int64_t *ht = gr_alloc(c, (size_t)hcap * sizeof *ht);
    for (;;) {
        gr_poll(c);
        for (int64_t i = 0; i < hcap; i++) ht[i] = -1;
        int32_t nn = 0;
        for (size_t i = 0; i < N; i++) {
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
    int ok = ncl <= max_out;
    if (ok) {
        /* number the classes breadth-first from the identity's */
        int32_t *num = gr_alloc(c, (size_t)ncl * sizeof *num), *rep = gr_alloc(c, (size_t)ncl * sizeof *rep);
        for (int32_t i = 0; i < ncl; i++) num[i] = -1;
        int32_t cnt = 0;
        num[cls[loc[0]]] = cnt; rep[cnt++] = loc[0];
        for (int32_t a = 0; a < cnt; a++)
            for (int32_t g = 0; g < G; g++) {
                int32_t y = next[(size_t)rep[a] * (size_t)G + (size_t)g];
                if (num[cls[y]] < 0) { num[cls[y]] = cnt; rep[cnt++] = y; }
            }
        out->n = cnt;
        out->P = gr_alloc(c, (size_t)cnt);
        out->mul = gr_alloc(c, gr_size_mul(c, (size_t)cnt, (size_t)cnt * sizeof *out->mul));
        for (int32_t a = 0; a < cnt; a++) {
            out->P[a] = P[reach[rep[a]]];
            for (int32_t b = a; b < cnt; b++) {
                int32_t y = num[cls[loc[gr_qsum_mul(d, reach[rep[a]], reach[rep[b]])]]];
                out->mul[(size_t)a * (size_t)cnt + (size_t)b] = y;
                out->mul[(size_t)b * (size_t)cnt + (size_t)a] = y;
            }
        }
        for (int64_t a = 0; a < at->n; a++)
            out_img[a] = at->opt_off[a] == at->opt_off[a + 1] ? 0 : num[cls[loc[img[a]]]];
        gr_free(c, num); gr_free(c, rep);
    }
    gr_free(c, cls); gr_free(c, next); gr_free(c, gen); gr_free(c, loc);
    gr_free(c, reach); gr_free(c, marked); gr_free(c, P);
    for (int32_t l = 0; l < L; l++) gr_free(c, let[l].opts);
    gr_free(c, let);
    return ok;
}
