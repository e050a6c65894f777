/* sema: the driver (gr_sema) and the declarations: names, parameters, position variables,
 * move lines, graphs and figures, each declaration prepared once for all its instances; see
 * sema.h. Instances are in instance.c, queries in semaquery.c, what they share in semaint.h. */
#include "semaint.h"
#include <stdlib.h>
#include "tbcode.h"

/* ---- declarations ---- */
static void declare_params(sema *s, gr_gdecl *d, decl_info *di) {
    for (int i = 0; i < d->nparams; i++) gr_scope_add(s->c, &di->scope, d->params[i], d->param_locs[i]);
}

static void prepare_subtract(sema *s, gr_gdecl *d, decl_info *di) {
    gr_set *set = d->set;
    if (set->kind == SET_BUILDER) {
        gr_scope sc = di->scope;   /* a copy: the variable lives only inside the braces */
        gr_scope inner = { 0 };
        for (int i = 0; i < sc.n; i++) gr_scope_add(s->c, &inner, sc.names[i], sc.locs[i]);
        di->gen_slot = gr_scope_add(s->c, &inner, set->var, set->var_loc);
        di->gen_elem = gr_expr_compile(s->c, set->elem, &inner, 0);
        di->gen_lo = gr_expr_compile(s->c, set->lo, &di->scope, 0);
        di->gen_hi = set->hi ? gr_expr_compile(s->c, set->hi, &di->scope, 0) : NULL;
        if (!gr_code_uses_slot(di->gen_elem, di->gen_slot))
            gr_fail_at(s->c, set->elem->loc, GR_EXIT_INPUT, "the element does not depend on '%s', so the set is not increasing", set->var);
        return;
    }
    gr_set **items = set->kind == SET_LIST ? set->items : &set;
    int n = set->kind == SET_LIST ? set->nitems : 1;
    di->nset = n;
    di->set_lo = GR_NEWN(s->c, gr_code *, n ? n : 1);
    di->set_hi = GR_NEWN(s->c, gr_code *, n ? n : 1);
    for (int i = 0; i < n; i++) {
        di->set_lo[i] = gr_expr_compile(s->c, items[i]->lo, &di->scope, 0);
        di->set_hi[i] = items[i]->hi ? gr_expr_compile(s->c, items[i]->hi, &di->scope, 0) : NULL;
    }
}

/* Compiles a move target into parts of `arity` coordinates each. */
static void compile_target(sema *s, const gr_target *t, const gr_scope *sc, int arity, int heap, gr_rmove *mv) {
    const gr_target *single[1] = { t };
    const gr_target *const *parts = single;
    int nparts = 1;
    if (t->kind == TG_SUM) { parts = (const gr_target *const *)t->parts; nparts = t->nparts; mv->is_sum = 1; }
    mv->parts = GR_NEWN(s->c, gr_rpart, nparts ? nparts : 1);
    mv->nparts = nparts;
    for (int i = 0; i < nparts; i++) {
        const gr_target *p = parts[i];
        int n = p->kind == TG_TUPLE ? p->coords.n : 1;
        if (n != arity) {
            if (heap)
                gr_fail_at(s->c, p->loc, GR_EXIT_INPUT, "a heap game moves to a heap size or a sum {a, b, ...} of heap sizes, not a tuple");
            gr_fail_at(s->c, p->loc, GR_EXIT_INPUT, "this target has %d coordinate%s but a position has %d", n, n == 1 ? "" : "s", arity);
        }
        mv->parts[i].coords = GR_NEWN(s->c, gr_code *, n);
        for (int k = 0; k < n; k++)
            mv->parts[i].coords[k] = gr_expr_compile(s->c, p->kind == TG_TUPLE ? p->coords.v[k] : p->expr, sc, 0);
    }
}

