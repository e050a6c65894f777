/* turning: coin-turning games. A row of coins at places 0, 1, 2, ...; a move flips a set of
 * coins whose rightmost, at place x, shows heads (it turns to tails; the others, all left of
 * x, turn either way). By the coin-turning theorem a position is the sum of its heads, each a
 * game of its own: the value of a single heads at x is the mex over the flip sets F at x of
 * the xor of the values of F's other coins, and a position's value is the xor over its heads.
 * The single-head values are a table filled in increasing x (no recursion).
 *
 * The rules are a gr_rules with one position variable, x: each 'flip' line a move whose
 * parts are its coins, a part of range lo..hi flipping every coin in it. A coin flipped twice
 * by one move is not flipped. A set that flips a place below 0 or right of x is not a move; a
 * set that does not flip x is an error. A position is a mask of heads (places below
 * GR_COIN_PLACES), GR_HB_WORDS words, as for Hackenbush cuts. */
#ifndef GRUNDY_TURNING_H
#define GRUNDY_TURNING_H
#include "figure.h"



/* The value of a single heads at place x (fills the table to x). */
int64_t gr_turning_value(gr_ctx *c, gr_game *g, int64_t x);

/* Every flip set at x: fn gets the other coins it flips (distinct, sorted, all < x). */
typedef void (*gr_flip_fn)(void *user, const int64_t *others, int n);
void gr_turning_flips(gr_ctx *c, gr_game *g, int64_t x, gr_flip_fn fn, void *user);

#endif
