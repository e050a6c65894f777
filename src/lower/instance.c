/* instance: the instances of declarations. A reference (bash[3]) or a family's member names
 * one; each distinct name is made once, its subtraction set, code, rules, graph or figure
 * filled from the declaration and its parameter values, and handed to lowering (lower.h). */
#include "semaint.h"
#include "lower.h"
#include "tbcode.h"
#include "parse.h"
#include "suggest.h"

/* subtract allbut SET: the gaps between the listed amounts, then every amount past the last. */
static void lower_allbut(sema *s, gr_gdecl *d, decl_info *di, gr_game *g, const int64_t *frame) {
    if (d->set->kind == SET_BUILDER)
        gr_fail_at(s->c, d->set->loc, GR_EXIT_INPUT, "'allbut' takes a finite list of amounts, as in allbut {1, 3}");
    int64_t *lo = GR_NEWN(s->c, int64_t, di->nset + 1), *hi = GR_NEWN(s->c, int64_t, di->nset + 1);
    for (int i = 0; i < di->nset; i++) {
        gr_set *item = d->set->kind == SET_LIST ? d->set->items[i] : d->set;
        if (!di->set_hi[i]) gr_fail_at(s->c, item->loc, GR_EXIT_INPUT, "'allbut' takes finite amounts; an open range leaves a finite set: write it as a list");
        lo[i] = gr_eval(s->c, di->set_lo[i], frame, NULL);
        hi[i] = gr_eval(s->c, di->set_hi[i], frame, NULL);
        if (lo[i] < 1) gr_fail_at(s->c, item->loc, GR_EXIT_INPUT, "a subtraction set holds positive amounts; %lld is not", (long long)lo[i]);
    }
    for (int i = 1; i < di->nset; i++)   /* insertion sort by lo: lists are short */
        for (int j = i; j > 0 && lo[j - 1] > lo[j]; j--) {
            int64_t t = lo[j]; lo[j] = lo[j - 1]; lo[j - 1] = t;
            t = hi[j]; hi[j] = hi[j - 1]; hi[j - 1] = t;
        }
    int64_t next = 1;   /* the least amount not yet excluded or emitted */
    for (int i = 0; i < di->nset; i++) {
        if (hi[i] < lo[i]) continue;
        if (lo[i] > next) gr_lower_subtract_range(s->c, g, d->set->loc, next, lo[i] - 1, 0);
        if (hi[i] >= next) next = hi[i] + 1;
    }
    gr_lower_subtract_range(s->c, g, d->set->loc, next, 0, 1);
}

/* An unknown game: the nearest name declared or in the prelude, else how to define one. */
_Noreturn static void unknown_game(sema *s, const gr_gameref *ref) {
    gr_suggest sg;
    gr_suggest_init(&sg, ref->name);
    for (gr_gdecl *d = s->prog->decls; d; d = d->next) gr_suggest_offer(&sg, d->name);
    char pre[32][32], list[512] = "";
    int n = gr_prelude_names(pre, 32);
    size_t pos = 0;
    for (int i = 0; i < n; i++) {
        gr_suggest_offer(&sg, pre[i]);
        if (pos < sizeof list) pos += (size_t)snprintf(list + pos, sizeof list - pos, "%s%s", i ? ", " : "", pre[i]);
    }
    const char *best = gr_suggest_best(&sg);
    if (best)
        gr_fail_at(s->c, ref->loc, GR_EXIT_INPUT, "unknown game '%s' (did you mean '%s'?)", ref->name, best);
    gr_fail_at(s->c, ref->loc, GR_EXIT_INPUT,
               "unknown game '%s': define it first, e.g. game %s = subtract {1, 2}; or use a game of the prelude (%s)",
               ref->name, ref->name, list);
}

gr_game *gr_sema_instantiate(sema *s, const gr_gameref *ref) {
    gr_gdecl *d = find_decl(s, ref->name);
    if (!d) unknown_game(s, ref);
    if (d->kind == GD_BOARD)
        gr_fail_at(s->c, ref->loc, GR_EXIT_INPUT, "'%s' is a board, not a game: play one on it, as in nodekayles(%s)", d->name, d->name);
    if (ref->args.n != d->nparams) {
        if (d->nparams == 0)
            gr_fail_at(s->c, ref->loc, GR_EXIT_INPUT, "'%s' takes no parameters", d->name);
        gr_fail_at(s->c, ref->loc, GR_EXIT_INPUT, "'%s' takes %d parameter%s in [ ], as in %s[...]; %d given",
                   d->name, d->nparams, d->nparams == 1 ? "" : "s", d->name, ref->args.n);
    }
    int64_t params[64];
    if (d->nparams > 64) gr_fail_at(s->c, d->name_loc, GR_EXIT_INPUT, "at most 64 parameters");
    gr_scope empty = { 0 };
    for (int i = 0; i < d->nparams; i++) params[i] = gr_const_eval(s->c, ref->args.v[i], &empty);
    return gr_sema_instantiate_params(s, d, params, NULL);
}

