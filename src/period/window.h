/* window: the window theorems of periodicity (docs/periodicity.md), written once for the table
 * that stops filling at a proved period and for the check queries that report them (both
 * through proved.h; certify.h names them). Each turns agreement sg(n + p) = sg(n) on a finite window
 * e <= n < W into all n >= e:
 *   finite subtraction set S   W = e + max(S)
 *   take-and-break, no '!?=' and no repeating digits, moves leaving at most k heaps and
 *   removing at most t tokens: W = k max(e, 1) + (k - 1) p + t   (Guy-Smith for k = 2)
 * (nim needs no window: sg(n) = n.) Sizes saturate at INT64_MAX, so absurd claims get a window
 * that never fits rather than one that wrapped around. */
#ifndef GRUNDY_WINDOW_H
#define GRUNDY_WINDOW_H
#include "game.h"

typedef enum { GR_WINDOW_NONE, GR_WINDOW_NIM, GR_WINDOW_SUBTRACT, GR_WINDOW_TB } gr_window_kind;

typedef struct gr_window {
    gr_window_kind kind;
    int64_t m;       /* GR_WINDOW_SUBTRACT: max(S) (0 for the empty set) */
    int64_t t, k;    /* GR_WINDOW_TB: last nonzero place (>= 0), most heaps a move leaves (>= 1) */
} gr_window;

/* The theorem for g's kernel; kind GR_WINDOW_NONE if none applies. */
gr_window gr_window_of(const gr_game *g);
/* W(e, p), and the values the proof reads (W + p); INT64_MAX when they do not fit. */
int64_t gr_window_end(const gr_window *w, int64_t e, int64_t p);
int64_t gr_window_need(const gr_window *w, int64_t e, int64_t p);
/* The largest e whose proof fits in n values (W(e, p) + p <= n), or -1. */
int64_t gr_window_emax(const gr_window *w, int64_t p, int64_t n);
/* The largest p with gr_window_emax(w, p, n) >= 0 (0: none); for a window kind with no such
 * bound, n. */
int64_t gr_window_pmax(const gr_window *w, int64_t n);
#endif
