/* hackenbush: Green Hackenbush by the colon and fusion principles; see hackenbush.h. */
#include "eval/figure/hackenbush.h"
#include <stdlib.h>
#include <string.h>

/* One figure to analyse: the edges present are those not in mask (by global id) and not skip. */
typedef struct hb_in {
    int nv, ne;
    const int32_t *eu, *ev;
    const int32_t *eid;            /* local edge -> global id for the mask (NULL: the same) */
    const int64_t *mask;
    int skip;                      /* a local edge also absent, or -1 */
    int root;                      /* -1: no ground, nothing is joined to it */
    const int64_t *pend;           /* per vertex, a term xored into its component (NULL: none) */
} hb_in;

/* What the analysis leaves: the depth-first forest from the root over the edges present. */
typedef struct hb_out {
    int32_t *order; int norder;    /* reached vertices, preorder */
    int32_t *par, *pe;             /* parent vertex and edge (-1 at the root) */
    int32_t *comp;                 /* the head of the vertex's 2-edge-connected component; -1 unreached */
    uint8_t *inner;                /* per edge: present, reached and inside a component (a loop after fusion) */
    int64_t *val;                  /* per head: the value of the branch that hangs there */
} hb_out;

static int present(const hb_in *g, int e) {
    return e != g->skip && !gr_hb_absent(g->mask, g->eid ? g->eid[e] : e);
}

static void hb_out_free(gr_ctx *c, hb_out *o) {
    gr_free(c, o->order); gr_free(c, o->par); gr_free(c, o->pe); gr_free(c, o->comp);
    gr_free(c, o->inner); gr_free(c, o->val);
}

/* Tarjan's bridges by an explicit stack, the fusion into components, the colon principle
 * bottom-up. Returns the value of the whole figure. */
