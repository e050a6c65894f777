/* heap: the heap-recurrence evaluator. Positions are single heaps 0, 1, 2, ...; every move
 * leads to a sum of smaller heaps, so sg(n) = mex of the xors of the options' values, filled
 * in order into an sgtable and grown on demand. Kernels:
 *   nim            sg(n) = n, nothing stored
 *   subtraction    |S| word operations per heap: values are at most |S|, so the mex is taken
 *                  over a 64-bit mask (|S| < 64) or a bitset of |S| + 1 bits
 *   infinite set   generated elements plus an open tail kept as a running set of values
 *   octal          at most two heaps after a move: pairs scanned at the table's own width,
 *                  xors collected in a 64-bit mask while values are below 64
 *   generic        any take-and-break code or general rules: options enumerated, then a mex
 *                  over a bitset sized by the number of options
 * A rule whose move does not lead to smaller heaps is found while filling; the game is then
 * marked not_recurrence and its queries go to the position graph. */
#ifndef GRUNDY_HEAP_H
#define GRUNDY_HEAP_H
#include "game.h"
#include "eval/heap/heapopts.h"

/* Makes sg(0..n) available; returns 0, or -1 if the game turned out not to be a recurrence
 * (g->state->not_recurrence is then set and a message is in g->explain). */
int gr_heap_ensure(gr_ctx *c, gr_game *g, int64_t n);
/* Computes values of a general rule block ahead of what was asked, towards heap n, with the
 * threaded kernel only (genpar.h), stopping silently before a heap that would fail or is not a
 * recurrence: so what the serial order of requests would meet is met there, unchanged. Returns
 * 0 if it computed some heaps, else -1. */
int gr_heap_prefill(gr_ctx *c, gr_game *g, int64_t n);
int64_t gr_heap_sg(gr_ctx *c, gr_game *g, int64_t n);   /* fails if not a recurrence */
/* sg(n) once gr_heap_ensure(n) succeeded: from the table, or from the proved period beyond it
 * (gr_heap_ensure stops filling once a window theorem proves a period; see proved.h). */
int64_t gr_heap_value(const gr_game *g, int64_t n);
/* 1 if a 1-D SG table of g under conv can be streamed with gr_heap_ensure/gr_heap_value, holding
 * no array of cells: normal play by a kernel that is always a recurrence (nim, subtraction,
 * take-and-break). */
int gr_heap_streams(const gr_game *g, gr_conv conv);
/* The proved period (nim: 1 from 0, saltus 1); 0 if none is proved yet. */
int gr_heap_period(const gr_game *g, int64_t *period, int64_t *pre);
/* For tests and benchmarks: the rare-value kernel after sparse_warmup heaps (0: the default;
 * -1: never, the plain kernel only), and whether a proved period ends the filling. */
void gr_heap_tune(gr_ctx *c, gr_game *g, int64_t sparse_warmup, int prove_periods);
/* For tests: how many heaps of an octal code the rare-value kernel computed, and how many the
 * plain kernel across threads (octpar.h); the rest were the plain serial kernel's.
 * speculated: of the rare-value kernel's, those its --threads team worked out ahead and
 * checked; spec_failed: the checks that found a new rare heap (sparsespec.c). */
/* (paced_one, paced_team: the rare-value kernel's chunks past heap 4096 with --threads taken by
 * one thread and by the team, as their measured rates chose, core/pace.h) */
typedef struct gr_heap_counts { int64_t rare, threaded, speculated, spec_failed, paced_one, paced_team; } gr_heap_counts;
gr_heap_counts gr_heap_count(const gr_game *g);
/* Tests: the rare-value kernel's choice between one thread and the team (core/pace.h), to
 * set its rates; NULL when the kernel does not apply to g. */
struct gr_pace *gr_heap_sparse_pace(gr_ctx *c, gr_game *g);
/* Tests: the rare-value kernel's pair searches over a table in a file in pieces of `pairs`
 * (sparsescan.c; default 2^22). Returns 0 when the kernel does not apply to g. */
int gr_heap_sparse_piece(gr_ctx *c, gr_game *g, int64_t pairs);
/* For tests: the rare-value kernel's team even with one thread (gr_sparse_solo); returns 0
 * if the code is not one for the rare-value kernel. */
int gr_heap_sparse_solo(gr_ctx *c, gr_game *g);
/* For --explain: what the values computed so far decided (the rare-value kernel's mask and rare
 * class, or a proved period); "" when nothing does. Computes nothing. */
void gr_heap_describe(const gr_game *g, char *buf, size_t cap);

/* The rare-value kernel's latest classes (sparse.h: gr_sparse_classes); 0 if it never ran. */
int gr_heap_rare_classes(const gr_game *g, uint64_t *mask, int *heap_parity, int *common);
/* The orientation of the classes the rare-value kernel would take for g (sparse.h:
 * gr_sparse_kappa), -2 when it does not handle g. */
int gr_heap_rare_orientation(const gr_game *g);

/* The plain recurrence over gr_heap_options with no kernel at all: the brute-force twin the
 * tests compare every kernel with. Fills out[0..n]. */
void gr_heap_fill_generic(gr_ctx *c, gr_game *g, int64_t n, int64_t *out);
#endif
