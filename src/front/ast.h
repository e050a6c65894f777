/* ast: the syntax tree of a .game file. Every node lives in the compilation's arena and
 * carries the source span it came from, so every later stage can point at the text. */
#ifndef GRUNDY_AST_H
#define GRUNDY_AST_H
#include <stdint.h>
#include "ctx.h"

/* ---- expressions ---------------------------------------------------------------------- */
typedef enum {
    EX_INT, EX_NAME, EX_UNARY, EX_BINARY, EX_CALL,
    EX_RANGE                 /* a..b (a, b), only in a board's size or its removed vertices */
} gr_ex_kind;

typedef enum {
    OP_NEG, OP_NOT, OP_BITNOT,                                   /* unary */
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_SHL, OP_SHR,
    OP_BITAND, OP_BITOR, OP_BITXOR,
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
    OP_AND, OP_OR, OP_IFF
} gr_op;

typedef struct gr_expr gr_expr;
struct gr_expr {
    gr_ex_kind kind;
    gr_loc loc;
    gr_op op;
    int64_t ival;           /* EX_INT */
    const char *name;       /* EX_NAME, EX_CALL */
    gr_expr *a, *b;         /* operands */
    gr_expr **args;         /* EX_CALL */
    int nargs;
};

typedef struct gr_exprs { gr_expr **v; int n, cap; } gr_exprs;

/* ---- sets (subtraction sets) ------------------------------------------------------------ */
typedef enum { SET_LIST, SET_RANGE, SET_BUILDER } gr_set_kind;
typedef struct gr_set gr_set;
struct gr_set {
    gr_set_kind kind;
    gr_loc loc;
    gr_expr *lo, *hi;        /* SET_RANGE: hi NULL means open ("1..") */
    gr_set **items; int nitems, cap;  /* SET_LIST: each item a SET_RANGE (single values: lo == hi) */
    gr_expr *elem;           /* SET_BUILDER: {elem : var >= lo} or {elem : var in lo..hi} */
    const char *var; gr_loc var_loc;
    int strict;              /* var > lo */
};

/* ---- rule sets ----------------------------------------------------------------------- */
/* A binding 'v in lo..hi', or (a family's parameter, census.h) 'v in octal(k)', 'hex(k)', a list
 * of codes {"0.77", ...} or 'subsets(lo..hi)': kind says which; lo holds k for octal and hex. */
typedef enum { BIND_RANGE, BIND_OCTAL, BIND_HEX, BIND_CODES, BIND_SUBSETS } gr_bind_kind;
typedef struct gr_binding {
    const char *name; gr_loc loc; gr_expr *lo, *hi;
    gr_bind_kind kind; const char **codes; gr_loc *code_locs; int ncodes, ccap; gr_loc range_loc;
    gr_expr *member;         /* 'v in {1, 2, 5}': a range lo..hi (the least, the most) and this test */
    gr_set *set;             /*   and the set itself (a family's parameter lists its values) */
} gr_binding;
typedef struct gr_bindings { gr_binding *v; int n, cap; } gr_bindings;

/* A move's target: one heap (an expression), one tuple, or a sum {t1, t2, ...}. */
typedef enum { TG_EXPR, TG_TUPLE, TG_SUM, TG_RANGE } gr_target_kind;   /* TG_RANGE: coins lo..hi (coords) */
typedef struct gr_target gr_target;
struct gr_target {
    gr_target_kind kind;
    gr_loc loc;
    gr_expr *expr;           /* TG_EXPR */
    gr_exprs coords;         /* TG_TUPLE */
    gr_target **parts; int nparts, cap; /* TG_SUM */
};

typedef enum { IT_HEAP, IT_POSITION, IT_MOVE, IT_TERMINAL, IT_PLAY } gr_item_kind;
typedef enum { TERM_LEAF, TERM_WINS, TERM_LOSES } gr_term_kind;
typedef enum { CONV_NORMAL, CONV_MISERE, CONV_ANYLEAF, CONV_EVERY } gr_conv;

