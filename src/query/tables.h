/* tables: the values a table query writes (query.c) or draws (plot.c), by the fastest sound way:
 * the tables only a theory answers (genus, 'every' step numbers, 'anyleaf' values) through
 * sums/'s dispatcher, a heap table streamed, anything else through gr_sum_table.
 * A 1-D table of a heap game that is always a recurrence is streamed: its cells are read from
 * the game's own table (narrow values, or none once a period is proved), computed in blocks as
 * the writer reaches them, and never copied; so a table of 10^8 heaps holds no array of cells. */
#ifndef GRUNDY_TABLES_H
#define GRUNDY_TABLES_H
#include <stdio.h>
#include "sema.h"
#include "format.h"
#include "loopy.h"

/* What the cells hold. */
typedef enum { GR_CELLS_NUMBERS = 0, GR_CELLS_OUTCOMES = 1, GR_CELLS_GENUS = 2 } gr_cells;

typedef struct gr_table_stream gr_table_stream;
typedef struct gr_table_data {
    int64_t *vals;          /* row-major: first varying coordinate is the row */
    int64_t rows, cols;     /* cols == 1 for 1-D */
    gr_cells outcome;       /* numbers (SG values, remoteness), outcomes, or genus (packed) */
    int kind;               /* TK_SG, TK_OUTCOME, TK_REMOTENESS, TK_GENUS as asked */
    gr_conv conv;
    gr_table_stream *stream;   /* cells come from here instead of vals */
    gr_ctx *c;              /* polled at each cell read: writing 10^9 cells of a proved period is work too */
    gr_loopy loopy;         /* the sets of loopy cells (values <= -2, sums/loopy.h) */
} gr_table_data;

/* The table of q into t (vals and stream in tracked memory, and t->loopy, freed by the caller). */
void gr_table_compute(gr_ctx *c, gr_module *m, const gr_rquery *q, gr_table_data *t);
/* Cell i (row-major): from vals, or computed as a streamed table reaches it; polls the
 * limits (gr_poll), so a writer's loop over the cells ends at --max-time. */
int64_t gr_table_cell(const gr_table_data *t, int64_t i);
#endif
