/* ir: small helpers on the IR (game.h) that lowering, the semantic pass and the evaluators all
 * need: growing a subtraction set, loading a rule set's frame, the 'where' of positions. They
 * live in lower so no earlier stage reaches into an evaluator for them. */
#ifndef GRUNDY_IR_H
#define GRUNDY_IR_H
#include "game.h"

enum { GR_MAX_FRAME = 256 };   /* slots of a rule set's frame: parameters, coordinates, bound variables */

/* Appends an element to a subtraction set (lowering, and generators while filling). */
void gr_sub_push(gr_ctx *c, gr_game *g, int64_t v);
/* Loads parameters and the coordinates of pos into frame[0 .. GR_MAX_FRAME). */
void gr_rules_frame(gr_ctx *c, const gr_game *g, const int64_t *pos, int64_t *frame);
/* Is pos inside the rule set's 'where'? */
int gr_rules_valid(gr_ctx *c, const gr_game *g, const int64_t *pos);
#endif
