/* rules: interpreter of general rule blocks; see rules.h. */
#include "eval/rules.h"
#include "ir.h"
#include "sema.h"
#include <string.h>

enum { MAX_PARTS = 256 };

int gr_rules_terminal(gr_ctx *c, const gr_game *g, const int64_t *pos) {
    const gr_rules *r = g->rules;
    if (!r || !r->nterms) return -1;
    int64_t frame[GR_MAX_FRAME];
    gr_rules_frame(c, g, pos, frame);
    for (int i = 0; i < r->nterms; i++)
        if (gr_eval(c, r->terms[i].cond, frame, NULL)) return (int)r->terms[i].kind;
    return -1;
}

/* Evaluates the target of mv under frame and reports it if it is a move. */
static void emit_target(gr_ctx *c, const gr_game *g, const gr_rmove *mv, int64_t *frame,
                        gr_move_fn fn, void *user) {
    const gr_rules *r = g->rules;
    if (mv->guard && !gr_eval(c, mv->guard, frame, NULL)) return;
    int64_t parts[MAX_PARTS * GR_MAX_ARITY];
    if (mv->nparts > MAX_PARTS) gr_fail_at(c, mv->loc, GR_EXIT_INPUT, "a move makes at most %d positions", MAX_PARTS);
    for (int p = 0; p < mv->nparts; p++) {
        int64_t *out = parts + p * r->arity;
        for (int k = 0; k < r->arity; k++) out[k] = gr_eval(c, mv->parts[p].coords[k], frame, NULL);
        if (g->shape == SHAPE_HEAP ? out[0] < 0 : !gr_rules_valid(c, g, out)) return;
    }
    fn(user, parts, mv->nparts, mv);
}

int gr_rules_bind(gr_ctx *c, const gr_rmove *mv, int64_t *frame, gr_bind_fn at, void *user) {
    int64_t hi[GR_MAX_FRAME];
    int nb = mv->nbinds, i = 0;
    /* The bindings as an odometer: level i takes lo..hi, each bound evaluated when the
     * level is entered, so later ranges may depend on earlier variables. */
    for (;;) {
        if (i < nb) {
            int64_t lo = gr_eval(c, mv->binds[i].lo, frame, NULL);
            hi[i] = gr_eval(c, mv->binds[i].hi, frame, NULL);
            if (lo <= hi[i]) {
                if ((uint64_t)hi[i] - (uint64_t)lo > (UINT64_C(1) << 40))   /* unsigned: no overflow */
                    gr_fail_at(c, mv->binds[i].loc, GR_EXIT_LIMIT, "'%s' ranges over %lld..%lld, more values than grundy will enumerate for one move",
                               mv->binds[i].name, (long long)lo, (long long)hi[i]);
                frame[mv->binds[i].slot] = lo;
                i++;
                continue;
            }
        } else {
            gr_poll(c);
            if (at(user, frame)) return 1;
        }
        for (;;) {
            if (--i < 0) return 0;
            int slot = mv->binds[i].slot;
            if (frame[slot] < hi[i]) { frame[slot]++; i++; break; }
        }
    }
}

typedef struct emit_ctx { gr_ctx *c; const gr_game *g; const gr_rmove *mv; gr_move_fn fn; void *user; } emit_ctx;

static int emit_at(void *user, int64_t *frame) {
    emit_ctx *e = user;
    emit_target(e->c, e->g, e->mv, frame, e->fn, e->user);
    return 0;
}

void gr_rules_moves(gr_ctx *c, const gr_game *g, const int64_t *pos, gr_move_fn fn, void *user) {
    const gr_rules *r = g->rules;
    int64_t frame[GR_MAX_FRAME];
    gr_rules_frame(c, g, pos, frame);
    for (int m = 0; m < r->nmoves; m++) {
        emit_ctx e = { c, g, &r->moves[m], fn, user };
        gr_rules_bind(c, &r->moves[m], frame, emit_at, &e);
    }
}
