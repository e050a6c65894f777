/* pace: threads never slower than one. A kernel that can do each chunk of its work either on
 * one thread or with a team asks, before each chunk, which way to take, and says when the
 * chunk began and ended and how much it did. Both ways are measured (the one not taken again
 * every GR_PACE_PROBE chunks, since a machine's load changes), and the one with the higher
 * recent rate is taken. Why: on a machine whose two vCPUs give less than two cores (two
 * one-thread runs side by side took 1.4x to 2x as long as one alone here), a team that waits
 * on a member the machine is not running can be slower than one thread; the rate says so
 * whatever the cause. The choice never changes a value, only how fast it comes. */
#ifndef GRUNDY_PACE_H
#define GRUNDY_PACE_H
#include <stdint.h>

enum { GR_PACE_ONE = 0, GR_PACE_TEAM = 1, GR_PACE_PROBE = 16 };

typedef struct gr_pace {
    double rate[2];     /* work a second, smoothed, by way (GR_PACE_ONE, GR_PACE_TEAM); 0: unmeasured */
    int64_t chunks;     /* chunks timed */
    int64_t taken[2];   /* chunks taken each way */
    int64_t last[2];    /* the chunk (by number, from 1) that last measured each way */
    int way;            /* the way of the chunk being timed */
    double t0;          /* when it began, gr_now() */
    int64_t w0;         /* the work done before it */
    int held;           /* the rates are given and kept, not measured: a test's fixed choice */
} gr_pace;

void gr_pace_init(gr_pace *p);
/* The way for the next chunk: the team first, one thread once it is measured, then the faster,
 * the other one every GR_PACE_PROBE chunks. */
int gr_pace_pick(const gr_pace *p);
/* Whether the next chunk (gr_pace_pick's) only measures: a way not measured yet, or a probe of
 * the slower one. Such a chunk may be shorter (GR_PACE_SHORT of a chunk): a rate needs tens of
 * milliseconds, not the whole chunk, and each heap of it goes the slower way. Measured on
 * Grundy's game to 2^22 beside a busy program, where the team loses: full probes made the
 * default 0.95x to 0.99x of one thread (docs/periodicity.md). */
int gr_pace_measuring(const gr_pace *p);
enum { GR_PACE_SHORT = 4 };
/* A chunk of `way` begins at time `now` with `work` done so far; it ends at time `now` with
 * `work` done (the chunk's share is the difference). */
void gr_pace_begin(gr_pace *p, int way, double now, int64_t work);
void gr_pace_end(gr_pace *p, double now, int64_t work);
/* The same for a chunk cut short (a new choice of classes, a widening, a new rare heap that
 * drops the team's lead): counted as taken, its rate not kept (it is not the way's). */
void gr_pace_cut(gr_pace *p, double now, int64_t work);

#endif
