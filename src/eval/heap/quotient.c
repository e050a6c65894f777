/* quotient: the misere quotient of a heap rule set, heap by heap, each step checked, and the
 * proof of a periodic pretending function; see quotient.h for the method and the proof it rests
 * on. Its presentation and tameness are in qpresent.c. */
#include "eval/heap/quotient.h"
#include "eval/cache.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A candidate bipartite monoid: n elements, 0 the identity, a full product table. */
typedef struct cand {
    int32_t n;
    int32_t *mul;
    uint8_t *P;
} cand;

/* Heap types: heaps with the same image and the same set of option images behave alike in
 * the check (quotient.h), so the sigma tuples keep one entry per type. */
typedef struct types {
    int32_t T;
    int32_t *img;            /* [T] */
    int32_t *opt_off, *opts; /* option images of each type */
    int32_t *of_heap;        /* [nheaps]: the type of each heap, -1: no move (the zero game) */
} types;

/* The sigma automaton: each state a tuple (phi(X), phi(X - h_t) or -1 for each type t). */
typedef struct sigma {
    int32_t T, width;
    int32_t *vec; int64_t n, cap;
    int32_t *trans;          /* [n * T] */
    uint8_t *pi;             /* the outcome the options imply: 1 = P */
    int64_t *ht; int64_t hcap;
    int32_t *from, *by;      /* how each tuple was first reached (a witness sum) */
} sigma;

static void cand_free(gr_ctx *c, cand *k) { gr_free(c, k->mul); gr_free(c, k->P); memset(k, 0, sizeof *k); }
static void types_free(gr_ctx *c, types *t) {
    gr_free(c, t->img); gr_free(c, t->opt_off); gr_free(c, t->opts); gr_free(c, t->of_heap);
    memset(t, 0, sizeof *t);
}
static void sigma_free(gr_ctx *c, sigma *s) {
    gr_free(c, s->vec); gr_free(c, s->trans); gr_free(c, s->pi); gr_free(c, s->ht);
    gr_free(c, s->from); gr_free(c, s->by);
    memset(s, 0, sizeof *s);
}

/* ---- options of heaps, as words of heaps ---- */
typedef struct opt_collect { gr_ctx *c; gr_quotient *q; int64_t heap; int gi, bad; } opt_collect;

static void on_option(void *user, const int64_t *parts, int nparts) {
    opt_collect *oc = user;
    gr_quotient *q = oc->q;
    if (oc->bad) return;
    if (q->nwords + nparts + 1 > q->wcap) {
        q->wcap = (q->nwords + nparts + 1) * 2 + 64;
        q->words = gr_realloc(oc->c, q->words, (size_t)q->wcap * sizeof *q->words);
    }
    int32_t *w = q->words + q->nwords;
    int len = 0;
    for (int i = 0; i < nparts; i++) {
        int64_t h = parts[i];
        if (h < 0 || h >= oc->heap) { oc->bad = 1; return; }
        int64_t a = h * q->ngames + oc->gi;                  /* its atom */
        if (q->opt_off[a] == q->opt_off[a + 1]) continue;   /* a heap without a move is 0 */
        w[1 + len++] = (int32_t)a;
    }
    w[0] = len;
    q->nwords += len + 1;
}

