/* sums: sums of components under every convention; see sums.h. */
#include "sums.h"
#include "eval/evaluator.h"
#include "grow.h"
#include "textset.h"
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

/* The printed form (render.h): components with more than one atom are parenthesised where
 * components matter; empty heaps are left out; a component left with nothing is left out,
 * except under 'anyleaf', where it is a leaf, written as its first empty heap (or *0 once
 * the canonical encoding has dropped it); a position of nothing is *0. */
static void render_spos(const gr_sumgraph *s, const spos *p, gr_text *t) {
    gr_text_clear(t);
    int group = s->conv == CONV_ANYLEAF || s->conv == CONV_EVERY;
    int first = 1;
    for (int k = 0; k < p->nc; k++) {
        int lo = p->cs[k], hi = p->cs[k + 1], live = 0;
        for (int i = lo; i < hi; i++) live += !gr_atom_empty(s->c, s->games[p->a[i].game], p->a[i].c);
        if (!live) {
            if (s->conv != CONV_ANYLEAF) continue;
            if (!first) gr_text_printf(t, " + ");
            first = 0;
            if (lo == hi) gr_text_printf(t, "*0");
            else gr_sum_text_atom(t, s->games[p->a[lo].game], p->a[lo].c, -1);
            continue;
        }
        int paren = group && live > 1;   /* one component, even alone */
        if (!first) gr_text_printf(t, " + ");
        first = 0;
        if (paren) gr_text_printf(t, "(");
        int in = 1;
        for (int i = lo; i < hi; i++) gr_sum_text_comp(t, s->games[p->a[i].game], p->a[i].c, &in);
        if (paren) gr_text_printf(t, ")");
    }
    gr_sum_text_end(t, first);
}

/* ---- moves of one atom ---- */
typedef struct mb_ctx { gr_sumgraph *s; int arity; int count; } mb_ctx;

static void mb_push(gr_sumgraph *s, int64_t v) {
    s->mb.v = grow(s->c, s->mb.v, s->mb.n + 1, &s->mb.cap, sizeof *s->mb.v);
    s->mb.v[s->mb.n++] = v;
}

static void mb_option(void *user, const int64_t *parts, int nparts) {
    mb_ctx *m = user;
    mb_push(m->s, nparts);
    for (int i = 0; i < nparts * m->arity; i++) mb_push(m->s, parts[i]);
    m->count++;
}


