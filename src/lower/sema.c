/* sema: names, parameters, arities, constants; see sema.h. */
#include "sema.h"
#include "ir.h"
#include "lower.h"
#include "tbcode.h"
#include "names.h"
#include "parse.h"
#include "figure.h"
#include "suggest.h"
#include "params.h"
#include <string.h>
#include <ctype.h>

/* What sema keeps per declaration, shared by all instances of it. */
typedef struct decl_info {
    gr_scope scope;                /* parameters, then position variables */
    gr_rules *rules;               /* GD_BLOCK */
    gr_tbcode tb;                  /* GD_OCTAL */
    gr_code **set_lo, **set_hi;    /* GD_SUBTRACT list/range items */
    int nset;
    gr_code *gen_elem, *gen_lo, *gen_hi; int gen_slot;   /* GD_SUBTRACT builder */
    const char **vertices; int nvertices;
    gr_names_map vertex_ids;       /* vertex name -> index + 1 */
    int32_t *adj_off, *adj;
    gr_figure *figure;             /* GD_HACKENBUSH */
    gr_code ***part_hi;            /* GD_TURNING: range ends (rules in `rules`) */
    int code_param;                /* GD_OCTAL 'octal c': c's index among the parameters */
} decl_info;

/* The parameter a subtraction set is when written as its bare name ('subtract S'), or -1. */
static int set_param(const gr_gdecl *d) {
    const gr_set *set = d->set;
    if (set->kind != SET_RANGE || set->lo != set->hi || set->lo->kind != EX_NAME) return -1;
    for (int i = 0; i < d->nparams; i++)
        if (!strcmp(d->params[i], set->lo->name)) return i;
    return -1;
}

typedef struct sema {
    gr_ctx *c;
    gr_ast_program *prog;
    gr_module *mod;
    gr_game **games_tail;
    gr_names_map decls;            /* name -> declaration */
    gr_names_map instances;        /* output name ("bash[3]") -> instance */
    gr_codebook codes;             /* the codes code parameters index (params.h) */
} sema;

static gr_gdecl *find_decl(sema *s, const char *name) { return gr_names_get(&s->decls, name); }

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

/* Compiles 'for v in lo..hi, ...': each range sees the variables before it, then its own
 * variable joins the scope. */