static int64_t analyze(gr_ctx *c, const hb_in *g, hb_out *o) {
    int nv = g->nv, ne = g->ne;
    size_t vn = (size_t)nv + 1, en = (size_t)ne + 1;
    memset(o, 0, sizeof *o);
    o->order = gr_alloc(c, gr_size_mul(c, vn, sizeof *o->order));
    o->par = gr_alloc(c, gr_size_mul(c, vn, sizeof *o->par));
    o->pe = gr_alloc(c, gr_size_mul(c, vn, sizeof *o->pe));
    o->comp = gr_alloc(c, gr_size_mul(c, vn, sizeof *o->comp));
    o->inner = gr_alloc(c, en);
    o->val = gr_alloc(c, gr_size_mul(c, vn, sizeof *o->val));
    int32_t *off = gr_alloc(c, gr_size_mul(c, vn + 1, sizeof *off));
    int32_t *adj = gr_alloc(c, gr_size_mul(c, 4 * en, sizeof *adj));   /* (neighbour, edge) pairs, both ways */
    int32_t *disc = gr_alloc(c, gr_size_mul(c, vn, sizeof *disc));
    int32_t *low = gr_alloc(c, gr_size_mul(c, vn, sizeof *low));
    int32_t *it = gr_alloc(c, gr_size_mul(c, vn, sizeof *it));
    int32_t *stack = gr_alloc(c, gr_size_mul(c, vn, sizeof *stack));
    uint8_t *bridge = gr_alloc(c, vn);        /* per vertex: its parent edge is a bridge */
    for (int e = 0; e < ne; e++)
        if (g->eu[e] != g->ev[e] && present(g, e)) { off[g->eu[e] + 1]++; off[g->ev[e] + 1]++; }
    for (int v = 0; v < nv; v++) off[v + 1] += off[v];
    memcpy(it, off, (size_t)nv * sizeof *it);
    for (int e = 0; e < ne; e++)
        if (g->eu[e] != g->ev[e] && present(g, e)) {
            int32_t u = g->eu[e], w = g->ev[e];
            adj[2 * it[u]] = w; adj[2 * it[u] + 1] = e; it[u]++;
            adj[2 * it[w]] = u; adj[2 * it[w] + 1] = e; it[w]++;
        }
    for (int v = 0; v < nv; v++) { disc[v] = -1; o->comp[v] = -1; o->par[v] = -1; o->pe[v] = -1; }
    int64_t result = 0;
    if (g->root >= 0) {
        int32_t t = 0, sp = 0;
        int r = g->root;
        disc[r] = low[r] = t++;
        it[r] = off[r];
        stack[sp++] = r;
        o->order[o->norder++] = r;
        while (sp) {
            int32_t v = stack[sp - 1];
            if (it[v] < off[v + 1]) {
                int32_t k = it[v]++, w = adj[2 * k], e = adj[2 * k + 1];
                if (e == o->pe[v]) continue;          /* the tree edge back; a parallel edge is not it */
                if (disc[w] < 0) {
                    disc[w] = low[w] = t++;
                    o->par[w] = v; o->pe[w] = e; it[w] = off[w];
                    stack[sp++] = w;
                    o->order[o->norder++] = w;
                } else if (disc[w] < low[v]) low[v] = disc[w];
            } else {
                sp--;
                int32_t p = o->par[v];
                if (p >= 0) {
                    if (low[v] < low[p]) low[p] = low[v];
                    bridge[v] = low[v] > disc[p];
                }
            }
        }
        /* Components: a vertex starts one at the root or below a bridge, else joins its parent's. */
        for (int i = 0; i < o->norder; i++) {
            int32_t v = o->order[i];
            o->comp[v] = (o->par[v] < 0 || bridge[v]) ? v : o->comp[o->par[v]];
            if (g->pend) o->val[o->comp[v]] ^= g->pend[v];
        }
        /* Fusion: every edge present and reached that is not a bridge is a loop worth 1. */
        for (int e = 0; e < ne; e++) {
            if (!present(g, e) || disc[g->eu[e]] < 0) continue;
            int32_t w = g->ev[e];
            int is_bridge = g->eu[e] != w && ((o->pe[w] == e && bridge[w]) || (o->pe[g->eu[e]] == e && bridge[g->eu[e]]));
            if (is_bridge) continue;
            o->inner[e] = 1;
            o->val[o->comp[g->eu[e]]] ^= 1;
        }
        /* Colon principle, children first: a branch of value v on a bridge counts v + 1. */
        for (int i = o->norder - 1; i > 0; i--) {
            int32_t v = o->order[i];
            if (o->comp[v] == v) o->val[o->comp[o->par[v]]] ^= o->val[v] + 1;
        }
        result = o->val[r];
    }
    gr_free(c, off); gr_free(c, adj); gr_free(c, disc); gr_free(c, low);
    gr_free(c, it); gr_free(c, stack); gr_free(c, bridge);
    return result;
}

static hb_in figure_in(const gr_figure *f, const int64_t *mask, int skip) {
    return (hb_in){ .nv = f->nv, .ne = f->ne, .eu = f->eu, .ev = f->ev, .mask = mask, .skip = skip, .root = f->ground };
}

int64_t gr_hb_value(gr_ctx *c, const gr_figure *f, const int64_t *mask) {
    hb_in in = figure_in(f, mask, -1);
    hb_out o;
    int64_t v = analyze(c, &in, &o);
    hb_out_free(c, &o);
    return v;
}

/* qsort has no user pointer in C11; the moves search is not reentrant anyway (one query at a time). */
static const int32_t *sort_ecount;
static int cmp_by_edges(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    int32_t kx = sort_ecount[x + 1] - sort_ecount[x], ky = sort_ecount[y + 1] - sort_ecount[y];
    if (kx != ky) return kx < ky ? -1 : 1;
    return (x > y) - (x < y);
}

