/* misremote: misere remoteness of heap sums by a search the quotient steers; see misremote.h. */
#include "misremote.h"
#include "remote.h"
#include "textset.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An option of an atom: the product of its parts' elements, and its parts that can move (a
 * heap without moves is the empty game: dropped, as from every position) at parts[at..at+np). */
typedef struct ropt { int32_t elem, np; size_t at; } ropt;

/* A position under a test "remoteness <= d": its options of interest are kids[lo..hi), the
 * next at `at`; acc is the greatest upper bound of those within d - 1 (a P-position) or the
 * least lower bound of those not (an N-position). */
typedef struct frame { uint32_t pos; int isP; int32_t d, acc; size_t lo, hi, at; } frame;
typedef struct kid { int64_t w; uint32_t id; } kid;

typedef struct search {
    const gr_quotient_cap *Q; gr_quotient *q; size_t M;
    uint64_t max_pos, steps;
    /* atoms (a rule set of q, a heap), numbered as they come */
    gr_byteset atoms;
    int32_t *a_gi, *a_elem; int64_t *a_heap; int8_t *a_dead; int64_t *a_lo, *a_hi; size_t a_cap;
    ropt *opts; size_t nopts, capopts;
    int32_t *parts; size_t nparts, capparts;
    int64_t *raw; size_t nraw, capraw;     /* one atom's options as the evaluator gives them */
    gr_byteset seen;                       /* one atom's options told apart */
    /* positions: their atoms that can move, sorted by number */
    gr_byteset pos;
    int32_t *lo, *hi; size_t cappos;       /* per position: its remoteness lies in lo..hi */
    frame *fr; size_t nfr, capfr;
    kid *kids; size_t nkids, capkids;
    int32_t *key, *child, *pre, *suf; size_t capkey;
    int stop;                              /* 1 past the positions, 2 past the work, 3 no move,
                                            * 4 past the time */
    double until;                          /* the time budget's end (gr_now) */
    const gr_comp *comps; int n; const int *gi;
    int64_t result;
} search;

#define GROW(c, p, need, cap) \
    do { if ((size_t)(need) > (cap)) { size_t n_ = (cap) ? (cap) : 16; while (n_ < (size_t)(need)) n_ *= 2; \
         (p) = gr_realloc((c), (p), gr_size_mul((c), n_, sizeof *(p))); (cap) = n_; } } while (0)

/* Work: every option the evaluator enumerates and every heap written into a child is a step;
 * past GR_MISREMOTE_WORK steps, or GR_MISREMOTE_SECONDS of wall clock, the search stops (by a
 * failure gr_absorb_limits takes back, as it may be deep inside an enumeration). */
static void spend(gr_ctx *c, search *s, uint64_t steps) {
    s->steps += steps;
    if (s->steps > GR_MISREMOTE_WORK) s->stop = 2;
    else if ((s->steps & 4095) < steps && gr_now() > s->until) s->stop = 4;
    if (s->stop) gr_fail(c, GR_EXIT_LIMIT, "the misere remoteness search passed its budget");
}

static void raw_option(void *user, const int64_t *parts, int nparts) {
    search *s = user;
    gr_ctx *c = s->atoms.c;
    spend(c, s, 1);
    GROW(c, s->raw, s->nraw + (size_t)nparts + 1, s->capraw);
    s->raw[s->nraw++] = nparts;
    memcpy(s->raw + s->nraw, parts, (size_t)nparts * sizeof *parts);
    s->nraw += (size_t)nparts;
}

typedef struct counting { search *s; int64_t n; } counting;
static void count_option(void *user, const int64_t *parts, int nparts) {
    (void)parts; (void)nparts;
    counting *k = user;
    k->n++;
    spend(k->s->atoms.c, k->s, 1);
}

static uint32_t atom_id(gr_ctx *c, search *s, int32_t gi, int64_t heap) {
    uint8_t k[12];
    memcpy(k, &gi, 4);
    memcpy(k + 4, &heap, 8);
    int added;
    size_t a = gr_byteset_intern(&s->atoms, k, sizeof k, &added);
    if (added) {
        if (a + 1 > s->a_cap) {
            size_t cap = s->a_cap;
            GROW(c, s->a_gi, a + 1, cap); cap = s->a_cap;
            GROW(c, s->a_elem, a + 1, cap); cap = s->a_cap;
            GROW(c, s->a_heap, a + 1, cap); cap = s->a_cap;
            GROW(c, s->a_dead, a + 1, cap); cap = s->a_cap;
            GROW(c, s->a_lo, a + 1, cap); cap = s->a_cap;
            GROW(c, s->a_hi, a + 1, cap);
            s->a_cap = cap;
        }
        s->a_gi[a] = gi;
        s->a_heap[a] = heap;
        s->a_elem[a] = s->Q->elem_of(c, s->q, gi, heap);
        s->a_dead[a] = -1;
        s->a_lo[a] = -1;
    }
    return (uint32_t)a;
}

