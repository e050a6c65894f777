/* densepar: a translation box's retrograde passes across threads; see densepar.h.
 *
 * Why the levels give the serial answer. The serial analysis (dense.c) pops a FIFO queue that
 * starts with every position of remoteness 0 (no move, or terminal) and appends parents with
 * remoteness one more than the popped child, so the queue is in nondecreasing remoteness order
 * and a parent is settled by the first child that settles it: won at r + 1 by its first lost
 * child (of least remoteness r, as the queue is ordered), or lost at r + 1 when its last option
 * (of greatest remoteness r) turns out won. Here all positions of remoteness r are the frontier
 * at once, and the members settle parents with atomic operations on the counter byte: a lost
 * child exchanges it with 0 (whoever sees a nonzero old value claims the parent: won), a won
 * child decrements it unless 0 (whoever takes it from 1 to 0 claims the parent: lost). The
 * counter counts every option, and a lost option never decrements it, so it reaches 0 by
 * decrements only when every option is won: a parent is never both claimed by a lost child and
 * zeroed in one level, exactly one member claims it, and the level it is claimed in is the
 * least r + 1 at which the serial queue settles it, with the same outcome. So the outcome and
 * remoteness of every position are the serial ones whatever the timing; only the order of
 * positions inside a frontier varies, and nothing reads it: each position's result depends on
 * the level it is settled in alone. The same holds for the SG pass (Kahn's order by levels): a
 * position enters a frontier when its last option has been processed in an earlier level, and
 * its value is the mex of its options' values, all final by then; the number of positions
 * processed, which tells whether the box has a cycle, is the same too. */
#include "eval/box/densepar.h"
#include <setjmp.h>
#include <string.h>
#include "expr.h"
#include "ir.h"

typedef gr_level_out out;

static inline void flush(out *o) { gr_level_flush(o); }
static inline void emit(out *o, uint64_t v) { gr_level_emit(o, v); }
#define OUT(J) { &(J)->lv, 0, { 0 } }

/* The next piece [*lo, *hi) of the job's range; 0 when none is left. */
static int take(gr_boxpass *J, uint64_t *lo, uint64_t *hi) { return gr_level_take(&J->lv, lo, hi); }

static void coords(const gr_boxpass *J, uint64_t i, int64_t *p) {
    for (int k = J->a - 1; k >= 0; k--) {
        p[k] = J->lo[k] + (int64_t)(i % (uint64_t)J->ext[k]);
        i /= (uint64_t)J->ext[k];
    }
}

static inline uint64_t wget(const void *p, int w, uint64_t i) {
    return w == 1 ? ((const uint8_t *)p)[i] : w == 2 ? ((const uint16_t *)p)[i] : ((const uint32_t *)p)[i];
}

static inline void wput(void *p, int w, uint64_t i, uint64_t v) {
    if (w == 1) ((uint8_t *)p)[i] = (uint8_t)v;
    else if (w == 2) ((uint16_t *)p)[i] = (uint16_t)v;
    else ((uint32_t *)p)[i] = (uint32_t)v;
}

/* The terminal kind of a position whose kind is known (-1: none). */
static inline int term_of(uint8_t s) { return (s >> S_TSHIFT) - 1; }

/* ---- 'where' and terminal kinds by rows ---------------------------------------------------- */