/* The instance of d with these parameter values (made once per distinct name). */
gr_game *gr_sema_instantiate_params(sema *s, gr_gdecl *d, const int64_t *params, const gr_param_kind *kinds) {
    /* The output name identifies the instance: "bash[3]", "g[0.77]", "s[{1, 3}]" (cut to the
     * buffer: a set's text is at most 64 amounts). */
    const char *name = d->name;
    decl_info *di = d->sema;
    if (d->kind == GD_OCTAL && d->code_param && (!kinds || kinds[di->code_param] != GR_PARAM_CODE))
        gr_fail_at(s->c, d->code_loc, GR_EXIT_INPUT, "'%s' takes a code for '%s': use it in a family, as in 'check %s[c] periodic for c in octal(2)'",
                   d->name, d->code_param, d->name);
    if (d->nparams) {
        char buf[64 * 22 + 2 * GR_MAX_IDENT + 512];
        size_t pos = (size_t)snprintf(buf, sizeof buf, "%s[", d->name);
        for (int i = 0; i < d->nparams && pos < sizeof buf; i++) {
            char text[400];
            gr_param_text(&s->codes, kinds ? kinds[i] : GR_PARAM_NUMBER, params[i], text, sizeof text);
            pos += (size_t)snprintf(buf + pos, sizeof buf - pos, "%s%s", i ? ", " : "", text);
        }
        if (pos < sizeof buf) snprintf(buf + pos, sizeof buf - pos, "]");
        name = gr_strndup(s->c, buf, strlen(buf));
    }
    gr_game *known = gr_names_get(&s->instances, name);
    if (known) return known;
    gr_game *g = GR_NEW(s->c, gr_game);
    g->state = GR_NEW(s->c, gr_game_state);
    g->state->mem.owner = g;
    g->decl = d;
    g->nparams = d->nparams;
    g->params = GR_NEWN(s->c, int64_t, d->nparams ? d->nparams : 1);
    memcpy(g->params, params, (size_t)d->nparams * sizeof *params);
    g->name = name;
    gr_names_set(s->c, &s->instances, name, g);
    s->generation++;
    g->play = d->misere ? CONV_MISERE : CONV_NORMAL;
    switch (d->kind) {
    case GD_SUBTRACT: {
        gr_lower_subtract_begin(s->c, g);
        int sp = gr_sema_set_param(d);
        if (sp >= 0 && kinds && kinds[sp] == GR_PARAM_SET) {   /* 'subtract S', S a set parameter */
            if (d->allbut) gr_fail_at(s->c, d->set->loc, GR_EXIT_INPUT, "'allbut' takes a list of amounts, not a set parameter");
            for (int a = 1; a <= 64; a++)
                if ((uint64_t)params[sp] >> (a - 1) & 1) gr_lower_subtract_range(s->c, g, d->set->loc, a, a, 0);
            break;
        }
        int64_t frame[65] = { 0 };
        memcpy(frame, params, (size_t)d->nparams * sizeof *params);
        if (d->set->kind == SET_BUILDER) {
            int64_t lo = gr_eval(s->c, di->gen_lo, frame, NULL);
            if (d->set->strict && __builtin_add_overflow(lo, 1, &lo))
                gr_fail_at(s->c, d->set->loc, GR_EXIT_INPUT, "the set starts past the largest 64-bit integer");
            int has_hi = di->gen_hi != NULL;
            int64_t hi = has_hi ? gr_eval(s->c, di->gen_hi, frame, NULL) : 0;
            gr_lower_subtract_generator(s->c, g, d->set, di->gen_elem, di->gen_slot, lo, hi, has_hi);
        }
        if (d->allbut) { lower_allbut(s, d, di, g, frame); break; }
        for (int i = 0; i < di->nset; i++) {
            int64_t lo = gr_eval(s->c, di->set_lo[i], frame, NULL);
            int open = di->set_hi[i] == NULL;
            int64_t hi = open ? 0 : gr_eval(s->c, di->set_hi[i], frame, NULL);
            gr_set *item = d->set->kind == SET_LIST ? d->set->items[i] : d->set;
            gr_lower_subtract_range(s->c, g, item->loc, lo, hi, open);
        }
        break;
    }
    case GD_OCTAL:
        if (d->code_param) gr_parse_tbcode(s->c, s->codes.v[params[di->code_param]], d->code_loc, &g->tb);
        else g->tb = di->tb;
        break;
    case GD_BLOCK: g->rules = di->rules; break;
    case GD_GRAPH:
        g->vertices = di->vertices; g->nvertices = di->nvertices;
        g->adj_off = di->adj_off; g->adj = di->adj;
        break;
    case GD_HACKENBUSH: g->figure = di->figure; break;
    case GD_BOARDRULE: gr_sema_board_rule(s, d, di, g, params); break;
    case GD_BOARD: case GD_ALIAS: break;   /* refused above: a board is no game; aliases are resolved */
    case GD_TURNING:
        g->turning = GR_NEW(s->c, gr_turning);
        g->turning->rules = di->rules;
        g->turning->part_hi = di->part_hi;
        break;
    }
    gr_lower(s->c, g);
    gr_sema_note(s, s->games_tail);
    *s->games_tail = g;
    s->games_tail = &g->next;
    return g;
}
