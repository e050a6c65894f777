/* qcheck: the walk over the states of sums of heaps that proves a candidate quotient or finds
 * the least sum it misclassifies; see qcheck.h for why it is a proof. */
#include "eval/heap/qcheck.h"
#include <stdlib.h>
#include <string.h>

/* Heap types: heaps with the same image and the same option images make the same transitions. */
typedef struct qtypes {
    int32_t T;
    int32_t *img;                 /* [T] */
    uint8_t *acc;                 /* [T * n]: acc[t][y] = some option image o of t has P(y o) */
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
            for (int32_t i = 0; i < at->words[o]; i++) x = k->mul[(size_t)x * n + (size_t)img[at->words[o + 1 + i]]];
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
    ty->acc = gr_alloc(c, gr_size_mul(c, (size_t)(ty->T ? ty->T : 1), n));
    for (int32_t j = 0; j < ty->T; j++) {
        for (size_t y = 0; y < n; y++) {
            int hit = 0;
            for (int32_t i = 0; i < setn[j] && !hit; i++) hit = k->P[k->mul[y * n + (size_t)sets[j][i]]];
            ty->acc[(size_t)j * n + y] = (uint8_t)hit;
        }
        gr_free(c, sets[j]);
    }
    gr_free(c, sets); gr_free(c, setn);
}

/* The states: (phi, has a move, F bits), interned in a hash table, each with its transitions
 * by type (computed when first needed) and whether the walk has reached it. */
typedef struct qstates {
    int width, T;
    int32_t *vec; int64_t n, cap;
    int32_t *trans;               /* [cap * T], -1: not yet */
    int64_t *seen;                /* the least weight a sum reached it with (INT64_MAX: not yet) */
    int64_t *ht; int64_t hcap;
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

static int64_t step(gr_ctx *c, qstates *s, const gr_qmon *k, const qtypes *ty, int64_t from, int32_t t, int32_t *nv) {
    int64_t to = s->trans[from * s->T + t];
    if (to >= 0) return to;
    size_t n = (size_t)k->n;
    const int32_t *v = s->vec + from * s->width;
    const uint32_t *F = (const uint32_t *)(v + 2);
    size_t e = (size_t)ty->img[t];
    nv[0] = k->mul[(size_t)v[0] * n + e];
    nv[1] = 1;
    uint32_t *G = (uint32_t *)(nv + 2);
    memset(G, 0, (size_t)(s->width - 2) * sizeof *G);
    const uint8_t *A = ty->acc + (size_t)t * n;
    const int32_t *xrow = k->mul + (size_t)v[0] * n, *erow = k->mul + e * n;
    for (size_t z = 0; z < n; z++) {
        int32_t ez = erow[z];
        if (((F[ez >> 5] >> (ez & 31)) & 1u) || A[xrow[z]]) G[z >> 5] |= 1u << (z & 31);
    }
    to = intern(c, s, nv);
    s->trans[from * s->T + t] = (int32_t)to;
    return to;
}

int gr_qcheck(gr_ctx *c, const gr_qmon *k, const gr_qatoms *at, const int32_t *img,
              int32_t *fail_exps, int64_t *states, int64_t max_states) {
    qtypes ty;
    make_types(c, k, at, img, &ty);
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
            int64_t to = step(c, &s, k, &ty, st[depth], t, v);
            if (s.seen[to] <= nw) { exps[depth] = -1; depth++; continue; }
            s.seen[to] = nw;
            st[depth] = to;
            wt[depth] = nw;
            if (s.n > max_states) { result = -1; break; }
        }
        depth--;
        if (depth >= 0) { st[depth] = st[depth + 1]; wt[depth] = wt[depth + 1]; }
    }
    if (states) *states += s.n;
    gr_free(c, exps); gr_free(c, st); gr_free(c, wt); gr_free(c, v);
    gr_free(c, s.vec); gr_free(c, s.trans); gr_free(c, s.seen); gr_free(c, s.ht);
    gr_free(c, ty.img); gr_free(c, ty.acc); gr_free(c, ty.of_atom);
    return result;
}
