/* progress: a progress bar with rate and ETA on standard error, shown only when standard
 * error is a terminal and c->progress is set; silent otherwise. Updates are cheap to call
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
    double start, last_draw;
    int active, drawn;
} gr_progress;

void gr_progress_begin(gr_progress *p, gr_ctx *c, const char *label, uint64_t total);
void gr_progress_update(gr_progress *p, uint64_t done);
void gr_progress_end(gr_progress *p);     /* erases the bar */
#endif
