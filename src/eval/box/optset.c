/* optset: shared option sets; see optset.h. */
#include "eval/box/optset.h"
#include <string.h>

uint32_t gr_move_coord_deps(const gr_rules *r, const gr_rmove *mv) {
    uint32_t mask = 0;
    for (int k = 0; k < r->arity; k++) {
        int slot = r->nparams + k, used = mv->guard && gr_code_uses_slot(mv->guard, slot);
        for (int i = 0; i < mv->nbinds && !used; i++)
            used = gr_code_uses_slot(mv->binds[i].lo, slot) || gr_code_uses_slot(mv->binds[i].hi, slot);
        for (int p = 0; p < mv->nparts && !used; p++)
            for (int j = 0; j < r->arity && !used; j++) used = gr_code_uses_slot(mv->parts[p].coords[j], slot);
        if (used) mask |= UINT32_C(1) << k;
    }
    return mask;
}

void gr_optacc_clear(gr_optacc *a) {
    if (a->nwords) memset(a->bits, 0, a->nwords * sizeof *a->bits);
    a->nwords = 0;
    a->nopt = 0;
    a->has_loss = 0;
    a->undef = 0;
    a->min_loss_rem = UINT32_MAX;
    a->max_rem = 0;
}

static void reserve_words(gr_ctx *c, gr_optacc *a, size_t words) {
    if (words <= a->nwords) return;
    if (words > a->cap) {
        size_t cap = a->cap ? a->cap : 1;
        while (cap < words) cap *= 2;
        a->bits = gr_realloc(c, a->bits, gr_size_mul(c, cap, sizeof *a->bits));
        memset(a->bits + a->cap, 0, (cap - a->cap) * sizeof *a->bits);
        a->cap = cap;
    }
    a->nwords = words;
}

void gr_optacc_add(gr_ctx *c, gr_optacc *a, int64_t sg, int is_loss, uint32_t rem) {
    a->nopt++;
    if (sg < 0) a->undef = 1;
    else {
        reserve_words(c, a, (size_t)(sg >> 6) + 1);
        a->bits[sg >> 6] |= UINT64_C(1) << (sg & 63);
    }
    if (is_loss) {
        a->has_loss = 1;
        if (rem < a->min_loss_rem) a->min_loss_rem = rem;
    }
    if (rem > a->max_rem) a->max_rem = rem;
}

void gr_optacc_merge(gr_ctx *c, gr_optacc *a, const gr_optacc *b) {
    if (!b->nopt) return;
    reserve_words(c, a, b->nwords);
    for (size_t i = 0; i < b->nwords; i++) a->bits[i] |= b->bits[i];
    a->nopt += b->nopt;
    a->undef |= b->undef;
    a->has_loss |= b->has_loss;
    if (b->min_loss_rem < a->min_loss_rem) a->min_loss_rem = b->min_loss_rem;
    if (b->max_rem > a->max_rem) a->max_rem = b->max_rem;
}

uint64_t gr_optacc_mex(const gr_optacc *a) {
    for (size_t w = 0; w < a->nwords; w++)
        if (~a->bits[w]) return (uint64_t)w * 64 + (uint64_t)__builtin_ctzll(~a->bits[w]);
    return (uint64_t)a->nwords * 64;
}

void gr_optacc_free(gr_ctx *c, gr_optacc *a) {
    gr_free(c, a->bits);
    memset(a, 0, sizeof *a);
}

void gr_optset_init(gr_ctx *c, gr_optset *s, uint64_t nkeys) {
    s->nkeys = nkeys;
    s->ready = gr_alloc(c, gr_size_mul(c, (size_t)nkeys, 1));
    s->sum = gr_alloc(c, gr_size_mul(c, (size_t)nkeys, sizeof *s->sum));
}

void gr_optset_free(gr_ctx *c, gr_optset *s) {
    if (s->sum)
        for (uint64_t i = 0; i < s->nkeys; i++) gr_free(c, s->sum[i].bits);
    gr_free(c, s->sum);
    gr_free(c, s->ready);
    memset(s, 0, sizeof *s);
}
