/* checkpoint: --checkpoint FILE for the heap tables (eval/cap_checkpoint.h says what a
 * checkpoint is and holds the run's calls); here, the calls the heap kernels make. */
#ifndef GRUNDY_CHECKPOINT_H
#define GRUNDY_CHECKPOINT_H
#include "game.h"
#include "eval/cap_checkpoint.h"

/* Heap games call these: claim restores g's saved values the first time g is computed;
 * point is a safe point after some work on g (saves at intervals, stops on a signal). */
void gr_ckpt_claim(gr_ctx *c, gr_game *g);
void gr_ckpt_point(gr_ctx *c, gr_game *g);
/* FILE.GAME.values: where a table kept in a file (tablefile.h) has its values (arena text). */
const char *gr_ckpt_values_path(gr_ctx *c, const char *game);
#endif