static void row_where_terms(gr_boxpass *J, gr_ctx *wc, uint64_t row) {
    const gr_rules *r = J->rules;
    int last = J->a - 1, slot = r->nparams + last;
    uint64_t v0 = row * J->E;
    int64_t frame[GR_MAX_FRAME], o[GR_ROW], kind[GR_ROW];
    memcpy(frame, J->params, (size_t)r->nparams * sizeof *frame);
    coords(J, v0, frame + r->nparams);
    int unknown = 0;
    for (uint64_t y0 = 0; y0 < J->E; y0 += GR_ROW) {
        int count = J->E - y0 < GR_ROW ? (int)(J->E - y0) : GR_ROW;
        int64_t x0 = J->lo[last] + (int64_t)y0;
        uint8_t *s = J->st + v0 + y0;
        int need = 0;
        for (int l = 0; l < count; l++) {
            s[l] &= S_VKNOWN | S_VALID;   /* what an earlier walk left */
            need |= !(s[l] & S_VKNOWN);
        }
        if (need) {
            if (!r->where) for (int l = 0; l < count; l++) o[l] = 1;
            else if (!gr_eval_row(wc, r->where, frame, slot, x0, count, o)) { unknown = 1; continue; }
            for (int l = 0; l < count; l++)
                if (!(s[l] & S_VKNOWN)) s[l] = (uint8_t)(s[l] | S_VKNOWN | (o[l] ? S_VALID : 0));
        }
        if (!r->nterms) {
            for (int l = 0; l < count; l++) s[l] |= S_TKNOWN;
            continue;
        }
        for (int l = 0; l < count; l++) kind[l] = -1;
        int ok = 1;
        for (int t = 0; t < r->nterms && ok; t++) {
            ok = gr_eval_row(wc, r->terms[t].cond, frame, slot, x0, count, o);
            for (int l = 0; l < count && ok; l++)
                if (kind[l] < 0 && o[l]) kind[l] = (int64_t)r->terms[t].kind;
        }
        if (!ok) { unknown = 1; continue; }
        for (int l = 0; l < count; l++)
            if (s[l] & S_VALID) s[l] = (uint8_t)(s[l] | S_TKNOWN | (kind[l] + 1) << S_TSHIFT);
    }
    if (unknown) atomic_store_explicit(&J->unknown, 1, memory_order_relaxed);
}

/* The row evaluator declines rather than fails; should it fail all the same, the failure lands
 * here, in the member's own context, and the rest of the piece is left to the caller. */
static void rows_piece(gr_boxpass *J, gr_ctx *wc, uint64_t lo, uint64_t hi) {
    jmp_buf jb;
    wc->on_fail = &jb;
    if (setjmp(jb)) {
        atomic_store_explicit(&J->unknown, 1, memory_order_relaxed);
        return;
    }
    for (uint64_t row = lo; row < hi; row++) row_where_terms(J, wc, row);
}

void gr_boxpass_rows(void *arg, int member, int members) {
    (void)member; (void)members;
    gr_boxpass *J = arg;
    gr_ctx wc;   /* a context of the member's own: only the row evaluator sees it */
    memset(&wc, 0, sizeof wc);
    wc.filename = J->owner->filename;
    wc.src = J->owner->src;
    wc.src_len = J->owner->src_len;
    uint64_t lo, hi;
    while (take(J, &lo, &hi)) rows_piece(J, &wc, lo, hi);
}

/* ---- degrees and the first frontier -------------------------------------------------------- */

/* The options of every position of the row into cnt (one pass per translation over the state
 * bytes of the target row); 0 outside 'where' and where a terminal condition holds. */
static void row_degrees(gr_boxpass *J, uint64_t row) {
    int a = J->a;
    int64_t E = (int64_t)J->E, p[GR_MAX_ARITY];
    uint64_t v0 = row * J->E;
    coords(J, v0, p);
    uint8_t *deg = J->cnt + v0;
    const uint8_t *st = J->st + v0;
    memset(deg, 0, (size_t)E);
    for (int d = 0; d < J->ndelta; d++) {
        int64_t ylo, yhi;
        gr_box_span(a, J->lo, J->hi, E, p, J->delta + d * a, &ylo, &yhi);
        const uint8_t *t = J->st + (int64_t)v0 + J->dindex[d] + ylo;
        uint8_t *dg = deg + ylo;
        for (int64_t y = 0; y < yhi - ylo; y++) dg[y] = (uint8_t)(dg[y] + ((t[y] >> 5) & 1));   /* S_VALID */
    }
    for (int64_t y = 0; y < E; y++)
        if (!(st[y] & S_VALID) || term_of(st[y]) >= 0) deg[y] = 0;
}

/* Degrees by rows, and the frontier: positions of 'where' with no option (kahn), or with none or
 * terminal (the first frontier of outcomes). Members read the 'where' of other rows here, so
 * the state bytes of the first frontier are written by the next pass (gr_boxpass_start). */
static void degrees_frontier(gr_boxpass *J, int kahn) {
    out o = OUT(J);
    uint64_t lo, hi;
    while (take(J, &lo, &hi))
        for (uint64_t row = lo; row < hi; row++) {
            row_degrees(J, row);
            for (uint64_t v = row * J->E; v < (row + 1) * J->E; v++)
                if ((J->st[v] & S_VALID) && (!J->cnt[v] || (!kahn && term_of(J->st[v]) >= 0))) emit(&o, v);
        }
    flush(&o);
}

