/* rules: the interpreter of general rule blocks. It enumerates the moves of a position by
 * running the compiled 'for' bindings as an odometer (no recursion), checking 'where' guards
 * and evaluating targets. Heap games, tuple games and the position graph all use it. */
#ifndef GRUNDY_RULES_H
#define GRUNDY_RULES_H
#include "game.h"

/* One move: nparts positions of g->arity coordinates each, flattened. A heap move to a
 * negative size, or a tuple move outside the rule set's 'where', is not a move and is
 * never reported. */
typedef void (*gr_move_fn)(void *user, const int64_t *parts, int nparts, const gr_rmove *mv);
void gr_rules_moves(gr_ctx *c, const gr_game *g, const int64_t *pos, gr_move_fn fn, void *user);

/* The bindings of one move as an odometer (no recursion): fn sees the frame once per
 * combination of the bound variables; the frame's other slots are the caller's. */
typedef void (*gr_frame_fn)(void *user, int64_t *frame);
void gr_rules_bind(gr_ctx *c, const gr_rmove *mv, int64_t *frame, gr_frame_fn fn, void *user);

/* Is pos inside the rule set's 'where'? */
int gr_rules_valid(gr_ctx *c, const gr_game *g, const int64_t *pos);
/* The first matching 'terminal when' of pos: -1 if none, else a gr_term_kind. */
int gr_rules_terminal(gr_ctx *c, const gr_game *g, const int64_t *pos);
#endif
