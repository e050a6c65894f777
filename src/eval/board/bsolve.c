/* bsolve: SG values and misere outcomes of positions on boards; see bsolve.h. */
#include "eval/board/bsolve.h"
#include <string.h>

/* ---- sets of vertices: b->words words each ---- */
static int set_empty(const uint64_t *s, int w) {
    for (int i = 0; i < w; i++) if (s[i]) return 0;
    return 1;
}

static int set_count(const uint64_t *s, int w) {
    int n = 0;
    for (int i = 0; i < w; i++) n += __builtin_popcountll(s[i]);
    return n;
}

static const uint64_t *row(const gr_board *b, int v) {
    return b->adj + (size_t)v * (size_t)b->words;
}

/* out = the vertices of set within r of seeds (seeds in set); f1, f2 scratch. */
static void ball(const gr_board *b, const uint64_t *set, int r, uint64_t *out, uint64_t *f1, uint64_t *f2) {
    int w = b->words;
    memcpy(f1, out, (size_t)w * sizeof *f1);
    for (int step = 0; step < r; step++) {
        memset(f2, 0, (size_t)w * sizeof *f2);
        for (int i = 0; i < w; i++)
            for (uint64_t x = f1[i]; x; x &= x - 1) {
                const uint64_t *a = row(b, i * 64 + __builtin_ctzll(x));
                for (int k = 0; k < w; k++) f2[k] |= a[k];
            }
        int grew = 0;
        for (int k = 0; k < w; k++) {
            f2[k] &= set[k] & ~out[k];
            out[k] |= f2[k];
            grew |= f2[k] != 0;
        }
        if (!grew) return;
        memcpy(f1, f2, (size_t)w * sizeof *f1);
    }
}

/* comp = the component of rem holding its least vertex; f1, f2 scratch. */
static void component(const gr_board *b, const uint64_t *rem, uint64_t *comp, uint64_t *f1, uint64_t *f2) {
    int w = b->words;
    memset(comp, 0, (size_t)w * sizeof *comp);
    for (int i = 0; i < w; i++)
        if (rem[i]) { comp[i] = rem[i] & (0 - rem[i]); break; }
    ball(b, rem, GR_BOARD_MAXV, comp, f1, f2);
}

/* ---- the moves of a rule ---- */
typedef struct moveit {
    const gr_board *b; const gr_board_rule *r; const uint64_t *set;
    int v;                         /* the vertex (the lower end of an edge) */
    int wi; uint64_t bits;         /* edges: the higher ends left in word wi */
} moveit;

static int next_vertex(const moveit *m, int v) {
    for (v++; v < m->b->n; v++) {
        int i = v >> 6;
        uint64_t x = m->set[i] >> (v & 63);
        if (x) return v + __builtin_ctzll(x);
        v = i * 64 + 63;
    }
    return m->b->n;
}

static void edge_start(moveit *m) {
    m->wi = m->v >> 6;
    m->bits = m->v < m->b->n ? row(m->b, m->v)[m->wi] & m->set[m->wi] & ~((UINT64_C(2) << (m->v & 63)) - 1) : 0;
}

/* The next move's removed vertices into out (f1, f2 scratch); 0 when none is left. */
static int moves_next(moveit *m, uint64_t *out, uint64_t *f1, uint64_t *f2) {
    const gr_board *b = m->b;
    int w = b->words;
    for (;;) {
        if (!m->r->edge) {
            m->v = next_vertex(m, m->v);
            if (m->v >= b->n) return 0;
            if (m->r->deg_ok) {
                const uint64_t *a = row(b, m->v);
                int d = 0;
                for (int k = 0; k < w; k++) d += __builtin_popcountll(a[k] & m->set[k]);
                if (!m->r->deg_ok[d]) continue;
            }
            memset(out, 0, (size_t)w * sizeof *out);
            out[m->v >> 6] |= UINT64_C(1) << (m->v & 63);
            ball(b, m->set, m->r->radius, out, f1, f2);
            return 1;
        }
        while (!m->bits && m->v < b->n) {
            if (++m->wi < w) { m->bits = row(b, m->v)[m->wi] & m->set[m->wi]; continue; }
            m->v = next_vertex(m, m->v);
            edge_start(m);
        }
        if (m->v >= b->n) return 0;
        int u = m->wi * 64 + __builtin_ctzll(m->bits);
        m->bits &= m->bits - 1;
        memset(out, 0, (size_t)w * sizeof *out);
        out[m->v >> 6] |= UINT64_C(1) << (m->v & 63);
        out[u >> 6] |= UINT64_C(1) << (u & 63);
        ball(b, m->set, m->r->radius, out, f1, f2);
        return 1;
    }
}