/* Appends the moves of atom a to s->mb; returns how many. */
static int atom_moves(gr_sumgraph *s, const atom *a) {
    gr_game *g = s->games[a->game];
    mb_ctx m = { s, g->arity, 0 };
    gr_eval_options(s->c, g, a->c, mb_option, &m);
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
static void emit_child(gr_sumgraph *s, spos *child, void *user);
static void emit_encoded(gr_sumgraph *s, void *user);

/* Can encode_replaced write p's children? Under the merged conventions (one multiset of
 * atoms) with one coordinate an atom, p, decoded from a canonical encoding, is sorted. */
static int direct_children(const gr_sumgraph *s, const spos *p) {
    if (s->conv != CONV_NORMAL && s->conv != CONV_MISERE) return 0;
    for (int i = 0; i < p->na; i++)
        if (s->games[p->a[i].game]->arity != 1) return 0;
    return 1;
}

/* Writes one atom (game, heap) as encode() does, unless it is a heap of 0 without moves. */
static size_t put_atom1(gr_sumgraph *s, uint8_t *o, size_t n, int32_t game, int64_t x) {
    if (x == 0 && s->games[game]->shape == SHAPE_HEAP && zero_is_dead(s, game)) return n;
    uint64_t v = (uint64_t)game;
    while (v >= 0x80) { o[n++] = (uint8_t)(v | 0x80); v >>= 7; }
    o[n++] = (uint8_t)v;
    v = ((uint64_t)x << 1) ^ (uint64_t)(x >> 63);
    while (v >= 0x80) { o[n++] = (uint8_t)(v | 0x80); v >>= 7; }
    o[n++] = (uint8_t)v;
    return n;
}

/* The canonical encoding (into s->enc) of sorted p with atom i replaced by the parts of the
 * move at s->mb.v[off]: byte for byte what encode() writes for the child build_child()
 * makes, by merging the parts into p's order instead of building the child and sorting it.
 * Only where direct_children(s, p) holds. */
static void encode_replaced(gr_sumgraph *s, const spos *p, int i, size_t off) {
    const int64_t *mv = s->mb.v + off;
    size_t np = (size_t)mv[0];
    int32_t game = p->a[i].game;
    /* the parts, sorted (there are few: insertion sort) */
    s->mb.v = grow(s->c, s->mb.v, s->mb.n + np + 1, &s->mb.cap, sizeof *s->mb.v);
    mv = s->mb.v + off;
    int64_t *parts = s->mb.v + s->mb.n;
    for (size_t q = 0; q < np; q++) {
        int64_t x = mv[1 + q];
        size_t j = q;
        while (j > 0 && parts[j - 1] > x) { parts[j] = parts[j - 1]; j--; }
        parts[j] = x;
    }
    size_t need = ((size_t)p->na + np) * 20 + 24;
    s->enc = grow(s->c, s->enc, need, &s->capenc, 1);
    uint8_t *o = s->enc + 2;   /* the body, after a count and a length of one byte each */
    size_t n = 0, q = 0;
    for (int k = 0; k < p->na; k++) {
        if (k == i) continue;
        const atom *a = &p->a[k];
        /* parts go before the first atom greater than them: (game, heap) order */
        while (q < np && (game < a->game || (game == a->game && parts[q] < a->c[0]))) n = put_atom1(s, o, n, game, parts[q++]);
        n = put_atom1(s, o, n, a->game, a->c[0]);
    }
    while (q < np) n = put_atom1(s, o, n, game, parts[q++]);
    /* one component: its count, its length, its bytes (moved if the length takes more) */
    uint8_t *e = s->enc;
    size_t m = 1;
    for (uint64_t v = n >> 7; v; v >>= 7) m++;   /* bytes of the length */
    if (m > 1) memmove(e + 1 + m, o, n);
    e[0] = 1;
    m = 1;
    uint64_t v = n;
    while (v >= 0x80) { e[m++] = (uint8_t)(v | 0x80); v >>= 7; }
    e[m++] = (uint8_t)v;
    s->nenc = m + n;
}

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
        int t = gr_eval_terminal(c, g, p->a[i].c);
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
        int direct = fn == emit_child && direct_children(s, p);
        for (int i = 0; i < p->na; i++) {
            /* An atom equal to the one before it gives the same children. */
            if (i > 0 && cmp_atom(&p->a[i], &p->a[i - 1]) == 0 && s->conv != CONV_ANYLEAF) continue;
            size_t off = s->move_off[i];
            for (int m = 0; m < s->move_count[i]; m++) {
                gr_poll(c);
                if (direct) {
                    encode_replaced(s, p, i, off);
                    emit_encoded(s, user);
                } else {
                    build_child(s, p, &i, &off, 1);
                    fn(s, &s->child, user);
                }
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
        gr_poll(c);
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

static void emit_encoded(gr_sumgraph *s, void *user) {
    expand_ctx *e = user;
    gr_pg_emit(e->sink, s->enc, s->nenc);
}

static gr_expand_kind expand(void *user, const uint8_t *pos, size_t len, gr_pg_sink *sink) {
    gr_sumgraph *s = user;
    decode(s, pos, len, &s->cur);
    for (int i = 0; i < s->cur.na; i++) {
        gr_game *g = s->games[s->cur.a[i].game];
        if (!g->state->grow_move) continue;
        gr_grow_reached(s->c, g, s->cur.a[i].c[0]);
        if (!s->c->max_positions && gr_pg_count(s->pg) > GR_GROW_MAX_POSITIONS)
            gr_fail(s->c, GR_EXIT_LIMIT, "position graph stopped at %u positions, the default for heaps that grow "
                    "(raise --max-positions to look further)", gr_pg_count(s->pg));
    }
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
    gr_pg_store_edges(s->pg, 0);   /* most clients want values; those that walk children ask */
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
        if (i == 0 || !comps[i].joined) spos_comp(s->c, p);
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

void gr_sumgraph_render(gr_sumgraph *s, uint32_t id, char *buf, size_t cap) {
    size_t len;
    const uint8_t *key = gr_pg_key(s->pg, id, &len);
    spos p = { 0 };
    decode(s, key, len, &p);
    gr_text t;
    gr_text_init(&t, s->c);
    render_spos(s, &p, &t);
    snprintf(buf, cap, "%s", t.s);
    gr_text_free(&t);
    gr_free(s->c, p.a);
    gr_free(s->c, p.cs);
}
gr_pg *gr_sumgraph_pg(gr_sumgraph *s) { return s->pg; }

/* ---- moves of a start, for winning-move lists ---- */
/* Children are told apart by their ids in the solved graph (equal positions under the
 * convention have one id), kept in a hash set: one entry per distinct position, at once. */
typedef struct list_ctx {
    gr_child_fn fn; void *user;
    gr_byteset seen;
    gr_text text;
} list_ctx;

static void list_child(gr_sumgraph *s, spos *child, void *user) {
    list_ctx *l = user;
    render_spos(s, child, &l->text);   /* before encode sorts it */
    encode(s, child);
    int64_t id = gr_pg_find(s->pg, s->enc, s->nenc);
    if (id < 0) return;
    uint32_t key = (uint32_t)id;
    if (!gr_byteset_add(&l->seen, &key, sizeof key)) return;
    l->fn(l->user, l->text.s, key);
}

void gr_sumgraph_moves(gr_sumgraph *s, const gr_comp *comps, int n, gr_child_fn fn, void *user) {
    spos start = { 0 };
    load_start(s, comps, n, &start);
    list_ctx *l = gr_alloc(s->c, sizeof *l);
    l->fn = fn;
    l->user = user;
    gr_byteset_init(&l->seen, s->c);
    gr_text_init(&l->text, s->c);
    /* children() uses s->cur only through its argument, so a private start is safe. */
    children(s, &start, list_child, l);
    gr_byteset_free(&l->seen);
    gr_text_free(&l->text);
    gr_free(s->c, l);
    gr_free(s->c, start.a);
    gr_free(s->c, start.cs);
}

void gr_sumgraph_atoms(gr_sumgraph *s, uint32_t id, int64_t **parts, size_t *cap, int *nparts) {
    size_t len;
    const uint8_t *key = gr_pg_key(s->pg, id, &len);
    spos p = { 0 };   /* not s->child: the caller may be inside a walk over children */
    decode(s, key, len, &p);
    size_t need = gr_size_mul(s->c, (size_t)p.na + 1, GR_MAX_ARITY);
    if (need > *cap) {
        *parts = gr_realloc(s->c, *parts, gr_size_mul(s->c, need, sizeof **parts));
        *cap = need;
    }
    for (int i = 0; i < p.na; i++) {
        const gr_game *g = s->games[p.a[i].game];
        memcpy(*parts + (size_t)i * (size_t)g->arity, p.a[i].c, (size_t)g->arity * sizeof **parts);
    }
    *nparts = p.na;
    gr_free(s->c, p.a);
    gr_free(s->c, p.cs);
}