/* A move line's bindings and 'where', in a scope of its own (sc) over the declaration's. */
static void compile_move_head(sema *s, const gr_item *it, const decl_info *di, gr_scope *sc, gr_rmove *mv) {
    mv->loc = it->loc;
    for (int i = 0; i < di->scope.n; i++) gr_scope_add(s->c, sc, di->scope.names[i], di->scope.locs[i]);
    mv->nbinds = it->bindings.n;
    mv->binds = gr_sema_bindings(s, &it->bindings, sc);
    gr_expr *guard = ast_bindings_guard(s->c, &it->bindings, it->cond);   /* 'for k in {1, 2, 5}' */
    if (guard) mv->guard = gr_expr_compile(s->c, guard, sc, 0);
}

static void prepare_block(sema *s, gr_gdecl *d, decl_info *di) {
    gr_rules *r = GR_NEW(s->c, gr_rules);
    r->decl = d;
    r->nparams = d->nparams;
    gr_item *shape = NULL;
    int nmoves = 0, nterms = 0;
    for (gr_item *it = d->items; it; it = it->next) {
        if (it->kind == IT_HEAP || it->kind == IT_POSITION) {
            if (shape) gr_fail_at(s->c, it->loc, GR_EXIT_INPUT, "a game has one 'heap' or 'position' line; '%s' already has one", d->name);
            shape = it;
        }
        nmoves += it->kind == IT_MOVE;
        nterms += it->kind == IT_TERMINAL;
    }
    if (!shape)
        gr_fail_at(s->c, d->name_loc, GR_EXIT_INPUT, "game '%s' needs a 'heap NAME;' or 'position (a, b, ...);' line", d->name);
    if (shape->nnames > GR_MAX_ARITY)
        gr_fail_at(s->c, shape->loc, GR_EXIT_INPUT, "a position has at most %d coordinates", GR_MAX_ARITY);
    r->arity = shape->nnames;
    r->coord_names = shape->names;
    for (int i = 0; i < shape->nnames; i++) gr_scope_add(s->c, &di->scope, shape->names[i], shape->name_locs[i]);
    int heap = shape->kind == IT_HEAP;
    if (shape->cond) r->where = gr_expr_compile(s->c, shape->cond, &di->scope, 0);
    r->moves = GR_NEWN(s->c, gr_rmove, nmoves ? nmoves : 1);
    r->terms = GR_NEWN(s->c, gr_rterm, nterms ? nterms : 1);
    int nslots = di->scope.nslots;
    for (gr_item *it = d->items; it; it = it->next) {
        if (it->kind == IT_MOVE) {
            gr_rmove *mv = &r->moves[r->nmoves++];
            gr_scope sc = { 0 };
            compile_move_head(s, it, di, &sc, mv);
            compile_target(s, it->target, &sc, r->arity, heap, mv);
            if (sc.nslots > nslots) nslots = sc.nslots;
        } else if (it->kind == IT_TERMINAL) {
            gr_rterm *t = &r->terms[r->nterms++];
            t->cond = gr_expr_compile(s->c, it->cond, &di->scope, 0);
            t->kind = it->term;
            t->loc = it->loc;
        } else if (it->kind == IT_PLAY) {
            if (it->play != CONV_NORMAL && it->play != CONV_MISERE)
                gr_fail_at(s->c, it->loc, GR_EXIT_INPUT, "a rule set is played 'normal' or 'misere' alone; 'anyleaf' and 'every' are conventions of sums");
            d->misere = it->play == CONV_MISERE;
        }
    }
    r->nslots = nslots;
    di->rules = r;
}

static int vertex_index(sema *s, decl_info *di, const char *name, int add) {
    intptr_t id = (intptr_t)gr_names_get(&di->vertex_ids, name);
    if (id) return (int)(id - 1);
    if (!add) return -1;
    gr_names_put(s->c, &di->vertex_ids, name, (void *)(intptr_t)(di->nvertices + 1));
    if ((di->nvertices & (di->nvertices - 1)) == 0) {
        const char **p = GR_NEWN(s->c, const char *, di->nvertices ? di->nvertices * 2 : 4);
        if (di->nvertices) memcpy(p, di->vertices, (size_t)di->nvertices * sizeof *p);
        di->vertices = p;
    }
    di->vertices[di->nvertices] = name;
    return di->nvertices++;
}

