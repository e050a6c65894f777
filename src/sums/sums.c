/* sums: sums of components under every convention; see sums.h. */
#include "sums.h"
#include "heap.h"
#include "rules.h"
#include "tuple.h"
#include "hackenbush.h"
#include "turning.h"
#include <stdlib.h>
#include <string.h>

enum { MAX_CHILDREN_EVERY = 1 << 20 };

typedef struct atom { int32_t game; int64_t c[GR_MAX_ARITY]; } atom;

/* A position being built or taken apart: atoms, grouped into components by start offsets. */
typedef struct spos {
    atom *a; int na, capa;
    int *cs; int nc, capc;          /* component k is atoms cs[k] .. cs[k+1]-1 */
} spos;

/* The moves of one atom: for each, the number of parts then the parts' coordinates. */
typedef struct movebuf { int64_t *v; size_t n, cap; } movebuf;

struct gr_sumgraph {
    gr_ctx *c;
    gr_conv conv;
    gr_game **games; int ngames;
    int8_t *zero_dead;              /* per game: is heap 0 without moves (-1 unknown) */
    gr_pg *pg;
    /* scratch */
    spos cur, child;
    movebuf mb;
    size_t *move_off; int *move_count; int cap_atoms;
    uint8_t *enc; size_t nenc, capenc;
    uint8_t *tmp; size_t ntmp, captmp;
    size_t *comp_off, *comp_len; int capcomp;
    struct comp_ref *refs; size_t caprefs;
};

/* ---- small growable helpers ---- */
static void *grow(gr_ctx *c, void *p, size_t need, size_t *cap, size_t elem) {
    if (need <= *cap) return p;
    size_t n = *cap ? *cap : 16;
    while (n < need) n *= 2;
    p = gr_realloc(c, p, gr_size_mul(c, n, elem));
    *cap = n;
    return p;
}

static void spos_clear(spos *p) { p->na = 0; p->nc = 0; }
static void spos_comp(gr_ctx *c, spos *p) {        /* opens a new component */
    size_t cap = (size_t)p->capc;
    p->cs = grow(c, p->cs, (size_t)p->nc + 2, &cap, sizeof *p->cs);
    p->capc = (int)cap;
    p->cs[p->nc++] = p->na;
    p->cs[p->nc] = p->na;
}
static void spos_atom(gr_ctx *c, spos *p, const atom *a) {
    size_t cap = (size_t)p->capa;
    p->a = grow(c, p->a, (size_t)p->na + 1, &cap, sizeof *p->a);
    p->capa = (int)cap;
    p->a[p->na++] = *a;
    p->cs[p->nc] = p->na;
}

/* ---- rendering ---- */
static size_t render_atom(const gr_game *g, const int64_t *coords, char *buf, size_t cap, size_t pos) {
    if (pos >= cap) return pos;
    if (g->shape == SHAPE_GRAPH)
        return pos + (size_t)snprintf(buf + pos, cap - pos, "%s.%s", g->name, g->vertices[coords[0]]);
    if (g->shape == SHAPE_FIGURE) return gr_hb_render(g->figure->c, g->name, g->figure, coords, -1, buf, cap, pos);
    pos += (size_t)snprintf(buf + pos, cap - pos, "%s(", g->name);
    for (int i = 0, k = 0; g->shape == SHAPE_COINS && i < GR_COIN_PLACES && pos < cap; i++)   /* the heads */
        if (gr_coin_heads(coords, i)) pos += (size_t)snprintf(buf + pos, cap - pos, "%s%d", k++ ? ", " : "", i);
    for (int i = 0; g->shape != SHAPE_COINS && i < g->arity && pos < cap; i++)
        pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld", i ? ", " : "", (long long)coords[i]);
    if (pos < cap) pos += (size_t)snprintf(buf + pos, cap - pos, ")");
    return pos;
}

void gr_render_comps(const gr_comp *comps, int n, char *buf, size_t cap) {
    size_t pos = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && pos < cap; i++) {
        if (i) pos += (size_t)snprintf(buf + pos, cap - pos, " + ");
        pos = render_atom(comps[i].game, comps[i].c, buf, cap, pos);
    }
}