static int dead(gr_ctx *c, search *s, uint32_t a) {
    if (s->a_dead[a] < 0) {
        counting k = { s, 0 };
        int64_t h[GR_MAX_ARITY] = { s->a_heap[a] };
        gr_eval_options(c, s->q->games[s->a_gi[a]], h, count_option, &k);
        s->a_dead[a] = k.n == 0;
    }
    return s->a_dead[a];
}

static int cmp_i32(const void *x, const void *y) {
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* The options of atom a, each once, made on first use. */
static void atom_options(gr_ctx *c, search *s, uint32_t a) {
    if (s->a_lo[a] >= 0) return;
    s->nraw = 0;
    int64_t h[GR_MAX_ARITY] = { s->a_heap[a] };
    int32_t gi = s->a_gi[a];
    gr_eval_options(c, s->q->games[gi], h, raw_option, s);
    gr_byteset_free(&s->seen);
    gr_byteset_init(&s->seen, c);
    s->a_lo[a] = (int64_t)s->nopts;
    for (size_t r = 0; r < s->nraw;) {
        int np = (int)s->raw[r++];
        GROW(c, s->parts, s->nparts + (size_t)np, s->capparts);
        int32_t elem = 0, live = 0;
        for (int i = 0; i < np; i++) {
            uint32_t p = atom_id(c, s, gi, s->raw[r + (size_t)i]);
            elem = s->q->mul[(size_t)elem * s->M + (size_t)s->a_elem[p]];
            if (!dead(c, s, p)) s->parts[s->nparts + (size_t)live++] = (int32_t)p;
        }
        r += (size_t)np;
        int32_t *mine = s->parts + s->nparts;
        qsort(mine, (size_t)live, sizeof *mine, cmp_i32);
        if (!gr_byteset_add(&s->seen, mine, (size_t)live * sizeof *mine)) continue;
        GROW(c, s->opts, s->nopts + 1, s->capopts);
        s->opts[s->nopts++] = (ropt){ elem, live, s->nparts };
        s->nparts += (size_t)live;
    }
    s->a_hi[a] = (int64_t)s->nopts;
}

/* Position id of the k atoms in key (sorted), -1 when the budget is past. A new position's
 * bounds: exactly 0 without a move (the player to move wins at once), else at least 1. */
static int64_t position(gr_ctx *c, search *s, const int32_t *key, size_t k) {
    int added;
    size_t id = gr_byteset_intern(&s->pos, key, k * sizeof *key, &added);
    if (added) {
        if (s->pos.count > s->max_pos) { s->stop = 1; return -1; }
        size_t cap = s->cappos;
        GROW(c, s->lo, id + 1, cap); cap = s->cappos;
        GROW(c, s->hi, id + 1, cap);
        s->cappos = cap;
        s->lo[id] = k ? 1 : 0;
        s->hi[id] = k ? INT32_MAX : 0;
    }
    return (int64_t)id;
}

static void key_room(gr_ctx *c, search *s, size_t need) {
    if (need <= s->capkey) return;
    size_t cap = s->capkey;
    GROW(c, s->key, need, cap); cap = s->capkey;
    GROW(c, s->child, need, cap); cap = s->capkey;
    GROW(c, s->pre, need, cap); cap = s->capkey;
    GROW(c, s->suf, need, cap);
    s->capkey = cap;
}

/* Children tried first: from an N-position those with the fewest heaps left (the winner
 * hurries), from a P-position those with the most (the loser delays). */
static int cmp_kid(const void *x, const void *y) {
    const kid *a = x, *b = y;
    return (a->w > b->w) - (a->w < b->w);
}

/* Opens position id for the test "remoteness <= d": a frame over its options of interest
 * (every option of a P-position, the winning ones of an N-position). */
static void open_test(gr_ctx *c, search *s, uint32_t id, int32_t d) {
    size_t len = s->pos.off[id + 1] - s->pos.off[id], k = len / sizeof(int32_t);
    key_room(c, s, k + 1);
    if (len) memcpy(s->key, s->pos.bytes + s->pos.off[id], len);
    const int32_t *mul = s->q->mul;
    size_t M = s->M;
    s->pre[0] = 0;
    for (size_t i = 0; i < k; i++) s->pre[i + 1] = mul[(size_t)s->pre[i] * M + (size_t)s->a_elem[s->key[i]]];
    s->suf[k] = 0;
    for (size_t i = k; i-- > 0;) s->suf[i] = mul[(size_t)s->a_elem[s->key[i]] * M + (size_t)s->suf[i + 1]];
    int isP = s->q->inP[s->pre[k]];
    size_t lo = s->nkids;
    for (size_t i = 0; i < k; i++) {
        if (i > 0 && s->key[i] == s->key[i - 1]) continue;   /* the same heap: the same children */
        uint32_t a = (uint32_t)s->key[i];
        atom_options(c, s, a);
        size_t rest = (size_t)mul[(size_t)s->pre[i] * M + (size_t)s->suf[i + 1]];
        for (int64_t o = s->a_lo[a]; o < s->a_hi[a]; o++) {
            const ropt *op = &s->opts[o];
            if (!isP && !s->q->inP[mul[rest * M + (size_t)op->elem]]) continue;
            gr_poll(c);
            /* the child: key without atom i, the option's parts merged in */
            size_t need = k + (size_t)op->np;
            key_room(c, s, need);
            const int32_t *pp = s->parts + op->at;
            size_t m = 0, j = 0;
            int64_t w = 0;
            for (size_t x = 0; x < k; x++) {
                if (x == i) continue;
                while (j < (size_t)op->np && pp[j] < s->key[x]) { w += s->a_heap[pp[j]]; s->child[m++] = pp[j++]; }
                w += s->a_heap[s->key[x]];
                s->child[m++] = s->key[x];
            }
            while (j < (size_t)op->np) { w += s->a_heap[pp[j]]; s->child[m++] = pp[j++]; }
            spend(c, s, m + 1);
            int64_t cid = position(c, s, s->child, m);
            if (cid < 0) return;
            GROW(c, s->kids, s->nkids + 1, s->capkids);
            s->kids[s->nkids++] = (kid){ isP ? -w : w, (uint32_t)cid };
        }
    }
    if (s->nkids == lo) { s->stop = 3; return; }   /* the quotient said N, yet no move wins */
    qsort(s->kids + lo, s->nkids - lo, sizeof *s->kids, cmp_kid);
    GROW(c, s->fr, s->nfr + 1, s->capfr);
    s->fr[s->nfr++] = (frame){ id, isP, d, isP ? 0 : INT32_MAX, lo, s->nkids, lo };
}

/* Tightens the bounds of a position with its parity: a P-position's remoteness is odd, an
 * N-position's even (0 at the end; each move adds one, and P moves to N only). */
static void bound(search *s, uint32_t id, int isP, int32_t lo, int32_t hi) {
    if (lo > s->lo[id]) s->lo[id] = lo + ((lo & 1) != isP);
    if (hi < s->hi[id]) s->hi[id] = hi - ((hi & 1) != isP);
}

/* The test "remoteness of id <= d" (lo <= d < hi on entry), by depth-first search with an
 * explicit stack: afterwards hi <= d (true) or lo > d (false). The remoteness rules: an
 * N-position is within d iff one winning move leaves a position within d - 1, a P-position
 * iff every move does. */
static void test(gr_ctx *c, search *s, uint32_t root, int32_t d) {
    open_test(c, s, root, d);
    while (s->nfr && !s->stop) {
        frame *f = &s->fr[s->nfr - 1];
        int settled = 0;
        while (f->at < f->hi) {
            uint32_t ch = s->kids[f->at].id;
            int32_t e = f->d - 1;
            if (s->hi[ch] <= e) {             /* within d - 1 */
                if (!f->isP) { bound(s, f->pos, 0, 0, s->hi[ch] + 1); settled = 1; break; }
                if (s->hi[ch] > f->acc) f->acc = s->hi[ch];
            } else if (s->lo[ch] > e) {       /* not within d - 1 */
                if (f->isP) { bound(s, f->pos, 1, s->lo[ch] + 1, INT32_MAX); settled = 1; break; }
                if (s->lo[ch] < f->acc) f->acc = s->lo[ch];
            } else break;
            f->at++;
        }
        if (!settled && f->at < f->hi) { open_test(c, s, s->kids[f->at].id, f->d - 1); continue; }
        /* every move of a P-position within d - 1, or no winning move of an N-position */
        if (!settled) bound(s, f->pos, f->isP, f->isP ? 0 : f->acc + 1, f->isP ? f->acc + 1 : INT32_MAX);
        s->nkids = f->lo;
        s->nfr--;
    }
}

static int run(gr_ctx *c, void *user) {
    search *s = user;
    key_room(c, s, (size_t)s->n + 1);
    for (int i = 0; i < s->n; i++) {
        uint32_t a = atom_id(c, s, s->gi[i], s->comps[i].c[0]);
        s->key[i] = dead(c, s, a) ? -1 : (int32_t)a;
    }
    size_t k = 0;
    for (int i = 0; i < s->n; i++) if (s->key[i] >= 0) s->key[k++] = s->key[i];
    qsort(s->key, k, sizeof *s->key, cmp_i32);
    int64_t start = position(c, s, s->key, k);
    if (start < 0) return 0;
    uint32_t root = (uint32_t)start;
    /* First any d: the winner's strategy found (fewest heaps left first) bounds it above; then
     * one below the upper bound until a test fails (measured: fewer steps than upwards from
     * the lower bound or halving, as each test that holds lowers the bounds below it too). */
    if (s->lo[root] < s->hi[root]) test(c, s, root, INT32_MAX - 2);
    while (s->lo[root] < s->hi[root] && !s->stop) test(c, s, root, s->hi[root] - 1);
    if (s->stop) return 0;
    s->result = s->lo[root];
    return 1;
}

int gr_misere_remoteness(gr_ctx *c, const gr_quotient_cap *Q, gr_quotient *q, const gr_comp *comps, int n, const int *gi,
                         int64_t *out, char *why, size_t cap) {
    uint64_t max = GR_MISREMOTE_POSITIONS;
    if (c->max_positions && c->max_positions < max) max = c->max_positions;
    /* a heap past the budget: its options alone are more than the search may keep */
    for (int i = 0; i < n; i++)
        if (comps[i].c[0] > (int64_t)max) {
            snprintf(why, cap, "a heap past %llu", (unsigned long long)max);
            return 0;
        }
    /* a first move with more choices than a sixteenth of the positions: the search would only
     * meet its budget (as the position graph's remoteness declines, remote.c) */
    uint64_t first = 0;
    for (int i = 0; i < n; i++) first += gr_eval_count_options(c, comps[i].game, comps[i].c);
    if (first > max / 16) {
        snprintf(why, cap, "its first move has %llu choices, over %llu", (unsigned long long)first, (unsigned long long)(max / 16));
        return 0;
    }
    search *s = gr_alloc(c, sizeof *s);
    s->until = gr_now() + GR_MISREMOTE_SECONDS;
    s->Q = Q;
    s->q = q;
    s->M = (size_t)q->order;
    s->max_pos = max;
    s->comps = comps; s->n = n; s->gi = gi;
    gr_byteset_init(&s->atoms, c);
    gr_byteset_init(&s->seen, c);
    gr_byteset_init(&s->pos, c);
    int r = gr_absorb_limits(c, run, s);
    if (r == 1) *out = s->result;
    else if (s->stop == 2) snprintf(why, cap, "over %llu steps", (unsigned long long)GR_MISREMOTE_WORK);
    else if (s->stop == 4) snprintf(why, cap, "over %g s", GR_MISREMOTE_SECONDS);
    else if (r < 0) snprintf(why, cap, "the memory limit met at %llu positions", (unsigned long long)s->pos.count);
    else if (s->stop == 1) snprintf(why, cap, "over %llu positions", (unsigned long long)max);
    else snprintf(why, cap, "the quotient gave an N-position without a winning move");
    gr_byteset_free(&s->atoms); gr_byteset_free(&s->seen); gr_byteset_free(&s->pos);
    gr_free(c, s->a_gi); gr_free(c, s->a_elem); gr_free(c, s->a_heap); gr_free(c, s->a_dead);
    gr_free(c, s->a_lo); gr_free(c, s->a_hi);
    gr_free(c, s->opts); gr_free(c, s->parts); gr_free(c, s->raw); gr_free(c, s->lo); gr_free(c, s->hi);
    gr_free(c, s->fr); gr_free(c, s->kids);
    gr_free(c, s->key); gr_free(c, s->child); gr_free(c, s->pre); gr_free(c, s->suf);
    gr_free(c, s);
    return r == 1;
}