static int cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Types of heaps 0..nh-1 under images img[] in candidate k (option images by k's product). */
static void make_types(gr_ctx *c, const gr_quotient *q, int64_t nh, const cand *k, const int32_t *img, types *t) {
    memset(t, 0, sizeof *t);
    t->img = gr_alloc(c, (size_t)(nh + 1) * sizeof *t->img);
    t->opt_off = gr_alloc(c, (size_t)(nh + 2) * sizeof *t->opt_off);
    t->of_heap = gr_alloc(c, (size_t)(nh + 1) * sizeof *t->of_heap);
    int64_t ocap = 64, on = 0;
    t->opts = gr_alloc(c, (size_t)ocap * sizeof *t->opts);
    int32_t *tmp = gr_alloc(c, (size_t)(q->opt_off[nh] - q->opt_off[0] + 1) * sizeof *tmp);
    for (int64_t h = 0; h < nh; h++) {
        t->of_heap[h] = -1;
        if (q->opt_off[h] == q->opt_off[h + 1]) continue;
        int64_t m = 0;
        for (int64_t o = q->opt_off[h]; o < q->opt_off[h + 1]; o += q->words[o] + 1) {
            int32_t x = 0;
            for (int i = 0; i < q->words[o]; i++) x = k->mul[(size_t)x * (size_t)k->n + (size_t)img[q->words[o + 1 + i]]];
            tmp[m++] = x;
        }
        qsort(tmp, (size_t)m, sizeof *tmp, cmp_i32);
        int64_t u = 0;
        for (int64_t i = 0; i < m; i++) if (!u || tmp[u - 1] != tmp[i]) tmp[u++] = tmp[i];
        int32_t found = -1;
        for (int32_t ty = 0; ty < t->T && found < 0; ty++)
            if (t->img[ty] == img[h] && t->opt_off[ty + 1] - t->opt_off[ty] == u &&
                !memcmp(t->opts + t->opt_off[ty], tmp, (size_t)u * sizeof *tmp)) found = ty;
        if (found < 0) {
            found = t->T++;
            t->img[found] = img[h];
            if (on + u > ocap) { ocap = (on + u) * 2; t->opts = gr_realloc(c, t->opts, (size_t)ocap * sizeof *t->opts); }
            memcpy(t->opts + on, tmp, (size_t)u * sizeof *tmp);
            on += u;
            t->opt_off[found + 1] = (int32_t)on;
        }
        t->of_heap[h] = found;
    }
    gr_free(c, tmp);
}

/* ---- the sigma search ---- */
static uint64_t hash_vec(const int32_t *v, int w) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < w; i++) { h ^= (uint32_t)v[i]; h *= 1099511628211ull; h ^= h >> 29; }
    return h;
}

static int64_t sigma_find_or_add(gr_ctx *c, sigma *s, const int32_t *v) {
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
        s->pi = gr_realloc(c, s->pi, (size_t)s->cap);
        s->from = gr_realloc(c, s->from, (size_t)s->cap * sizeof *s->from);
        s->by = gr_realloc(c, s->by, (size_t)s->cap * sizeof *s->by);
    }
    s->from[s->n] = -1; s->by[s->n] = -1;
    memcpy(s->vec + s->n * s->width, v, (size_t)s->width * sizeof *v);
    s->ht[h] = s->n;
    return s->n++;
}

/* Searches every reachable sigma tuple of candidate k; 1 if every tuple's element is in P
 * exactly when the options imply it (the candidate is correct). early: stop at the first
 * tuple that refutes it. */
/* The tuples, kept small: the check needs, of phi(X - h_u) for the heaps u of X, only whether
 * some option image t of u has phi(X - h_u) z t in P after further heaps z, and only whether
 * some u of X has it (an N-position needs one P-option; a P-position none). So a state is
 * (phi(X), X has a move, F_X) with F_X = { z in Q : some heap u of X has A_u(phi(X - h_u) z) },
 * A_u(y) = "some option image t of u has y t in P"; adding heap v of image e makes
 * F'(z) = F(e z) or A_v(phi(X) z). X's outcome implied by its options is "a move and
 * 1 not in F_X". */
static int sigma_search_lim(gr_ctx *c, const cand *k, const types *ty, int32_t tlim, int early, sigma *s, int64_t *count) {
    memset(s, 0, sizeof *s);
    int32_t T = tlim;
    size_t n = (size_t)k->n;
    int32_t words = (int32_t)((n + 31) / 32);
    s->T = T; s->width = 2 + words;
    uint8_t **acc = gr_alloc(c, (size_t)(T + 1) * sizeof *acc);
    for (int32_t u = 0; u < T; u++) {
        acc[u] = gr_alloc(c, n);
        for (size_t x = 0; x < n; x++) {
            int a = 0;
            for (int32_t o = ty->opt_off[u]; o < ty->opt_off[u + 1] && !a; o++) a = k->P[k->mul[x * n + (size_t)ty->opts[o]]];
            acc[u][x] = (uint8_t)a;
        }
    }
    int32_t *v = gr_alloc(c, (size_t)s->width * sizeof *v), *nv = gr_alloc(c, (size_t)s->width * sizeof *nv);
    sigma_find_or_add(c, s, v);   /* the empty sum: identity, no move, F empty */
    int ok = 1;
    for (int64_t at = 0; at < s->n; at++) {
        gr_poll(c);
        memcpy(v, s->vec + at * s->width, (size_t)s->width * sizeof *v);
        const uint32_t *F = (const uint32_t *)(v + 2);
        s->pi[at] = (uint8_t)(v[1] && !(F[0] & 1u));
        if (s->pi[at] != k->P[v[0]]) {
            ok = 0;
            if (early) break;
        }
        for (int32_t t = 0; t < T; t++) {
            size_t e = (size_t)ty->img[t];
            nv[0] = k->mul[(size_t)v[0] * n + e];
            nv[1] = v[1] | (ty->opt_off[t + 1] > ty->opt_off[t]);
            uint32_t *G = (uint32_t *)(nv + 2);
            memset(G, 0, (size_t)words * sizeof *G);
            const uint8_t *A = acc[t];
            const int32_t *qrow = k->mul + (size_t)v[0] * n, *erow = k->mul + e * n;
            for (size_t z = 0; z < n; z++) {
                int32_t ez = erow[z];
                if (((F[ez >> 5] >> (ez & 31)) & 1u) || A[qrow[z]]) G[z >> 5] |= 1u << (z & 31);
            }
            int64_t before = s->n;
            int64_t id = sigma_find_or_add(c, s, nv);
            if (id == before) { s->from[id] = (int32_t)at; s->by[id] = t; }
            s->trans[at * s->T + t] = (int32_t)id;
            if (id > INT32_MAX - 2) gr_fail(c, GR_EXIT_LIMIT, "misere quotient: more than 2^31 tuples to check");
        }
    }
    if (count) *count += s->n;
    for (int32_t u = 0; u < T; u++) gr_free(c, acc[u]);
    gr_free(c, acc);
    gr_free(c, v); gr_free(c, nv);
    return ok;
}

