/* dense: the dense-box evaluator for tuple rule sets whose positions lie in a box lo..hi.
 *
 * Positions are indexed by mixed radix (the last coordinate fastest): no hashing, no per-position
 * allocation. Per position the box keeps one state byte (outcome, evaluated, on the path, 'where'
 * known and its answer), and SG values and remoteness in arrays that start one byte wide and widen
 * (to 2, then 4 bytes) only when a value needs it.
 *
 * Evaluation of a position is a depth-first walk on an explicit stack over what it reaches (never
 * the whole box): a position is valued once every option is. Moves whose targets depend on only
 * some coordinates (E&D's 'move -> (i, x - i)' reads x alone; found from the compiled code, see
 * optset.h) share one option summary per value of those coordinates, so such a position costs one
 * bitset OR per move instead of one lookup per option.
 *
 * If the walk meets a position still on its path, the rule set has a cycle in this box: the whole
 * box is then solved by retrograde analysis with counters of undecided options (outcomes, draws,
 * remoteness, and SG values on the acyclic part). When every move is a translation by constant
 * offsets (a token stepping on a board), parents are found by subtracting the offsets: no edge is
 * stored. Otherwise the edges are enumerated once into 32-bit CSR arrays. With --threads, the
 * retrograde analysis of a large box splits its passes across the threads (densepar.h), with
 * the same answers.
 *
 * A move that leaves the box makes gr_dense_eval return 0; gr_dense_range solves in a box grown until
 * it is closed. Conventions: normal and misere play of one component (no move: the mover loses,
 * resp. wins); terminal rules as in the position graph. Moves that lead to sums are not boxed. */
#ifndef GRUNDY_DENSE_H
#define GRUNDY_DENSE_H
#include <stddef.h>
#include "sema.h"

typedef struct gr_dense gr_dense;

/* Can g under conv be boxed at all? If not, why says so. */
int gr_dense_supported(const gr_game *g, gr_conv conv, char *why, size_t cap);

/* A box over lo..hi (inclusive). Fails with status 3 at once, saying how large the box is, if
 * it has more positions than --max-positions or needs more than the memory left. */
gr_dense *gr_dense_new(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *lo, const int64_t *hi);
void gr_dense_free(gr_dense *b);

/* Evaluates pos (inside the box and its 'where') and everything it needs. Returns 1; 0 if a
 * move leaves the box, after which the box is unusable and gr_dense_grown gives a larger box. */
int gr_dense_eval(gr_dense *b, const int64_t *pos);
void gr_dense_grown(const gr_dense *b, int64_t *lo, int64_t *hi);
/* The move of the box's first escape (NULL: none) and, in to, the position it led to. */
const gr_rmove *gr_dense_escape(const gr_dense *b, int64_t *to);

/* The box *slot replaced by one over lo..hi that keeps the values it holds (those of positions
 * of the walk; a box solved by retrograde analysis keeps none, nor does one that leaves no room
 * for both), and returned; the old box freed. *slot is NULL while the new box is made (a
 * failure leaves no freed box behind). lo..hi normally contains the old box. */
gr_dense *gr_dense_regrow(gr_dense **slot, const int64_t *lo, const int64_t *hi);
/* Whether a box over lo..hi passes gr_dense_new's limits with `spare` bytes more in use. */
int gr_dense_fits(const gr_ctx *c, int arity, const int64_t *lo, const int64_t *hi, size_t spare);
/* Positions the box values from now on (walk or retrograde, not those a regrow copies) are
 * added to *tally (the game's count in cache.h; NULL: none). */
void gr_dense_set_tally(gr_dense *b, uint64_t *tally);

/* Values every position of lo..hi (inside the box) that is inside 'where': 1, or 0 if a move
 * leaves the box (as gr_dense_eval). */
int gr_dense_fill(gr_dense *b, const int64_t *lo, const int64_t *hi);

/* A box containing lo..hi in which every position of lo..hi (inside 'where') is evaluated: the
 * box starts at lo..hi and grows (each extent at least doubling) until no move leaves it. */
gr_dense *gr_dense_range(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *lo, const int64_t *hi);

/* A box in which pos (inside 'where') is evaluated with what it needs: it starts below pos (each
 * coordinate from min(0, x) to max(0, x)) and grows as gr_dense_range does. */
gr_dense *gr_dense_at(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos);

int gr_dense_contains(const gr_dense *b, const int64_t *pos);
int gr_dense_valid(gr_dense *b, const int64_t *pos);          /* inside the box and its 'where' */
int gr_dense_cyclic(const gr_dense *b);                       /* has a cycle (solved by retrograde analysis) */
/* Results for an evaluated position. sg is -1 where undefined (misere, a cycle or a fixed
 * outcome reachable); remoteness is -1 for a draw. */
gr_outcome gr_dense_outcome(const gr_dense *b, const int64_t *pos);
int64_t gr_dense_sg(const gr_dense *b, const int64_t *pos);
int64_t gr_dense_remoteness(const gr_dense *b, const int64_t *pos);

uint64_t gr_dense_size(const gr_dense *b);       /* positions in the box */
uint64_t gr_dense_evaluated(const gr_dense *b);  /* positions valued so far */
size_t gr_dense_bytes(const gr_dense *b);        /* memory held */
int gr_dense_shared_moves(const gr_dense *b);    /* moves evaluated through shared option sets */

/* With --threads > 1, the retrograde analysis of a box of at least `from` positions (default
 * 2^20) splits its passes across the threads (densepar.h), members taking `grain`
 * positions at once (default 2^14), frontiers of fewer than `level` positions (default 2^12)
 * on the caller alone; the answers are the same. For tests, which reach every threaded pass
 * with small boxes. */
void gr_dense_team_tune(uint64_t from, uint64_t grain, uint64_t level);
#endif
