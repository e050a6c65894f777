/* pgteam: the position graph's stored-edges solve across threads; see pgteam.h.
 *
 * Why the levels give the serial answer (the argument of densepar.c, for these arrays). The
 * serial retrograde analysis (posgraph.c) pops a FIFO queue that starts with every position of
 * remoteness 0 and appends parents at one more than the popped child, so the queue is in
 * nondecreasing remoteness and a parent is settled by the first child that settles it: won at
 * r + 1 by its first lost child (the nearest), lost at r + 1 when its last child (the
 * farthest) turns out won. Here the frontier is every position of remoteness r at once, and a
 * parent is claimed by an atomic operation on its counter (gr_claim32): a lost child zeroes it,
 * a won child takes one from it. A lost child never takes one, so the counter reaches 0 by
 * decrements only when every child is won: a parent is never both claimed by a lost child and
 * counted down to 0 in one level, exactly one member claims it, in the least level r + 1 at
 * which the serial queue settles it, with the same outcome. Only the order inside a frontier
 * varies, and nothing reads it. Kahn's order by levels: a position enters a frontier when its
 * last child was valued in an earlier level (by the member whose decrement took its counter to
 * 0), so the mex reads final values; which positions are ever valued does not depend on order.
 * Every value is written by the one member that claimed the position and read only in later
 * levels, after the team's join. */
#include "eval/graph/pgteam.h"
#include <string.h>
#include "eval/cap_graph.h"   /* gr_expand_kind */
#include "game.h"      /* gr_outcome */

#define NONE UINT32_MAX   /* posgraph.c's: rem of a draw, an undefined SG value */

/* One position or frontier entry i of a pass: o gathers the next frontier, bits is the
 * member's scratch. */
typedef void item_fn(gr_pgpass *J, gr_level_out *o, uint64_t i, uint64_t *bits);

/* The job's range, a piece at a time from the shared counter, item by item (the passes below
 * are inlined into it). */
static inline void each(gr_pgpass *J, int member, item_fn *item) {
    gr_level_out o = { &J->lv, 0, { 0 } };
    uint64_t *bits = J->scratch ? J->scratch + (size_t)member * J->swords : NULL, lo, hi;
    while (gr_level_take(&J->lv, &lo, &hi))
        for (uint64_t i = lo; i < hi; i++) item(J, &o, i, bits);
    gr_level_flush(&o);
}

static inline void start_one(gr_pgpass *J, gr_level_out *o, uint64_t v, uint64_t *bits) {
    (void)bits;
    uint32_t deg = (uint32_t)(J->off[v + 1] - J->off[v]);
    int k = J->kind[v], out = GR_DRAW;
    J->cnt[v] = 0;
    if (k == GR_EXPAND_WIN) out = GR_WIN;
    else if (k == GR_EXPAND_LOSS || deg == 0) out = GR_LOSS;
    else J->cnt[v] = deg;
    GR_PG_AT(J->outc, v) = (uint8_t)out;
    GR_PG_AT(J->rem, v) = out == GR_DRAW ? NONE : 0;
    if (out != GR_DRAW) gr_level_emit(o, v);
}

static inline void settle_one(gr_pgpass *J, gr_level_out *o, uint64_t i, uint64_t *bits) {
    (void)bits;
    uint32_t v = J->lv.queue[i];
    int lost = GR_PG_AT(J->outc, v) == GR_LOSS;
    for (uint64_t e = J->roff[v]; e < J->roff[v + 1]; e++) {
        uint32_t u = J->rev[e];
        if (!gr_claim32(&J->cnt[u], lost)) continue;
        GR_PG_AT(J->outc, u) = (uint8_t)(lost ? GR_WIN : GR_LOSS);
        GR_PG_AT(J->rem, u) = J->value;
        gr_level_emit(o, u);
    }
}

static inline void kahn_start_one(gr_pgpass *J, gr_level_out *o, uint64_t v, uint64_t *bits) {
    (void)bits;
    GR_PG_AT(J->sg, v) = NONE;
    J->cnt[v] = (uint32_t)(J->off[v + 1] - J->off[v]);
    if (!J->cnt[v] && J->kind[v] != GR_EXPAND_WIN) gr_level_emit(o, v);
}

uint32_t gr_pgpass_mex(const gr_pgpass *J, uint32_t v, uint64_t *bits) {
    uint32_t deg = (uint32_t)(J->off[v + 1] - J->off[v]);
    size_t words = (size_t)deg / 64 + 1;
    memset(bits, 0, words * sizeof *bits);
    const uint32_t *ch = J->fwd + J->off[v];
    for (uint32_t k = 0; k < deg; k++) {
        uint32_t s = GR_PG_AT(J->sg, ch[k]);
        if (s <= deg) bits[s / 64] |= 1ULL << (s % 64);
    }
    for (size_t w = 0;; w++)
        if (~bits[w]) return (uint32_t)(w * 64 + (size_t)__builtin_ctzll(~bits[w]));
}

static inline void kahn_one(gr_pgpass *J, gr_level_out *o, uint64_t i, uint64_t *bits) {
    uint32_t v = J->lv.queue[i];
    GR_PG_AT(J->sg, v) = gr_pgpass_mex(J, v, bits);
    for (uint64_t e = J->roff[v]; e < J->roff[v + 1]; e++)
        if (gr_count_down32(&J->cnt[J->rev[e]])) gr_level_emit(o, J->rev[e]);
}

void gr_pgpass_start(void *J, int member, int members) { (void)members; each(J, member, start_one); }
void gr_pgpass_settle(void *J, int member, int members) { (void)members; each(J, member, settle_one); }
void gr_pgpass_kahn_start(void *J, int member, int members) { (void)members; each(J, member, kahn_start_one); }
void gr_pgpass_kahn(void *J, int member, int members) { (void)members; each(J, member, kahn_one); }
