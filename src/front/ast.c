/* ast: constructors for the syntax tree; see ast.h. All nodes come from the ctx arena. */
#include "ast.h"
#include <string.h>

gr_expr *ast_int(gr_ctx *c, gr_loc loc, int64_t v) {
    gr_expr *e = GR_NEW(c, gr_expr);
    e->kind = EX_INT; e->loc = loc; e->ival = v;
    return e;
}

gr_expr *ast_name(gr_ctx *c, gr_loc loc, const char *name) {
    gr_expr *e = GR_NEW(c, gr_expr);
    e->kind = EX_NAME; e->loc = loc; e->name = name;
    return e;
}

gr_expr *ast_unary(gr_ctx *c, gr_loc loc, gr_op op, gr_expr *a) {
    gr_expr *e = GR_NEW(c, gr_expr);
    e->kind = EX_UNARY; e->loc = loc; e->op = op; e->a = a;
    return e;
}

gr_expr *ast_binary(gr_ctx *c, gr_loc loc, gr_op op, gr_expr *a, gr_expr *b) {
    gr_expr *e = GR_NEW(c, gr_expr);
    e->kind = EX_BINARY; e->loc = loc; e->op = op; e->a = a; e->b = b;
    return e;
}

gr_expr *ast_call(gr_ctx *c, gr_loc loc, const char *name, gr_exprs args) {
    gr_expr *e = GR_NEW(c, gr_expr);
    e->kind = EX_CALL; e->loc = loc; e->name = name; e->args = args.v; e->nargs = args.n;
    return e;
}

/* Growable arena arrays: the old storage is simply abandoned to the arena. */
static void *grow(gr_ctx *c, void *old, int n, int *cap, size_t elem) {
    if (n < *cap) return old;
    int ncap = *cap ? *cap * 2 : 4;
    void *p = gr_new(c, gr_size_mul(c, (size_t)ncap, elem));
    if (old) memcpy(p, old, (size_t)n * elem);
    *cap = ncap;
    return p;
}

void ast_exprs_push(gr_ctx *c, gr_exprs *l, gr_expr *e) {
    l->v = grow(c, l->v, l->n, &l->cap, sizeof *l->v);
    l->v[l->n++] = e;
}

gr_set *ast_set_range(gr_ctx *c, gr_loc loc, gr_expr *lo, gr_expr *hi) {
    gr_set *s = GR_NEW(c, gr_set);
    s->kind = SET_RANGE; s->loc = loc; s->lo = lo; s->hi = hi;
    return s;
}

gr_set *ast_set_list(gr_ctx *c, gr_loc loc) {
    gr_set *s = GR_NEW(c, gr_set);
    s->kind = SET_LIST; s->loc = loc;
    return s;
}

void ast_set_list_push(gr_ctx *c, gr_set *list, gr_set *item) {
    list->items = grow(c, list->items, list->nitems, &list->cap, sizeof *list->items);
    list->items[list->nitems++] = item;
}

gr_set *ast_set_builder(gr_ctx *c, gr_loc loc, gr_expr *elem, const char *var, gr_loc var_loc,
                        gr_expr *lo, gr_expr *hi, int strict) {
    gr_set *s = GR_NEW(c, gr_set);
    s->kind = SET_BUILDER; s->loc = loc; s->elem = elem; s->var = var; s->var_loc = var_loc;
    s->lo = lo; s->hi = hi; s->strict = strict;
    return s;
}

gr_target *ast_target_expr(gr_ctx *c, gr_loc loc, gr_expr *e) {
    gr_target *t = GR_NEW(c, gr_target);
    t->kind = TG_EXPR; t->loc = loc; t->expr = e;
    return t;
}

gr_target *ast_target_tuple(gr_ctx *c, gr_loc loc, gr_exprs coords) {
    gr_target *t = GR_NEW(c, gr_target);
    t->kind = TG_TUPLE; t->loc = loc; t->coords = coords;
    return t;
}

gr_target *ast_target_sum(gr_ctx *c, gr_loc loc) {
    gr_target *t = GR_NEW(c, gr_target);
    t->kind = TG_SUM; t->loc = loc;
    return t;
}

void ast_target_sum_push(gr_ctx *c, gr_target *sum, gr_target *part) {
    sum->parts = grow(c, sum->parts, sum->nparts, &sum->cap, sizeof *sum->parts);
    sum->parts[sum->nparts++] = part;
}

void ast_bindings_push(gr_ctx *c, gr_bindings *b, const char *name, gr_loc loc, gr_expr *lo, gr_expr *hi) {
    b->v = grow(c, b->v, b->n, &b->cap, sizeof *b->v);
    b->v[b->n++] = (gr_binding){ .name = name, .loc = loc, .lo = lo, .hi = hi };
}

void ast_bindings_add(gr_ctx *c, gr_bindings *b, gr_binding one) {
    b->v = grow(c, b->v, b->n, &b->cap, sizeof *b->v);
    b->v[b->n++] = one;
}

