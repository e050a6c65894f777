/* semaboard: sema of games on boards: a declared board, a rule set's instance (its radius and
 * the degrees its 'where' allows), a written position (a board less vertices) and a table over
 * a board family (its sizes the coordinates). Called by sema.c, instance.c and semaquery.c,
 * calling none of them (tests/check_calls.sh). */
#include "semaint.h"
#include "board.h"

void gr_sema_board_decl(sema *s, gr_gdecl *d, decl_info *di) {
    for (int i = 0; i < d->nedges; i++)
        for (int k = 0; k < d->edges[i].nto; k++)
            if (!strcmp(d->edges[i].from, d->edges[i].to[k]))
                gr_fail_at(s->c, d->edges[i].to_locs[k], GR_EXIT_INPUT, "a board is a simple graph: '%s' cannot be joined to itself", d->edges[i].from);
    if (di->nvertices > GR_BOARD_MAXV)
        gr_fail_at(s->c, d->name_loc, GR_EXIT_LIMIT, "board '%s' has %d vertices; grundy plays on boards of at most %d", d->name, di->nvertices, GR_BOARD_MAXV);
    gr_board_named *nb = GR_NEW(s->c, gr_board_named);
    *nb = (gr_board_named){ d->name, di->vertices, di->nvertices, di->adj_off, di->adj };
    di->board = nb;
}

void gr_sema_board_rule(sema *s, gr_gdecl *d, decl_info *di, gr_game *g, const int64_t *params) {
    gr_board_rule *r = GR_NEW(s->c, gr_board_rule);
    int64_t frame[GR_MAX_FRAME] = { 0 };
    memcpy(frame, params, (size_t)d->nparams * sizeof *params);
    r->edge = d->board_edge;
    if (d->board_radius) {
        int64_t radius = gr_eval(s->c, gr_expr_compile(s->c, d->board_radius, &di->scope, 0), frame, NULL);
        if (radius < 0 || radius > GR_BOARD_MAXV)
            gr_fail_at(s->c, d->board_radius->loc, GR_EXIT_INPUT, "'within' takes a distance from 0 to %d; %lld is not", GR_BOARD_MAXV, (long long)radius);
        r->radius = (int)radius;
    }
    if (d->board_where) {
        if (r->edge) gr_fail_at(s->c, d->board_where->loc, GR_EXIT_INPUT, "'where degree ...' chooses among vertices; an edge rule takes every edge");
        gr_scope sc = di->scope;
        int slot = gr_scope_add(s->c, &sc, "degree", d->board_where->loc);
        gr_code *cond = gr_expr_compile(s->c, d->board_where, &sc, 0);
        uint8_t *ok = GR_NEWN(s->c, uint8_t, GR_BOARD_MAXV);
        for (int deg = 0; deg < GR_BOARD_MAXV; deg++) {
            frame[slot] = deg;
            ok[deg] = gr_eval(s->c, cond, frame, NULL) != 0;
        }
        r->deg_ok = ok;
    }
    g->board_rule = r;
}

/* ---- positions ---- */
/* The board a written expression names: a family with its sizes (each lo..hi or one value), or
 * a declared board. Returns the kind; lo, hi get the sizes. */
static int board_of(sema *s, const gr_expr *e, int64_t *lo, int64_t *hi, int ranges, gr_board_named **named) {
    gr_scope empty = { 0 };
    *named = NULL;
    if (e->kind == EX_NAME) {
        gr_gdecl *d = find_decl(s, e->name);
        if (!d || d->kind != GD_BOARD)
            gr_fail_at(s->c, e->loc, GR_EXIT_INPUT, "'%s' is not a board: write path(n), cycle(n), grid(r, c), complete(n) or the name of a 'board'", e->name);
        *named = ((decl_info *)d->sema)->board;
        lo[0] = hi[0] = lo[1] = hi[1] = 0;
        return BK_NAMED;
    }
    int kind = e->kind == EX_CALL ? gr_board_kind_of(e->name) : 0;
    if (!kind) gr_fail_at(s->c, e->loc, GR_EXIT_INPUT, "a position of a game on boards is a board: path(n), cycle(n), grid(r, c), complete(n) or a 'board' by name");
    int np = gr_board_params(kind);
    if (e->nargs != np) gr_fail_at(s->c, e->loc, GR_EXIT_INPUT, "%s takes %d size%s; %d given", e->name, np, np == 1 ? "" : "s", e->nargs);
    lo[1] = hi[1] = 0;
    for (int i = 0; i < np; i++) {
        const gr_expr *a = e->args[i];
        if (a->kind == EX_RANGE && !ranges) gr_fail_at(s->c, a->loc, GR_EXIT_INPUT, "a range of boards belongs in a table: here one board, one size");
        lo[i] = gr_const_eval(s->c, a->kind == EX_RANGE ? a->a : a, &empty);
        hi[i] = a->kind == EX_RANGE ? gr_const_eval(s->c, a->b, &empty) : lo[i];
        if (lo[i] > hi[i]) gr_fail_at(s->c, a->loc, GR_EXIT_INPUT, "the range is empty (%lld > %lld)", (long long)lo[i], (long long)hi[i]);
    }
    const char *why;
    int64_t n = gr_board_count(kind, hi[0], hi[1], NULL, &why);
    if (n == -2 || gr_board_count(kind, lo[0], lo[1], NULL, &why) == -2) gr_fail_at(s->c, e->loc, GR_EXIT_INPUT, "%s", why);
    if (n == -1) {
        double cells = kind == BK_GRID ? (double)hi[0] * (double)hi[1] : (double)hi[0];
        gr_fail_at(s->c, e->loc, GR_EXIT_LIMIT, "a board of %.0f vertices; grundy plays on boards of at most %d", cells, GR_BOARD_MAXV);
    }
    return kind;
}

