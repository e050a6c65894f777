/* proved: a period of a heap table proved while it is filled, so that the filling can stop.
 * The window theorems are lower/window.h's (the check queries report the same ones).
 * Once proved, every sg(n) is sg(e + (n - e) mod p): a value far beyond any table in O(1). */
#ifndef GRUNDY_PROVED_H
#define GRUNDY_PROVED_H
#include "game.h"
#include "window.h"
#include "eval/heap/sgtable.h"

/* Does a window theorem apply to g's kernel at all? */
int gr_proved_applies(const gr_game *g);
/* The least p (with its least preperiod e) that the theorem proves from the table's values;
 * 0 if none. Bounded work: a few passes over the table. */
int64_t gr_proved_find(const gr_game *g, const gr_sgtable *t, int64_t *e);
#endif
