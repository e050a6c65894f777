/* lower: turns each rule-set instance into the IR of game.h and picks its evaluator and
 * kernel, recording why (grundy --explain prints it):
 *   heap recurrence  one integer, every move leads to smaller heaps
 *                    kernels: nim | subtraction set | take-and-break (octal) | general rules
 *   table recurrence tuple positions, filled in the order moves lead
 *   position graph   explicit graphs, and anything played misere alone
 * Hand-written rules that are a subtraction set, and octal codes that are one, are recognised
 * and get the subtraction kernel. */
#ifndef GRUNDY_LOWER_H
#define GRUNDY_LOWER_H
#include "game.h"

void gr_lower_subtract_begin(gr_ctx *c, gr_game *g);
void gr_lower_subtract_range(gr_ctx *c, gr_game *g, gr_loc loc, int64_t lo, int64_t hi, int open);
void gr_lower_subtract_generator(gr_ctx *c, gr_game *g, const gr_set *set, gr_code *elem, int slot,
                                 int64_t lo, int64_t hi, int has_hi);
void gr_lower(gr_ctx *c, gr_game *g);
/* Writes a take-and-break code back in CGSuite spelling. */
void gr_tbcode_format(const gr_tbcode *code, char *buf, size_t cap);
#endif