/* Components with more than one atom are parenthesised where components matter. */
static void render_spos(const gr_sumgraph *s, const spos *p, char *buf, size_t cap) {
    size_t pos = 0;
    buf[0] = '\0';
    int group = s->conv == CONV_ANYLEAF || s->conv == CONV_EVERY;
    for (int k = 0; k < p->nc && pos < cap; k++) {
        int lo = p->cs[k], hi = p->cs[k + 1];
        if (k) pos += (size_t)snprintf(buf + pos, cap - pos, " + ");
        if (lo == hi) { pos += (size_t)snprintf(buf + pos, cap - pos, "0"); continue; }
        int paren = group && hi - lo > 1 && p->nc > 1;
        if (paren && pos < cap) pos += (size_t)snprintf(buf + pos, cap - pos, "(");
        for (int i = lo; i < hi && pos < cap; i++) {
            if (i > lo) pos += (size_t)snprintf(buf + pos, cap - pos, " + ");
            pos = render_atom(s->games[p->a[i].game], p->a[i].c, buf, cap, pos);
        }
        if (paren && pos < cap) pos += (size_t)snprintf(buf + pos, cap - pos, ")");
    }
    if (p->nc == 0) snprintf(buf, cap, "0");
}

/* ---- the fast path ---- */
static int64_t comp_sg(gr_ctx *c, gr_game *g, const int64_t *coords) {
    if (g->shape == SHAPE_FIGURE) return gr_hb_value(c, g->figure, coords);
    if (g->shape == SHAPE_COINS) {   /* the coin-turning theorem: the xor of the heads */
        int64_t x = 0;
        for (int i = 0; i < GR_COIN_PLACES; i++) if (gr_coin_heads(coords, i)) x ^= gr_turning_value(c, g, i);
        return x;
    }
    if (g->shape == SHAPE_HEAP && g->evaluator == EVAL_HEAP) {
        if (gr_heap_ensure(c, g, coords[0]) < 0) return -1;
        return gr_heap_sg(c, g, coords[0]);
    }
    if (g->shape == SHAPE_TUPLE && g->evaluator == EVAL_TABLE)
        return gr_tuple_sg(c, g, coords, g->decl->name_loc);
    return -1;
}

int gr_sum_sg_fast(gr_ctx *c, const gr_comp *comps, int n, int64_t *sg, int64_t *vals) {
    int64_t x = 0;
    for (int i = 0; i < n; i++) {
        int64_t v = comp_sg(c, comps[i].game, comps[i].c);
        if (v < 0) return 0;
        if (vals) vals[i] = v;
        x ^= v;
    }
    *sg = x;
    return 1;
}

/* ---- moves of one atom ---- */
typedef struct mb_ctx { gr_sumgraph *s; int arity; int count; } mb_ctx;

static void mb_push(gr_sumgraph *s, int64_t v) {
    s->mb.v = grow(s->c, s->mb.v, s->mb.n + 1, &s->mb.cap, sizeof *s->mb.v);
    s->mb.v[s->mb.n++] = v;
}

static void mb_heap_option(void *user, const int64_t *heaps, int nheaps) {
    mb_ctx *m = user;
    mb_push(m->s, nheaps);
    for (int i = 0; i < nheaps; i++) mb_push(m->s, heaps[i]);
    m->count++;
}

static void mb_rules_move(void *user, const int64_t *parts, int nparts, const gr_rmove *mv) {
    (void)mv;
    mb_ctx *m = user;
    mb_push(m->s, nparts);
    for (int i = 0; i < nparts * m->arity; i++) mb_push(m->s, parts[i]);
    m->count++;
}

/* A figure less one edge, or a row of coins after a flip: one part of GR_HB_WORDS words. */
static void mb_mask(gr_sumgraph *s, const int64_t *mask) {
    mb_push(s, 1);
    for (int w = 0; w < GR_HB_WORDS; w++) mb_push(s, mask[w]);
}

typedef struct coin_ctx { gr_sumgraph *s; const int64_t *mask; int64_t x; int count; } coin_ctx;
static void mb_coin_flip(void *user, const int64_t *others, int n) {
    coin_ctx *k = user;
    int64_t m[GR_COIN_WORDS];
    memcpy(m, k->mask, sizeof m);
    gr_coin_flip(m, k->x);
    for (int i = 0; i < n; i++) gr_coin_flip(m, others[i]);
    mb_mask(k->s, m);
    k->count++;
}