void gr_boxpass_kahn_degrees(void *arg, int member, int members) {
    (void)member; (void)members;
    degrees_frontier(arg, 1);
}

void gr_boxpass_first(void *arg, int member, int members) {
    (void)member; (void)members;
    degrees_frontier(arg, 0);
}

void gr_boxpass_start(void *arg, int member, int members) {
    (void)member; (void)members;
    gr_boxpass *J = arg;
    uint64_t lo, hi;
    while (take(J, &lo, &hi))
        for (uint64_t i = lo; i < hi; i++) {
            uint32_t v = J->lv.queue[i];
            int t = term_of(J->st[v]);
            int res = t == TERM_WINS ? GR_WIN : t == TERM_LOSES ? GR_LOSS : J->misere ? GR_WIN : GR_LOSS;
            J->st[v] = (uint8_t)(J->st[v] | S_DONE | res);
            wput(J->rem, J->rem_w, v, 1);
        }
}

/* ---- the levels ---------------------------------------------------------------------------- */

/* Is p - delta d inside the box? */
static inline int parent_in(const gr_boxpass *J, const int64_t *p, int d) {
    const int64_t *dd = J->delta + d * J->a;
    for (int k = 0; k < J->a; k++)
        if (p[k] - dd[k] < J->lo[k] || p[k] - dd[k] > J->hi[k]) return 0;
    return 1;
}