static void moves_init(moveit *m, const gr_board *b, const gr_board_rule *r, const uint64_t *set) {
    *m = (moveit){ b, r, set, -1, 0, 0 };
    if (r->edge) { m->v = next_vertex(m, -1); edge_start(m); }
}

size_t gr_board_moves_scratch(const gr_board *b) {
    return 3 * (size_t)b->words;
}

void gr_board_moves(const gr_board *b, const gr_board_rule *r, const uint64_t *set, uint64_t *scratch,
                    gr_bmove_fn fn, void *user) {
    moveit m;
    moves_init(&m, b, r, set);
    int w = b->words;
    while (moves_next(&m, scratch, scratch + w, scratch + 2 * w)) fn(user, scratch);
}

/* ---- the search ---- */
/* Per depth: removed, rem, comp, f1, f2 (a set each), then the mex's bitmap of `seen` words. */
enum { SETS_PER_DEPTH = 5 };

static size_t seen_words(const gr_bsearch *s) {
    size_t moves = (size_t)s->b->n;
    if (s->rule->edge) {
        moves = 0;
        for (int v = 0; v < s->b->n; v++) moves += (size_t)set_count(row(s->b, v), s->b->words);
        moves /= 2;
    }
    return moves / 64 + 2;
}

void gr_bsearch_init(gr_bsearch *s, gr_ctx *c, const gr_board *b, const gr_board_rule *rule, gr_bstore *store,
                     gr_canon_mode mode) {
    memset(s, 0, sizeof *s);
    s->c = c; s->b = b; s->rule = rule; s->store = store;
    gr_canon_init(c, &s->canon, mode, b->n);
    s->scratch = gr_alloc(c, gr_size_mul(c, (size_t)b->n + 2, sizeof *s->scratch));
}

void gr_bsearch_free(gr_bsearch *s) {
    for (int d = 0; d <= s->b->n + 1; d++)
        if (s->scratch[d]) gr_free(s->c, s->scratch[d]);
    gr_free(s->c, s->scratch);
    gr_canon_free(s->c, &s->canon);
}

static uint64_t *depth_scratch(gr_bsearch *s) {
    if (s->depth > s->b->n + 1) gr_fail(s->c, GR_EXIT_LIMIT, "the board search went deeper than the board's vertices");
    uint64_t **p = &s->scratch[s->depth];
    if (!*p) *p = gr_alloc(s->c, gr_size_mul(s->c, SETS_PER_DEPTH * (size_t)s->b->words + seen_words(s) + gr_canon_cap(s->b) + 1 + (size_t)s->b->words,
                                              sizeof **p));
    return *p;
}

static int64_t component_sg(gr_bsearch *s, const uint64_t *comp);

/* The xor of the values of the components of rem (consumed). */
static int64_t sum_sg(gr_bsearch *s, uint64_t *rem, uint64_t *comp, uint64_t *f1, uint64_t *f2) {
    int w = s->b->words;
    int64_t x = 0;
    while (!set_empty(rem, w)) {
        component(s->b, rem, comp, f1, f2);
        for (int i = 0; i < w; i++) rem[i] &= ~comp[i];
        x ^= component_sg(s, comp);
    }
    return x;
}

/* A component of at most two vertices, by hand: -1 when larger. */
static int64_t small_sg(const gr_bsearch *s, const uint64_t *comp) {
    int n = set_count(comp, s->b->words);
    if (n > 2) return -1;
    if (n == 0) return 0;
    const gr_board_rule *r = s->rule;
    if (n == 1) return !r->edge && (!r->deg_ok || r->deg_ok[0]);
    if (r->edge) return 1;   /* an edge: one move takes both ends */
    if (r->deg_ok && !r->deg_ok[1]) return 0;
    if (r->radius) return 1;
    return r->deg_ok && !r->deg_ok[0];   /* radius 0: the vertex left is *1 when it may be taken */
}

