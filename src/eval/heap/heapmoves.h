/* heapmoves: the moves of one heap that reach a given Sprague-Grundy value (or, in misere
 * play, whose element of the quotient lands in P), for heaps far beyond any table. With a proved period (p from e), a split (a, r - a) with both parts in the
 * periodic range has value f(a mod p) xor f((r - a) mod p), so the split points that reach the
 * value are whole residue classes: they are counted by arithmetic and listed by jumping through
 * the residues, never by walking 10^18 split points. */
#ifndef GRUNDY_HEAPMOVES_H
#define GRUNDY_HEAPMOVES_H
#include "eval/heap/heap.h"

/* A heap above this is huge: its winning moves are found through the proved period (by
 * arithmetic over residue classes) rather than by enumerating its options (normal play's and
 * the misere quotient's alike). */
enum { GR_HUGE_HEAP = 1 << 20 };

/* Does gr_heap_moves_to answer heap n of g without enumerating its options one by one? True for
 * nim, and for subtraction sets and take-and-break codes leaving at most two heaps (no repeating
 * digits) once a period is proved. */
int gr_heap_moves_fast(gr_ctx *c, gr_game *g, int64_t n);

/* The shapes whose options gr_heap_moves_where walks by residue classes: subtraction sets and
 * take-and-break codes leaving at most two heaps (no repeating digits). */
int gr_heap_moves_shape(const gr_game *g);

/* A valuation of heaps periodic from preperiod with period: value(h) of a heap, combine(x, y)
 * of two heaps side by side, hit(x) whether an option of that value is wanted (normal play:
 * the SG value, xor, == want; misere: the quotient's element, its product, in P with the rest
 * of the sum). value must satisfy value(h + period) == value(h) for h >= preperiod. */
typedef struct gr_heap_valuation {
    int64_t (*value)(void *user, int64_t heap);
    int64_t (*combine)(void *user, int64_t x, int64_t y);
    int (*hit)(void *user, int64_t x);
    void *user;
    int64_t period, preperiod;
} gr_heap_valuation;

/* Calls fn for the first `limit` options of heap n (of a shape gr_heap_moves_shape accepts) that
 * hit, in the order of gr_heap_options; returns how many there are in all (saturating). */
int64_t gr_heap_moves_where(gr_ctx *c, gr_game *g, int64_t n, const gr_heap_valuation *v, int64_t limit,
                            gr_heap_option_fn fn, void *user);

/* Calls fn for the first `limit` options of heap n whose value is want (every option: want < 0), in the order of
 * gr_heap_options (by amount removed, then by the parts); returns how many there are in all
 * (saturating at INT64_MAX). Only when gr_heap_moves_fast(c, g, n). */
int64_t gr_heap_moves_to(gr_ctx *c, gr_game *g, int64_t n, int64_t want, int64_t limit,
                         gr_heap_option_fn fn, void *user);
#endif
