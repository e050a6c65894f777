/* subthreads: the look-ups of an infinite subtraction set (heap.c's kernel for generated or listed
 * sets, `subtract {2*i + 1 : i >= 0}`) split across --threads. Heaps are computed in blocks
 * n0 .. n0 + B - 1: the members of a thread team mark, each for its own heaps of the block, the
 * values of the moves n - s that land below n0 (all but the fewer than B smallest elements s);
 * the caller then, in heap order, adds the rest and the open tail and takes the mex, as the
 * serial kernel does, so the values are the same for every thread count. Pure array work: the
 * members read the table and the set and never fail. */
#ifndef GRUNDY_SUBTHREADS_H
#define GRUNDY_SUBTHREADS_H
#include "game.h"
#include "eval/heap/sgtable.h"

/* Below this heap, or with fewer listed elements than this up to the heap, one thread is as fast. */
enum { GR_SUBPAR_FROM = 4096, GR_SUBPAR_ELEMENTS = 64 };

typedef struct gr_subthreads gr_subthreads;

/* A team for g (NULL where threads cannot help: one thread, or no thread starts). */
gr_subthreads *gr_subthreads_new(gr_ctx *c);
void gr_subthreads_free(gr_ctx *c, gr_subthreads *s);

/* Plans and scans the block from tab->n: its last heap (at most `to`, and below the set's last
 * element generated so far, so the serial kernel would extend nothing inside it) into *end, and
 * for each heap n of the block a bitset of words() 64-bit words of the values reached from
 * below tab->n, at marks(s, n). Returns 0 when the block is too small to pay or the values too
 * large for its bitsets (the serial kernel goes on for a while). */
int gr_subthreads_scan(gr_ctx *c, gr_subthreads *s, const gr_game *g, const gr_sgtable *tab, int64_t to, int64_t *end);
size_t gr_subthreads_words(const gr_subthreads *s);
const uint64_t *gr_subthreads_marks(const gr_subthreads *s, int64_t n);
#endif