/* Takes one from a nonzero counter; 1 if this took it to 0. */
static inline int count_down(uint8_t *c) {
    uint8_t x = __atomic_load_n(c, __ATOMIC_RELAXED);
    while (x && !__atomic_compare_exchange_n(c, &x, (uint8_t)(x - 1), 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return x == 1;
}


/* Parent u of a settled child (lost or won): settled here if this member claims it (a lost
 * child: the first to zero its counter; a won child: the one that takes it to 0). A zero
 * counter: decided, terminal, outside 'where', or claimed by another member. */
static inline void settle_parent(gr_boxpass *J, out *o, uint64_t u, int lost) {
    int claimed = J->cnt32 ? gr_claim32(&J->cnt32[u], lost)
                           : (lost ? __atomic_exchange_n(&J->cnt[u], 0, __ATOMIC_RELAXED) != 0 : count_down(&J->cnt[u]));
    if (!claimed) return;
    J->st[u] = (uint8_t)(J->st[u] | S_DONE | (lost ? GR_WIN : GR_LOSS));
    wput(J->rem, J->rem_w, u, J->value);
    emit(o, u);
}

void gr_boxpass_settle(void *arg, int member, int members) {
    (void)member; (void)members;
    gr_boxpass *J = arg;
    out o = OUT(J);
    int64_t p[GR_MAX_ARITY];
    uint64_t lo, hi;
    while (take(J, &lo, &hi))
        for (uint64_t i = lo; i < hi; i++) {
            uint32_t v = J->lv.queue[i];
            int lost = (J->st[v] & S_OUT) == GR_LOSS;
            if (J->rev) {
                for (uint32_t e = J->roff[v]; e < J->roff[v + 1]; e++) settle_parent(J, &o, J->rev[e], lost);
                continue;
            }
            coords(J, v, p);
            for (int d = 0; d < J->ndelta; d++)
                if (parent_in(J, p, d)) settle_parent(J, &o, (uint64_t)((int64_t)v - J->dindex[d]), lost);
        }
    flush(&o);
}

void gr_boxpass_draws(void *arg, int member, int members) {
    (void)member; (void)members;
    gr_boxpass *J = arg;
    uint64_t lo, hi, done = 0, draws = 0;
    while (take(J, &lo, &hi))
        for (uint64_t v = lo; v < hi; v++) {
            uint8_t s = J->st[v];
            if ((s & S_VALID) && !(s & S_DONE)) J->st[v] = s = (uint8_t)(s | S_DONE | GR_DRAW), draws++;
            done += (s & S_DONE) != 0;
        }
    atomic_fetch_add_explicit(&J->done, done, memory_order_relaxed);
    atomic_fetch_add_explicit(&J->draws, draws, memory_order_relaxed);
}

/* Marks SG value s - 1 (s stored plus one) in the member's bitset of its options' values;
 * values past the number of options cannot be the mex. 0 if s is none (undefined). */
static inline int mark(uint64_t *seen, uint64_t nbits, uint64_t s) {
    if (!s) return 0;
    if (s - 1 < nbits) seen[(s - 1) >> 6] |= UINT64_C(1) << ((s - 1) & 63);
    return 1;
}

/* The SG value of v (term: its terminal kind) from its options' values, unless one is
 * undefined. seen: the member's bitset, of at least the number of options plus one bits. */
static void kahn_value(gr_boxpass *J, uint32_t v, int term, const int64_t *p, uint64_t *seen) {
    uint64_t nopt = 0;
    if (term < 0) nopt = J->rev ? J->off[v + 1] - J->off[v] : (uint64_t)J->ndelta;
    uint64_t nbits = nopt + 1, words = nbits / 64 + 1;
    memset(seen, 0, words * sizeof *seen);
    if (term < 0 && J->rev) {
        for (uint32_t e = J->off[v]; e < J->off[v + 1]; e++)
            if (!mark(seen, nbits, wget(J->sg, J->sg_w, J->fwd[e]))) return;
    } else if (term < 0) {
        for (int d = 0; d < J->ndelta; d++) {
            const int64_t *dd = J->delta + d * J->a;
            int in = 1;
            for (int k = 0; k < J->a; k++) in &= p[k] + dd[k] >= J->lo[k] && p[k] + dd[k] <= J->hi[k];
            uint64_t ti = (uint64_t)((int64_t)v + J->dindex[d]);
            if (in && (J->st[ti] & S_VALID) && !mark(seen, nbits, wget(J->sg, J->sg_w, ti))) return;
        }
    }
    uint64_t m = 0;
    while (seen[m >> 6] >> (m & 63) & 1) m++;
    wput(J->sg, J->sg_w, v, m + 1);
}

void gr_boxpass_kahn(void *arg, int member, int members) {
    (void)members;
    gr_boxpass *J = arg;
    out o = OUT(J);
    int64_t p[GR_MAX_ARITY];
    uint64_t small[5], *seen = J->scratch ? J->scratch + (size_t)member * J->swords : small;   /* translations: at most 255 options */
    uint64_t lo, hi;
    while (take(J, &lo, &hi))
        for (uint64_t i = lo; i < hi; i++) {
            uint32_t v = J->lv.queue[i];
            if (!J->rev) coords(J, v, p);
            int t = term_of(J->st[v]);
            if (J->with_sg && t != TERM_WINS) kahn_value(J, v, t, p, seen);
            if (J->rev) {
                for (uint32_t e = J->roff[v]; e < J->roff[v + 1]; e++)
                    if (gr_count_down32(&J->cnt32[J->rev[e]])) emit(&o, J->rev[e]);
                continue;
            }
            for (int d = 0; d < J->ndelta; d++) {
                if (!parent_in(J, p, d)) continue;
                uint64_t u = (uint64_t)((int64_t)v - J->dindex[d]);
                if (count_down(&J->cnt[u])) emit(&o, u);
            }
        }
    flush(&o);
}

/* Positions from..to of a box with stored edges: counters of unprocessed options, and the
 * frontier of Kahn's order (no option, and not a terminal that wins, whose value is none). */
void gr_boxpass_csr_kahn_start(void *arg, int member, int members) {
    (void)member; (void)members;
    gr_boxpass *J = arg;
    out o = OUT(J);
    uint64_t lo, hi;
    while (take(J, &lo, &hi))
        for (uint64_t v = lo; v < hi; v++) {
            if (!(J->st[v] & S_VALID)) continue;
            int t = term_of(J->st[v]);
            uint32_t deg = t < 0 ? J->off[v + 1] - J->off[v] : 0;
            J->cnt32[v] = deg;
            if (!deg && t != TERM_WINS) emit(&o, v);
        }
    flush(&o);
}

void gr_boxpass_clear(void *arg, int member, int members) {
    (void)member; (void)members;
    gr_boxpass *J = arg;
    uint64_t lo, hi;
    while (take(J, &lo, &hi))
        for (uint64_t v = lo; v < hi; v++) J->st[v] &= (uint8_t)~(S_TKNOWN | 3u << S_TSHIFT);
}