int gr_hb_moves(gr_ctx *c, const gr_figure *f, const int64_t *mask, int64_t want,
                void (*fn)(void *user, int edge), void *user) {
    hb_in in = figure_in(f, mask, -1);
    hb_out o;
    int complete = 1;
    analyze(c, &in, &o);
    if (o.norder == 0) { hb_out_free(c, &o); return 1; }
    int nv = f->nv;
    int64_t *need = gr_alloc(c, gr_size_mul(c, (size_t)nv + 1, sizeof *need));
    int64_t *pend = gr_alloc(c, gr_size_mul(c, (size_t)nv + 1, sizeof *pend));
    /* Top down: need[h] is the value the branch at head h must take for the whole to be `want`.
     * Cutting the bridge above h removes its term val[h] + 1; that wins if the parent needs
     * exactly that term gone. */
    need[o.order[0]] = want;
    for (int i = 1; i < o.norder; i++) {
        int32_t h = o.order[i];
        if (o.comp[h] != h) continue;
        int32_t p = o.comp[o.par[h]];
        pend[o.par[h]] ^= o.val[h] + 1;
        need[h] = -1;
        if (need[p] < 0) continue;
        int64_t term = need[p] ^ o.val[p] ^ (o.val[h] + 1);
        if (term == 0) fn(user, o.pe[h]);
        else need[h] = term - 1;
    }
    /* Inside a component K, a cut leaves K joined (it is 2-edge-connected) but changes its
     * shape: recount K alone, its branches as pendant terms at their vertices. */
    int32_t *start = gr_alloc(c, gr_size_mul(c, (size_t)nv + 2, sizeof *start));
    int32_t *verts = gr_alloc(c, gr_size_mul(c, (size_t)nv + 1, sizeof *verts));
    int32_t *lid = gr_alloc(c, gr_size_mul(c, (size_t)nv + 1, sizeof *lid));
    int32_t *ecount = gr_alloc(c, gr_size_mul(c, (size_t)nv + 2, sizeof *ecount));
    int32_t *edges = gr_alloc(c, gr_size_mul(c, (size_t)f->ne + 1, sizeof *edges));
    for (int i = 0; i < o.norder; i++) start[o.comp[o.order[i]] + 1]++;
    for (int e = 0; e < f->ne; e++) if (o.inner[e]) ecount[o.comp[f->eu[e]] + 1]++;
    for (int v = 0; v < nv; v++) { start[v + 1] += start[v]; ecount[v + 1] += ecount[v]; }
    int32_t *fill = gr_alloc(c, gr_size_mul(c, (size_t)nv + 1, sizeof *fill));
    memcpy(fill, start, (size_t)nv * sizeof *fill);
    for (int i = 0; i < o.norder; i++) { int32_t v = o.order[i]; lid[v] = fill[o.comp[v]] - start[o.comp[v]]; verts[fill[o.comp[v]]++] = v; }
    memcpy(fill, ecount, (size_t)nv * sizeof *fill);
    for (int e = 0; e < f->ne; e++) if (o.inner[e]) edges[fill[o.comp[f->eu[e]]]++] = e;
    /* Smallest components first, so a work budget covers as many as it can. */
    int32_t *heads = gr_alloc(c, gr_size_mul(c, (size_t)nv + 1, sizeof *heads));
    int nheads = 0;
    for (int i = 0; i < o.norder; i++) {
        int32_t h = o.order[i];
        if (o.comp[h] == h && need[h] >= 0 && ecount[h + 1] > ecount[h]) heads[nheads++] = h;
    }
    sort_ecount = ecount;
    qsort(heads, (size_t)nheads, sizeof *heads, cmp_by_edges);
    int64_t work = 0;
    for (int i = 0; i < nheads; i++) {
        int32_t h = heads[i];
        int k = ecount[h + 1] - ecount[h], nk = start[h + 1] - start[h];
        if (work + (int64_t)k * (k + nk) > GR_HB_MOVE_WORK) { complete = 0; break; }
        work += (int64_t)k * (k + nk);
        int32_t *lu = gr_alloc(c, gr_size_mul(c, (size_t)k, sizeof *lu));
        int32_t *lv = gr_alloc(c, gr_size_mul(c, (size_t)k, sizeof *lv));
        int64_t *lp = gr_alloc(c, gr_size_mul(c, (size_t)nk, sizeof *lp));
        for (int j = 0; j < k; j++) { int e = edges[ecount[h] + j]; lu[j] = lid[f->eu[e]]; lv[j] = lid[f->ev[e]]; }
        for (int j = 0; j < nk; j++) lp[j] = pend[verts[start[h] + j]];
        hb_in li = { .nv = nk, .ne = k, .eu = lu, .ev = lv, .root = lid[h], .pend = lp };
        for (int j = 0; j < k; j++) {
            hb_out lo;
            li.skip = j;
            if (analyze(c, &li, &lo) == need[h]) fn(user, edges[ecount[h] + j]);
            hb_out_free(c, &lo);
        }
        gr_free(c, lu); gr_free(c, lv); gr_free(c, lp);
    }
    gr_free(c, heads);
    gr_free(c, start); gr_free(c, verts); gr_free(c, lid); gr_free(c, ecount); gr_free(c, edges); gr_free(c, fill);
    gr_free(c, need); gr_free(c, pend);
    hb_out_free(c, &o);
    return complete;
}


