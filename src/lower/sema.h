/* sema: the semantic pass. Resolves every name (rule sets, graphs, parameters, position
 * variables, bound variables), checks arities and ranges, folds constants, compiles every
 * expression once (expr.h), instantiates parameterised rule sets (bash[3] is one game) and
 * hands each instance to lowering. The result is a list of resolved queries ready to run.
 * Every error is a located diagnostic with exit status 2. The pass is in three files: sema.c
 * (the driver, declarations), instance.c (instances), semaquery.c (queries); semaint.h. */
#ifndef GRUNDY_SEMA_H
#define GRUNDY_SEMA_H
#include "game.h"

enum { GR_MAX_ARITY = 16 };

/* One component of a sum: a position of a game (coordinates, or a vertex index). */
typedef struct gr_comp {
    gr_game *game;
    int64_t c[GR_MAX_ARITY];
    int joined;      /* one component with the one before it (a group '(a + b)'): under
                      * 'anyleaf' and 'every' components matter; under normal and misere not */
} gr_comp;

typedef struct gr_rquery {
    gr_query *q;
    gr_query_kind kind;
    gr_conv conv;
    gr_game *game;                 /* table, check */
    const char *text;              /* the query as written, whitespace folded (check claims) */
    /* table: each coordinate either varies over lo..hi or is fixed (lo == hi, varies == 0) */
    int ncoords;
    int64_t lo[GR_MAX_ARITY], hi[GR_MAX_ARITY];
    int varies[GR_MAX_ARITY];
    int ndims;                     /* how many coordinates vary (0, 1 or 2) */
    int dim[2];                    /* which coordinates vary */
    int32_t *vertex_list; int nvertex_list;   /* a table over graph vertices */
    int outcome;                   /* outcome table rather than SG values */
    /* solve */
    gr_comp *comps; int ncomps;
    /* check */
    gr_check_kind check;
    int64_t period, preperiod, saltus;
    int has_preperiod, has_saltus;
    gr_code *formula;
    gr_scope scope;                /* the check's bound variables (to compile parts of the formula) */
    gr_rbinding *binds; int nbinds;
    int nslots;
    /* check over a family (bash[m] ... for m in ..): one instance per assignment of the first
     * nfam bindings, whose values are member_args[i * nfam ..]; nmembers 0 otherwise */
    gr_game **members; int64_t *member_args; int nmembers, nfam;
    const char **member_labels;    /* each member's parameters as text: "0.77", "{1, 3}", "5" */
    const char **member_param_text; /* the same, one parameter at a time (member i's at i * nfam) */
    const int *param_is_number;    /* per family parameter: a number (else a code or set) */
    int64_t census_to;             /* census: every member's values to this heap */
    const char *file;              /* plot, dot: the file written */
} gr_rquery;

typedef struct gr_module {
    gr_game *games;                /* every instance, in order of first use */
    gr_rquery *queries; int nqueries;
    gr_gdecl *decls;
} gr_module;

/* Fails (longjmp, status 2) on the first error. */
void gr_sema(gr_ctx *c, gr_ast_program *prog, gr_module *out);

/* A program that grows (the API's and the session's engine): gr_sema_open is gr_sema that
 * keeps its names, so that gr_sema_more can compile an entry against them later: the entry's
 * declarations join (one of a known name replaces it, its instances leave the games), its
 * queries are resolved into out (out's games: every live instance). The state lives in c's
 * arena; c may be another context over the same arena at each entry. */
typedef struct gr_sema_state gr_sema_state;
gr_sema_state *gr_sema_open(gr_ctx *c, gr_ast_program *prog, gr_module *out);
void gr_sema_more(gr_sema_state *st, gr_ctx *c, gr_ast_program *prog, gr_module *out);
/* Changes whenever a declaration, an instance or an interned code is made (the arena then
 * holds what must stay). */
uint64_t gr_sema_generation(const gr_sema_state *st);
/* The live instances (a redefined declaration's are gone), in order of first use. */
gr_game *gr_sema_games(const gr_sema_state *st);
/* An entry as a whole or nothing: gr_sema_begin journals what gr_sema_more changes from then
 * on (NULL: no memory for the journal); gr_sema_keep keeps it; gr_sema_undo, called before
 * the arena is rewound past the entry, puts the names, declarations, instances and codes back
 * as they were at gr_sema_begin (0: the journal had broken, the state must be compiled afresh).
 * Both free the journal. */
typedef struct gr_sema_txn gr_sema_txn;
gr_sema_txn *gr_sema_begin(gr_sema_state *st);
void gr_sema_keep(gr_sema_state *st, gr_sema_txn *t);
int gr_sema_undo(gr_sema_state *st, gr_sema_txn *t);
/* Whether a name is declared (state is a gr_sema_state; a callback of gr_parse_more). */
int gr_sema_knows(void *state, const char *name);
#endif
