/* pgexpand: what a position of the position graph is once expanded (gr_expand_kind). Its own
 * header because both sides use it: posgraph.h, whose clients' expand functions return it,
 * and pgteam (the solve across threads), which reads the kinds and needs nothing else of the
 * graph's interface; so pgteam does not include posgraph.h, which pgint.h joins to it. */
#ifndef GRUNDY_PGEXPAND_H
#define GRUNDY_PGEXPAND_H

typedef enum {
    GR_EXPAND_MOVES, /* the children were emitted; no children means a loss (normal play) */
    GR_EXPAND_WIN,   /* fixed outcome: the player to move wins (emit nothing) */
    GR_EXPAND_LOSS   /* fixed outcome: the player to move loses (emit nothing) */
} gr_expand_kind;
#endif