typedef struct gr_item gr_item;
struct gr_item {
    gr_item_kind kind;
    gr_loc loc;
    const char **names; gr_loc *name_locs; int nnames;  /* IT_HEAP (1), IT_POSITION */
    gr_expr *cond;           /* IT_POSITION where, IT_MOVE where, IT_TERMINAL when */
    gr_target *target;       /* IT_MOVE */
    gr_bindings bindings;    /* IT_MOVE for ... */
    gr_term_kind term;       /* IT_TERMINAL */
    gr_conv play;      /* IT_PLAY */
    gr_item *next;
};

typedef enum { GD_SUBTRACT, GD_OCTAL, GD_BLOCK, GD_GRAPH, GD_HACKENBUSH, GD_TURNING,
               GD_BOARDRULE,   /* game X = board vertex|edge [within R] [where COND] */
               GD_BOARD,       /* board X { a - b, c; ... }: edges as in a graph's, undirected */
               GD_ALIAS        /* game X = Y: another name of Y (sema copies Y's declaration) */
} gr_gdecl_kind;

typedef struct gr_edge { const char *from; gr_loc from_loc; const char **to; gr_loc *to_locs; int nto; } gr_edge;

typedef struct gr_gdecl gr_gdecl;
struct gr_gdecl {
    gr_gdecl_kind kind;
    gr_loc loc, name_loc;
    const char *name;
    const char **params; gr_loc *param_locs; int nparams;
    int misere;              /* "misere" after the game expression */
    gr_set *set;             /* GD_SUBTRACT */
    int allbut;              /* subtract allbut SET: every positive amount not in SET */
    const char *code; gr_loc code_loc;  /* GD_OCTAL (without quotes) */
    const char *code_param;  /* GD_OCTAL: the code is this parameter (octal c), code NULL */
    gr_item *items;          /* GD_BLOCK */
    gr_edge *edges; int nedges, cap;     /* GD_GRAPH, GD_BOARD; GD_HACKENBUSH: a chain from, to[0], to[1], ... */
    const char *alias_of;    /* GD_ALIAS: the name it stands for (its place in code_loc) */
    int board_edge;          /* GD_BOARDRULE: a move chooses an edge (else a vertex) */
    gr_expr *board_radius, *board_where; /* GD_BOARDRULE: 'within R' (NULL: 0), 'where COND' over 'degree' */
    gr_gdecl *next;
    void *sema;              /* owned by sema */
};

typedef struct gr_names { const char **v; gr_loc *locs; int n, cap; } gr_names;

/* ---- queries ------------------------------------------------------------------------- */
typedef struct gr_gameref { const char *name; gr_loc loc; gr_exprs args; int has_args; } gr_gameref;

/* One component of a sum: a rule set position game[args](coords) or a graph token g.v */
typedef struct gr_posref {
    gr_gameref game;
    gr_exprs coords;
    const char *vertex; gr_loc vertex_loc;   /* graph token */
    int figure; gr_names cuts;     /* a Hackenbush figure by name, less the edges cut: pairs of names */
    int joined;                    /* in one component with the part before it: '(a + b)' */
    int has_removed;               /* a board less vertices: B - {v, (i, j), lo..hi, ...} */
    gr_exprs rm_i, rm_j;           /*   each vertex: rm_i.v[k] (a range, a number or a name), rm_j.v[k] the column or NULL */
    gr_loc loc;
} gr_posref;

typedef enum { Q_TABLE, Q_SOLVE, Q_CHECK, Q_PLOT, Q_DOT, Q_OPTIONS, Q_QUOTIENT, Q_CENSUS } gr_query_kind;
typedef enum { CK_PERIODIC, CK_PERIOD, CK_FORMULA } gr_check_kind;
/* One coordinate of a table: a range lo..hi, or a single value (hi == NULL) */
typedef struct gr_coord { gr_expr *lo, *hi; gr_loc loc; } gr_coord;

/* What a table prints: 'sg' (the default), 'outcome', 'remoteness', 'genus'. */
typedef enum { TK_SG, TK_OUTCOME, TK_REMOTENESS, TK_GENUS } gr_table_kind;

typedef struct gr_query gr_query;
struct gr_query {
    gr_query_kind kind;
    gr_loc loc;
    gr_conv conv; int has_conv;
    gr_gameref game;                 /* table, check */
    gr_coord *coords; int ncoords, cap; int has_coords; /* table */
    int outcome;                     /* table ... outcome: a gr_table_kind */
    gr_posref *parts; int nparts, pcap; /* solve */
    gr_check_kind check;
    gr_expr *period, *preperiod, *saltus;
    gr_expr *formula; gr_bindings bindings;
    gr_expr *census_to;              /* census ... to N */
    const char *file; gr_loc file_loc;  /* plot, dot: the file written */
    gr_query *next;
};