static gr_rbinding *compile_bindings(sema *s, const gr_bindings *bs, gr_scope *sc) {
    gr_rbinding *out = GR_NEWN(s->c, gr_rbinding, bs->n ? bs->n : 1);
    for (int i = 0; i < bs->n; i++) {
        const gr_binding *b = &bs->v[i];
        if (b->kind != BIND_RANGE)
            gr_fail_at(s->c, b->range_loc, GR_EXIT_INPUT, "only a family's parameter ranges over codes or sets (as in 'check g[c] periodic for c in octal(2)'); '%s' ranges over lo..hi here",
                       b->name);
        out[i].lo = gr_expr_compile(s->c, b->lo, sc, 0);
        out[i].hi = gr_expr_compile(s->c, b->hi, sc, 0);
        out[i].slot = gr_scope_add(s->c, sc, b->name, b->loc);
        out[i].name = b->name;
        out[i].loc = b->loc;
    }
    return out;
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
    mv->binds = compile_bindings(s, &it->bindings, sc);
    if (it->cond) mv->guard = gr_expr_compile(s->c, it->cond, sc, 0);
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

static void prepare_decls(sema *s) {
    for (gr_gdecl *d = s->prog->decls; d; d = d->next) {
        gr_gdecl *e = gr_names_put(s->c, &s->decls, d->name, d);
        if (e != d) {
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
        }
    }
}

/* ---- instances ---- */
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

static gr_game *instantiate_params(sema *s, gr_gdecl *d, const int64_t *params, const gr_param_kind *kinds);

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

static gr_game *instantiate(sema *s, const gr_gameref *ref) {
    gr_gdecl *d = find_decl(s, ref->name);
    if (!d) unknown_game(s, ref);
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
    return instantiate_params(s, d, params, NULL);
}

/* The instance of d with these parameter values (made once per distinct name). */
static gr_game *instantiate_params(sema *s, gr_gdecl *d, const int64_t *params, const gr_param_kind *kinds) {
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
    g->decl = d;
    g->nparams = d->nparams;
    g->params = GR_NEWN(s->c, int64_t, d->nparams ? d->nparams : 1);
    memcpy(g->params, params, (size_t)d->nparams * sizeof *params);
    g->name = name;
    gr_names_put(s->c, &s->instances, name, g);
    g->play = d->misere ? CONV_MISERE : CONV_NORMAL;
    switch (d->kind) {
    case GD_SUBTRACT: {
        gr_lower_subtract_begin(s->c, g);
        int sp = set_param(d);
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
    case GD_TURNING:
        g->turning = GR_NEW(s->c, gr_turning);
        g->turning->rules = di->rules;
        g->turning->part_hi = di->part_hi;
        break;
    }
    gr_lower(s->c, g);
    *s->games_tail = g;
    s->games_tail = &g->next;
    return g;
}

/* ---- queries ---- */
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
    gr_game *g = r->game = instantiate(s, &q->game);
    gr_scope empty = { 0 };
    r->outcome = q->outcome == TK_OUTCOME;
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
    gr_game *g = out->game = instantiate(s, &p->game);
    gr_scope empty = { 0 };
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

/* Compiles a family's bindings: ranges as compile_bindings does; codes and sets (params.h)
 * become lists of values (vals[k], nvals[k]), their arguments evaluated at once (constants). */
static gr_rbinding *compile_family_bindings(sema *s, const gr_bindings *bs, gr_scope *sc, int64_t **vals, int *nvals) {
    gr_rbinding *out = GR_NEWN(s->c, gr_rbinding, bs->n ? bs->n : 1);
    gr_scope empty = { 0 };
    for (int i = 0; i < bs->n; i++) {
        const gr_binding *b = &bs->v[i];
        vals[i] = NULL;
        nvals[i] = 0;
        if (b->kind == BIND_RANGE) {
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
                                                 : d->kind == GD_SUBTRACT && set_param(d) == i;
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
    if (!d || ref->args.n != d->nparams || d->nparams > 64) return NULL;  /* instantiate says why */
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
            if (vals[k]) gr_fail_at(s->c, binds[k].loc, GR_EXIT_INPUT, "'%s' ranges over codes or sets but '%s' does not use it",
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
                        r->members[r->nmembers] = instantiate_params(s, d, params, kinds);
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
    if (!g) g = instantiate(s, &q->game);
    r->game = g;
    gr_scope empty = { 0 };
    r->check = q->check;
    if (q->check != CK_FORMULA && q->bindings.n > r->nfam)
        gr_fail_at(s->c, q->bindings.v[r->nfam].loc, GR_EXIT_INPUT, "a periodicity check ranges over a family's parameters only; "
                   "'%s' is not a parameter of the game", q->bindings.v[r->nfam].name);
    if (g->shape == SHAPE_GRAPH)
        gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "'check' is about rule sets; '%s' is a graph", g->name);
    if (g->shape == SHAPE_FIGURE || g->shape == SHAPE_COINS)
        gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "'check' is about heap and tuple rule sets; '%s' is not one", g->name);
    if (q->check != CK_FORMULA && g->shape != SHAPE_HEAP)
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
        r->binds = compile_bindings(s, &q->bindings, &sc);
        r->formula = gr_expr_compile(s->c, q->formula, &sc, g->arity);
        r->nslots = sc.nslots;
        r->scope = sc;
    }
}

/* census G[c] for c in ... to N: a periodicity check of every member, run to N (census.h). */
enum { GR_MAX_CENSUS_TO = 1 << 30 };
static void resolve_census(sema *s, gr_query *q, gr_rquery *r) {
    q->check = CK_PERIODIC;
    if (q->game.has_args) resolve_check(s, q, r);
    if (!r->nmembers)
        gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "a census is over a family: write census %s[c] for c in octal(2) to N", q->game.name);
    r->kind = Q_CENSUS;
    gr_scope empty = { 0 };
    r->census_to = gr_const_eval(s->c, q->census_to, &empty);
    if (r->census_to < 1 || r->census_to > GR_MAX_CENSUS_TO)
        gr_fail_at(s->c, q->census_to->loc, GR_EXIT_INPUT, "a census runs to a heap from 1 to %d, not %lld", GR_MAX_CENSUS_TO,
                   (long long)r->census_to);
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
    for (int i = 0; i < q->nparts; i++) resolve_part(s, &q->parts[i], &r->comps[i]);
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

void gr_sema(gr_ctx *c, gr_ast_program *prog, gr_module *out) {
    memset(out, 0, sizeof *out);
    sema s = { .c = c, .prog = prog, .mod = out, .games_tail = &out->games };
    out->decls = prog->decls;
    prepare_decls(&s);
    /* Every rule set without parameters is lowered, used or not, so --explain covers it. */
    for (gr_gdecl *d = prog->decls; d; d = d->next)
        if (d->nparams == 0) {
            gr_gameref ref = { .name = d->name, .loc = d->name_loc };
            instantiate(&s, &ref);
        }
    int n = 0;
    for (gr_query *q = prog->queries; q; q = q->next) n++;
    out->queries = GR_NEWN(c, gr_rquery, n ? n : 1);
    for (gr_query *q = prog->queries; q; q = q->next) {
        gr_rquery *r = &out->queries[out->nqueries++];
        r->q = q;
        r->kind = q->kind;
        r->conv = q->conv;
        r->text = fold_text(&s, q->loc);
        switch (q->kind) {
        case Q_TABLE: resolve_table(&s, q, r); break;
        case Q_SOLVE:
            r->ncomps = q->nparts;
            r->comps = GR_NEWN(c, gr_comp, q->nparts);
            for (int i = 0; i < q->nparts; i++) resolve_part(&s, &q->parts[i], &r->comps[i]);
            check_sum_parts(&s, q, r);
            break;
        case Q_CHECK: resolve_check(&s, q, r); break;
        case Q_CENSUS: resolve_census(&s, q, r); break;
        case Q_PLOT: case Q_DOT: case Q_OPTIONS: resolve_show(&s, q, r); break;
        case Q_QUOTIENT: resolve_quotient(&s, q, r); break;
        }
    }
}