static int sigma_search(gr_ctx *c, const cand *k, const types *ty, int early, sigma *s, int64_t *count) {
    return sigma_search_lim(c, k, ty, ty->T, early, s, count);
}

/* Moore minimisation of the sigma automaton with the implied outcomes: the next candidate.
 * Elements are numbered in breadth-first order from the empty sum, so 0 is the identity. */
static void sigma_reduce(gr_ctx *c, const sigma *s, cand *out, int32_t **state_class) {
    int64_t N = s->n;
    int T = s->T;
    int32_t *cls = gr_alloc(c, (size_t)N * sizeof *cls), *ncls = gr_alloc(c, (size_t)N * sizeof *ncls);
    for (int64_t i = 0; i < N; i++) cls[i] = s->pi[i];
    int32_t ncl = 0;
    for (int64_t i = 0; i < N; i++) if (cls[i] + 1 > ncl) ncl = cls[i] + 1;
    int w = 1 + T;
    int32_t *sig = gr_alloc(c, gr_size_mul(c, (size_t)N, (size_t)w * sizeof *sig));
    int64_t hcap = 16;
    while (hcap < 2 * N) hcap *= 2;
    int64_t *ht = gr_alloc(c, (size_t)hcap * sizeof *ht);
    for (;;) {
        gr_poll(c);
        for (int64_t i = 0; i < hcap; i++) ht[i] = -1;
        int32_t nn = 0;
        for (int64_t i = 0; i < N; i++) {
            int32_t *sv = sig + i * w;
            sv[0] = cls[i];
            for (int t = 0; t < T; t++) sv[1 + t] = cls[s->trans[i * T + t]];
            uint64_t h = hash_vec(sv, w) & (uint64_t)(hcap - 1);
            while (ht[h] >= 0 && memcmp(sig + ht[h] * w, sv, (size_t)w * sizeof *sv)) h = (h + 1) & (uint64_t)(hcap - 1);
            if (ht[h] < 0) { ht[h] = i; ncls[i] = nn++; }
            else ncls[i] = ncls[ht[h]];
        }
        memcpy(cls, ncls, (size_t)N * sizeof *cls);
        if (nn == ncl) break;
        ncl = nn;
    }
    /* number the classes breadth-first from the class of the empty sum */
    int32_t *num = gr_alloc(c, (size_t)ncl * sizeof *num), *rep = gr_alloc(c, (size_t)ncl * sizeof *rep);
    int32_t *par = gr_alloc(c, (size_t)ncl * sizeof *par), *via = gr_alloc(c, (size_t)ncl * sizeof *via);
    for (int32_t i = 0; i < ncl; i++) num[i] = -1;
    int32_t cnt = 0;
    num[cls[0]] = cnt; rep[cnt] = 0; par[cnt] = -1; via[cnt] = -1; cnt++;
    for (int32_t at = 0; at < cnt; at++)
        for (int t = 0; t < T; t++) {
            int64_t to = s->trans[(int64_t)rep[at] * T + t];
            if (num[cls[to]] < 0) { num[cls[to]] = cnt; rep[cnt] = (int32_t)to; par[cnt] = at; via[cnt] = t; cnt++; }
        }
    out->n = cnt;
    out->P = gr_alloc(c, (size_t)cnt);
    out->mul = gr_alloc(c, gr_size_mul(c, (size_t)cnt, (size_t)cnt * sizeof *out->mul));
    for (int32_t x = 0; x < cnt; x++) out->P[x] = s->pi[rep[x]];
    /* x * y: follow y's breadth-first word from x */
    for (int32_t x = 0; x < cnt; x++) {
        int32_t *row = out->mul + (size_t)x * (size_t)cnt;
        row[0] = x;
        for (int32_t y = 1; y < cnt; y++) {
            int32_t from = row[par[y]];
            row[y] = num[cls[s->trans[(int64_t)rep[from] * T + via[y]]]];
        }
    }
    if (state_class) {
        for (int64_t i = 0; i < N; i++) cls[i] = num[cls[i]];
        *state_class = cls;
    } else gr_free(c, cls);
    gr_free(c, ncls); gr_free(c, sig); gr_free(c, ht);
    gr_free(c, num); gr_free(c, rep); gr_free(c, par); gr_free(c, via);
}

