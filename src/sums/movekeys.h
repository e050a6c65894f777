/* movekeys: is the position a move leads to new? Winning-move lists (fastmoves.c, gamma.c)
 * name each resulting position once, at its first move.
 * A move replaces atom a of the sum C by parts P, leading to C - a + P. Two such moves lead
 * to the same multiset exactly when their net changes agree: P minus a, as signed multisets
 * (C - a + P = C - a' + P' iff P + a' = P' + a). So the key of a move is its game, the sorted
 * parts with heaps of 0 that have no move dropped (the graph drops them too), and the removed
 * atom, cancelled against an equal part. It costs O(|P| log |P|), never O(|C|). */
#ifndef GRUNDY_MOVEKEYS_H
#define GRUNDY_MOVEKEYS_H
#include "eval/evaluator.h"
#include "textset.h"

typedef struct gr_move_keys {
    gr_ctx *c;
    gr_byteset seen;
    int64_t *parts; size_t cap;                  /* scratch: the key, parts as rows of the game's arity */
    const gr_game *zero_game[8]; int8_t zero_dead[8]; int nzero;
} gr_move_keys;

void gr_move_keys_init(gr_move_keys *k, gr_ctx *c);
void gr_move_keys_free(gr_move_keys *k);
/* 1 if the move of atom `removed` of game g to parts (nparts rows of g->arity) leads to a
 * position not seen before. */
int gr_move_is_new(gr_move_keys *k, gr_game *g, const int64_t *removed, const int64_t *parts, int nparts);
#endif
