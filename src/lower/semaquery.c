/* semaquery: the queries' sema, one resolver per kind (table, solve, check and its families,
 * census, plot/dot/options, quotient): each names its instances, checks what the query may
 * ask of them and evaluates its constants, filling a gr_rquery (sema.h). */
#include "semaint.h"
#include <ctype.h>
#include <stdlib.h>

static const char *fold_text(sema *s, gr_loc loc) {
    char *out = gr_new(s->c, (size_t)loc.len + 1);
    size_t n = 0;
    int space = 0;
    for (uint32_t i = 0; i < loc.len; i++) {
        char ch = s->c->src[loc.off + i];
        if (ch == '#' || (ch == '/' && i + 1 < loc.len && s->c->src[loc.off + i + 1] == '/')) {
            while (i + 1 < loc.len && s->c->src[loc.off + i + 1] != '\n') i++;
            space = 1;
            continue;
        }
        if (isspace((unsigned char)ch)) { space = 1; continue; }
        if (space && n) out[n++] = ' ';
        space = 0;
        out[n++] = ch;
    }
    out[n] = '\0';
    return out;
}

static int graph_vertex(sema *s, gr_game *g, const char *name, gr_loc loc) {
    for (int i = 0; i < g->nvertices; i++)
        if (strcmp(g->vertices[i], name) == 0) return i;
    gr_fail_at(s->c, loc, GR_EXIT_INPUT, "graph '%s' has no vertex '%s'", g->name, name);
}

static void resolve_table(sema *s, gr_query *q, gr_rquery *r) {
    gr_game *g = r->game = gr_sema_instantiate(s, &q->game);
    gr_scope empty = { 0 };
    r->outcome = q->outcome == TK_OUTCOME;
    if (g->shape == SHAPE_BOARD) { gr_sema_board_table(s, q, r); return; }
    if (g->shape == SHAPE_GRAPH) {
        int n = q->has_coords ? q->ncoords : g->nvertices;
        r->vertex_list = GR_NEWN(s->c, int32_t, n);
        r->nvertex_list = n;
        for (int i = 0; i < n; i++) {
            if (!q->has_coords) { r->vertex_list[i] = i; continue; }
            gr_coord *k = &q->coords[i];
            char buf[24];
            const char *name = NULL;
            if (!k->hi && k->lo->kind == EX_NAME) name = k->lo->name;
            else if (!k->hi && k->lo->kind == EX_INT) { snprintf(buf, sizeof buf, "%lld", (long long)k->lo->ival); name = buf; }
            if (!name) gr_fail_at(s->c, k->loc, GR_EXIT_INPUT, "a table of graph '%s' lists vertex names", g->name);
            r->vertex_list[i] = graph_vertex(s, g, name, k->loc);
        }
        r->ndims = 1;
        return;
    }
    if (g->shape == SHAPE_FIGURE)
        gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "'%s' is a Hackenbush figure, one position: 'solve %s' gives its value", g->name, g->name);
    if (g->shape == SHAPE_COINS && q->conv != CONV_NORMAL)
        gr_fail_at(s->c, q->loc, GR_EXIT_INPUT, "a table of coin-turning game '%s' gives the normal-play values of single heads; 'solve' its positions under other conventions", g->name);
    if (!q->has_coords)
        gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "give the range of the table, as in %s(0..100)", g->name);
    if (q->ncoords != (g->shape == SHAPE_COINS ? 1 : g->arity))
        gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "a position of '%s' has %d coordinate%s; this table gives %d",
                   g->name, g->arity, g->arity == 1 ? "" : "s", q->ncoords);
    r->ncoords = q->ncoords;
    for (int i = 0; i < q->ncoords; i++) {
        gr_coord *k = &q->coords[i];
        r->lo[i] = gr_const_eval(s->c, k->lo, &empty);
        r->hi[i] = k->hi ? gr_const_eval(s->c, k->hi, &empty) : r->lo[i];
        r->varies[i] = k->hi != NULL;
        if (r->lo[i] > r->hi[i]) gr_fail_at(s->c, k->loc, GR_EXIT_INPUT, "the range is empty (%lld > %lld)", (long long)r->lo[i], (long long)r->hi[i]);
        if ((uint64_t)r->hi[i] - (uint64_t)r->lo[i] >= (UINT64_C(1) << 40))
            gr_fail_at(s->c, k->loc, GR_EXIT_LIMIT, "a table of %llu positions along one coordinate is more than grundy will print",
                       (unsigned long long)((uint64_t)r->hi[i] - (uint64_t)r->lo[i]) + 1);
        if (g->shape == SHAPE_HEAP && r->lo[i] < 0) gr_fail_at(s->c, k->loc, GR_EXIT_INPUT, "a heap cannot be negative");
        if (g->shape == SHAPE_COINS && r->lo[i] < 0) gr_fail_at(s->c, k->loc, GR_EXIT_INPUT, "coins are at places 0, 1, 2, ...");
        if (r->varies[i]) {
            if (r->ndims == 2) gr_fail_at(s->c, k->loc, GR_EXIT_INPUT, "a table varies at most two coordinates; fix the others to one value");
            r->dim[r->ndims++] = i;
        }
    }
    if (r->ndims == 0) { r->ndims = 1; r->dim[0] = 0; r->varies[0] = 1; }
}