/* Appends the moves of atom a to s->mb; returns how many. */
static int atom_moves(gr_sumgraph *s, const atom *a) {
    gr_game *g = s->games[a->game];
    mb_ctx m = { s, g->arity, 0 };
    if (g->rules && gr_rules_terminal(s->c, g, a->c) >= 0) return 0;
    switch (g->shape) {
    case SHAPE_HEAP: gr_heap_options(s->c, g, a->c[0], mb_heap_option, &m); break;
    case SHAPE_TUPLE: gr_rules_moves(s->c, g, a->c, mb_rules_move, &m); break;
    case SHAPE_GRAPH:
        for (int32_t e = g->adj_off[a->c[0]]; e < g->adj_off[a->c[0] + 1]; e++) {
            mb_push(s, 1);
            mb_push(s, g->adj[e]);
            m.count++;
        }
        break;
    case SHAPE_FIGURE: {   /* cut each edge still joined to ground */
        int64_t now[GR_HB_WORDS], child[GR_HB_WORDS];
        gr_hb_child(s->c, g->figure, a->c, -1, now);
        for (int e = 0; e < g->figure->ne; e++) {
            if (gr_hb_absent(now, e)) continue;
            gr_hb_child(s->c, g->figure, now, e, child);
            mb_mask(s, child);
            m.count++;
        }
        break;
    }
    case SHAPE_COINS: {    /* each flip set at each heads */
        coin_ctx k = { s, a->c, 0, 0 };
        for (k.x = 0; k.x < GR_COIN_PLACES; k.x++)
            if (gr_coin_heads(a->c, k.x)) gr_turning_flips(s->c, g, k.x, mb_coin_flip, &k);
        m.count = k.count;
        break;
    }
    }
    return m.count;
}

/* ---- canonical encoding ---- */
static void put_byte(gr_sumgraph *s, uint8_t b) {
    s->tmp = grow(s->c, s->tmp, s->ntmp + 1, &s->captmp, 1);
    s->tmp[s->ntmp++] = b;
}
static void put_uvarint(gr_sumgraph *s, uint64_t v) {
    while (v >= 0x80) { put_byte(s, (uint8_t)(v | 0x80)); v >>= 7; }
    put_byte(s, (uint8_t)v);
}
static void put_svarint(gr_sumgraph *s, int64_t v) { put_uvarint(s, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); }

