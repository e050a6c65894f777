/* show: the queries that show or export rather than answer: plot (plot.c, a picture of a
 * table drawn with cairo), dot (dot.c, the position graph for Graphviz) and options
 * (options.c, every move and the value it leads to). Each makes its answer once and writes
 * its summary line (or CSV, or JSON object) to every stream of the sink (query.h); plot and dot also write their file, whole or not at all. */
#ifndef GRUNDY_SHOW_H
#define GRUNDY_SHOW_H
#include "query.h"
#include "loopy.h"

void gr_run_plot(gr_ctx *c, gr_module *m, const gr_rquery *q, const gr_sink *sk);
void gr_run_dot(gr_ctx *c, gr_module *m, const gr_rquery *q, const gr_sink *sk);
void gr_run_options(gr_ctx *c, gr_module *m, const gr_rquery *q, const gr_sink *sk);
/* The answers of an options query as data (the public API): fn gets each move once, with the
 * SG value it leads to (-1: none; a loopy value's set in loopy) and the outcome; returns the
 * convention they are under. */
typedef void (*gr_move_option_fn)(void *user, const char *text, int64_t sg, int outcome, const gr_loopy *loopy);
gr_conv gr_list_options(gr_ctx *c, gr_module *m, const gr_rquery *q, gr_move_option_fn fn, void *user);
/* The picture of a plot query written to f (PNG or SVG by q->file's extension) rather than
 * to q->file; *width, *height get its size. */
void gr_plot_to(gr_ctx *c, gr_module *m, const gr_rquery *q, FILE *f, int *width, int *height);
/* quotient G(0..n): the misere quotient of the heaps (quotient_show.c). */
void gr_run_quotient(gr_ctx *c, gr_module *m, const gr_rquery *q, const gr_sink *sk);

/* From tables.c: a table's values as the table query computes them (row-major, rows along the
 * first varying coordinate; outcome tables hold 0 P, 1 N, 2 D; -1 where no SG value exists;
 * loopy values with their sets in *loopy, which the caller frees with gr_loopy_free, or -1
 * when loopy is NULL), in tracked memory the caller frees with gr_free. */
int64_t *gr_table_values(gr_ctx *c, gr_module *m, const gr_rquery *q, int64_t *rows, int64_t *cols,
                         int *outcome, gr_conv *conv, gr_loopy *loopy);
/* From export.c: s as a JSON string; s as a quoted CSV cell. */
void gr_json_string(FILE *out, const char *s);
void gr_csv_string(FILE *out, const char *s);

/* Writes path through a temporary file in the same folder and a rename, so a failure leaves
 * no half-written file; write(user, f) returns 0 on success. Fails with status 3 naming the
 * file if it cannot be written. */
void gr_write_file(gr_ctx *c, const char *path, int (*write)(void *user, FILE *f), void *user);
#endif
