/* pace: the choice between one thread and a team by measured rates (pace.h). */
#include "pace.h"

/* how much a new chunk's rate counts against the smoothed one: a few chunks (each tens of ms)
 * follow a change of load, one odd chunk does not decide */
#define PACE_WEIGHT 0.3

void gr_pace_init(gr_pace *p) { *p = (gr_pace){ .last = { -1, -1 } }; }

/* the other way again now and then: its rate is from another load, and other heaps */
static int probe_due(const gr_pace *p) { return p->chunks % GR_PACE_PROBE == GR_PACE_PROBE - 1; }

int gr_pace_pick(const gr_pace *p) {
    if (p->rate[GR_PACE_TEAM] <= 0) return GR_PACE_TEAM;
    if (p->rate[GR_PACE_ONE] <= 0) return GR_PACE_ONE;
    int best = p->rate[GR_PACE_TEAM] >= p->rate[GR_PACE_ONE] ? GR_PACE_TEAM : GR_PACE_ONE;
    return probe_due(p) ? !best : best;
}

int gr_pace_measuring(const gr_pace *p) {
    return p->rate[GR_PACE_TEAM] <= 0 || p->rate[GR_PACE_ONE] <= 0 || probe_due(p);
}

void gr_pace_begin(gr_pace *p, int way, double now, int64_t work) {
    p->way = way;
    p->t0 = now;
    p->w0 = work;
}

void gr_pace_end(gr_pace *p, double now, int64_t work) {
    double dt = now - p->t0;
    p->chunks++;            /* (this chunk is number p->chunks, from 1) */
    p->taken[p->way]++;
    if (p->held || dt <= 0 || work <= p->w0) return;      /* nothing measurable: no rate from it */
    double r = (double)(work - p->w0) / dt, *old = &p->rate[p->way];
    /* a way taken the chunk before, or the one before a single chunk of the other way (its
     * probe), too: smoothed; else (a probe, or the first chunk after a change) its rate is
     * from another time and load, so the new one replaces it. (Replaced after each probe too,
     * one slow chunk there, a hiccup of the machine, could turn the choice for up to
     * GR_PACE_PROBE chunks.) */
    int steady = p->last[p->way] >= p->chunks - 2 && *old > 0;
    *old = steady ? (1 - PACE_WEIGHT) * *old + PACE_WEIGHT * r : r;
    p->last[p->way] = p->chunks;
}

void gr_pace_cut(gr_pace *p, double now, int64_t work) {
    p->t0 = now;           /* no time: counted, not timed */
    gr_pace_end(p, now, work);
}