/* ---- heap by heap ---- */
static void store_cand(gr_ctx *c, gr_quotient *q, cand *k) {
    gr_free(c, q->mul); gr_free(c, q->inP);
    q->order = k->n; q->mul = k->mul; q->inP = k->P;
    q->p_order = 0;
    for (int32_t x = 0; x < k->n; x++) q->p_order += k->P[x];
    memset(k, 0, sizeof *k);
}

/* A base for heap n: a correct automaton over the heaps below n (every sum's state decides its
 * outcome), states numbered from the empty sum (0), one letter per heap type. Level 0 is
 * Q_{n-1} itself; level 1 its sigma automaton, finer: it splits the elements of Q_{n-1} that a
 * new heap can tell apart (in Kayles 5 + 5 and 0 are one element of Q_8, but 9 + 5 + 5 is an
 * N-position and 9 a P-position). */
typedef struct base {
    int64_t n; int32_t T;
    int32_t *trans;          /* [n * T] */
    uint8_t *P;              /* [n] */
    int32_t *of_heap;        /* [heaps]: letter of each heap, -1: no move */
} base;

/* Birthday-least words for the states (Dijkstra): ord lists them by increasing birthday, each
 * reached from par[x] by heap via[x]. An option of a word has a smaller birthday, so the
 * least word of its state comes earlier. */
static void least_words(gr_ctx *c, const gr_quotient *q, int64_t nh, const base *bs, int32_t *par, int32_t *via, int32_t *ord) {
    int64_t n = bs->n;
    int64_t *dist = gr_alloc(c, (size_t)n * sizeof *dist);
    uint8_t *done = gr_alloc(c, (size_t)n);
    int64_t *lcost = gr_alloc(c, (size_t)(bs->T + 1) * sizeof *lcost);
    int32_t *lheap = gr_alloc(c, (size_t)(bs->T + 1) * sizeof *lheap);
    for (int32_t l = 0; l < bs->T; l++) { lcost[l] = INT64_MAX; lheap[l] = -1; }
    for (int64_t h = 0; h < nh; h++) {
        int32_t l = bs->of_heap[h];
        if (l >= 0 && q->bday[h] < lcost[l]) { lcost[l] = q->bday[h]; lheap[l] = (int32_t)h; }
    }
    for (int64_t x = 0; x < n; x++) { dist[x] = INT64_MAX; par[x] = -1; via[x] = -1; }
    dist[0] = 0;
    /* a binary heap keyed on dist */
    int64_t *hp = gr_alloc(c, (size_t)(n * (bs->T + 1) + 1) * sizeof *hp), hn = 0;
    #define HKEY(i) dist[hp[i]]
    hp[hn++] = 0;
    int32_t cnt = 0;
    while (hn) {
        int64_t x = hp[0];
        hp[0] = hp[--hn];
        for (int64_t i = 0;;) {
            int64_t l = 2 * i + 1, r = l + 1, mi = i;
            if (l < hn && HKEY(l) < HKEY(mi)) mi = l;
            if (r < hn && HKEY(r) < HKEY(mi)) mi = r;
            if (mi == i) break;
            int64_t t = hp[i]; hp[i] = hp[mi]; hp[mi] = t; i = mi;
        }
        if (done[x]) continue;
        done[x] = 1; ord[cnt++] = (int32_t)x;
        for (int32_t l = 0; l < bs->T; l++) {
            if (lheap[l] < 0) continue;
            int64_t y = bs->trans[x * bs->T + l];
            if (!done[y] && dist[x] + lcost[l] < dist[y]) {
                dist[y] = dist[x] + lcost[l]; par[y] = (int32_t)x; via[y] = lheap[l];
                int64_t i = hn++;
                hp[i] = y;
                while (i > 0 && HKEY((i - 1) / 2) > HKEY(i)) { int64_t t = hp[i]; hp[i] = hp[(i - 1) / 2]; hp[(i - 1) / 2] = t; i = (i - 1) / 2; }
            }
        }
    }
    #undef HKEY
    if (cnt != n) gr_fail(c, GR_EXIT_LIMIT, "misere quotient: a state no sum of heaps reaches (a bug)");
    gr_free(c, hp); gr_free(c, dist); gr_free(c, done); gr_free(c, lcost); gr_free(c, lheap);
}