static void resolve_part(sema *s, gr_posref *p, gr_comp *out) {
    gr_game *g = out->game = gr_sema_instantiate(s, &p->game);
    gr_scope empty = { 0 };
    if (g->shape == SHAPE_BOARD) { gr_sema_board_part(s, p, out); return; }
    if (p->has_removed) gr_fail_at(s->c, p->loc, GR_EXIT_INPUT, "only a board has vertices to remove; '%s' is played on %s", g->name,
                                   g->shape == SHAPE_HEAP ? "heaps" : "positions of its own");
    if (g->shape == SHAPE_GRAPH) {
        if (!p->vertex) gr_fail_at(s->c, p->loc, GR_EXIT_INPUT, "a token of graph '%s' is written %s.VERTEX", g->name, g->name);
        out->c[0] = graph_vertex(s, g, p->vertex, p->vertex_loc);
        return;
    }
    if (p->vertex) gr_fail_at(s->c, p->loc, GR_EXIT_INPUT, "'%s' is a rule set, not a graph: write %s(...)", g->name, g->name);
    if ((g->shape == SHAPE_FIGURE) != (p->figure != 0))
        gr_fail_at(s->c, p->loc, GR_EXIT_INPUT, g->shape == SHAPE_FIGURE ? "'%s' is a Hackenbush figure: write it by its name, less cut edges as in %s - (a - b)"
                                                                         : "'%s' is a rule set: write a position as %s(...)", g->name, g->name);
    if (g->shape == SHAPE_FIGURE) {
        const gr_figure *f = g->figure;
        for (int i = 0; i + 1 < p->cuts.n; i += 2) {
            int cut = -1;
            for (int e = 0; e < f->ne && cut < 0; e++) {
                const char *u = f->names[f->eu[e]], *v = f->names[f->ev[e]];
                int joins = (!strcmp(u, p->cuts.v[i]) && !strcmp(v, p->cuts.v[i + 1])) || (!strcmp(v, p->cuts.v[i]) && !strcmp(u, p->cuts.v[i + 1]));
                if (joins && !gr_hb_absent(out->c, e)) cut = e;
            }
            gr_loc at = { p->cuts.locs[i].off, p->cuts.locs[i + 1].off + p->cuts.locs[i + 1].len - p->cuts.locs[i].off };
            if (cut < 0) gr_fail_at(s->c, at, GR_EXIT_INPUT, "figure '%s' has no edge %s - %s left to cut", g->name, p->cuts.v[i], p->cuts.v[i + 1]);
            if (cut >= GR_HB_MAX_CUT) gr_fail_at(s->c, at, GR_EXIT_LIMIT, "a written position may cut only the first %d edges of a figure", GR_HB_MAX_CUT);
            out->c[cut >> 6] = (int64_t)((uint64_t)out->c[cut >> 6] | UINT64_C(1) << (cut & 63));
        }
        return;
    }
    if (p->cuts.n) gr_fail_at(s->c, p->loc, GR_EXIT_INPUT, "only a Hackenbush figure has edges to cut");
    if (g->shape == SHAPE_COINS) {   /* the places of the heads */
        for (int i = 0; i < p->coords.n; i++) {
            int64_t x = gr_const_eval(s->c, p->coords.v[i], &empty);
            if (x < 0 || x >= GR_COIN_PLACES)
                gr_fail_at(s->c, p->coords.v[i]->loc, GR_EXIT_INPUT, "a heads is at a place from 0 to %d", GR_COIN_PLACES - 1);
            if (gr_coin_heads(out->c, x)) gr_fail_at(s->c, p->coords.v[i]->loc, GR_EXIT_INPUT, "place %lld is listed twice", (long long)x);
            gr_coin_flip(out->c, x);
        }
        return;
    }
    if (p->coords.n != g->arity)
        gr_fail_at(s->c, p->loc, GR_EXIT_INPUT, "a position of '%s' has %d coordinate%s, not %d",
                   g->name, g->arity, g->arity == 1 ? "" : "s", p->coords.n);
    for (int i = 0; i < p->coords.n; i++) {
        out->c[i] = gr_const_eval(s->c, p->coords.v[i], &empty);
        if (g->shape == SHAPE_HEAP && out->c[i] < 0)
            gr_fail_at(s->c, p->coords.v[i]->loc, GR_EXIT_INPUT, "a heap cannot be negative");
    }
    if (g->shape == SHAPE_TUPLE && !gr_rules_valid(s->c, g, out->c))
        gr_fail_at(s->c, p->loc, GR_EXIT_INPUT, "this is not a position of '%s': it fails the rule set's 'where'", g->name);
}