int ast_bindings_set(gr_ctx *c, gr_bindings *b, const char *name, gr_loc loc, gr_set *set) {
    gr_exprs los = { 0 }, his = { 0 };
    gr_expr *member = NULL;
    for (int i = 0; i < set->nitems; i++) {
        const gr_set *it = set->items[i];
        if (!it->hi) return 0;
        gr_expr *v = ast_name(c, loc, name), *test;
        if (it->lo == it->hi) test = ast_binary(c, it->loc, OP_EQ, v, it->lo);
        else test = ast_binary(c, it->loc, OP_AND, ast_binary(c, it->loc, OP_GE, v, it->lo),
                               ast_binary(c, it->loc, OP_LE, ast_name(c, loc, name), it->hi));
        member = member ? ast_binary(c, it->loc, OP_OR, member, test) : test;
        ast_exprs_push(c, &los, it->lo);
        ast_exprs_push(c, &his, it->hi);
    }
    ast_bindings_push(c, b, name, loc, ast_call(c, set->loc, "min", los), ast_call(c, set->loc, "max", his));
    b->v[b->n - 1].member = member;
    b->v[b->n - 1].set = set;
    b->v[b->n - 1].range_loc = set->loc;
    return 1;
}

gr_expr *ast_bindings_guard(gr_ctx *c, const gr_bindings *b, gr_expr *cond) {
    for (int i = b->n - 1; i >= 0; i--)
        if (b->v[i].member) cond = cond ? ast_binary(c, b->v[i].member->loc, OP_AND, b->v[i].member, cond) : b->v[i].member;
    return cond;
}

void ast_binding_code(gr_ctx *c, gr_binding *b, const char *code, gr_loc loc) {
    int cap = b->ccap;
    b->codes = grow(c, b->codes, b->ncodes, &b->ccap, sizeof *b->codes);
    b->code_locs = grow(c, b->code_locs, b->ncodes, &cap, sizeof *b->code_locs);
    b->codes[b->ncodes] = code;
    b->code_locs[b->ncodes++] = loc;
}

void ast_names_push(gr_ctx *c, gr_names *l, const char *name, gr_loc loc) {
    int cap = l->cap;
    l->v = grow(c, l->v, l->n, &l->cap, sizeof *l->v);
    l->locs = grow(c, l->locs, l->n, &cap, sizeof *l->locs);
    l->v[l->n] = name;
    l->locs[l->n++] = loc;
}

gr_item *ast_item(gr_ctx *c, gr_loc loc, gr_item_kind kind) {
    gr_item *it = GR_NEW(c, gr_item);
    it->kind = kind; it->loc = loc;
    return it;
}

gr_item *ast_items_reverse(gr_item *list) {
    gr_item *out = NULL;
    while (list) {
        gr_item *next = list->next;
        list->next = out;
        out = list;
        list = next;
    }
    return out;
}

gr_gdecl *ast_gdecl(gr_ctx *c, gr_loc loc, gr_gdecl_kind kind) {
    gr_gdecl *d = GR_NEW(c, gr_gdecl);
    d->kind = kind; d->loc = loc;
    return d;
}

void ast_gdecl_head(gr_gdecl *d, const char *name, gr_loc name_loc, gr_names params) {
    d->name = name; d->name_loc = name_loc;
    d->params = params.v; d->param_locs = params.locs; d->nparams = params.n;
}

void ast_graph_edge(gr_ctx *c, gr_gdecl *g, const char *from, gr_loc from_loc, gr_names to) {
    g->edges = grow(c, g->edges, g->nedges, &g->cap, sizeof *g->edges);
    g->edges[g->nedges++] = (gr_edge){ from, from_loc, to.v, to.locs, to.n };
}

gr_query *ast_query(gr_ctx *c, gr_loc loc, gr_query_kind kind) {
    gr_query *q = GR_NEW(c, gr_query);
    q->kind = kind; q->loc = loc;
    return q;
}

void ast_table_coord(gr_ctx *c, gr_query *q, gr_loc loc, gr_expr *lo, gr_expr *hi) {
    q->coords = grow(c, q->coords, q->ncoords, &q->cap, sizeof *q->coords);
    q->coords[q->ncoords++] = (gr_coord){ lo, hi, loc };
    q->has_coords = 1;
}

void ast_solve_part(gr_ctx *c, gr_query *q, gr_posref p) {
    q->parts = grow(c, q->parts, q->nparts, &q->pcap, sizeof *q->parts);
    q->parts[q->nparts++] = p;
}

void ast_solve_group(gr_ctx *c, gr_query *q, const gr_query *group) {
    for (int i = 0; i < group->nparts; i++) {
        gr_posref p = group->parts[i];
        p.joined = i > 0;   /* a group inside a group is the same component */
        ast_solve_part(c, q, p);
    }
}

void ast_program_init(gr_ast_program *p) {
    p->decls = NULL; p->decls_tail = &p->decls;
    p->queries = NULL; p->queries_tail = &p->queries;
}

void ast_add_decl(gr_ast_program *p, gr_gdecl *d) { *p->decls_tail = d; p->decls_tail = &d->next; }
void ast_add_query(gr_ast_program *p, gr_query *q) { *p->queries_tail = q; p->queries_tail = &q->next; }

const char *gr_convention_name(gr_conv conv) {
    switch (conv) {
    case CONV_NORMAL: return "normal";
    case CONV_MISERE: return "misere";
    case CONV_ANYLEAF: return "anyleaf";
    case CONV_EVERY: return "every";
    }
    return "normal";
}

void ast_board_vertex(gr_ctx *c, gr_posref *p, gr_expr *i, gr_expr *j) {
    ast_exprs_push(c, &p->rm_i, i);
    ast_exprs_push(c, &p->rm_j, j);
}