static int64_t run_word(const base *bs, int64_t st, const int32_t *w, int len, int skip) {
    for (int i = 0; i < len; i++) if (i != skip) st = bs->trans[st * bs->T + bs->of_heap[w[i]]];
    return st;
}

/* With G = heap n: the outcomes of X + kG, column by column (k = 0, 1, ...) over the states of
 * the base, each through its least word (its options X - h + t by their states, the moves in
 * a G), until a column repeats; the automaton over (state, k) minimised is the candidate,
 * and the check of quotient.h proves it. 1 and the new quotient stored, or 0. */
static int extend(gr_ctx *c, gr_quotient *q, const base *bs, int64_t start, cand *fail_c, int32_t **fail_img) {
    int64_t n = q->nheaps - 1, m = bs->n;
    size_t M = (size_t)m;
    int32_t *par = gr_alloc(c, M * sizeof *par), *via = gr_alloc(c, M * sizeof *via), *ord = gr_alloc(c, M * sizeof *ord);
    least_words(c, q, n, bs, par, via, ord);
    int kcap = 8, K = 0, back = -1;
    uint8_t **col = gr_alloc(c, (size_t)kcap * sizeof *col);
    col[K] = gr_alloc(c, M);
    memcpy(col[K], bs->P, M);
    K++;
    int64_t wcap = 64;
    int32_t *word = gr_alloc(c, (size_t)wcap * sizeof *word);
    while (back < 0) {
        gr_poll(c);
        if (K > 4096) gr_fail(c, GR_EXIT_LIMIT, "misere quotient of '%s': the outcomes of sums with copies of heap %lld did not repeat", q->game->name, (long long)n);
        if (K == kcap) { kcap *= 2; col = gr_realloc(c, col, (size_t)kcap * sizeof *col); }
        uint8_t *cur = col[K] = gr_alloc(c, M), *prev = col[K - 1];
        for (int64_t i = 0; i < m; i++) {
            int64_t x = ord[i];
            int p = 1;
            for (int64_t o = start; o < q->opt_off[n + 1] && p; o += q->words[o] + 1)
                if (prev[run_word(bs, x, q->words + o + 1, q->words[o], -1)]) p = 0;
            int len = 0;
            for (int64_t y = x; y != 0; y = par[y]) {
                if (len == wcap) { wcap *= 2; word = gr_realloc(c, word, (size_t)wcap * sizeof *word); }
                word[len++] = via[y];
            }
            for (int wi = 0; wi < len && p; wi++) {
                int dup = 0;
                for (int wj = 0; wj < wi && !dup; wj++) dup = word[wj] == word[wi];
                if (dup) continue;
                int64_t rest = run_word(bs, 0, word, len, wi);
                int64_t h = word[wi];
                for (int64_t o = q->opt_off[h]; o < q->opt_off[h + 1] && p; o += q->words[o] + 1)
                    if (cur[run_word(bs, rest, q->words + o + 1, q->words[o], -1)]) p = 0;
            }
            cur[x] = (uint8_t)p;
        }
        for (int j = 0; j < K && back < 0; j++) if (!memcmp(col[j], cur, M)) back = j;
        if (back < 0) K++;
    }
    gr_free(c, col[K]);   /* equal to col[back] */
    sigma a;
    memset(&a, 0, sizeof a);
    int32_t L = bs->T;
    a.T = L + 1;
    a.n = (int64_t)K * m;
    if (a.n > INT32_MAX / 2) gr_fail(c, GR_EXIT_LIMIT, "misere quotient: more than 2^30 candidate states");
    a.trans = gr_alloc(c, gr_size_mul(c, (size_t)a.n, (size_t)a.T * sizeof *a.trans));
    a.pi = gr_alloc(c, (size_t)a.n);
    for (int k = 0; k < K; k++)
        for (int64_t x = 0; x < m; x++) {
            int64_t id = (int64_t)k * m + x;
            a.pi[id] = col[k][x];
            for (int32_t l = 0; l < L; l++) a.trans[id * a.T + l] = (int32_t)((int64_t)k * m + bs->trans[x * L + l]);
            a.trans[id * a.T + L] = (int32_t)((int64_t)(k + 1 < K ? k + 1 : back) * m + x);
        }
    cand next;
    int32_t *cls = NULL;
    sigma_reduce(c, &a, &next, &cls);
    int32_t *img = gr_alloc(c, (size_t)(n + 1) * sizeof *img);
    for (int64_t h = 0; h < n; h++) img[h] = bs->of_heap[h] < 0 ? 0 : cls[a.trans[bs->of_heap[h]]];
    img[n] = cls[a.trans[L]];
    gr_free(c, cls);
    sigma_free(c, &a);
    for (int k = 0; k < K; k++) gr_free(c, col[k]);
    gr_free(c, col); gr_free(c, word); gr_free(c, par); gr_free(c, via); gr_free(c, ord);
    /* the proof */
    types ty;
    make_types(c, q, n + 1, &next, img, &ty);
    sigma s;
    int ok = sigma_search(c, &next, &ty, 1, &s, &q->checked_states);
    sigma_free(c, &s);
    types_free(c, &ty);
    if (ok) {
        if (next.n > q->order) q->last_growth = n;
        store_cand(c, q, &next);
        memcpy(q->pret, img, (size_t)(n + 1) * sizeof *img);
        gr_free(c, img);
    } else if (fail_c) {
        *fail_c = next;
        *fail_img = img;
    } else {
        cand_free(c, &next);
        gr_free(c, img);
    }
    return ok;
}