void gr_hb_child(gr_ctx *c, const gr_figure *f, const int64_t *mask, int edge, int64_t *out) {
    hb_in in = figure_in(f, mask, edge);
    hb_out o;
    analyze(c, &in, &o);
    memset(out, 0, GR_HB_WORDS * sizeof *out);
    for (int e = 0; e < f->ne; e++) {
        int gone = !present(&in, e) || o.comp[f->eu[e]] < 0;
        if (!gone) continue;
        if (e >= GR_HB_MAX_CUT) {
            hb_out_free(c, &o);
            gr_fail(c, GR_EXIT_LIMIT, "the position graph holds Hackenbush positions whose cut edges are among the first %d", GR_HB_MAX_CUT);
        }
        out[e >> 6] = (int64_t)((uint64_t)out[e >> 6] | UINT64_C(1) << (e & 63));
    }
    /* Parallel edges are interchangeable: the absent ones of a class are its first. */
    int32_t *absent = gr_alloc(c, gr_size_mul(c, (size_t)f->ne + 1, sizeof *absent));
    for (int e = 0; e < f->ne; e++) absent[f->twin[e]] += gr_hb_absent(out, e);
    memset(out, 0, GR_HB_WORDS * sizeof *out);
    for (int e = 0; e < f->ne; e++)
        if (absent[f->twin[e]] > 0) {
            absent[f->twin[e]]--;
            out[e >> 6] = (int64_t)((uint64_t)out[e >> 6] | UINT64_C(1) << (e & 63));
        }
    gr_free(c, absent);
    hb_out_free(c, &o);
}

size_t gr_hb_render(gr_ctx *c, const char *name, const gr_figure *f, const int64_t *mask, int edge,
                    char *buf, size_t cap, size_t pos) {
    if (pos >= cap) return pos;
    pos += (size_t)snprintf(buf + pos, cap - pos, "%s", name);
    int none = 1;
    for (int w = 0; mask && w < GR_HB_WORDS; w++) none &= mask[w] == 0;
    if (none) {   /* the whole figure less one edge: that edge alone (no search) */
        if (edge >= 0 && pos < cap)
            pos += (size_t)snprintf(buf + pos, cap - pos, " - (%s - %s)", f->names[f->eu[edge]], f->names[f->ev[edge]]);
        return pos;
    }
    hb_in in = figure_in(f, mask, edge);
    hb_out o;
    analyze(c, &in, &o);
    for (int e = 0; e < f->ne && pos < cap; e++)
        if (!present(&in, e) && (o.comp[f->eu[e]] >= 0 || o.comp[f->ev[e]] >= 0))
            pos += (size_t)snprintf(buf + pos, cap - pos, " - (%s - %s)", f->names[f->eu[e]], f->names[f->ev[e]]);
    hb_out_free(c, &o);
    return pos;
}
