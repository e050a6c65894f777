/* genpar: the general heap recurrence (heap.c's generic kernel: take-and-break codes with 3+
 * heaps, '!', '?', '=' or repeating digits, and general rule blocks such as Lasker's Nim) split
 * across --threads. Heaps are computed in blocks n0 .. n0 + B - 1: the members of a thread team
 * enumerate the options of the block's heaps (rule interpreter or code, each member with its own
 * run-time context, worker.h), mark the values of every option whose parts are all below n0 in a
 * set of the heap's own, and keep the few options that reach into the block; the caller then,
 * in heap order, adds those and takes the mex. A heap with a move to a heap not smaller, or whose
 * enumeration failed (an overflow at run time, a range too large, the time limit), is met by the
 * caller in heap order exactly where the serial kernel meets it: the same not-a-recurrence
 * finding, or the same failure raised again with the same text. So the output is the same for
 * every thread count. */
#ifndef GRUNDY_GENPAR_H
#define GRUNDY_GENPAR_H
#include "game.h"
#include "progress.h"
#include "eval/heap/sgtable.h"

/* Below this heap, or below GR_GENPAR_OPTIONS options per heap, the serial kernel is as fast. */
enum { GR_GENPAR_FROM = 512, GR_GENPAR_OPTIONS = 32 };

/* Computes heaps tab->n .. to of a KER_TB or KER_RULES game with c->threads members. *opts is
 * the number of options of the last heap computed (an estimate of the work per heap; updated).
 * Returns 0 when it computed some heaps (it may stop early: values too wide for its sets, or a
 * heap a member could not finish for want of memory, which the serial kernel then computes);
 * -1 when it computed nothing (the serial kernel runs); -2 when heap tab->n has a move to a
 * heap not smaller (*bad: the first such part, as the serial kernel finds it). A failure of heap
 * tab->n .. is raised in c, after the team is joined, with the text the serial kernel gives.
 * tentative: stop silently before such a heap instead (returning 0 or -1): a fill ahead of what
 * was asked, which must leave no trace where the serial kernel would have stopped. */
int gr_genpar_fill(gr_ctx *c, gr_game *g, gr_sgtable *tab, int64_t to, gr_progress *pr, int64_t *opts, int64_t *bad,
                   int tentative);
#endif
