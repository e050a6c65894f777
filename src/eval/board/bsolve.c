/* bsolve: SG values and misere outcomes of positions on boards; see bsolve.h. */
#include "eval/board/bsolve.h"
#include "progress.h"
#include <pthread.h>
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

/* comp = the component of rem holding its least vertex: on a grid of one word by shifts */
static void comp_of(const gr_bsearch *s, const uint64_t *rem, uint64_t *comp, uint64_t *f1, uint64_t *f2) {
    if (s->gs.on) comp[0] = gr_gshape_component(&s->gs, rem[0]);
    else component(s->b, rem, comp, f1, f2);
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
/* The nimber search by outcomes (Lemoine and Viennot, "Nimbers are inevitable", 2012; Beling and
 * Rogalski, "On pruning search trees of impartial games", 2020): sg(X) is the least t such that
 * no option of X has value t, so it is found by asking, for t = 0, 1, ..., whether some option
 * has value t, each question ending at the first option that has it. Whether an option (a sum
 * of components) has value t: every component but the largest is valued exactly (smaller, so
 * cheaper), and of the largest, Y, only whether sg(Y) == u is asked: false as soon as one
 * option of Y has value u (most often found at once), or some v < u is missing among them. So
 * the large components are mostly refuted, not valued. What each question finds is kept per
 * component (gr_bfact): the values its options are known to take and known not to take, and
 * the value once it is known.
 *
 * Per depth (one level per question "has an option of value v", each on a smaller set than the
 * one before but one): removed, rem, rest, comp, big, f1, f2. */
enum { SETS_PER_DEPTH = 7, GR_BFACT_VALUES = 64 };
/* a grid of one word: at most 2 x 64 edges (moves of a vertex rule: at most 64) */
enum { GRID_MOVES = 128 };

void gr_bsearch_init(gr_bsearch *s, gr_ctx *c, const gr_board *b, const gr_board_rule *rule, gr_bstore *store,
                     gr_canon_mode mode) {
    memset(s, 0, sizeof *s);
    s->c = c; s->b = b; s->rule = rule; s->store = store;
    s->threads = 1;
    gr_canon_init(c, &s->canon, mode, b->n);
    s->key = gr_alloc(c, gr_size_mul(c, gr_canon_cap(b) + 2 + (size_t)b->words, sizeof *s->key));
    s->ekey = s->key + gr_canon_cap(b);
    s->scratch = gr_alloc(c, gr_size_mul(c, (size_t)b->n + 2, sizeof *s->scratch));
    gr_gshape_init(&s->gs, b);
    /* the table of exact cells only saves work (the shapes' and the canonical forms' tables
     * hold every fact): at an eighth of the memory limit, or 2^25 slots (800 MB), it starts
     * again rather than grow */
    s->gexact = &store->gexact;
    if (!store->gexact.maxcap) {
        size_t cap = (size_t)1 << 25, lim = c->mem_limit / 8 / sizeof(gr_btt2_slot);
        while (cap > 1024 && cap > lim) cap >>= 1;
        store->gexact.maxcap = cap;
    }
    /* the mirror answer works when a move and its image never meet: one vertex and its
     * neighbours (nodekayles), or one edge (arckayles), any vertex */
    s->twins = !rule->deg_ok && ((rule->edge && rule->radius == 0) || (!rule->edge && rule->radius == 1));
}

void gr_bstore_free(gr_ctx *c, gr_bstore *st) {
    gr_btt_free(c, &st->sg);
    gr_btt_free(c, &st->misere);
    gr_btt_free(c, &st->exact);
    gr_btt2_free(c, &st->gexact);
    gr_btt2_free(c, &st->shape);
    for (size_t i = 0; i < st->nchunks; i++) gr_free(c, st->chunks[i]);
    if (st->chunks) gr_free(c, st->chunks);
    memset(st, 0, sizeof *st);
}

void gr_bstore_room(gr_ctx *c, gr_bstore *st, size_t more, size_t words) {
    if (!st->chunks) st->chunks = gr_alloc(c, GR_BFACT_MAX_CHUNKS * sizeof *st->chunks);
    while ((st->nchunks << GR_BFACT_CHUNK_BITS) < st->nfacts + more && st->nchunks < GR_BFACT_MAX_CHUNKS)
        st->chunks[st->nchunks++] = gr_alloc(c, gr_size_mul(c, (size_t)1 << GR_BFACT_CHUNK_BITS, sizeof(gr_bfact)));
    gr_btt2_reserve(c, &st->shape, st->shape.used + 2 * more);   /* (shapes: more than their canonical forms) */
    gr_btt_reserve(c, &st->sg, st->sg.used + more, st->sg.npool + words);
}

void gr_bsearch_free(gr_bsearch *s) {
    for (int d = 0; d <= s->b->n + 1; d++)
        if (s->scratch[d]) gr_free(s->c, s->scratch[d]);
    gr_free(s->c, s->scratch);
    gr_free(s->c, s->key);
    gr_canon_free(s->c, &s->canon);
    gr_btt2_free(s->c, &s->own_gexact);
    if (s->team && s->team_free) s->team_free(s);
}

/* A member stops: every level returns at once, recording nothing. */
static void stop_member(gr_bsearch *s, int why) {
    if (!s->abort) s->abort = why;
}

static uint64_t *depth_scratch(gr_bsearch *s) {
    if (s->depth > s->b->n + 1) gr_fail(s->c, GR_EXIT_LIMIT, "the board search went deeper than the board's vertices");
    uint64_t **p = &s->scratch[s->depth];
    if (!*p) *p = gr_alloc(s->c, gr_size_mul(s->c, SETS_PER_DEPTH * (size_t)s->b->words + gr_canon_cap(s->b) +
                                                    (s->gs.on ? 2 * GRID_MOVES : 0), sizeof **p));
    return *p;
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

/* ---- what is known of components: facts, under the store's lock in a team ---- */
static void lock(gr_bsearch *s) { if (s->lock) pthread_mutex_lock(s->lock); }
static void unlock(gr_bsearch *s) { if (s->lock) pthread_mutex_unlock(s->lock); }

static int32_t fact_exact(const gr_bsearch *s, int32_t idx) {
    return __atomic_load_n(&gr_bfact_at(s->store, idx)->exact, __ATOMIC_RELAXED);
}

/* A new fact (the lock held in a team); -1 when a member finds no room. */
static int32_t new_fact(gr_bsearch *s, int32_t exact) {
    gr_bstore *st = s->store;
    if (st->nfacts >= (st->nchunks << GR_BFACT_CHUNK_BITS)) {
        if (s->member) { stop_member(s, GR_BABORT_ROOM); return -1; }
        gr_bstore_room(s->c, st, st->nfacts / 2 + 1024, 0);
        if (st->nfacts >= (st->nchunks << GR_BFACT_CHUNK_BITS))
            gr_fail(s->c, GR_EXIT_LIMIT, "more than 2^31 components in the board search's table");
    }
    int32_t idx = (int32_t)st->nfacts++;
    *gr_bfact_at(st, idx) = (gr_bfact){ exact, 0, 0 };
    return idx;
}

/* Room in a shared table for one more entry: always, serially (the table grows); a member
 * without it stops (the caller makes room and starts the team again). */
static int room2(gr_bsearch *s, const gr_btt2 *t) {
    if (!s->member || gr_btt2_room(t)) return 1;
    stop_member(s, GR_BABORT_ROOM);
    return 0;
}

/* Under the component's canonical form (key: len words in s->key), the lock held; made empty
 * on first sight; -1 when a member finds no room. */
static int32_t canon_fact(gr_bsearch *s, size_t len) {
    gr_bstore *st = s->store;
    uint64_t h = gr_btt_hash(s->key, len);
    int32_t idx = gr_btt_get(&st->sg, s->key, len, h);
    if (idx >= 0) return idx;
    if (s->member && !gr_btt_room(&st->sg, len)) { stop_member(s, GR_BABORT_ROOM); return -1; }
    idx = new_fact(s, -1);
    if (idx >= 0) gr_btt_put(s->c, &st->sg, s->key, len, h, idx);
    return idx;
}

/* A grid of one word: by the component's cells (the searcher's own table), then its shape,
 * else (first sight of the shape) valued 0 by its symmetry or found under its canonical form
 * (nauty's labelling out of the lock). -1 when a member finds no room. */
static int32_t shape_fact(gr_bsearch *s, const uint64_t *set) {
    gr_bstore *st = s->store;
    uint64_t board = (uint64_t)s->gs.rows << 8 | (uint64_t)s->gs.cols;
    int32_t idx = gr_btt2_get(s->gexact, set[0], board);
    if (idx >= 0) return idx;
    uint64_t key[2];
    int twin = gr_gshape_key(&s->gs, set[0], key) && s->twins;
    lock(s);
    idx = gr_btt2_get(&st->shape, key[0], key[1]);
    unlock(s);
    if (idx < 0) {
        size_t len = twin ? 0 : gr_canon_key(&s->canon, s->b, set, s->key);
        lock(s);
        idx = gr_btt2_get(&st->shape, key[0], key[1]);   /* (another member's meanwhile) */
        if (idx < 0 && room2(s, &st->shape)) {
            if (twin) {
                idx = new_fact(s, 0);
                if (idx >= 0) __atomic_fetch_add(&st->twins, 1, __ATOMIC_RELAXED);
            } else {
                idx = canon_fact(s, len);
            }
            if (idx >= 0) gr_btt2_put(s->c, &st->shape, key[0], key[1], idx);
        }
        unlock(s);
        if (idx < 0) return -1;
    }
    gr_btt2_put(s->c, s->gexact, set[0], board, idx);   /* (a cache: a member's never grows) */
    return idx;
}

static int32_t fact_of(gr_bsearch *s, const uint64_t *set) {
    if (s->gs.on) return shape_fact(s, set);
    int w = s->b->words;
    gr_bstore *st = s->store;
    uint64_t *ekey = s->ekey;
    ekey[0] = (uint64_t)s->b->kind | (uint64_t)(s->b->p0 & 0xffffff) << 8 | (uint64_t)(s->b->p1 & 0xffffff) << 32;
    memcpy(ekey + 1, set, (size_t)w * sizeof *set);
    uint64_t eh = gr_btt_hash(ekey, (size_t)w + 1);
    int32_t idx = gr_btt_get(&st->exact, ekey, (size_t)w + 1, eh);
    if (idx >= 0) return idx;
    idx = canon_fact(s, gr_canon_key(&s->canon, s->b, set, s->key));   /* (serial only: no team off grids) */
    gr_btt_put(s->c, &st->exact, ekey, (size_t)w + 1, eh, idx);
    return idx;
}

static int64_t sg_full(gr_bsearch *s, const uint64_t *x);
static int value_is(gr_bsearch *s, const uint64_t *y, int64_t u);

/* Whether the option rem (a set, the buffers the caller's) has value v. */
static int option_is(gr_bsearch *s, const uint64_t *rem, int64_t v, uint64_t *rest, uint64_t *comp, uint64_t *big,
                     uint64_t *f1, uint64_t *f2) {
    int w = s->b->words, bigsize = 0;
    memcpy(rest, rem, (size_t)w * sizeof *rest);
    while (!set_empty(rest, w)) {
        comp_of(s, rest, comp, f1, f2);
        for (int i = 0; i < w; i++) rest[i] &= ~comp[i];
        int n = set_count(comp, w);
        if (n > bigsize) { bigsize = n; memcpy(big, comp, (size_t)w * sizeof *big); }
    }
    if (!bigsize) return v == 0;
    int64_t x = 0;
    for (int i = 0; i < w; i++) rest[i] = rem[i] & ~big[i];
    while (!set_empty(rest, w)) {
        comp_of(s, rest, comp, f1, f2);
        for (int i = 0; i < w; i++) rest[i] &= ~comp[i];
        x ^= sg_full(s, comp);
        if (s->abort) return 0;
    }
    return value_is(s, big, v ^ x);
}

/* A member's poll: the team's stop, and member 0 reads the clock now and then (--max-time,
 * the progress line); no member ever fails. */
static void member_poll(gr_bsearch *s) {
    if (__atomic_load_n(s->stop, __ATOMIC_RELAXED)) { stop_member(s, GR_BABORT_STOP); return; }
    if (s->member != 1 || (++s->polls & 1023)) return;
    if (s->pr) gr_progress_update(s->pr, __atomic_load_n(&s->store->solved, __ATOMIC_RELAXED));
    if (gr_poll_quiet(s->c)) stop_member(s, GR_BABORT_TIME);
}

int gr_bsearch_grid_options(gr_bsearch *s, uint64_t y, uint64_t *opt, uint64_t *cost) {
    uint64_t removed, f1, f2;
    moveit m;
    moves_init(&m, s->b, s->rule, &y);
    int n = 0;
    while (moves_next(&m, &removed, &f1, &f2)) {
        uint64_t o = y & ~removed, c2 = 0;
        for (uint64_t r = o; r;) {
            uint64_t part = gr_gshape_component(&s->gs, r);
            r &= ~part;
            uint64_t k = (uint64_t)__builtin_popcountll(part);
            c2 += k * k;
        }
        int at = n++;
        for (; at > 0 && cost[at - 1] > c2; at--) { opt[at] = opt[at - 1]; cost[at] = cost[at - 1]; }
        opt[at] = o;
        cost[at] = c2;
    }
    return n;
}

/* Whether some option of y (its fact idx) has value v. */
static int has_option(gr_bsearch *s, const uint64_t *y, int32_t idx, int64_t v) {
    gr_bfact *f = gr_bfact_at(s->store, idx);
    if (v >= GR_BFACT_VALUES) {
        if (s->member) { stop_member(s, GR_BABORT_VALUE); return 0; }
        gr_fail(s->c, GR_EXIT_LIMIT, "a component of a board with a value past %d: more than the board search keeps", GR_BFACT_VALUES - 1);
    }
    if (__atomic_load_n(&f->present, __ATOMIC_RELAXED) >> v & 1) return 1;
    if (__atomic_load_n(&f->absent, __ATOMIC_RELAXED) >> v & 1) return 0;
    int32_t exact = __atomic_load_n(&f->exact, __ATOMIC_RELAXED);
    if (exact >= 0) return v < exact;
    /* the root of a long search: its options across the --threads team (bteam.h) */
    if (s->root_team && !s->member && s->depth == 1 && s->gs.on) {
        int found = s->root_team(s, y[0], v);
        if (found >= 0) {
            __atomic_fetch_or(found ? &f->present : &f->absent, UINT64_C(1) << v, __ATOMIC_RELAXED);
            return found;
        }
    }
    if (s->member) {
        member_poll(s);
        if (s->abort) return 0;
    } else {
        gr_poll(s->c);
    }
    s->depth++;
    uint64_t *m0 = depth_scratch(s);
    int w = s->b->words, found = 0;
    uint64_t *removed = m0, *rem = m0 + w, *rest = m0 + 2 * w, *comp = m0 + 3 * w, *big = m0 + 4 * w;
    uint64_t *f1 = m0 + 5 * w, *f2 = m0 + 6 * w;
    if (s->gs.on) {
        /* a grid of one word: the options easiest first, so that an option of value v is most
         * often found among the cheap ones (smaller parts are valued sooner; as igs sorts Cram's
         * moves) */
        uint64_t *opt = m0 + SETS_PER_DEPTH + gr_canon_cap(s->b), *cost = opt + GRID_MOVES;
        int n = gr_bsearch_grid_options(s, y[0], opt, cost);
        for (int i = 0; i < n && !found && !s->abort; i++) found = option_is(s, &opt[i], v, rest, comp, big, f1, f2);
    } else {
        moveit m;
        moves_init(&m, s->b, s->rule, y);
        while (!found && moves_next(&m, removed, f1, f2)) {
            for (int i = 0; i < w; i++) rem[i] = y[i] & ~removed[i];
            found = option_is(s, rem, v, rest, comp, big, f1, f2);
        }
    }
    s->depth--;
    if (s->abort) return 0;
    __atomic_fetch_or(found ? &f->present : &f->absent, UINT64_C(1) << v, __ATOMIC_RELAXED);
    return found;
}

static void set_exact(gr_bsearch *s, int32_t idx, int64_t v) {
    __atomic_store_n(&gr_bfact_at(s->store, idx)->exact, (int32_t)v, __ATOMIC_RELAXED);
    uint64_t solved = __atomic_add_fetch(&s->store->solved, 1, __ATOMIC_RELAXED);
    if (!s->member && s->pr && !(solved & 255)) gr_progress_update(s->pr, solved);
}

/* Whether sg(y) == u: no option of value u (looked for first: one refutes), every v < u one. */
static int value_is(gr_bsearch *s, const uint64_t *y, int64_t u) {
    int64_t small = small_sg(s, y);
    if (small >= 0) return small == u;
    int32_t idx = fact_of(s, y);
    if (idx < 0) return 0;
    int32_t exact = fact_exact(s, idx);
    if (exact >= 0) return exact == u;
    if (has_option(s, y, idx, u) || s->abort) return 0;
    for (int64_t v = 0; v < u; v++) {
        int has = has_option(s, y, idx, v);
        if (s->abort) return 0;
        if (!has) { set_exact(s, idx, v); return 0; }   /* every smaller one is there */
    }
    set_exact(s, idx, u);
    return 1;
}

static int64_t sg_full(gr_bsearch *s, const uint64_t *x) {
    int64_t small = small_sg(s, x);
    if (small >= 0) return small;
    int32_t idx = fact_of(s, x);
    if (idx < 0) return 0;
    int32_t exact = fact_exact(s, idx);
    if (exact >= 0) return exact;
    int64_t t = 0;
    while (has_option(s, x, idx, t)) t++;
    if (s->abort) return 0;
    set_exact(s, idx, t);
    return t;
}

void gr_bsearch_make_member(gr_bsearch *m, int member, void *lock, int *stop) {
    m->member = member;
    m->lock = lock;
    m->stop = stop;
    for (m->depth = 0; m->depth <= m->b->n + 1; m->depth++) depth_scratch(m);   /* never allocates later */
    m->depth = 0;
    gr_btt2_reserve(m->c, &m->own_gexact, (size_t)1 << 19);
    m->own_gexact.maxcap = m->own_gexact.cap;
    m->gexact = &m->own_gexact;
}

int gr_bsearch_option_is(gr_bsearch *s, const uint64_t *rem, int64_t v) {
    s->depth++;
    uint64_t *m0 = depth_scratch(s);
    int w = s->b->words;
    int r = option_is(s, rem, v, m0 + 2 * w, m0 + 3 * w, m0 + 4 * w, m0 + 5 * w, m0 + 6 * w);
    s->depth--;
    return r;
}

int64_t gr_bsearch_sg(gr_bsearch *s, const uint64_t *set) {
    int w = s->b->words;
    /* a long search's bar (a terminal) or line (a pipe) counts the components valued, with
     * their rate; then the caller's step is back */
    gr_progress pr;
    gr_progress_begin_at(&pr, s->c, "components valued", 0, s->store->solved);
    s->pr = &pr;
    s->depth++;
    uint64_t *m0 = depth_scratch(s);
    uint64_t *rest = m0 + w, *comp = m0 + 2 * w, *f1 = m0 + 3 * w, *f2 = m0 + 4 * w;
    memcpy(rest, set, (size_t)w * sizeof *set);
    int64_t x = 0;
    while (!set_empty(rest, w)) {
        comp_of(s, rest, comp, f1, f2);
        for (int i = 0; i < w; i++) rest[i] &= ~comp[i];
        x ^= sg_full(s, comp);
    }
    s->depth--;
    gr_progress_end(&pr);
    s->pr = NULL;
    return x;
}

int gr_bsearch_misere(gr_bsearch *s, const uint64_t *set) {
    s->depth++;
    uint64_t *m0 = depth_scratch(s);
    int w = s->b->words;
    uint64_t *removed = m0, *rem = m0 + w, *f1 = m0 + 3 * w, *f2 = m0 + 4 * w;
    uint64_t *key = m0 + SETS_PER_DEPTH * (size_t)w;
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