static void add_heap(gr_ctx *c, gr_quotient *q) {
    int64_t n = q->nheaps;
    int gi = (int)(n % q->ngames);
    int64_t heap = n / q->ngames;
    gr_game *g = q->games[gi];
    gr_eval_at(c, &heap, 1);
    q->pret = gr_realloc(c, q->pret, (size_t)(n + 1) * sizeof *q->pret);
    q->bday = gr_realloc(c, q->bday, (size_t)(n + 1) * sizeof *q->bday);
    q->opt_off = gr_realloc(c, q->opt_off, (size_t)(n + 2) * sizeof *q->opt_off);
    opt_collect oc = { c, q, heap, gi, 0 };
    int64_t start = q->nwords;
    gr_eval_options(c, g, &heap, on_option, &oc);
    if (oc.bad) gr_fail(c, GR_EXIT_INPUT, "misere quotient of '%s': heap %lld has a move to a heap that is not smaller", g->name, (long long)heap);
    q->opt_off[n + 1] = q->nwords;
    q->nheaps = n + 1;
    q->pret[n] = 0;
    q->bday[n] = 0;
    if (q->nwords == start) return;   /* no move: the zero game */
    for (int64_t o = start; o < q->nwords; o += q->words[o] + 1) {
        int64_t b = 0;
        for (int i = 0; i < q->words[o]; i++) b += q->bday[q->words[o + 1 + i]];
        if (b + 1 > q->bday[n]) q->bday[n] = b + 1;
    }
    cand k = { q->order, q->mul, q->inP };
    types ty;
    make_types(c, q, n, &k, q->pret, &ty);
    /* Heap n with the option images of a smaller heap's type is that type's element: the check
     * then sees the same types as for heaps 0..n-1, which it proved (the step the periodicity
     * theorem rests on). */
    {
        int64_t m = 0;
        int32_t *im = gr_alloc(c, (size_t)(q->nwords - start + 1) * sizeof *im);
        for (int64_t o = start; o < q->nwords; o += q->words[o] + 1) {
            int32_t x = 0;
            for (int i = 0; i < q->words[o]; i++) x = q->mul[(size_t)x * (size_t)q->order + (size_t)q->pret[q->words[o + 1 + i]]];
            im[m++] = x;
        }
        qsort(im, (size_t)m, sizeof *im, cmp_i32);
        int64_t u = 0;
        for (int64_t i = 0; i < m; i++) if (!u || im[u - 1] != im[i]) im[u++] = im[i];
        int32_t same = -1;
        for (int32_t t = 0; t < ty.T && same < 0; t++)
            if (ty.opt_off[t + 1] - ty.opt_off[t] == u && !memcmp(ty.opts + ty.opt_off[t], im, (size_t)u * sizeof *im)) same = t;
        gr_free(c, im);
        if (same >= 0) {
            q->pret[n] = ty.img[same];
            types_free(c, &ty);
            return;
        }
    }
    /* level 0: Q_{n-1}, letters its heap types */
    base b0 = { q->order, ty.T, NULL, q->inP, ty.of_heap };
    b0.trans = gr_alloc(c, gr_size_mul(c, (size_t)q->order, (size_t)(ty.T ? ty.T : 1) * sizeof *b0.trans));
    for (int64_t x = 0; x < q->order; x++)
        for (int32_t l = 0; l < ty.T; l++) b0.trans[x * ty.T + l] = q->mul[(size_t)x * (size_t)q->order + (size_t)ty.img[l]];
    cand fc = { 0 };
    int32_t *fimg = NULL;
    int ok = extend(c, q, &b0, start, &fc, &fimg);
    gr_free(c, b0.trans);
    /* Rounds: a failed candidate C still decides the sums without heap n, and its
     * (phi, move, F) automaton over the smaller heaps, with F over all of C (sums with copies
     * of heap n too), is a finer base that sees how those sums meet heap n. */
    for (int round = 1; !ok && round <= 8 && fc.n <= 2048; round++) {
        types tc;
        make_types(c, q, n + 1, &fc, fimg, &tc);
        int32_t tlim = tc.T, tn = tc.of_heap[n];
        int shared = 0;
        for (int64_t h = 0; h < n; h++) shared |= tc.of_heap[h] == tn;
        if (!shared && tn == tc.T - 1) tlim = tc.T - 1;
        sigma s;
        sigma_search_lim(c, &fc, &tc, tlim, 0, &s, &q->checked_states);
        cand_free(c, &fc);
        gr_free(c, fimg);
        fimg = NULL;
        base b1 = { s.n, tlim, s.trans, s.pi, tc.of_heap };
        if (s.n > 200000) { sigma_free(c, &s); types_free(c, &tc); break; }
        ok = extend(c, q, &b1, start, &fc, &fimg);
        sigma_free(c, &s);
        types_free(c, &tc);
    }
    cand_free(c, &fc);
    gr_free(c, fimg);
    types_free(c, &ty);
    if (!ok) q->failed = n;
}

