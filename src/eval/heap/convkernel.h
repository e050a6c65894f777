/* convkernel: heap kernels for the 'anyleaf' and 'every' conventions. When no move of a heap
 * rule set splits a heap, the graph of one component is the heaps 0..n themselves, so the
 * values these theories need are recurrences over heap sizes, as sg(n) is under normal play:
 *   leaf-deleted value ('anyleaf', sums/anyleaf.h): L(n) = -1 at a leaf (no options), else
 *       mex of L(m) >= 0 over the options m;
 *   normal outcome and step number ('every', sums/every.h, Smith's Every-SG): s(n) = 0 at a
 *       leaf; 1 + the largest s(m) over options m that are P when n is N; 1 + the smallest
 *       s(m) over all options when n is P.
 * Kernels, chosen from the shape of the compiled moves:
 *   nim      every smaller heap is an option: L(n) = n - 1, s(n) = 1 for n >= 1 (formula)
 *   window   a finite set of amounts (a subtraction set, a take-and-break code whose digits
 *            leave at most one heap): |S| operations per heap until the window argument
 *            proves a period (L(n + p) = L(n), s(n + p) = s(n) + d), then O(1) per heap
 *   dense    any other rule set whose moves never split: one array entry per heap up to n,
 *            each heap's options enumerated; a heap past the memory limit fails at once
 * The position graph (--no-theory) is the brute-force twin tests compare with. */
#ifndef GRUNDY_CONVKERNEL_H
#define GRUNDY_CONVKERNEL_H
#include "game.h"

/* The values of one heap. */
typedef struct gr_hcval {
    int64_t leaf;    /* value after leaf deletion, -1 at a leaf */
    int64_t step;    /* step number */
    int outcome;     /* under normal play: GR_LOSS or GR_WIN */
} gr_hcval;

/* Does a kernel apply to g (a heap rule set whose moves never split)? 0 if not. */
int gr_convkernel_fits(const gr_game *g);
/* The kernel and its cost, in a sentence (for --explain). */
void gr_convkernel_describe(const gr_game *g, char *buf, size_t cap);
/* The values of heap n: 1, or 0 if the kernel declines (a move that does not lead to a smaller
 * single heap was found). Fails with status 3 at once when heap n is past what the kernel can
 * hold within --max-memory. */
int gr_convkernel_value(gr_ctx *c, gr_game *g, int64_t n, gr_hcval *out);

/* The options of heap n (single heaps m < n, each once, by amount removed) whose values match
 * want (a field of -1 matches anything; want may be NULL): returns how many there are, and
 * calls fn for the first `limit` of them (fn may be NULL to count). Only after
 * gr_convkernel_value(n) succeeded. */
typedef void (*gr_convkernel_fn)(void *user, int64_t heap, const gr_hcval *v);
int64_t gr_convkernel_options(gr_ctx *c, gr_game *g, int64_t n, const gr_hcval *want, int64_t limit,
                            gr_convkernel_fn fn, void *user);

/* A lower bound on the number of distinct options of heap n of any heap rule set, splitting or
 * not (0 when none is known): the position graph of a component holds at least that many plus
 * one, so a limit it would surely pass is reported before it is built. */
uint64_t gr_convkernel_options_floor(const gr_game *g, int64_t n);
#endif