/* A rule set whose terminals fix the outcome has no meaning as one part of a sum. */
static void check_sum_parts(sema *s, gr_query *q, gr_rquery *r) {
    if (r->ncomps < 2) return;
    for (int i = 0; i < r->ncomps; i++) {
        const gr_rules *rules = r->comps[i].game->rules;
        for (int k = 0; rules && k < rules->nterms; k++)
            if (rules->terms[k].kind != TERM_LEAF)
                gr_fail_at(s->c, q->parts[i].loc, GR_EXIT_INPUT, "'%s' has terminal positions that win or lose, so it can only be played alone, not in a sum",
                           r->comps[i].game->name);
    }
}

/* A check over a family: 'check bash[m] ... for m in 1..50, n in ...'. The bindings the game's
 * parameters read are the family's; they come first in 'for' and may read only each other. Each
 * assignment of them is one member, instantiated here (at most GR_MAX_MEMBERS); the other
 * bindings range over positions of each member. Returns the first member, or NULL when the
 * parameters read no binding (an ordinary check). */
enum { GR_MAX_MEMBERS = 10000 };

static int cmp_i64(const void *x, const void *y) {
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* The values of a set of numbers ({1, 4..6}, constants), sorted, each once. */
static int64_t *set_values(sema *s, const gr_set *set, int *n) {
    gr_scope empty = { 0 };
    int64_t total = 0;
    for (int i = 0; i < set->nitems; i++) {
        int64_t lo = gr_const_eval(s->c, set->items[i]->lo, &empty), hi = gr_const_eval(s->c, set->items[i]->hi, &empty);
        if (hi >= lo) total += hi - lo + 1;
        if (total > GR_MAX_MEMBERS)
            gr_fail_at(s->c, set->loc, GR_EXIT_INPUT, "a family has at most %d members; this set has more", GR_MAX_MEMBERS);
    }
    int64_t *v = GR_NEWN(s->c, int64_t, (size_t)total + 1);
    int k = 0;
    for (int i = 0; i < set->nitems; i++) {
        int64_t lo = gr_const_eval(s->c, set->items[i]->lo, &empty), hi = gr_const_eval(s->c, set->items[i]->hi, &empty);
        for (int64_t x = lo; x <= hi; x++) v[k++] = x;
    }
    qsort(v, (size_t)k, sizeof *v, cmp_i64);
    int m = 0;
    for (int i = 0; i < k; i++) if (!m || v[m - 1] != v[i]) v[m++] = v[i];
    *n = m;
    return v;
}

/* Compiles a family's bindings: ranges as gr_sema_bindings does; codes and sets (params.h)
 * become lists of values (vals[k], nvals[k]), their arguments evaluated at once (constants). */
static gr_rbinding *compile_family_bindings(sema *s, const gr_bindings *bs, gr_scope *sc, int64_t **vals, int *nvals) {
    gr_rbinding *out = GR_NEWN(s->c, gr_rbinding, bs->n ? bs->n : 1);
    gr_scope empty = { 0 };
    for (int i = 0; i < bs->n; i++) {
        const gr_binding *b = &bs->v[i];
        vals[i] = NULL;
        nvals[i] = 0;
        if (b->set) {
            /* numbers in a set: as a family's parameter, the list of its values (constants) */
            out[i].lo = gr_expr_compile(s->c, b->lo, sc, 0);
            out[i].hi = gr_expr_compile(s->c, b->hi, sc, 0);
            vals[i] = set_values(s, b->set, &nvals[i]);
        } else if (b->kind == BIND_RANGE) {
            out[i].lo = gr_expr_compile(s->c, b->lo, sc, 0);
            out[i].hi = gr_expr_compile(s->c, b->hi, sc, 0);
        } else {
            if (i >= 64) gr_fail_at(s->c, b->loc, GR_EXIT_INPUT, "at most 64 family parameters");
            int64_t lo = b->lo ? gr_const_eval(s->c, b->lo, &empty) : 0, hi = b->hi ? gr_const_eval(s->c, b->hi, &empty) : 0;
            vals[i] = gr_param_values(s->c, &s->codes, b, lo, hi, GR_MAX_MEMBERS, &nvals[i]);
            out[i].lo = out[i].hi = gr_expr_compile(s->c, ast_int(s->c, b->loc, 0), sc, 0);
        }
        out[i].slot = gr_scope_add(s->c, sc, b->name, b->loc);
        out[i].name = b->name;
        out[i].loc = b->loc;
    }
    return out;
}

/* The kind of each parameter of d in ref (a code or set binding passed as its bare name, or a
 * number), checked against where d uses it: a code only as 'octal c', a set only as 'subtract S'. */
static void family_kinds(sema *s, gr_gdecl *d, const gr_gameref *ref, const gr_bindings *bs, const gr_rbinding *binds,
                         gr_code *const *args, gr_param_kind *kinds) {
    decl_info *di = d->sema;
    for (int i = 0; i < ref->args.n; i++) {
        kinds[i] = GR_PARAM_NUMBER;
        for (int k = 0; k < bs->n; k++) {
            if (bs->v[k].kind == BIND_RANGE || !gr_code_uses_slot(args[i], binds[k].slot)) continue;
            const gr_expr *a = ref->args.v[i];
            if (a->kind != EX_NAME || strcmp(a->name, bs->v[k].name))
                gr_fail_at(s->c, a->loc, GR_EXIT_INPUT, "'%s' is a %s: pass it as it is, as in %s[%s]", bs->v[k].name,
                           bs->v[k].kind == BIND_SUBSETS ? "set" : "code", d->name, bs->v[k].name);
            kinds[i] = gr_bind_param_kind(bs->v[k].kind);
            int fits = kinds[i] == GR_PARAM_CODE ? d->kind == GD_OCTAL && d->code_param && di->code_param == i
                                                 : d->kind == GD_SUBTRACT && gr_sema_set_param(d) == i;
            if (!fits)
                gr_fail_at(s->c, a->loc, GR_EXIT_INPUT, kinds[i] == GR_PARAM_CODE
                           ? "'%s' is a code, so '%s' must be declared 'game %s[...] = octal %s;' with it"
                           : "'%s' is a set of amounts, so '%s' must be declared 'game %s[...] = subtract %s;' with it",
                           bs->v[k].name, d->name, d->name, d->params[i]);
        }
    }
}

static gr_game *resolve_family(sema *s, gr_query *q, gr_rquery *r) {
    const gr_gameref *ref = &q->game;
    if (!ref->has_args || q->bindings.n == 0) return NULL;
    gr_gdecl *d = find_decl(s, ref->name);
    if (!d || ref->args.n != d->nparams || d->nparams > 64) return NULL;  /* gr_sema_instantiate says why */
    gr_scope sc = { 0 };
    int64_t *vals[64 + 1];
    int nvals[64 + 1];
    if (q->bindings.n > 64) gr_fail_at(s->c, q->bindings.v[64].loc, GR_EXIT_INPUT, "at most 64 family parameters");
    gr_rbinding *binds = compile_family_bindings(s, &q->bindings, &sc, vals, nvals);
    gr_code *args[64];
    for (int i = 0; i < ref->args.n; i++) args[i] = gr_expr_compile(s->c, ref->args.v[i], &sc, 0);
    int nfam = 0;
    for (int k = 0; k < q->bindings.n; k++) {
        int used = 0;
        for (int i = 0; i < ref->args.n; i++) used |= gr_code_uses_slot(args[i], binds[k].slot);
        if (!used) {
            if (vals[k] && !q->bindings.v[k].set) gr_fail_at(s->c, binds[k].loc, GR_EXIT_INPUT, "'%s' ranges over codes or sets but '%s' does not use it",
                                    binds[k].name, ref->name);
            continue;
        }
        if (k != nfam)
            gr_fail_at(s->c, binds[k].loc, GR_EXIT_INPUT, "'%s' is a parameter of '%s': a family's parameters come first in 'for'",
                       binds[k].name, d->name);
        nfam++;
    }
    if (!nfam) return NULL;
    gr_param_kind kinds[64];
    family_kinds(s, d, ref, &q->bindings, binds, args, kinds);
    /* Two passes over the family's odometer: count (a range too large fails before any work),
     * then instantiate. Bounds read earlier family variables only, so a frame of nfam slots
     * (slots are given in order) suffices. A list binding steps an index over its values. */
    int64_t frame[64 + GR_MAX_ARITY] = { 0 }, hi[64], at[64];
    for (int pass = 0; pass < 2; pass++) {
        int64_t count = 0;
        int k = 0, down = 1;
        for (;;) {
            if (down) {
                if (k == nfam) {
                    if (pass == 0 && ++count > GR_MAX_MEMBERS)
                        gr_fail_at(s->c, binds[0].loc, GR_EXIT_INPUT, "a family has at most %d members; this range has more",
                                   GR_MAX_MEMBERS);
                    if (pass == 1) {
                        int64_t params[64];
                        for (int i = 0; i < d->nparams; i++) params[i] = gr_eval(s->c, args[i], frame, NULL);
                        r->members[r->nmembers] = gr_sema_instantiate_params(s, d, params, kinds);
                        memcpy(r->member_args + (size_t)r->nmembers * (size_t)nfam, frame, (size_t)nfam * sizeof *frame);
                        char label[1024] = "";
                        size_t pos = 0;
                        for (int i = 0; i < nfam; i++) {
                            char text[400];
                            gr_param_text(&s->codes, gr_bind_param_kind(q->bindings.v[i].kind), frame[binds[i].slot], text, sizeof text);
                            r->member_param_text[(size_t)r->nmembers * (size_t)nfam + (size_t)i] = gr_strndup(s->c, text, strlen(text));
                            if (pos < sizeof label) pos += (size_t)snprintf(label + pos, sizeof label - pos, "%s%s", i ? ", " : "", text);
                        }
                        r->member_labels[r->nmembers] = gr_strndup(s->c, label, strlen(label));
                        r->nmembers++;
                    }
                    down = 0;
                    k = nfam - 1;
                    continue;
                }
                if (vals[k]) { at[k] = 0; hi[k] = nvals[k] - 1; if (nvals[k]) frame[binds[k].slot] = vals[k][0]; }
                else {
                    at[k] = frame[binds[k].slot] = gr_eval(s->c, binds[k].lo, frame, NULL);
                    hi[k] = gr_eval(s->c, binds[k].hi, frame, NULL);
                }
                if (at[k] <= hi[k]) k++;
                else { down = 0; k--; }
            } else {
                if (k < 0) break;
                if (at[k] < hi[k]) {
                    at[k]++;
                    frame[binds[k].slot] = vals[k] ? vals[k][at[k]] : at[k];
                    k++;
                    down = 1;
                } else k--;
            }
        }
        if (pass == 0) {
            if (!count) gr_fail_at(s->c, binds[0].loc, GR_EXIT_INPUT, "the family's range is empty: no member to check");
            r->members = GR_NEWN(s->c, gr_game *, (size_t)count);
            r->member_args = GR_NEWN(s->c, int64_t, (size_t)count * (size_t)nfam);
            r->member_labels = GR_NEWN(s->c, const char *, (size_t)count);
            r->member_param_text = GR_NEWN(s->c, const char *, (size_t)count * (size_t)nfam);
            int *isnum = GR_NEWN(s->c, int, nfam);
            for (int i = 0; i < nfam; i++) isnum[i] = q->bindings.v[i].kind == BIND_RANGE;
            r->param_is_number = isnum;
        }
    }
    r->nfam = nfam;
    r->binds = binds;          /* the names of the parameters (a formula check compiles its own) */
    r->nbinds = q->bindings.n;
    return r->members[0];
}

static void resolve_check(sema *s, gr_query *q, gr_rquery *r) {
    gr_game *g = resolve_family(s, q, r);
    if (!g) g = gr_sema_instantiate(s, &q->game);
    r->game = g;
    gr_scope empty = { 0 };
    r->check = q->check;
    if (q->check != CK_FORMULA && q->bindings.n > r->nfam)
        gr_fail_at(s->c, q->bindings.v[r->nfam].loc, GR_EXIT_INPUT, "a periodicity check ranges over a family's parameters only; "
                   "'%s' is not a parameter of the game", q->bindings.v[r->nfam].name);
    if (g->shape == SHAPE_GRAPH)
        gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "'check' is about rule sets; '%s' is a graph", g->name);
    /* coin turning: the values of single heads at places 0, 1, ... are its sequence (check.c) */
    if (g->shape == SHAPE_FIGURE || g->shape == SHAPE_BOARD || (g->shape == SHAPE_COINS && q->check == CK_FORMULA))
        gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "'check' is about heap and tuple rule sets%s; '%s' is not one",
                   g->shape == SHAPE_COINS ? " (and a coin-turning game's periodicity: 'check G periodic' or 'period P')" : "", g->name);
    if (q->check != CK_FORMULA && g->shape != SHAPE_HEAP && g->shape != SHAPE_COINS)
        gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "periodicity is about heap games; '%s' has tuple positions", g->name);
    if (q->check == CK_PERIOD) {
        if (!q->period) gr_fail_at(s->c, q->loc, GR_EXIT_INPUT, "a periodicity claim needs 'period P'");
        r->period = gr_const_eval(s->c, q->period, &empty);
        if (r->period < 1) gr_fail_at(s->c, q->period->loc, GR_EXIT_INPUT, "a period is at least 1");
        if (q->preperiod) {
            r->preperiod = gr_const_eval(s->c, q->preperiod, &empty);
            r->has_preperiod = 1;
            if (r->preperiod < 0) gr_fail_at(s->c, q->preperiod->loc, GR_EXIT_INPUT, "a preperiod is at least 0");
        }
        if (q->saltus) { r->saltus = gr_const_eval(s->c, q->saltus, &empty); r->has_saltus = 1; }
    }
    if (q->check == CK_FORMULA) {
        gr_scope sc = { 0 };
        r->nbinds = q->bindings.n;
        r->binds = gr_sema_bindings(s, &q->bindings, &sc);
        /* over a set of values ('for n in {1, 2, 5}'): the claim holds where n is not one */
        gr_expr *in = ast_bindings_guard(s->c, &q->bindings, NULL), *claim = q->formula;
        if (in) claim = ast_binary(s->c, q->formula->loc, OP_OR, ast_unary(s->c, in->loc, OP_NOT, in), claim);
        r->formula = gr_expr_compile(s->c, claim, &sc, g->arity);
        r->nslots = sc.nslots;
        r->scope = sc;
    }
}

