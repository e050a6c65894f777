/* quotient: the misere quotient of a heap rule set (cap_quotient.h says what it is and how it
 * is computed): the calls of the room's own files and the tests. */
#ifndef GRUNDY_QUOTIENT_H
#define GRUNDY_QUOTIENT_H
#include <stdint.h>
#include "eval/cap_quotient.h"

/* The quotient of g's heaps 0..upto (grown from what the cache holds); fails with status 3
 * at the limits (--max-memory, --max-time), naming the heap and the order reached. NULL (and
 * why) when g is not a heap rule set whose moves lead to smaller heaps. */
gr_quotient *gr_quotient_of(gr_ctx *c, gr_game *g, int64_t upto, char *why, size_t cap);
/* The quotient of heaps 0..upto only, from q computed at least that far (a new quotient the
 * caller frees with gr_quotient_free; no proof or unions carried). */
gr_quotient *gr_quotient_restrict(gr_ctx *c, const gr_quotient *q, int64_t upto);
/* The element of a heap: from the table, through a proved period, or by growing. */
int32_t gr_quotient_elem(gr_ctx *c, gr_quotient *q, int64_t heap);
/* The quotient of the union of games[0..n) (at most 8 distinct rule sets), heaps 0..tops[i]
 * of games[i] at least (no periodicity theorem for unions); NULL with why as gr_quotient_of.
 * bound > 0: proved on the sums that last at most bound moves only (cap_quotient.h). */
gr_quotient *gr_quotient_union(gr_ctx *c, gr_game *const *games, int n, const int64_t *tops, int64_t bound, char *why, size_t cap);
/* The element of heap `heap` of games[gi] in a union (grown on demand). */
int32_t gr_quotient_elem_of(gr_ctx *c, gr_quotient *q, int gi, int64_t heap);
/* The options of a huge heap through the proved period (cap_quotient.h: moves_where). */
int64_t gr_quotient_moves_where(gr_ctx *c, gr_quotient *q, int64_t heap, int32_t rest, int want_p, int64_t limit,
                                gr_option_fn fn, void *user);
/* Tries to prove that the pretending function stays periodic (q->proved and q->theorem). */
void gr_quotient_prove(gr_ctx *c, gr_quotient *q);
void gr_quotient_free(gr_ctx *c, gr_quotient *q);

/* ---- presentation (for output) ---- */
void gr_quotient_present(gr_ctx *c, const gr_quotient *q, gr_presentation *out);
void gr_presentation_free(gr_ctx *c, gr_presentation *p);
#endif
