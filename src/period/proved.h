/* proved: the one finder of proved periods. From the values scanned by the detector (detect.h)
 * it gives the least period p that a window theorem (window.h) proves, with its least
 * preperiod e: the heap table stops filling there (eval/heap/heap.c looks after each doubling
 * stage) and `check G periodic` reports the same (query/check.c), so the two never disagree.
 * Once proved, every sg(n) is sg(e + (n - e) mod p): a value far beyond any table in O(1). */
#ifndef GRUNDY_PROVED_H
#define GRUNDY_PROVED_H
#include "game.h"
#include "window.h"
#include "detect.h"

/* Does a window theorem (other than nim's, which needs no values) apply to g's kernel? */
int gr_proved_applies(const gr_game *g);
/* The least p (with its least preperiod e) whose run of saltus 0 covers w's window within the
 * n values scanned (W(e, p) + p <= n); 0 if none. Every candidate 1 <= p < n is read off the
 * detector in O(1). */
int64_t gr_proved_least(const gr_window *w, const gr_detect *d, int64_t *e);
#endif
