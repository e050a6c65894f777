/* parallel: the independent queries of one file at once, in worker processes (--threads N).
 *
 * A query's answer depends only on the rule sets it reads and on what earlier queries already
 * computed in them, so queries that share no rule set cannot see each other. Queries are
 * grouped by the rule sets they touch (and every query that writes a file is in one group, so
 * files are written in the serial order); worker processes, forked once the file is compiled,
 * take whole groups in order from a shared counter and run each group's queries in file order,
 * as the serial loop would, each answer into its own unlinked temporary file. The parent prints
 * the answers in file order, copying the current one as it grows (a streamed table still
 * streams), so the bytes are the serial ones for every N. Processes rather than threads: the
 * evaluators keep lazily filled state in the rule sets and the context, which a process
 * boundary keeps apart at no cost; each worker's own kernels still use --threads.
 *
 * Failures: a worker reports its query's failure (status and text) and the parent raises it
 * when that query's turn comes, after what the query wrote, as serially. --max-memory is
 * split between the workers; a query that stops at a limit other than time (which it might
 * not have reached with the whole memory) makes the parent run the file again in-process, the
 * answers already printed going nowhere, so even then the output is the serial one. */
#ifndef GRUNDY_PARALLEL_H
#define GRUNDY_PARALLEL_H
#include "query.h"

/* Runs m's queries in up to c->threads worker processes and returns the exit status (failures
 * longjmp, as gr_run_queries_ex); or -1, having run nothing, where that cannot help: one
 * thread, --query, --checkpoint, fewer than two groups, too many queries, or no process or
 * temporary file to be had. start is called as each query's answer becomes the next to print. */
/* The groups of independent queries (at most GR_MAX_GROUPED_QUERIES queries): group[i] for every
 * query, numbered in order of their first query; returns how many (-1: no memory). grundy-mpi
 * spreads them over ranks too (mpi.h). */
enum { GR_MAX_GROUPED_QUERIES = 256 };
int gr_query_groups(const gr_module *m, int *group);
int gr_parallel_queries(gr_ctx *c, gr_module *m, gr_format fmt, FILE *out, gr_query_start_fn start, void *user);
#endif