static void prepare_graph(sema *s, gr_gdecl *d, decl_info *di) {
    int nedges = 0;
    for (int i = 0; i < d->nedges; i++) {
        vertex_index(s, di, d->edges[i].from, 1);
        for (int k = 0; k < d->edges[i].nto; k++) vertex_index(s, di, d->edges[i].to[k], 1);
        nedges += d->edges[i].nto;
    }
    if (di->nvertices == 0) gr_fail_at(s->c, d->loc, GR_EXIT_INPUT, "graph '%s' has no vertices", d->name);
    int n = di->nvertices;
    int32_t *deg = GR_NEWN(s->c, int32_t, n + 1);
    di->adj_off = GR_NEWN(s->c, int32_t, n + 1);
    di->adj = GR_NEWN(s->c, int32_t, nedges ? nedges : 1);
    for (int i = 0; i < d->nedges; i++) deg[vertex_index(s, di, d->edges[i].from, 0)] += d->edges[i].nto;
    for (int v = 0; v < n; v++) di->adj_off[v + 1] = di->adj_off[v] + deg[v];
    memset(deg, 0, (size_t)(n + 1) * sizeof *deg);
    for (int i = 0; i < d->nedges; i++) {
        int from = vertex_index(s, di, d->edges[i].from, 0);
        for (int k = 0; k < d->edges[i].nto; k++)
            di->adj[di->adj_off[from] + deg[from]++] = vertex_index(s, di, d->edges[i].to[k], 0);
    }
}