/* census G[c] for c in ... to N: a periodicity check of every member, run to N (census.h). */
enum { GR_MAX_CENSUS_TO = 1 << 30 };
/* a misere census computes quotients heap by heap, each step a proof: far fewer heaps */
enum { GR_MAX_MISERE_CENSUS_TO = 1 << 16 };
static void resolve_census(sema *s, gr_query *q, gr_rquery *r) {
    q->check = CK_PERIODIC;
    if (q->game.has_args) resolve_check(s, q, r);
    if (!r->nmembers)
        gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "a census is over a family: write census %s[c] for c in octal(2) to N", q->game.name);
    r->kind = Q_CENSUS;
    gr_scope empty = { 0 };
    if (q->has_conv && q->conv != CONV_NORMAL && q->conv != CONV_MISERE)
        gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "a census groups normal-play values or misere quotients (census misere %s[c] ...), not %s play",
                   q->game.name, q->conv == CONV_ANYLEAF ? "anyleaf" : "every");
    r->census_to = gr_const_eval(s->c, q->census_to, &empty);
    int64_t most = q->conv == CONV_MISERE ? GR_MAX_MISERE_CENSUS_TO : GR_MAX_CENSUS_TO;
    if (r->census_to < 1 || r->census_to > most)
        gr_fail_at(s->c, q->census_to->loc, GR_EXIT_INPUT, "a %scensus runs to a heap from 1 to %lld, not %lld",
                   q->conv == CONV_MISERE ? "misere " : "", (long long)most, (long long)r->census_to);
}

