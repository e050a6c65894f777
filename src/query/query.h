/* query: runs the resolved queries (every kind of front/ast.h's gr_query_kind: table, solve,
 * check, plot, dot, options, quotient, census) and writes their answers as readable text, CSV
 * or JSON (the machine formats of the contract, format.h). */
#ifndef GRUNDY_QUERY_H
#define GRUNDY_QUERY_H
#include <stdio.h>
#include "sema.h"
#include "format.h"

/* Returns GR_EXIT_OK, or GR_EXIT_REFUTED if a check was refuted. Failures longjmp. */
int gr_run_queries(gr_ctx *c, gr_module *m, gr_format fmt, FILE *out);
/* The same, calling start (if not NULL) before each query runs, so the command can say where
 * an interrupt stopped; out is flushed after each query. Honours c->query_only. */
typedef void (*gr_query_start_fn)(void *user, int index, int nqueries, const gr_rquery *q);
int gr_run_queries_ex(gr_ctx *c, gr_module *m, gr_format fmt, FILE *out, gr_query_start_fn start, void *user);
/* Runs query i alone (after_another: an answer was written before it, for CSV's blank line);
 * returns 1 if it was a refuted check. The parallel runner (cli/parallel.h) calls it. */
int gr_run_query(gr_ctx *c, gr_module *m, int i, gr_format fmt, FILE *out, int after_another);
/* Runs query i once: its answer is made once and written in every format whose stream in outs
 * (indexed by gr_format) is not NULL (the web page asks for text and JSON at once). Returns 1
 * when it was a refuted check. Failures longjmp as gr_run_query's do. */
int gr_run_query_formats(gr_ctx *c, gr_module *m, int i, FILE *const outs[3], int after_another);
/* --explain: the evaluator and kernel of every rule set, and why. */
void gr_explain(gr_ctx *c, gr_module *m, FILE *out);
#endif