/* The vertex of a figure by name, through an open-addressing hash (figures are large). */
static int32_t figure_vertex(sema *s, gr_figure *f, int32_t *table, uint32_t mask, const char *name) {
    uint32_t h = 2166136261u;
    for (const char *p = name; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
    for (h &= mask; table[h] >= 0; h = (h + 1) & mask)
        if (strcmp(f->names[table[h]], name) == 0) return table[h];
    f->names[f->nv] = name;
    (void)s;
    return table[h] = f->nv++;
}

/* hackenbush NAME { a - b - c; ... }: each chain is its edges; 'ground' is the root. */
static void prepare_figure(sema *s, gr_gdecl *d, decl_info *di) {
    gr_figure *f = di->figure = GR_NEW(s->c, gr_figure);
    int ne = 0;
    for (int i = 0; i < d->nedges; i++) ne += d->edges[i].nto;
    uint32_t cap = 16;
    while (cap < 4u * (uint32_t)ne + 4) cap *= 2;   /* at most 2 ne + 1 vertices: half full at most */
    int32_t *table = gr_alloc(s->c, gr_size_mul(s->c, cap, sizeof *table));
    memset(table, 0xff, cap * sizeof *table);
    f->names = GR_NEWN(s->c, const char *, 2 * ne + 2);
    f->eu = GR_NEWN(s->c, int32_t, ne ? ne : 1);
    f->ev = GR_NEWN(s->c, int32_t, ne ? ne : 1);
    f->ground = figure_vertex(s, f, table, cap - 1, "ground");
    for (int i = 0; i < d->nedges; i++) {
        const char *from = d->edges[i].from;
        for (int k = 0; k < d->edges[i].nto; k++) {
            f->eu[f->ne] = figure_vertex(s, f, table, cap - 1, from);
            f->ev[f->ne++] = figure_vertex(s, f, table, cap - 1, d->edges[i].to[k]);
            from = d->edges[i].to[k];
        }
    }
    gr_free(s->c, table);
    f->c = s->c;
    gr_hb_prepare(s->c, f);
    (void)di;
}

/* turning { flip PARTS for ... where ...; }: a rule set over x, the place of the rightmost coin. */
static void prepare_turning(sema *s, gr_gdecl *d, decl_info *di) {
    gr_rules *r = di->rules = GR_NEW(s->c, gr_rules);
    r->decl = d;
    r->nparams = d->nparams;
    r->arity = 1;
    static const char *const xname[] = { "x" };
    r->coord_names = (const char **)(uintptr_t)xname;
    gr_scope_add(s->c, &di->scope, "x", d->name_loc);
    int n = 0;
    for (gr_item *it = d->items; it; it = it->next) n++;
    r->moves = GR_NEWN(s->c, gr_rmove, n ? n : 1);
    di->part_hi = GR_NEWN(s->c, gr_code **, n ? n : 1);
    int nslots = di->scope.nslots;
    for (gr_item *it = d->items; it; it = it->next) {
        gr_rmove *mv = &r->moves[r->nmoves];
        gr_code **hi = di->part_hi[r->nmoves++] = GR_NEWN(s->c, gr_code *, it->target->nparts);
        gr_scope sc = { 0 };
        compile_move_head(s, it, di, &sc, mv);
        mv->nparts = it->target->nparts;
        mv->is_sum = 1;
        mv->parts = GR_NEWN(s->c, gr_rpart, mv->nparts);
        for (int p = 0; p < mv->nparts; p++) {
            const gr_target *t = it->target->parts[p];
            mv->parts[p].coords = GR_NEWN(s->c, gr_code *, 1);
            mv->parts[p].coords[0] = gr_expr_compile(s->c, t->kind == TG_RANGE ? t->coords.v[0] : t->expr, &sc, 0);
            if (t->kind == TG_RANGE) hi[p] = gr_expr_compile(s->c, t->coords.v[1], &sc, 0);
        }
        if (sc.nslots > nslots) nslots = sc.nslots;
    }
    r->nslots = nslots;
}

/* game X = Y: X becomes a copy of Y's declaration under its own name (Y among the entry's
 * declarations, or known before), following a chain of aliases at most 64 long. */
static void resolve_aliases(sema *s, gr_gdecl *first) {
    for (gr_gdecl *d = first; d; d = d->next) {
        for (int hops = 0; d->kind == GD_ALIAS; hops++) {
            gr_gdecl *t = NULL;
            for (gr_gdecl *e = first; e && !t; e = e->next)
                if (e != d && !strcmp(e->name, d->alias_of)) t = e;
            if (!t) t = find_decl(s, d->alias_of);
            if (!t || hops == 64 || t == d)
                gr_fail_at(s->c, d->code_loc, GR_EXIT_INPUT, t ? "'%s' names itself through other names" : "unknown game '%s'", d->alias_of);
            if (d->nparams || t->nparams)
                gr_fail_at(s->c, d->code_loc, GR_EXIT_INPUT, "'game %s = %s' names a game without parameters", d->name, d->alias_of);
            gr_gdecl keep = *d;
            *d = *t;
            d->name = keep.name; d->name_loc = keep.name_loc; d->loc = keep.loc; d->next = keep.next;
            d->sema = NULL;
            d->misere = keep.misere || t->misere;
        }
    }
}

/* Prepares d once for all its instances; a name declared before is an error unless
 * `replace` (a later entry of a session redefines it). */
static void prepare_decl(sema *s, gr_gdecl *d, int replace) {
    gr_gdecl *e = gr_names_put(s->c, &s->decls, d->name, d);
    if (e != d && !replace) {
        int line, col;
        gr_line_col(s->c, e->name_loc.off, &line, &col);
        gr_fail_at(s->c, d->name_loc, GR_EXIT_INPUT, "'%s' is already declared at line %d", d->name, line);
    }
    decl_info *di = GR_NEW(s->c, decl_info);
    d->sema = di;
    declare_params(s, d, di);
    switch (d->kind) {
    case GD_SUBTRACT: prepare_subtract(s, d, di); break;
    case GD_OCTAL:
        if (!d->code_param) { gr_parse_tbcode(s->c, d->code, d->code_loc, &di->tb); break; }
        di->code_param = -1;
        for (int i = 0; i < d->nparams; i++)
            if (!strcmp(d->params[i], d->code_param)) di->code_param = i;
        if (di->code_param < 0)
            gr_fail_at(s->c, d->code_loc, GR_EXIT_INPUT, "'%s' is not a parameter of '%s': write octal \"0.77\" or octal c with %s[c]",
                       d->code_param, d->name, d->name);
        break;
    case GD_BLOCK: prepare_block(s, d, di); break;
    case GD_GRAPH: prepare_graph(s, d, di); break;
    case GD_HACKENBUSH: prepare_figure(s, d, di); break;
    case GD_TURNING: prepare_turning(s, d, di); break;
    case GD_BOARD: prepare_graph(s, d, di); gr_sema_board_decl(s, d, di); break;
    case GD_BOARDRULE: break;   /* its rule is made per instance (semaboard.c) */
    case GD_ALIAS: break;       /* resolved before (resolve_aliases) */
    }
    if (e != d) gr_names_set(s->c, &s->decls, d->name, d);
    s->generation++;
}

/* Every rule set without parameters is lowered, used or not, so --explain covers it. */
static void instantiate_plain(sema *s, gr_gdecl *first) {
    for (gr_gdecl *d = first; d; d = d->next)
        if (d->nparams == 0 && d->kind != GD_BOARD) {
            gr_gameref ref = { .name = d->name, .loc = d->name_loc };
            gr_sema_instantiate(s, &ref);
        }
}

static void resolve_queries(sema *s, gr_ast_program *prog, gr_module *out) {
    int n = 0;
    for (gr_query *q = prog->queries; q; q = q->next) n++;
    out->queries = GR_NEWN(s->c, gr_rquery, n ? n : 1);
    out->nqueries = 0;
    for (gr_query *q = prog->queries; q; q = q->next) {
        gr_rquery *r = &out->queries[out->nqueries++];
        gr_sema_query(s, q, r);
    }
    /* a query's instance ('solve bash[2](4)') joins the module's games: out may be a copy of
     * the module whose list was empty then (a session's first entry), so its head is taken
     * again (a copy's head stayed NULL: the sums' table of games missed the instance, and
     * the session crashed) */
    out->games = s->mod->games;
}

void gr_sema(gr_ctx *c, gr_ast_program *prog, gr_module *out) {
    memset(out, 0, sizeof *out);
    sema s = { .c = c, .prog = prog, .mod = out, .games_tail = &out->games };
    out->decls = prog->decls;
    resolve_aliases(&s, prog->decls);
    for (gr_gdecl *d = prog->decls; d; d = d->next) prepare_decl(&s, d, 0);
    instantiate_plain(&s, prog->decls);
    resolve_queries(&s, prog, out);
}

/* ---- a program that grows: entries compiled against it ---- */
struct gr_sema_state {
    sema s;
    gr_ast_program all;            /* every live declaration, chained in the order made */
    gr_module mod;                 /* its games and declarations (the queries are each entry's) */
};

gr_sema_state *gr_sema_open(gr_ctx *c, gr_ast_program *prog, gr_module *out) {
    gr_sema_state *st = GR_NEW(c, gr_sema_state);
    st->all.decls = prog->decls;
    st->s = (sema){ .c = c, .prog = &st->all, .mod = &st->mod, .games_tail = &st->mod.games };
    st->mod.decls = prog->decls;
    resolve_aliases(&st->s, prog->decls);
    for (gr_gdecl *d = prog->decls; d; d = d->next) prepare_decl(&st->s, d, 0);
    instantiate_plain(&st->s, prog->decls);
    *out = st->mod;
    resolve_queries(&st->s, prog, out);
    return st;
}

uint64_t gr_sema_generation(const gr_sema_state *st) {
    return st->s.generation + (uint64_t)st->s.codes.n;   /* codes interned live in the arena too */
}

gr_game *gr_sema_games(const gr_sema_state *st) { return st->mod.games; }

int gr_sema_knows(void *state, const char *name) {
    gr_sema_state *st = state;
    return gr_names_get(&st->s.decls, name) != NULL;
}

/* A redefinition: the old declaration's instances leave the names and the games. */
static void forget_instance(void *old, const char *name, void **val) {
    (void)name;
    const gr_game *g = *val;
    if (g && g->decl == old) *val = NULL;
}

static void forget_decl(gr_sema_state *st, const gr_gdecl *old) {
    gr_names_each(&st->s.instances, forget_instance, (void *)(uintptr_t)old);
    gr_game **link = &st->mod.games;
    while (*link) {
        if ((*link)->decl == old) { gr_sema_note(&st->s, link); *link = (*link)->next; }
        else link = &(*link)->next;
    }
    st->s.games_tail = &st->mod.games;
    while (*st->s.games_tail) st->s.games_tail = &(*st->s.games_tail)->next;
    gr_gdecl **dl = &st->all.decls;
    while (*dl) {
        if (*dl == old) { gr_sema_note(&st->s, dl); *dl = old->next; }
        else dl = &(*dl)->next;
    }
}

void gr_sema_more(gr_sema_state *st, gr_ctx *c, gr_ast_program *prog, gr_module *out) {
    st->s.c = c;
    gr_gdecl *first = prog->decls;
    for (gr_gdecl *d = first; d; d = d->next) {
        for (gr_gdecl *e = d->next; e; e = e->next)
            if (!strcmp(e->name, d->name)) {
                int line, col;
                gr_line_col(c, d->name_loc.off, &line, &col);
                gr_fail_at(c, e->name_loc, GR_EXIT_INPUT, "'%s' is already declared at line %d", e->name, line);
            }
    }
    resolve_aliases(&st->s, first);
    for (gr_gdecl *d = first, *next; d; d = next) {
        next = d->next;
        gr_gdecl *old = gr_names_get(&st->s.decls, d->name);
        if (old) forget_decl(st, old);
        prepare_decl(&st->s, d, old != NULL);
    }
    if (first) {                   /* the entry's declarations join the chain of live ones */
        gr_gdecl **tail = &st->all.decls;
        while (*tail) tail = &(*tail)->next;
        gr_sema_note(&st->s, tail);
        *tail = first;
        st->mod.decls = st->all.decls;
    }
    instantiate_plain(&st->s, first);
    *out = st->mod;
    resolve_queries(&st->s, prog, out);
}

/* ---- an entry that fails leaves the names as they were ---- */
struct gr_sema_txn {
    gr_sema_state was;             /* the state's own fields (maps' headers, lists' heads, counts) */
};

gr_sema_txn *gr_sema_begin(gr_sema_state *st) {
    gr_sema_txn *t = malloc(sizeof *t);
    gr_names_log *log = gr_names_log_new();
    if (!t || !log) { free(t); gr_names_log_free(log); return NULL; }
    st->s.log = st->s.decls.log = st->s.instances.log = log;
    t->was = *st;
    return t;
}

static void end_journal(gr_sema_state *st) { st->s.log = st->s.decls.log = st->s.instances.log = NULL; }

void gr_sema_keep(gr_sema_state *st, gr_sema_txn *t) {
    if (!t) return;
    gr_names_log_free(st->s.log);
    end_journal(st);
    free(t);
}

int gr_sema_undo(gr_sema_state *st, gr_sema_txn *t) {
    if (!t) return 0;
    int ok = gr_names_log_undo(st->s.log);
    *st = t->was;
    end_journal(st);
    free(t);
    return ok;
}