static int64_t component_sg(gr_bsearch *s, const uint64_t *comp) {
    int64_t v = small_sg(s, comp);
    if (v >= 0) return v;
    s->depth++;
    uint64_t *m0 = depth_scratch(s);
    int w = s->b->words;
    size_t nseen = seen_words(s);
    uint64_t *removed = m0, *rem = m0 + w, *sub = m0 + 2 * w, *f1 = m0 + 3 * w, *f2 = m0 + 4 * w;
    uint64_t *seen = m0 + SETS_PER_DEPTH * (size_t)w, *key = seen + nseen, *ekey = key + gr_canon_cap(s->b);
    ekey[0] = (uint64_t)s->b->kind | (uint64_t)(s->b->p0 & 0xffffff) << 8 | (uint64_t)(s->b->p1 & 0xffffff) << 32;
    memcpy(ekey + 1, comp, (size_t)w * sizeof *comp);
    uint64_t eh = gr_btt_hash(ekey, (size_t)w + 1);
    int32_t known = gr_btt_get(&s->store->exact, ekey, (size_t)w + 1, eh);
    if (known >= 0) { s->depth--; return known; }
    size_t len = gr_canon_key(&s->canon, s->b, comp, key);
    uint64_t h = gr_btt_hash(key, len);
    known = gr_btt_get(&s->store->sg, key, len, h);
    if (known >= 0) {
        gr_btt_put(s->c, &s->store->exact, ekey, (size_t)w + 1, eh, known);
        s->depth--;
        return known;
    }
    gr_poll(s->c);
    memset(seen, 0, nseen * sizeof *seen);
    moveit m;
    moves_init(&m, s->b, s->rule, comp);
    while (moves_next(&m, removed, f1, f2)) {
        for (int i = 0; i < w; i++) rem[i] = comp[i] & ~removed[i];
        int64_t x = sum_sg(s, rem, sub, f1, f2);
        if ((uint64_t)x < nseen * 64) seen[x >> 6] |= UINT64_C(1) << (x & 63);
    }
    int64_t mex = 0;
    while (seen[mex >> 6] >> (mex & 63) & 1) mex++;
    gr_btt_put(s->c, &s->store->sg, key, len, h, (int32_t)mex);
    gr_btt_put(s->c, &s->store->exact, ekey, (size_t)w + 1, eh, (int32_t)mex);
    s->store->solved++;
    s->depth--;
    return mex;
}

int64_t gr_bsearch_sg(gr_bsearch *s, const uint64_t *set) {
    int w = s->b->words;
    s->depth++;
    uint64_t *m0 = depth_scratch(s);
    memcpy(m0 + w, set, (size_t)w * sizeof *set);
    int64_t x = sum_sg(s, m0 + w, m0 + 2 * w, m0 + 3 * w, m0 + 4 * w);
    s->depth--;
    return x;
}

int gr_bsearch_misere(gr_bsearch *s, const uint64_t *set) {
    s->depth++;
    uint64_t *m0 = depth_scratch(s);
    int w = s->b->words;
    uint64_t *removed = m0, *rem = m0 + w, *f1 = m0 + 3 * w, *f2 = m0 + 4 * w;
    uint64_t *key = m0 + SETS_PER_DEPTH * (size_t)w + seen_words(s);
    size_t len = gr_canon_key(&s->canon, s->b, set, key);
    uint64_t h = gr_btt_hash(key, len);
    int32_t known = gr_btt_get(&s->store->misere, key, len, h);
    if (known >= 0) { s->depth--; return known; }
    gr_poll(s->c);
    moveit m;
    moves_init(&m, s->b, s->rule, set);
    int any = 0, win = 0;
    while (!win && moves_next(&m, removed, f1, f2)) {
        any = 1;
        for (int i = 0; i < w; i++) rem[i] = set[i] & ~removed[i];
        win = !gr_bsearch_misere(s, rem);
    }
    if (!any) win = 1;   /* no move: under misere play the player to move wins */
    gr_btt_put(s->c, &s->store->misere, key, len, h, win);
    s->depth--;
    return win;
}
