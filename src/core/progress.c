/* progress: a one-line progress bar on standard error (count or percentage, rate, elapsed time
 * or ETA); see progress.h. It is drawn only when c->progress is set and standard error is a
 * terminal, so redirected output and test logs never see it. */
#include "progress.h"
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Redraw at most this often (seconds). The first draw also waits this long, so quick jobs
 * never flash a bar at all. */
#define REDRAW_INTERVAL 0.2
#define BAR_WIDTH 24

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Formats a count compactly: 987, 12.3k, 4.56M, 7.89G. */
static void format_count(char *buf, size_t cap, double x) {
    if (x < 1e4) snprintf(buf, cap, "%.0f", x);
    else if (x < 1e6) snprintf(buf, cap, "%.1fk", x / 1e3);
    else if (x < 1e9) snprintf(buf, cap, "%.2fM", x / 1e6);
    else snprintf(buf, cap, "%.2fG", x / 1e9);
}

/* Formats a duration as m:ss or h:mm:ss. */
static void format_duration(char *buf, size_t cap, double seconds) {
    if (seconds < 0 || seconds > 359999.0) { snprintf(buf, cap, "--:--"); return; }
    unsigned s = (unsigned)(seconds + 0.5);
    if (s >= 3600) snprintf(buf, cap, "%u:%02u:%02u", s / 3600, s / 60 % 60, s % 60);
    else snprintf(buf, cap, "%u:%02u", s / 60, s % 60);
}

static void draw(gr_progress *p, double t) {
    double elapsed = t - p->start;
    double rate = elapsed > 0 && p->done > p->base ? (double)(p->done - p->base) / elapsed : 0;
    char done[32], rate_s[32], when[32], line[256];
    format_count(done, sizeof done, (double)p->done);
    format_count(rate_s, sizeof rate_s, rate);
    if (p->total) {
        uint64_t d = p->done < p->total ? p->done : p->total;
        double frac = (double)d / (double)p->total;
        char bar[BAR_WIDTH + 1], total[32];
        size_t fill = (size_t)(frac * BAR_WIDTH);
        memset(bar, '#', fill);
        memset(bar + fill, '.', BAR_WIDTH - fill);
        bar[BAR_WIDTH] = '\0';
        format_count(total, sizeof total, (double)p->total);
        format_duration(when, sizeof when, rate > 0 ? (double)(p->total - d) / rate : -1);
        snprintf(line, sizeof line, "%.60s [%s] %5.1f%% %s/%s %s/s ETA %s", p->label, bar,
                 100.0 * frac, done, total, rate_s, when);
    } else {
        format_duration(when, sizeof when, elapsed);
        snprintf(line, sizeof line, "%.60s: %s (%s/s) %s", p->label, done, rate_s, when);
    }
    /* \r returns to the start of the line; ESC[K clears what a longer earlier line left. */
    fprintf(stderr, "\r%s\033[K", line);
    fflush(stderr);
    p->drawn = 1;
}

void gr_progress_begin(gr_progress *p, gr_ctx *c, const char *label, uint64_t total) {
    memset(p, 0, sizeof *p);
    p->ctx = c;
    p->label = label;
    p->total = total;
    p->active = c && c->progress && isatty(STDERR_FILENO);
    if (c) {
        p->outer_label = c->step_label; p->outer_done = c->step_done; p->outer_total = c->step_total;
        c->step_label = label; c->step_done = 0; c->step_total = total;
        c->poll_left = c->poll_every = 1;   /* a new loop: steps may cost more, so re-adapt the poll */
    }
    if (p->active) p->start = p->last_draw = now_seconds();
}

void gr_progress_begin_at(gr_progress *p, gr_ctx *c, const char *label, uint64_t total, uint64_t base) {
    gr_progress_begin(p, c, label, total);
    p->base = p->done = base;
    if (c) c->step_done = base;
    /* a later stretch of a bar already on screen: redraw at the first update, no pause */
    if (p->active && base > 0) p->last_draw = p->start - REDRAW_INTERVAL;
}

void gr_progress_update(gr_progress *p, uint64_t done) {
    if (p->ctx) p->ctx->step_done = done;   /* how far it got, for a limit message */
    if (!p->active) return; /* the common case costs one branch */
    p->done = done;
    double t = now_seconds();
    if (t - p->last_draw < REDRAW_INTERVAL) return;
    p->last_draw = t;
    draw(p, t);
}

void gr_progress_end(gr_progress *p) {
    /* the step it interrupted is under way again: a limit's message names it, not this one
     * (whose total would sit beside the outer step's count) */
    if (p->ctx && p->ctx->step_label == p->label) {
        p->ctx->step_label = p->outer_label; p->ctx->step_done = p->outer_done; p->ctx->step_total = p->outer_total;
    }
    if (p->active && p->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->active = 0;
    p->drawn = 0;
}
