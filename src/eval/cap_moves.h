/* cap_moves: the capability of finding the options of a wanted SG value without enumerating
 * every option (evaluator.h explains capabilities): nim, a huge heap through its proved period
 * (the heap recurrence), the cuts of a Hackenbush figure (Green Hackenbush). sums/fastmoves.c
 * lists winning moves of huge sums with it. */
#ifndef GRUNDY_CAP_MOVES_H
#define GRUNDY_CAP_MOVES_H
#include "eval/evaluator.h"

/* Where moves_to reports: an option (positions of the game), or a figure's cut of an edge
 * (named by its class of parallel edges: cutting any of them is one position). */
typedef struct gr_moves_sink {
    gr_option_fn option;
    void (*cut)(void *user, int edge);
    void *user;
} gr_moves_sink;

typedef struct gr_moves_cap {
    /* The options of pos of SG value want (want < 0: every option, where the evaluator can
     * count them without walking them, as a huge heap through its period): reports the first `limit` to the sink, sets *count
     * to how many there are (saturating), returns 1 if the sink saw every one the caller
     * needs, 0 if not; -1 declined (enumerate the options). */
    int (*moves_to)(gr_ctx *c, gr_game *g, const int64_t *pos, int64_t want, int64_t limit,
                    const gr_moves_sink *sink, int64_t *count);
} gr_moves_cap;

/* g's capability, or NULL when its evaluator lacks it. */
const gr_moves_cap *gr_cap_moves(const gr_game *g);
/* The call through it: *count = 0 and -1 (declined) without the capability. */
int gr_eval_moves_to(gr_ctx *c, gr_game *g, const int64_t *pos, int64_t want, int64_t limit,
                     const gr_moves_sink *sink, int64_t *count);
#endif
