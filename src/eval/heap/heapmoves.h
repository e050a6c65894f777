/* heapmoves: the moves of one heap that reach a given Sprague-Grundy value, for heaps far
 * beyond any table. With a proved period (p from e), a split (a, r - a) with both parts in the
 * periodic range has value f(a mod p) xor f((r - a) mod p), so the split points that reach the
 * value are whole residue classes: they are counted by arithmetic and listed by jumping through
 * the residues, never by walking 10^18 split points. */
#ifndef GRUNDY_HEAPMOVES_H
#define GRUNDY_HEAPMOVES_H
#include "eval/heap/heap.h"

/* Does gr_heap_moves_to answer heap n of g without enumerating its options one by one? True for
 * nim, and for subtraction sets and take-and-break codes leaving at most two heaps (no repeating
 * digits) once a period is proved. */
int gr_heap_moves_fast(gr_ctx *c, gr_game *g, int64_t n);

/* Calls fn for the first `limit` options of heap n whose value is want, in the order of
 * gr_heap_options (by amount removed, then by the parts); returns how many there are in all
 * (saturating at INT64_MAX). Only when gr_heap_moves_fast(c, g, n). */
int64_t gr_heap_moves_to(gr_ctx *c, gr_game *g, int64_t n, int64_t want, int64_t limit,
                         gr_heap_option_fn fn, void *user);
#endif