static int board_index(sema *s, gr_game *g, const gr_board_named *nb) {
    for (int i = 0; i < g->nboards; i++) if (g->boards[i] == nb) return i;
    if (g->nboards == g->boards_cap) {
        int cap = g->boards_cap ? 2 * g->boards_cap : 4;
        const gr_board_named **p = GR_NEWN(s->c, const gr_board_named *, cap);
        if (g->nboards) memcpy(p, g->boards, (size_t)g->nboards * sizeof *p);
        g->boards = p;
        g->boards_cap = cap;
    }
    g->boards[g->nboards] = nb;
    return g->nboards++;
}

/* Removes the vertex written (i, or the cell (i, j)) from the position c. */
static void remove_vertex(sema *s, const gr_board *b, const gr_expr *ei, const gr_expr *ej, int64_t *c) {
    gr_scope empty = { 0 };
    gr_loc at = ei->loc;
    if (ej) at.len = ej->loc.off + ej->loc.len - ei->loc.off + 1;
    int64_t lo, hi, j = 0;
    if (b->kind == BK_NAMED) {
        if (ej || ei->kind != EX_NAME) {
            if (ei->kind != EX_INT || ej) gr_fail_at(s->c, at, GR_EXIT_INPUT, "board '%s' has vertices by name", b->named->name);
        }
        char num[24];
        const char *name = ei->kind == EX_NAME ? ei->name : (snprintf(num, sizeof num, "%lld", (long long)ei->ival), num);
        int v = gr_board_vertex_named(b->named, name);
        if (v < 0) gr_fail_at(s->c, at, GR_EXIT_INPUT, "board '%s' has no vertex '%s'", b->named->name, name);
        lo = hi = v;
    } else {
        if ((b->kind == BK_GRID) != (ej != NULL))
            gr_fail_at(s->c, at, GR_EXIT_INPUT, b->kind == BK_GRID ? "a grid's vertex is a cell (i, j)" : "this board's vertices are numbers 0, 1, ...");
        lo = gr_const_eval(s->c, ei->kind == EX_RANGE ? ei->a : ei, &empty);
        hi = ei->kind == EX_RANGE ? gr_const_eval(s->c, ei->b, &empty) : lo;
        if (ej) j = gr_const_eval(s->c, ej, &empty);
    }
    for (int64_t i = lo; i <= hi; i++) {
        int v = b->kind == BK_NAMED ? (int)i : gr_board_vertex(b, i, j);
        char t[64];
        if (ej) snprintf(t, sizeof t, "(%lld, %lld)", (long long)i, (long long)j);
        else snprintf(t, sizeof t, "%lld", (long long)i);
        if (v < 0) gr_fail_at(s->c, at, GR_EXIT_INPUT, "vertex %s is not on the board", t);
        if (gr_board_removed(c, v)) gr_fail_at(s->c, at, GR_EXIT_INPUT, "vertex %s is removed twice", t);
        gr_board_remove(c, v);
    }
}

void gr_sema_board_part(sema *s, gr_posref *p, gr_comp *out) {
    gr_game *g = out->game;
    if (p->figure || p->vertex || p->coords.n != 1)
        gr_fail_at(s->c, p->loc, GR_EXIT_INPUT, "'%s' is played on boards: write a position as %s(grid(4, 5)) or %s(path(7) - {0, 3})", g->name, g->name, g->name);
    int64_t lo[2], hi[2];
    gr_board_named *nb;
    int kind = board_of(s, p->coords.v[0], lo, hi, 0, &nb);
    memset(out->c, 0, sizeof out->c);
    out->c[GR_BPOS_P0] = nb ? board_index(s, g, nb) : lo[0];
    out->c[GR_BPOS_P1] = lo[1];
    out->c[GR_BPOS_KIND] = kind;
    if (!p->has_removed) return;
    gr_board b;
    gr_board_head(g, out->c, &b);
    for (int k = 0; k < p->rm_i.n; k++) remove_vertex(s, &b, p->rm_i.v[k], p->rm_j.v[k], out->c);
}

void gr_sema_board_table(sema *s, gr_query *q, gr_rquery *r) {
    gr_game *g = r->game;
    if (q->ncoords != 1 || q->coords[0].hi)
        gr_fail_at(s->c, q->game.loc, GR_EXIT_INPUT, "a table of '%s' ranges over boards, as in %s(path(1..30)) or %s(grid(4, 4..10))", g->name, g->name, g->name);
    int64_t lo[2], hi[2];
    gr_board_named *nb;
    const gr_expr *e = q->coords[0].lo;
    int kind = board_of(s, e, lo, hi, 1, &nb);
    if (nb) gr_fail_at(s->c, e->loc, GR_EXIT_INPUT, "a table varies a board's size; 'solve %s(%s)' gives the value of one board", g->name, nb->name);
    r->ncoords = gr_board_params(kind);
    memset(r->lo, 0, sizeof r->lo);
    memset(r->hi, 0, sizeof r->hi);
    for (int i = 0; i < r->ncoords; i++) {
        r->lo[i] = lo[i];
        r->hi[i] = hi[i];
        r->varies[i] = e->args[i]->kind == EX_RANGE;
        if (r->varies[i]) r->dim[r->ndims++] = i;
    }
    r->lo[GR_BPOS_KIND] = r->hi[GR_BPOS_KIND] = kind;
    if (r->ndims == 0) { r->ndims = 1; r->dim[0] = 0; r->varies[0] = 1; }
}
