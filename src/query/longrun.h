/* longrun: `check G periodic` run with --histogram FILE, a long search with no period asked
 * for (docs/periodicity.md, "Long runs"). The heap table is computed to --to without the
 * period detector (no copy of the values, no 4 or 8 bytes a heap beside them; the table's own
 * proofs are off, eval/heap/heap.c); at every power of two from 2^10 on, and at the last heap,
 * a row: the research columns over heaps 0..n-1 (n, largest, largest_at, rare_mask,
 * rare_heap_parity, rare_count, last_rare) and the count of heaps with each value over the same
 * heaps. Rows are printed to c->histogram_out as the run goes and FILE is rewritten whole at
 * each (gr_write_file: never half-written). Every row is a function of the values alone, so a
 * run resumed from a checkpoint prints and writes the same bytes as one that was not stopped. */
#ifndef GRUNDY_LONGRUN_H
#define GRUNDY_LONGRUN_H
#include "check.h"

/* The check's answer: status none ("no period looked for"), checked_to the last heap, the
 * columns of the last row. Fails at the query when --histogram already served a check. */
void gr_long_search(gr_ctx *c, gr_rquery *q, gr_check_result *out);
#endif