/* plot is a table drawn to a file; dot and options take a position, as solve does. */
static void resolve_show(sema *s, gr_query *q, gr_rquery *r) {
    r->file = q->file;
    if (q->kind == Q_PLOT) {
        resolve_table(s, q, r);
        if (r->game->shape == SHAPE_GRAPH)
            gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "'plot' draws rule sets with heap or tuple positions; '%s' is a graph (try 'dot')", r->game->name);
        size_t n = strlen(q->file);
        if (n < 5 || (strcmp(q->file + n - 4, ".png") && strcmp(q->file + n - 4, ".svg")))
            gr_fail_at(s->c, q->file_loc, GR_EXIT_INPUT, "a plot is written to a .png or .svg file");
        return;
    }
    if (q->kind == Q_DOT && !q->file[0]) gr_fail_at(s->c, q->file_loc, GR_EXIT_INPUT, "'dot' needs a file name");
    r->ncomps = q->nparts;
    r->comps = GR_NEWN(s->c, gr_comp, q->nparts);
    for (int i = 0; i < q->nparts; i++) { resolve_part(s, &q->parts[i], &r->comps[i]); r->comps[i].joined = i > 0 && q->parts[i].joined; }
    check_sum_parts(s, q, r);
}

/* quotient G(0..n): a table's range over a heap rule set, from heap 0. */
static void resolve_quotient(sema *s, gr_query *q, gr_rquery *r) {
    if (q->ncoords != 1 || !q->coords[0].hi)
        gr_fail_at(s->c, q->loc, GR_EXIT_INPUT, "a quotient is of the heaps 0..n: write quotient %s(0..n)", q->game.name);
    resolve_table(s, q, r);
    if (r->game->shape != SHAPE_HEAP)
        gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "a misere quotient is of a heap rule set; '%s' is not one", r->game->name);
    if (r->lo[0] != 0)
        gr_fail_at(s->c, q->coords[0].loc, GR_EXIT_INPUT, "a quotient is of the heaps 0..n: the range starts at 0");
}

void gr_sema_query(sema *s, gr_query *q, gr_rquery *r) {
    r->q = q;
    r->kind = q->kind;
    r->conv = q->conv;
    r->text = fold_text(s, q->loc);
    switch (q->kind) {
    case Q_TABLE: resolve_table(s, q, r); break;
    case Q_SOLVE:
        r->ncomps = q->nparts;
        r->comps = GR_NEWN(s->c, gr_comp, q->nparts);
        for (int i = 0; i < q->nparts; i++) { resolve_part(s, &q->parts[i], &r->comps[i]); r->comps[i].joined = i > 0 && q->parts[i].joined; }
        check_sum_parts(s, q, r);
        break;
    case Q_CHECK: resolve_check(s, q, r); break;
    case Q_CENSUS: resolve_census(s, q, r); break;
    case Q_PLOT: case Q_DOT: case Q_OPTIONS: resolve_show(s, q, r); break;
    case Q_QUOTIENT: resolve_quotient(s, q, r); break;
    }
}