gr_quotient *gr_quotient_of(gr_ctx *c, gr_game *g, int64_t upto, char *why, size_t cap) {
    if (g->shape != SHAPE_HEAP || g->not_recurrence || g->grow_move) {
        if (why) snprintf(why, cap, "'%s' is not a heap rule set whose moves lead to smaller heaps", g->name);
        return NULL;
    }
    const gr_rules *r = g->rules;
    for (int k = 0; r && k < r->nterms; k++)
        if (r->terms[k].kind != TERM_LEAF) {
            if (why) snprintf(why, cap, "'%s' has terminals that fix an outcome", g->name);
            return NULL;
        }
    gr_quotient *q = GR_CACHED(g, quotient);
    if (!q) {
        q = gr_eval_cache_of(c, g)->quotient = gr_alloc(c, sizeof *q);
        q->game = q->games[0] = g;
        q->ngames = 1;
        q->order = 1;
        q->mul = gr_alloc(c, sizeof *q->mul);
        q->inP = gr_alloc(c, 1);
        q->opt_off = gr_alloc(c, sizeof *q->opt_off);
    }
    int64_t want = upto;
    if (q->proved && want >= q->proof_to) want = q->proof_to - 1;
    while (q->nheaps <= want && !q->failed) {
        snprintf(c->limit_note, sizeof c->limit_note, "the misere quotient of %s had reached heap %lld with order %d",
                 g->name, (long long)q->nheaps, q->order);
        add_heap(c, q);
    }
    c->limit_note[0] = '\0';
    gr_eval_at(c, NULL, 0);
    return q;
}

int32_t gr_quotient_elem(gr_ctx *c, gr_quotient *q, int64_t heap) {
    if (heap < q->nheaps) return q->pret[heap];
    if (q->proved) return q->pret[q->pre + (heap - q->pre) % q->per];
    gr_quotient_of(c, q->game, heap, NULL, 0);
    return q->pret[heap];
}

void gr_quotient_free(gr_ctx *c, gr_quotient *q) {
    if (!q) return;
    while (q->unions) { gr_quotient *u = q->unions; q->unions = u->unions; gr_quotient_free(c, u); }
    gr_free(c, q->inP); gr_free(c, q->mul); gr_free(c, q->pret);
    gr_free(c, q->opt_off); gr_free(c, q->words); gr_free(c, q->bday);
    gr_free(c, q);
}