typedef struct gr_ast_program {
    gr_gdecl *decls, **decls_tail;
    gr_query *queries, **queries_tail;
} gr_ast_program;

/* Constructors, called from the parser's one-line actions. */
gr_expr *ast_int(gr_ctx *c, gr_loc loc, int64_t v);
gr_expr *ast_name(gr_ctx *c, gr_loc loc, const char *name);
gr_expr *ast_unary(gr_ctx *c, gr_loc loc, gr_op op, gr_expr *a);
gr_expr *ast_binary(gr_ctx *c, gr_loc loc, gr_op op, gr_expr *a, gr_expr *b);
gr_expr *ast_call(gr_ctx *c, gr_loc loc, const char *name, gr_exprs args);
void ast_exprs_push(gr_ctx *c, gr_exprs *l, gr_expr *e);

gr_set *ast_set_range(gr_ctx *c, gr_loc loc, gr_expr *lo, gr_expr *hi);
gr_set *ast_set_list(gr_ctx *c, gr_loc loc);
void ast_set_list_push(gr_ctx *c, gr_set *list, gr_set *item);
gr_set *ast_set_builder(gr_ctx *c, gr_loc loc, gr_expr *elem, const char *var, gr_loc var_loc,
                        gr_expr *lo, gr_expr *hi, int strict);

gr_target *ast_target_expr(gr_ctx *c, gr_loc loc, gr_expr *e);
gr_target *ast_target_tuple(gr_ctx *c, gr_loc loc, gr_exprs coords);
gr_target *ast_target_sum(gr_ctx *c, gr_loc loc);
void ast_target_sum_push(gr_ctx *c, gr_target *sum, gr_target *part);

void ast_bindings_push(gr_ctx *c, gr_bindings *b, const char *name, gr_loc loc, gr_expr *lo, gr_expr *hi);
void ast_bindings_add(gr_ctx *c, gr_bindings *b, gr_binding one);
/* 'name in {items}': a range from the least item to the most, and a test of membership.
 * Returns 0 (nothing added) if an item is an open range "lo..". */
int ast_bindings_set(gr_ctx *c, gr_bindings *b, const char *name, gr_loc loc, gr_set *set);
/* cond (NULL: none) and the membership tests of the bindings over sets: a move's guard. */
gr_expr *ast_bindings_guard(gr_ctx *c, const gr_bindings *b, gr_expr *cond);
void ast_binding_code(gr_ctx *c, gr_binding *b, const char *code, gr_loc loc);
void ast_names_push(gr_ctx *c, gr_names *l, const char *name, gr_loc loc);
/* A vertex removed from a board in a written position: i alone, or the cell (i, j). */
void ast_board_vertex(gr_ctx *c, gr_posref *p, gr_expr *i, gr_expr *j);

gr_item *ast_item(gr_ctx *c, gr_loc loc, gr_item_kind kind);
gr_item *ast_items_reverse(gr_item *list);
gr_gdecl *ast_gdecl(gr_ctx *c, gr_loc loc, gr_gdecl_kind kind);
void ast_gdecl_head(gr_gdecl *d, const char *name, gr_loc name_loc, gr_names params);
void ast_graph_edge(gr_ctx *c, gr_gdecl *g, const char *from, gr_loc from_loc, gr_names to);

gr_query *ast_query(gr_ctx *c, gr_loc loc, gr_query_kind kind);
void ast_table_coord(gr_ctx *c, gr_query *q, gr_loc loc, gr_expr *lo, gr_expr *hi);
void ast_solve_part(gr_ctx *c, gr_query *q, gr_posref p);
/* Appends the parts of group (a sum in parentheses) to q as one component. */
void ast_solve_group(gr_ctx *c, gr_query *q, const gr_query *group);

void ast_program_init(gr_ast_program *p);
void ast_add_decl(gr_ast_program *p, gr_gdecl *d);
void ast_add_query(gr_ast_program *p, gr_query *q);

const char *gr_convention_name(gr_conv conv);
#endif
