/* progress: a progress bar with rate and ETA on standard error, shown only when standard
 * error is a terminal and c->progress is set; otherwise the step it records (label, done,
 * total) is what gr_poll's periodic line prints on a pipe (c->progress_lines, ctx.c). Updates are cheap to call
 * often: the bar is redrawn at most a few times a second. */
#ifndef GRUNDY_PROGRESS_H
#define GRUNDY_PROGRESS_H
#include <stdint.h>
#include "ctx.h"

typedef struct gr_progress {
    gr_ctx *ctx;
    const char *label;
    uint64_t total;        /* 0: unknown (shows a count and rate, no ETA) */
    uint64_t done;
    uint64_t base;         /* done when this stretch began (the rate counts from here) */
    double start, last_draw;
    int active, drawn;
    /* the step it interrupted (a heap table filled inside a check's loop), which a limit's
     * message names again once this one ends */
    const char *outer_label;
    uint64_t outer_done, outer_total;
} gr_progress;

void gr_progress_begin(gr_progress *p, gr_ctx *c, const char *label, uint64_t total);
/* A stretch of a longer job (a streamed table's next block): the bar counts from `base` of
 * `total` and its rate and ETA cover this stretch only. */
void gr_progress_begin_at(gr_progress *p, gr_ctx *c, const char *label, uint64_t total, uint64_t base);
void gr_progress_update(gr_progress *p, uint64_t done);
void gr_progress_end(gr_progress *p);     /* erases the bar */
#endif
