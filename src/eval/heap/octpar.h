/* octpar: the plain octal kernel (heap.c) split across --threads. Heaps are computed in blocks
 * n0 .. n0 + B - 1: the members of a thread pool scan, each for its own heaps of the block, the
 * splits whose parts are both below n0 (all but fewer than B of them per split place) into a
 * set of reached values; then the caller, in heap order, adds the take moves and the few splits
 * that reach into the block and takes the mex. Every value is the mex of the same set of
 * options as in the serial kernel, so the output is the same for every thread count. */
#ifndef GRUNDY_OCTPAR_H
#define GRUNDY_OCTPAR_H
#include "game.h"
#include "progress.h"
#include "eval/heap/sgtable.h"

/* Below this heap the serial kernel is faster than any split of the work. */
enum { GR_OCTPAR_FROM = 4096 };

/* Computes heaps tab->n .. to of an octal code whose moves leave at most two heaps, with
 * c->threads members. Returns 1 when it stopped because the value of heap tab->n does not fit
 * the table's width (the caller widens and calls again); 0 when it computed some heaps (up to
 * `to`, or until the values outgrew what it handles); -1 when it computed nothing (too few
 * threads, heaps below GR_OCTPAR_FROM, values too large, or no room under --max-memory for
 * its marks): the serial kernel runs. Its memory is tracked; it fails (a longjmp) only when
 * the limit has no room for its few bytes of state or the system has no memory, the threads
 * joined first (they exist only inside this call). */
int gr_octpar_fill(gr_ctx *c, const gr_game *g, gr_sgtable *tab, int64_t to, gr_progress *pr);
#endif