static uint64_t get_uvarint(const uint8_t **p) {
    uint64_t v = 0;
    int shift = 0;
    while (**p & 0x80) { v |= (uint64_t)(**p & 0x7f) << shift; shift += 7; (*p)++; }
    v |= (uint64_t)**p << shift;
    (*p)++;
    return v;
}
static int64_t get_svarint(const uint8_t **p) {
    uint64_t u = get_uvarint(p);
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static int zero_is_dead(gr_sumgraph *s, int gi) {
    if (s->zero_dead[gi] < 0) {
        gr_game *g = s->games[gi];
        int dead = 0;
        if (g->shape == SHAPE_HEAP) {
            atom z = { gi, { 0 } };
            size_t mark = s->mb.n;
            dead = atom_moves(s, &z) == 0;
            s->mb.n = mark;
        }
        s->zero_dead[gi] = (int8_t)dead;
    }
    return s->zero_dead[gi];
}

static int cmp_atom(const void *x, const void *y) {
    const atom *a = x, *b = y;
    if (a->game != b->game) return a->game < b->game ? -1 : 1;
    for (int i = 0; i < GR_MAX_ARITY; i++)
        if (a->c[i] != b->c[i]) return a->c[i] < b->c[i] ? -1 : 1;
    return 0;
}

/* Children differ from a sorted parent in one or two atoms, so insertion sort is near linear. */
static void sort_atoms(atom *a, int n) {
    if (n > 32) { qsort(a, (size_t)n, sizeof *a, cmp_atom); return; }
    for (int i = 1; i < n; i++) {
        if (cmp_atom(&a[i - 1], &a[i]) <= 0) continue;
        atom x = a[i];
        int j = i;
        while (j > 0 && cmp_atom(&a[j - 1], &x) > 0) { a[j] = a[j - 1]; j--; }
        a[j] = x;
    }
}

typedef struct comp_ref { const uint8_t *p; size_t len; } comp_ref;
static int cmp_comp(const void *x, const void *y) {
    const comp_ref *a = x, *b = y;
    size_t n = a->len < b->len ? a->len : b->len;
    int r = n ? memcmp(a->p, b->p, n) : 0;   /* p may be NULL when n is 0 */
    if (r) return r;
    return (a->len > b->len) - (a->len < b->len);
}

/* Canonical bytes of p into s->enc (p's atoms are sorted in place). */
static void encode(gr_sumgraph *s, spos *p) {
    int merge = s->conv == CONV_NORMAL || s->conv == CONV_MISERE;
    s->ntmp = 0;
    s->tmp = grow(s->c, s->tmp, 1, &s->captmp, 1);   /* never NULL, even for an empty position */
    int nc = merge ? 1 : p->nc;
    if ((size_t)nc + 1 > (size_t)s->capcomp) {
        size_t cap = (size_t)s->capcomp;
        s->comp_off = grow(s->c, s->comp_off, (size_t)nc + 1, &cap, sizeof *s->comp_off);
        cap = (size_t)s->capcomp;
        s->comp_len = grow(s->c, s->comp_len, (size_t)nc + 1, &cap, sizeof *s->comp_len);
        s->capcomp = (int)cap;
    }
    for (int k = 0; k < nc; k++) {
        int lo = merge ? 0 : p->cs[k], hi = merge ? p->na : p->cs[k + 1];
        if (hi > lo) sort_atoms(p->a + lo, hi - lo);
        size_t start = s->ntmp;
        for (int i = lo; i < hi; i++) {
            const atom *a = &p->a[i];
            if (s->games[a->game]->shape == SHAPE_HEAP && a->c[0] == 0 && zero_is_dead(s, a->game)) continue;
            put_uvarint(s, (uint64_t)a->game);
            for (int j = 0; j < s->games[a->game]->arity; j++) put_svarint(s, a->c[j]);
        }
        s->comp_off[k] = start;
        s->comp_len[k] = s->ntmp - start;
    }
    /* Sort components by their bytes and write: count, then (length, bytes) each. */
    s->refs = grow(s->c, s->refs, (size_t)nc + 1, &s->caprefs, sizeof *s->refs);
    comp_ref *refs = s->refs;
    for (int k = 0; k < nc; k++) refs[k] = (comp_ref){ s->tmp + s->comp_off[k], s->comp_len[k] };
    if (nc > 1) qsort(refs, (size_t)nc, sizeof *refs, cmp_comp);
    s->nenc = 0;
    size_t need = s->ntmp + (size_t)nc * 10 + 10;
    s->enc = grow(s->c, s->enc, need, &s->capenc, 1);
    uint8_t *o = s->enc;
    size_t n = 0;
    uint64_t v = (uint64_t)nc;
    while (v >= 0x80) { o[n++] = (uint8_t)(v | 0x80); v >>= 7; }
    o[n++] = (uint8_t)v;
    for (int k = 0; k < nc; k++) {
        v = refs[k].len;
        while (v >= 0x80) { o[n++] = (uint8_t)(v | 0x80); v >>= 7; }
        o[n++] = (uint8_t)v;
        if (refs[k].len) memcpy(o + n, refs[k].p, refs[k].len);   /* p is NULL when no atom was ever written */
        n += refs[k].len;
    }
    s->nenc = n;
}

static void decode(gr_sumgraph *s, const uint8_t *p, size_t len, spos *out) {
    spos_clear(out);
    uint64_t nc = get_uvarint(&p);
    for (uint64_t k = 0; k < nc; k++) {
        spos_comp(s->c, out);
        uint64_t clen = get_uvarint(&p);
        const uint8_t *cend = p + clen;
        while (p < cend) {
            atom a = { 0 };
            a.game = (int32_t)get_uvarint(&p);
            for (int j = 0; j < s->games[a.game]->arity; j++) a.c[j] = get_svarint(&p);
            spos_atom(s->c, out, &a);
        }
    }
    (void)len;   /* the encoding is self-delimiting */
}

/* ---- children of a position ---- */
typedef void (*child_fn)(gr_sumgraph *s, spos *child, void *user);

/* Builds the child where the atoms listed in repl[] (one per moved component, by atom index)
 * are replaced by the chosen moves' parts, in place. */
static void build_child(gr_sumgraph *s, const spos *p, const int *repl_atom, const size_t *repl_move, int nrepl) {
    spos *ch = &s->child;
    spos_clear(ch);
    for (int k = 0; k < p->nc; k++) {
        spos_comp(s->c, ch);
        for (int i = p->cs[k]; i < p->cs[k + 1]; i++) {
            int r = -1;
            for (int j = 0; j < nrepl; j++) if (repl_atom[j] == i) { r = j; break; }
            if (r < 0) { spos_atom(s->c, ch, &p->a[i]); continue; }
            const int64_t *mv = s->mb.v + repl_move[r];
            int64_t nparts = mv[0];
            int arity = s->games[p->a[i].game]->arity;
            for (int64_t q = 0; q < nparts; q++) {
                atom a = { .game = p->a[i].game };
                memcpy(a.c, mv + 1 + q * arity, (size_t)arity * sizeof *a.c);
                spos_atom(s->c, ch, &a);
            }
        }
    }
}

static size_t move_size(const gr_sumgraph *s, int game, size_t off) {
    return 1 + (size_t)s->mb.v[off] * (size_t)s->games[game]->arity;
}

/* Generates every child of p. Returns the kind of position p is for the convention. */
static gr_expand_kind children(gr_sumgraph *s, const spos *p, child_fn fn, void *user) {
    gr_ctx *c = s->c;
    s->mb.n = 0;
    if (p->na > s->cap_atoms) {
        size_t cap = (size_t)s->cap_atoms;
        s->move_off = grow(c, s->move_off, (size_t)p->na, &cap, sizeof *s->move_off);
        cap = (size_t)s->cap_atoms;
        s->move_count = grow(c, s->move_count, (size_t)p->na, &cap, sizeof *s->move_count);
        s->cap_atoms = (int)cap;
    }
    /* A terminal with a fixed outcome decides a position made of that atom alone. */
    for (int i = 0; i < p->na; i++) {
        gr_game *g = s->games[p->a[i].game];
        if (!g->rules || !g->rules->nterms) continue;
        int t = gr_rules_terminal(c, g, p->a[i].c);
        if (t == TERM_WINS || t == TERM_LOSES) {
            if (p->na != 1)
                gr_fail_at(c, g->decl->name_loc, GR_EXIT_INPUT, "'%s' has terminal positions that win or lose, so it can only be played alone, not in a sum", g->name);
            return t == TERM_WINS ? GR_EXPAND_WIN : GR_EXPAND_LOSS;
        }
    }
    int total = 0;
    for (int i = 0; i < p->na; i++) {
        s->move_off[i] = s->mb.n;
        s->move_count[i] = atom_moves(s, &p->a[i]);
        total += s->move_count[i];
    }
    if (s->conv == CONV_ANYLEAF) {
        for (int k = 0; k < p->nc; k++) {
            int live = 0;
            for (int i = p->cs[k]; i < p->cs[k + 1]; i++) live += s->move_count[i];
            if (!live) return GR_EXPAND_WIN;
        }
    }
    if (total == 0) return s->conv == CONV_MISERE ? GR_EXPAND_WIN : GR_EXPAND_LOSS;
    if (s->conv != CONV_EVERY) {
        for (int i = 0; i < p->na; i++) {
            /* An atom equal to the one before it gives the same children. */
            if (i > 0 && cmp_atom(&p->a[i], &p->a[i - 1]) == 0 && s->conv != CONV_ANYLEAF) continue;
            size_t off = s->move_off[i];
            for (int m = 0; m < s->move_count[i]; m++) {
                build_child(s, p, &i, &off, 1);
                fn(s, &s->child, user);
                off += move_size(s, p->a[i].game, off);
            }
        }
        return GR_EXPAND_MOVES;
    }
    /* every: one move in each component that can move, all combinations (an odometer). */
    int nm = 0;
    int *comp_of = gr_alloc(c, sizeof(int) * (size_t)(p->nc + 1));
    for (int k = 0; k < p->nc; k++) {
        int live = 0;
        for (int i = p->cs[k]; i < p->cs[k + 1]; i++) live += s->move_count[i];
        if (live) comp_of[nm++] = k;
    }
    int *at = gr_alloc(c, sizeof(int) * (size_t)(nm + 1) * 2);
    int *idx = at + nm + 1;             /* move index within the component */
    int *repl_atom = gr_alloc(c, sizeof(int) * (size_t)(nm + 1));
    size_t *repl_move = gr_alloc(c, sizeof(size_t) * (size_t)(nm + 1));
    uint64_t produced = 0;
    for (int j = 0; j < nm; j++) idx[j] = 0;
    for (;;) {
        /* Locate move idx[j] of component comp_of[j]. */
        for (int j = 0; j < nm; j++) {
            int k = comp_of[j], m = idx[j];
            for (int i = p->cs[k]; i < p->cs[k + 1]; i++) {
                if (m < s->move_count[i]) {
                    size_t off = s->move_off[i];
                    for (int q = 0; q < m; q++) off += move_size(s, p->a[i].game, off);
                    repl_atom[j] = i;
                    repl_move[j] = off;
                    break;
                }
                m -= s->move_count[i];
            }
        }
        build_child(s, p, repl_atom, repl_move, nm);
        fn(s, &s->child, user);
        if (++produced > MAX_CHILDREN_EVERY)
            gr_fail(c, GR_EXIT_LIMIT, "a position under 'every' has more than %d moves (one in each component, all combinations)", MAX_CHILDREN_EVERY);
        int j = nm - 1;
        for (; j >= 0; j--) {
            int k = comp_of[j], live = 0;
            for (int i = p->cs[k]; i < p->cs[k + 1]; i++) live += s->move_count[i];
            if (++idx[j] < live) break;
            idx[j] = 0;
        }
        if (j < 0) break;
    }
    gr_free(c, comp_of);
    gr_free(c, at);
    gr_free(c, repl_atom);
    gr_free(c, repl_move);
    return GR_EXPAND_MOVES;
}

/* ---- the position graph client ---- */
typedef struct expand_ctx { gr_pg_sink *sink; } expand_ctx;

static void emit_child(gr_sumgraph *s, spos *child, void *user) {
    expand_ctx *e = user;
    encode(s, child);
    gr_pg_emit(e->sink, s->enc, s->nenc);
}

static gr_expand_kind expand(void *user, const uint8_t *pos, size_t len, gr_pg_sink *sink) {
    gr_sumgraph *s = user;
    decode(s, pos, len, &s->cur);
    expand_ctx e = { sink };
    return children(s, &s->cur, emit_child, &e);
}

gr_sumgraph *gr_sumgraph_new(gr_ctx *c, gr_module *m, gr_conv conv) {
    gr_sumgraph *s = gr_alloc(c, sizeof *s);
    s->c = c;
    s->conv = conv;
    for (gr_game *g = m->games; g; g = g->next) s->ngames++;
    s->games = gr_alloc(c, sizeof *s->games * (size_t)(s->ngames + 1));
    s->zero_dead = gr_alloc(c, (size_t)s->ngames + 1);
    int i = 0;
    for (gr_game *g = m->games; g; g = g->next) { s->zero_dead[i] = -1; s->games[i++] = g; }
    s->pg = gr_pg_new(c, expand, s, c->max_positions);
    return s;
}

void gr_sumgraph_free(gr_sumgraph *s) {
    gr_ctx *c = s->c;
    gr_pg_free(s->pg);
    gr_free(c, s->cur.a); gr_free(c, s->cur.cs);
    gr_free(c, s->child.a); gr_free(c, s->child.cs);
    gr_free(c, s->mb.v);
    gr_free(c, s->move_off); gr_free(c, s->move_count);
    gr_free(c, s->enc); gr_free(c, s->tmp);
    gr_free(c, s->comp_off); gr_free(c, s->comp_len); gr_free(c, s->refs);
    gr_free(c, s->games); gr_free(c, s->zero_dead);
    gr_free(c, s);
}

static int game_index(gr_sumgraph *s, const gr_game *g) {
    for (int i = 0; i < s->ngames; i++) if (s->games[i] == g) return i;
    return 0;
}

static void load_start(gr_sumgraph *s, const gr_comp *comps, int n, spos *p) {
    spos_clear(p);
    for (int i = 0; i < n; i++) {
        spos_comp(s->c, p);
        atom a = { .game = game_index(s, comps[i].game) };
        memcpy(a.c, comps[i].c, sizeof a.c);
        for (int j = comps[i].game->arity; j < GR_MAX_ARITY; j++) a.c[j] = 0;
        spos_atom(s->c, p, &a);
    }
}

uint32_t gr_sumgraph_add(gr_sumgraph *s, const gr_comp *comps, int n) {
    load_start(s, comps, n, &s->cur);
    encode(s, &s->cur);
    return gr_pg_add(s->pg, s->enc, s->nenc);
}

uint32_t gr_sumgraph_id(gr_sumgraph *s, const gr_comp *comps, int n) {
    load_start(s, comps, n, &s->cur);
    encode(s, &s->cur);
    return (uint32_t)gr_pg_find(s->pg, s->enc, s->nenc);
}

void gr_sumgraph_solve(gr_sumgraph *s) { gr_pg_solve(s->pg); }
gr_pg *gr_sumgraph_pg(gr_sumgraph *s) { return s->pg; }

/* ---- moves of a start, for winning-move lists ---- */
typedef struct list_ctx {
    gr_child_fn fn; void *user;
    uint32_t *seen; size_t nseen, cap;
    char text[4096];
} list_ctx;

static void list_child(gr_sumgraph *s, spos *child, void *user) {
    list_ctx *l = user;
    render_spos(s, child, l->text, sizeof l->text);   /* before encode sorts it */
    encode(s, child);
    int64_t id = gr_pg_find(s->pg, s->enc, s->nenc);
    if (id < 0) return;
    for (size_t i = 0; i < l->nseen; i++) if (l->seen[i] == (uint32_t)id) return;
    l->seen = grow(s->c, l->seen, l->nseen + 1, &l->cap, sizeof *l->seen);
    l->seen[l->nseen++] = (uint32_t)id;
    l->fn(l->user, l->text, (uint32_t)id);
}

void gr_sumgraph_moves(gr_sumgraph *s, const gr_comp *comps, int n, gr_child_fn fn, void *user) {
    spos start = { 0 };
    load_start(s, comps, n, &start);
    list_ctx *l = gr_alloc(s->c, sizeof *l);
    l->fn = fn;
    l->user = user;
    /* children() uses s->cur only through its argument, so a private start is safe. */
    children(s, &start, list_child, l);
    gr_free(s->c, l->seen);
    gr_free(s->c, l);
    gr_free(s->c, start.a);
    gr_free(s->c, start.cs);
}

/* ---- winning moves on the fast path ---- */
typedef struct fast_ctx {
    gr_ctx *c;
    const gr_comp *comps; int n, at;
    int64_t want;                 /* the value the moved component must take */
    gr_child_fn fn; void *user;
    char **seen; size_t nseen, cap;
    char text[4096];
} fast_ctx;

/* Reports the sum with component f->at replaced by parts (or by the text `as`, if given). */
static void fast_report(fast_ctx *f, const gr_game *g, const int64_t *parts, int nparts, const char *as) {
    size_t pos = 0, cap = sizeof f->text;
    f->text[0] = '\0';
    int first = 1;
    for (int i = 0; i < f->n && pos < cap; i++) {
        if (i != f->at) {
            if (!first) pos += (size_t)snprintf(f->text + pos, cap - pos, " + ");
            pos = render_atom(f->comps[i].game, f->comps[i].c, f->text, cap, pos);
            first = 0;
            continue;
        }
        if (as && pos < cap) { pos += (size_t)snprintf(f->text + pos, cap - pos, "%s%s", first ? "" : " + ", as); first = 0; }
        for (int q = 0; !as && q < nparts && pos < cap; q++) {
            if (!first) pos += (size_t)snprintf(f->text + pos, cap - pos, " + ");
            pos = render_atom(g, parts + q * g->arity, f->text, cap, pos);
            first = 0;
        }
    }
    if (first) snprintf(f->text, cap, "0");
    for (size_t i = 0; i < f->nseen; i++) if (strcmp(f->seen[i], f->text) == 0) return;
    f->seen = grow(f->c, f->seen, f->nseen + 1, &f->cap, sizeof *f->seen);
    f->seen[f->nseen++] = gr_strndup(f->c, f->text, strlen(f->text));
    f->fn(f->user, f->text, 0);
}

static void fast_heap_option(void *user, const int64_t *heaps, int nheaps) {
    fast_ctx *f = user;
    gr_game *g = f->comps[f->at].game;
    int64_t x = 0;
    for (int i = 0; i < nheaps; i++) x ^= gr_heap_sg(f->c, g, heaps[i]);
    if (x == f->want) fast_report(f, g, heaps, nheaps, NULL);
}

static void fast_rules_move(void *user, const int64_t *parts, int nparts, const gr_rmove *mv) {
    (void)mv;
    fast_ctx *f = user;
    gr_game *g = f->comps[f->at].game;
    int64_t x = 0;
    for (int i = 0; i < nparts; i++) x ^= gr_tuple_sg(f->c, g, parts + i * g->arity, g->decl->name_loc);
    if (x == f->want) fast_report(f, g, parts, nparts, NULL);
}

static void fast_cut(void *user, int edge) {
    fast_ctx *f = user;
    gr_game *g = f->comps[f->at].game;
    char text[2048];
    gr_hb_render(f->c, g->name, g->figure, f->comps[f->at].c, edge, text, sizeof text, 0);
    fast_report(f, g, NULL, 0, text);
}

typedef struct fast_coins { fast_ctx *f; int64_t x, total; } fast_coins;
static void fast_flip(void *user, const int64_t *others, int n) {
    fast_coins *k = user;
    gr_game *g = k->f->comps[k->f->at].game;
    int64_t v = gr_turning_value(k->f->c, g, k->x), m[GR_COIN_WORDS];
    for (int i = 0; i < n; i++) v ^= gr_turning_value(k->f->c, g, others[i]);
    if (v != k->total) return;   /* the flip must change this component's value by the total */
    memcpy(m, k->f->comps[k->f->at].c, sizeof m);
    gr_coin_flip(m, k->x);
    for (int i = 0; i < n; i++) gr_coin_flip(m, others[i]);
    fast_report(k->f, g, m, 1, NULL);
}

int gr_sum_fast_moves(gr_ctx *c, const gr_comp *comps, int n, const int64_t *vals, int64_t total,
                      gr_child_fn fn, void *user) {
    int complete = 1;
    fast_ctx *f = gr_alloc(c, sizeof *f);
    f->c = c; f->comps = comps; f->n = n; f->fn = fn; f->user = user;
    for (int i = 0; i < n; i++) {
        gr_game *g = comps[i].game;
        f->at = i;
        f->want = total ^ vals[i];
        if (g->shape == SHAPE_FIGURE) complete &= gr_hb_moves(c, g->figure, comps[i].c, f->want, fast_cut, f);
        else if (g->shape == SHAPE_COINS) {
            fast_coins k = { f, 0, total };
            for (k.x = 0; k.x < GR_COIN_PLACES; k.x++)
                if (gr_coin_heads(comps[i].c, k.x)) gr_turning_flips(c, g, k.x, fast_flip, &k);
        } else if (g->shape == SHAPE_HEAP) {
            int64_t h = comps[i].c[0];
            gr_heap_options(c, g, h, fast_heap_option, f);
        } else {
            if (g->rules->nterms && gr_rules_terminal(c, g, comps[i].c) >= 0) continue;
            gr_rules_moves(c, g, comps[i].c, fast_rules_move, f);
        }
    }
    gr_free(c, f->seen);
    gr_free(c, f);
    return complete;
}

/* ---- loopy sums by generalised SG values ---- */
/* Smith's theory for sums of loopy impartial games: with gamma values g_i (finite, or
 * infinite with the set K_i of finite values of the options),
 *   all finite                 gamma = xor, a P-position iff it is 0
 *   one infinite, xor x of the rest   N if x is in K, else a draw
 *   two or more infinite       a draw
 * so each component's own graph is solved once and the product graph is never built. */
typedef struct gamma_comp { gr_sumgraph *s; uint32_t id; int64_t gamma; } gamma_comp;

typedef struct gamma_moves {
    gr_ctx *c;
    const gr_comp *comps; int n, at;
    gamma_comp *g;
    int64_t rest;                 /* xor of the other components, all finite */
    gr_child_fn fn; void *user;
    char text[4096];
} gamma_moves;

static void gamma_move(void *user, const char *text, uint32_t child) {
    gamma_moves *m = user;
    int64_t v = gr_pg_gamma(gr_sumgraph_pg(m->g[m->at].s), child);
    if (v < 0 || (v ^ m->rest) != 0) return;
    size_t pos = 0, cap = sizeof m->text;
    for (int i = 0; i < m->n && pos < cap; i++) {
        if (i) pos += (size_t)snprintf(m->text + pos, cap - pos, " + ");
        if (i == m->at) pos += (size_t)snprintf(m->text + pos, cap - pos, "%s", text);
        else pos = render_atom(m->comps[i].game, m->comps[i].c, m->text, cap, pos);
    }
    m->fn(m->user, m->text, 0);
}

int gr_sum_gamma(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, int *outcome, int64_t *sg,
                 gr_child_fn fn, void *user) {
    gamma_comp *g = gr_alloc(c, sizeof *g * (size_t)n);
    int ok = 1, ninf = 0, inf_at = -1;
    int64_t x = 0;
    for (int i = 0; i < n && ok; i++) {
        g[i].s = gr_sumgraph_new(c, m, CONV_NORMAL);
        g[i].id = gr_sumgraph_add(g[i].s, &comps[i], 1);
        gr_sumgraph_solve(g[i].s);
        gr_pg_solve_gamma(gr_sumgraph_pg(g[i].s));
        g[i].gamma = gr_pg_gamma(gr_sumgraph_pg(g[i].s), g[i].id);
        if (g[i].gamma == GR_GAMMA_INF) { ninf++; inf_at = i; }
        else if (g[i].gamma < 0) ok = 0;
        else x ^= g[i].gamma;
    }
    if (ok) {
        *sg = -1;
        if (ninf == 0) {
            *sg = x;
            *outcome = x ? GR_WIN : GR_LOSS;
        } else if (ninf == 1) {
            gr_pg *pg = gr_sumgraph_pg(g[inf_at].s);
            size_t nk = gr_pg_gamma_set(pg, g[inf_at].id, NULL, 0);
            uint32_t *k = gr_alloc(c, sizeof *k * (nk + 1));
            gr_pg_gamma_set(pg, g[inf_at].id, k, nk);
            *outcome = GR_DRAW;
            for (size_t i = 0; i < nk; i++) if ((int64_t)k[i] == x) *outcome = GR_WIN;
            gr_free(c, k);
        } else {
            *outcome = GR_DRAW;
        }
        /* A winning move leaves every component finite with xor 0: the infinite one (if any)
         * must move, else any component may. */
        if (*outcome == GR_WIN && fn) {
            gamma_moves *gm = gr_alloc(c, sizeof *gm);
            *gm = (gamma_moves){ .c = c, .comps = comps, .n = n, .g = g, .fn = fn, .user = user };
            for (int i = 0; i < n; i++) {
                if (ninf == 1 && i != inf_at) continue;
                gm->at = i;
                gm->rest = ninf == 1 ? x : x ^ g[i].gamma;
                gr_sumgraph_moves(g[i].s, &comps[i], 1, gamma_move, gm);
            }
            gr_free(c, gm);
        }
    }
    for (int i = 0; i < n; i++) if (g[i].s) gr_sumgraph_free(g[i].s);
    gr_free(c, g);
    return ok;
}
