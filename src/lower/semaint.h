/* semaint.h: what the three parts of sema share (sema.c the driver and the declarations,
 * instance.c the instances, semaquery.c the queries); private to lower/. */
#ifndef GRUNDY_SEMAINT_H
#define GRUNDY_SEMAINT_H
#include "sema.h"
#include "ir.h"
#include "names.h"
#include "params.h"
#include "figure.h"
#include <string.h>

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
    struct gr_board_named *board;  /* GD_BOARD (board.h) */
} decl_info;

typedef struct sema {
    gr_ctx *c;
    gr_ast_program *prog;
    gr_module *mod;
    gr_game **games_tail;
    gr_names_map decls;            /* name -> declaration */
    gr_names_map instances;        /* output name ("bash[3]") -> instance */
    gr_codebook codes;             /* the codes code parameters index (params.h) */
    uint64_t generation;           /* counts declarations and instances made (gr_sema_generation) */
    gr_names_log *log;             /* an entry's journal (gr_sema_begin; NULL: none) */
} sema;

/* Journals a link of a list of what lasts (games, declarations) before it is written. */
static inline void gr_sema_note(sema *s, void *where) { if (s->log) gr_names_log_ptr(s->log, where); }

static inline gr_gdecl *find_decl(sema *s, const char *name) { return gr_names_get(&s->decls, name); }

/* Two helpers the declarations and the queries share, inline here so that the three files call
 * one another one way only: sema.c -> semaquery.c -> instance.c (tests/check_calls.sh). */
/* The parameter a subtraction set is when written as its bare name ('subtract S'), or -1. */
static inline int gr_sema_set_param(const gr_gdecl *d) {
    const gr_set *set = d->set;
    if (set->kind != SET_RANGE || set->lo != set->hi || set->lo->kind != EX_NAME) return -1;
    for (int i = 0; i < d->nparams; i++)
        if (!strcmp(d->params[i], set->lo->name)) return i;
    return -1;
}

/* Compiles 'for v in lo..hi, ...': each range sees the variables before it, then its own
 * variable joins the scope. */
static inline gr_rbinding *gr_sema_bindings(sema *s, const gr_bindings *bs, gr_scope *sc) {
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

/* instance.c: the instance a reference names (bash[3]), its parameters constant expressions;
 * the instance of d with these parameter values, made and lowered once per distinct name
 * (kinds: each parameter a number, code or set; NULL for numbers only). */
gr_game *gr_sema_instantiate(sema *s, const gr_gameref *ref);
gr_game *gr_sema_instantiate_params(sema *s, gr_gdecl *d, const int64_t *params, const gr_param_kind *kinds);

/* semaquery.c: resolves one query q into r (r zeroed; its q, kind, conv and text set here). */
void gr_sema_query(sema *s, gr_query *q, gr_rquery *r);
/* semaboard.c: games on boards (called by sema.c, instance.c and semaquery.c, calling none). */
/* A declared board (its vertices and edges already in di, as a graph's): checked, kept in di. */
void gr_sema_board_decl(sema *s, gr_gdecl *d, decl_info *di);
/* The rule of an instance of a rule set on boards, its parameters' values in params. */
void gr_sema_board_rule(sema *s, gr_gdecl *d, decl_info *di, gr_game *g, const int64_t *params);
/* A written position of a game on boards (out->game set). */
void gr_sema_board_part(sema *s, gr_posref *p, gr_comp *out);
/* A table over a board family (r->game set). */
void gr_sema_board_table(sema *s, gr_query *q, gr_rquery *r);
#endif
