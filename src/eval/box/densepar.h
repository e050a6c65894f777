/* densepar: the passes of a box's retrograde analysis (dense.c) split across the thread team
 * of --threads (pool.h): every pass of a translation box, and for a box with stored edges the
 * levels of outcomes, remoteness and SG values. Every pass is pure array work, except
 * the row pass, which runs 'where' and the terminal conditions by the row evaluator (expr.h) in
 * a private context: that evaluator declines rather than fails, and what it declines (or what
 * fails anyway) is left unknown for the caller to evaluate one position at a time, in order,
 * with the real context's diagnostics. Workers never longjmp out and never allocate.
 *
 * The caller drives the passes (dense.c): it owns the arrays, widens them between passes, polls
 * --max-time between jobs, and hands each job a range (rows or a frontier of the queue) that
 * the members take in small pieces from a shared counter. */
#ifndef GRUNDY_DENSEPAR_H
#define GRUNDY_DENSEPAR_H
#include <stdatomic.h>
#include <stdint.h>
#include "eval/levels.h"
#include "sema.h"

/* The state byte of a box position (dense.c). During a threaded retrograde analysis S_OPEN
 * (the walk's mark, unused then) says that the terminal kind is known, and the two top bits
 * hold it plus one (0: no terminal condition holds); both are cleared at the end. */
enum {
    S_OUT = 3,      /* outcome (GR_LOSS, GR_WIN, GR_DRAW) once DONE */
    S_DONE = 4,     /* valued */
    S_OPEN = 8,     /* on the path of the depth-first walk */
    S_VKNOWN = 16,  /* 'where' evaluated */
    S_VALID = 32,   /* ... and holds */
    S_TKNOWN = S_OPEN,
    S_TSHIFT = 6
};

/* The positions y of a row (prefix p; last extent E) whose target by translation dd lies in the
 * box lo..hi: ylo..yhi - 1, empty (0, 0) when the target row leaves the box. */
static inline void gr_box_span(int a, const int64_t *lo, const int64_t *hi, int64_t E, const int64_t *p, const int64_t *dd,
                               int64_t *ylo, int64_t *yhi) {
    int last = a - 1, rowin = 1;
    for (int k = 0; k < last; k++) rowin &= p[k] + dd[k] >= lo[k] && p[k] + dd[k] <= hi[k];
    int64_t dy = dd[last];
    *ylo = dy < 0 ? -dy : 0;
    *yhi = dy > 0 ? E - dy : E;
    if (!rowin || *ylo >= *yhi) *ylo = *yhi = 0;
}

typedef struct gr_boxpass {
    gr_level_job lv;               /* the job: rows, or a frontier of lv.queue */
    /* the box */
    int a;
    int64_t lo[GR_MAX_ARITY], hi[GR_MAX_ARITY], ext[GR_MAX_ARITY];
    uint64_t n, E, rows;           /* positions, the last extent, rows (n / E) */
    int ndelta;
    const int64_t *delta, *dindex; /* the translations and their index offsets */
    int misere, with_sg;
    const gr_rules *rules;
    const int64_t *params;
    const gr_ctx *owner;           /* its source text names a failure the row evaluator meets */
    uint8_t *st, *cnt;             /* state bytes; counters of undecided options */
    void *rem, *sg;                /* remoteness and SG plus one, rem_w and sg_w bytes each */
    int rem_w, sg_w;
    /* a box whose moves are not all translations: its stored edges (the options of v are
     * fwd[off[v]..off[v + 1]), its parents rev[roff[v]..roff[v + 1])) and 32-bit counters in
     * place of cnt; NULL for a translation box */
    const uint32_t *off, *fwd, *roff, *rev;
    uint32_t *cnt32;
    uint64_t *scratch;             /* per member swords words: a bitset of the options' SG values */
    size_t swords;
    uint64_t value;                /* stored remoteness of the positions a level settles */
    atomic_ullong done, draws;     /* counts of the draws pass */
    atomic_int unknown;            /* the row pass left a 'where' or terminal kind to the caller */
} gr_boxpass;

/* Rows from..to: 'where' and the terminal kind of every position not yet known (the rest of
 * each state byte cleared). */
void gr_boxpass_rows(void *J, int member, int members);
/* Rows from..to: the number of options of each position (0 outside 'where' or terminal) into
 * cnt, and the positions of 'where' with none, or terminal, appended to the frontier; the
 * Kahn variant appends every position of 'where' with none. */
void gr_boxpass_first(void *J, int member, int members);
void gr_boxpass_kahn_degrees(void *J, int member, int members);
/* The first frontier queue[from..to): settled (remoteness 0, won or lost by the convention or
 * the terminal kind). */
void gr_boxpass_start(void *J, int member, int members);
/* The frontier queue[from..to), settled at stored remoteness value - 1: their parents that
 * this settles (a lost child: won; the last undecided option won: lost) get value, appended. */
void gr_boxpass_settle(void *J, int member, int members);
/* Stored edges: positions from..to get counters of unprocessed options, and those with none
 * (not a terminal that wins) are appended: the first frontier of Kahn's order. */
void gr_boxpass_csr_kahn_start(void *J, int member, int members);
/* Positions from..to: 'where' and never settled is a draw; counts done and draws. */
void gr_boxpass_draws(void *J, int member, int members);
/* The Kahn frontier queue[from..to): SG values (with_sg) from their options', then parents
 * whose last unprocessed option this was, appended. */
void gr_boxpass_kahn(void *J, int member, int members);
/* Positions from..to: the pass's marks (S_TKNOWN, the terminal kind) cleared. */
void gr_boxpass_clear(void *J, int member, int members);
#endif
