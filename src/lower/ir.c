/* ir: helpers on the IR; see ir.h. */
#include "ir.h"
#include <string.h>

void gr_sub_push(gr_ctx *c, gr_game *g, int64_t v) {
    if (g->nsub == g->subcap) {
        size_t ncap = g->subcap ? g->subcap * 2 : 16;
        gr_mem_account *was = gr_account_enter(c, &c->store.defs);   /* the IR's, not the cache's */
        g->sub = gr_realloc(c, g->sub, gr_size_mul(c, ncap, sizeof *g->sub));
        gr_account_leave(c, was);
        g->subcap = ncap;
    }
    g->sub[g->nsub++] = v;
}

void gr_rules_frame(gr_ctx *c, const gr_game *g, const int64_t *pos, int64_t *frame) {
    const gr_rules *r = g->rules;
    if (r->nslots > GR_MAX_FRAME) gr_fail(c, GR_EXIT_INPUT, "rule set '%s' uses more than %d variables", g->name, GR_MAX_FRAME);
    memcpy(frame, g->params, (size_t)r->nparams * sizeof *frame);
    memcpy(frame + r->nparams, pos, (size_t)r->arity * sizeof *frame);
    gr_eval_at(c, pos, r->arity);   /* an arithmetic error from here on names this position */
}

int gr_rules_valid(gr_ctx *c, const gr_game *g, const int64_t *pos) {
    if (!g->rules || !g->rules->where) return 1;
    int64_t frame[GR_MAX_FRAME];
    gr_rules_frame(c, g, pos, frame);
    return gr_eval(c, g->rules->where, frame, NULL) != 0;
}
