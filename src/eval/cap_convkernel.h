/* cap_convkernel: the capability of the heap kernels for the 'anyleaf' and 'every' conventions. When no move of a heap
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
 * The position graph (--no-theory) is the brute-force twin tests compare with. The kernels live
 * in eval/heap/convkernel.c; sums/ (anyleaf.c, every.c, compgraph.c) reach them through
 * gr_cap_convkernel (evaluator.h explains capabilities). */
#ifndef GRUNDY_CAP_CONVKERNEL_H
#define GRUNDY_CAP_CONVKERNEL_H
#include "eval/evaluator.h"

/* The values of one heap. */
typedef struct gr_hcval {
    int64_t leaf;    /* value after leaf deletion, -1 at a leaf */
    int64_t step;    /* step number */
    int outcome;     /* under normal play: GR_LOSS or GR_WIN */
} gr_hcval;

typedef void (*gr_convkernel_fn)(void *user, int64_t heap, const gr_hcval *v);

typedef struct gr_convkernel_cap {
    /* The kernel and its cost, in a sentence (for --explain). */
    void (*describe)(const gr_game *g, char *buf, size_t cap);
    /* The values of heap n: 1, or 0 if the kernel declines (a move that does not lead to a
     * smaller single heap was found). Fails with status 3 at once when heap n is past what the
     * kernel can hold within --max-memory. */
    int (*value)(gr_ctx *c, gr_game *g, int64_t n, gr_hcval *out);
    /* The options of heap n (single heaps m < n, each once, by amount removed) whose values
     * match want (a field of -1 matches anything; want may be NULL): returns how many there
     * are, and calls fn for the first `limit` of them (fn may be NULL to count). Only after
     * value(n) succeeded. */
    int64_t (*options)(gr_ctx *c, gr_game *g, int64_t n, const gr_hcval *want, int64_t limit,
                       gr_convkernel_fn fn, void *user);
} gr_convkernel_cap;

/* g's kernels: NULL unless g is a heap rule set whose moves never split. */
const gr_convkernel_cap *gr_cap_convkernel(const gr_game *g);

/* A lower bound on the number of distinct options of heap n of any heap rule set, splitting or
 * not (0 when none is known): the position graph of a component holds at least that many plus
 * one, so a limit it would surely pass is reported before it is built. From the rule set's
 * code alone, so every heap rule set has it, kernel or not. */
uint64_t gr_convkernel_options_floor(const gr_game *g, int64_t n);
#endif
