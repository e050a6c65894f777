/* compgraph: the theory evaluators' common ground. Every component of a sum is a normal-play
 * game on its own (a heap that splits stays one component: its positions are multisets of
 * heaps); the values the theories need (step numbers for 'every', leaf-deleted values for
 * 'anyleaf', misere Grundy values and genus for 'misere') are functions of that one
 * component's own graph, never of the product of the components. This file builds one
 * shared normal-play graph for all the components of a query, orders it children first
 * (Kahn's algorithm, no recursion) and fills those values in that order. A cycle anywhere
 * leaves the graph marked cyclic: the theories then do not apply. */
#ifndef GRUNDY_COMPGRAPH_H
#define GRUNDY_COMPGRAPH_H
#include "sums.h"
#include "eval/cap_convkernel.h"

enum { GR_GENUS_K = 12 };   /* the genus is computed to lambda_0 .. lambda_{K-1} */

typedef struct gr_compgraph {
    gr_ctx *c;
    gr_sumgraph *s;
    gr_pg *pg;
    uint32_t n;               /* positions */
    uint32_t *order;          /* children before parents (valid if acyclic) */
    int acyclic;
    int64_t *step;            /* step numbers (Every-SG), or NULL until asked */
    int64_t *leafless;        /* values after leaf deletion (-1 at a leaf), or NULL */
    int32_t *genus;           /* per position: g, then lambda_0..lambda_{K-1} (K+1 values) */
    uint8_t *tame;            /* per position: 1 if it and every position below have tame genus */
} gr_compgraph;

/* Builds and solves the graph of every component (each alone, normal play). */
gr_compgraph *gr_compgraph_new(gr_ctx *c, gr_module *m, const gr_comp *comps, int n);
void gr_compgraph_free(gr_compgraph *g);
uint32_t gr_compgraph_id(gr_compgraph *g, const gr_comp *comp);
/* The components of a sum under 'anyleaf' and 'every' are units: comps[i] and the comps
 * joined to it (a group, '(a + b)'). The number of comps in the unit that starts at i. */
int gr_unit_len(const gr_comp *comps, int n, int i);
/* The id of a unit of len comps (a group is one position of its component's graph). */
uint32_t gr_compgraph_id_n(gr_compgraph *g, const gr_comp *comps, int len);

void gr_compgraph_steps(gr_compgraph *g);
void gr_compgraph_leafless(gr_compgraph *g);
void gr_compgraph_genus(gr_compgraph *g);
static inline const int32_t *gr_compgraph_genus_of(const gr_compgraph *g, uint32_t id) {
    return g->genus + (size_t)id * (GR_GENUS_K + 1);
}
/* Is this genus (g, lambda...) the genus of a misere Nim position: 0^120, 1^031, or a^{a,a^2}? */
int gr_genus_is_tame(const int32_t *gen);
/* Writes a genus as text "1^031": the superscript up to where its last two digits alternate. */
void gr_genus_text(const int32_t *gen, char *buf, size_t cap);
/* The length of that shortest superscript. */
int gr_genus_len(const int32_t *gen);

/* The moves of one component, each with the child's id in the graph and its text. */
void gr_compgraph_moves(gr_compgraph *g, const gr_comp *comp, gr_child_fn fn, void *user);
/* The same of a unit of len comps. */
void gr_compgraph_moves_n(gr_compgraph *g, const gr_comp *comps, int len, gr_child_fn fn, void *user);

/* ---- what a theory evaluator answers about a sum ---- */
typedef struct gr_theory {
    int decided;              /* 1: the theory applied and the fields below hold */
    int outcome;              /* GR_LOSS or GR_WIN */
    int64_t remoteness;       /* of the whole sum, -1 where the theory does not give it */
    char remoteness_skipped[96];  /* why it was not computed ("over 262144 positions"), "" if not tried */
    int64_t value;            /* the theory's value of the sum (reduced value, genus g), -1 none */
    int moves_partial;        /* the winning moves listed are some, not all */
    int64_t moves_unlisted;   /* winning moves of huge heaps past those listed (100 a heap) */
    char why[1024];           /* what applied, or why nothing did (for --explain) */
} gr_theory;

/* Are these components fit for the theories (no terminal that fixes an outcome)? */
int gr_theory_plain(const gr_comp *comps, int n, gr_theory *t);
/* Clears t and builds the components' graph; NULL (with t->why) if a terminal fixes an
 * outcome or a component is loopy (`what` says what the cycle prevents). */
gr_compgraph *gr_theory_begin(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_theory *t, const char *what);
/* Is comps[at] equal to an earlier component? (its moves give the same positions) */
int gr_theory_dup(const gr_comp *comps, int at);
/* Is the unit at `at` (len comps) equal, atom for atom, to an earlier unit of comps[0..n)? */
int gr_theory_dup_unit(const gr_comp *comps, int n, int at, int len);
/* The text of a sum where component `at` is replaced by a child written `child`;
 * group: parenthesise a child of several atoms ('anyleaf', 'every': it stays one component,
 * even in a sum of one), and take components as units (groups, parenthesised too; `at` is
 * the first comp of its unit). */
void gr_theory_text(gr_ctx *c, const gr_comp *comps, int n, int at, const char *child, int group, char *buf, size_t cap);

/* A sum split for a theory: the components a heap kernel answers (eval/cap_convkernel.h: heap rule
 * sets that never split, under 'anyleaf' or 'every'), and one graph of the others. */
typedef struct gr_theory_parts {
    int *kernel;              /* per component: 1 if by its heap kernel */
    gr_hcval *kv;             /* per component: the kernel's values */
    gr_compgraph *g;          /* the other components' graph; NULL if there are none */
} gr_theory_parts;
/* Like gr_theory_begin, for a split sum under 'anyleaf' or 'every', the others' graph with
 * its leaf-deleted values or step numbers filled: 0 (with t->why) if a component outside the
 * kernels is loopy, or (for a solve: `what` says what the cycle prevents; NULL for values
 * alone) if a terminal fixes an outcome. */
int gr_theory_split(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, gr_theory *t,
                    const char *what, gr_theory_parts *p);
void gr_theory_parts_free(gr_ctx *c, gr_theory_parts *p);
/* Per component, its value after leaf deletion (conv 'anyleaf') or step number ('every'), by
 * its kernel or its graph; 0 if a component outside the kernels is loopy. */
int gr_theory_values(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, int64_t *out);
/* Appends to t->why the cost of each kernel the split used, one game once. */
void gr_theory_kernels_why(const gr_comp *comps, int n, const gr_theory_parts *p, gr_theory *t);
/* The text of comps[at]'s option to heap h, written into buf as a sum with it. */
void gr_theory_heap_text(gr_ctx *c, const gr_comp *comps, int n, int at, int64_t h, char *buf, size_t cap);
#endif