gr_quotient *gr_quotient_union(gr_ctx *c, gr_game *const *games, int n, int64_t upto, char *why, size_t cap) {
    if (n < 1 || n > 8) { if (why) snprintf(why, cap, "a union of at most 8 rule sets"); return NULL; }
    for (int i = 0; i < n; i++) if (!gr_quotient_of(c, games[i], 0, why, cap)) return NULL;
    if (n == 1) return gr_quotient_of(c, games[0], upto, why, cap);
    gr_quotient *home = GR_CACHED(games[0], quotient), *q = NULL;
    for (gr_quotient *u = home->unions; u && !q; u = u->unions)
        if (u->ngames == n && !memcmp(u->games, games, (size_t)n * sizeof *games)) q = u;
    if (!q) {
        q = gr_alloc(c, sizeof *q);
        q->game = games[0];
        memcpy(q->games, games, (size_t)n * sizeof *games);
        q->ngames = n;
        q->order = 1;
        q->mul = gr_alloc(c, sizeof *q->mul);
        q->inP = gr_alloc(c, 1);
        q->opt_off = gr_alloc(c, sizeof *q->opt_off);
        q->unions = home->unions;
        home->unions = q;
    }
    int64_t want = (upto + 1) * n - 1;
    while (q->nheaps <= want && !q->failed) {
        snprintf(c->limit_note, sizeof c->limit_note, "the misere quotient of a union of %d rule sets had reached order %d", n, q->order);
        add_heap(c, q);
    }
    c->limit_note[0] = '\0';
    gr_eval_at(c, NULL, 0);
    return q;
}

int32_t gr_quotient_elem_of(gr_ctx *c, gr_quotient *q, int gi, int64_t heap) {
    if (q->ngames == 1) return gr_quotient_elem(c, q, heap);
    int64_t a = heap * q->ngames + gi;
    if (a >= q->nheaps) gr_quotient_union(c, q->games, q->ngames, heap, NULL, 0);
    return q->pret[a];
}

/* ---- a period of the pretending function, proved ---- */

/* The shift argument of the normal-play periodicity theorems (Guy and Smith for octal games)
 * carries over: if heaps m and m - p have the same set of option images in Q, the check of
 * quotient.h sees the same heap types with heap m as with heap m - p, so heap m pretends to
 * be pret[m - p] and Q does not grow. The option images of m and m - p agree once the
 * pretending function is periodic over the heaps the options reach:
 *   octal code, last digit at place t, at most two heaps left: pret[n + p] = pret[n] for
 *     n0 <= n < 2 n0 + p + t (then every split of m - j, j <= t, has a part >= n0 + p);
 *   finite subtraction set, largest s: for n0 <= n < n0 + p + s. */
void gr_quotient_prove(gr_ctx *c, gr_quotient *q) {
    (void)c;
    gr_game *g = q->game;
    int64_t N = q->nheaps, reach;   /* reach: the t or s of the theorem */
    const char *name;
    int octal = 0;
    if (q->ngames > 1) {
        snprintf(q->theorem, sizeof q->theorem, "no periodicity theorem for a union of rule sets");
        return;
    }
    if (g->kernel == KER_OCTAL && g->tb.period == 0 && g->tb.last_place >= 0 && g->tb.last_place < 1000000 && g->tb.max_heaps <= 2) {
        reach = g->tb.last_place; name = "octal"; octal = 1;
    } else if (g->kernel == KER_SUBTRACT && g->nsub > 0) {
        reach = g->sub[g->nsub - 1]; name = "subtraction";
    } else {
        snprintf(q->theorem, sizeof q->theorem, "no periodicity theorem for this kind of rule set (octal codes and finite subtraction sets have one)");
        return;
    }
    for (int64_t p = 1; 2 * p <= N; p++) {
        /* the least n0 with pret[n + p] = pret[n] for n0 <= n < N - p */
        int64_t n0 = N - p;
        while (n0 > 0 && q->pret[n0 - 1 + p] == q->pret[n0 - 1]) n0--;
        int64_t need = octal ? 2 * n0 + p + reach : n0 + p + reach;
        if (n0 + p <= N - p && N >= need) {
            q->proved = 1; q->pre = n0; q->per = p; q->proof_to = N;
            snprintf(q->theorem, sizeof q->theorem,
                     "proved: the pretending function has period %lld from heap %lld (%s periodicity: agreement over heaps %lld..%lld suffices, the quotient never grows again)",
                     (long long)p, (long long)n0, name, (long long)n0, (long long)(need - 1));
            return;
        }
    }
    snprintf(q->theorem, sizeof q->theorem, "no period of the pretending function proved over heaps 0..%lld", (long long)(N - 1));
}

