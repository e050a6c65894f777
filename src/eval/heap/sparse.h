/* sparse: the rare-value ("sparse space") kernel for take-and-break codes whose moves leave at
 * most two heaps (Grundy's game and the other '!' codes included).
 *
 * The method of the octal-game literature (Gangolli-Plambeck; Flammenkamp's computations of
 * Grundy's game and the octal games): a mask M over value bits and a heap-parity bit h split the
 * heaps into two classes by cls(x) = parity(sg(x) & M) xor (h and x odd). When one class, the
 * rare class R, holds few heaps, the xor of two parts of a split has class cls(a) xor cls(b),
 * so a value of the *common* class for heap n can only come from a split with exactly one rare
 * part: |R| look-ups per split place give every such option. The least common-class value
 * missing, c, is then sg(n) unless a rare-class value below c is missing too; those are looked
 * for in a scan of all splits that stops as soon as every one of them has been seen (usually
 * after a few hundred pairs). Exact for any mask; fast when R is small.
 *
 * The mask is the one that makes R smallest, read off a Walsh-Hadamard transform of the
 * histogram of (value, heap parity); it is chosen again when the values outgrow a power of two,
 * when the heaps double, or when R grows. While no mask makes R small (under 1/8 of the heaps),
 * the plain kernel runs; it is re-examined at the next doubling.
 *
 * With --threads, past heap 4096, a team (sparsespec.c): one member works the heaps out in
 * order as if each value were of the common class (everything but the pair search), the
 * others check them by that search, block by block; a heap that fails the check is a new rare
 * heap, and what was worked out past it is dropped. The values are those of one thread,
 * whatever the timing. */
#ifndef GRUNDY_SPARSE_H
#define GRUNDY_SPARSE_H
#include "game.h"
#include "progress.h"
#include "eval/heap/sgtable.h"

typedef struct gr_sparse gr_sparse;

/* Is the code one the kernel handles (at most two heaps, no repeating digits, some split)? */
int gr_sparse_applies(const gr_game *g);
/* The parity of every split place of such a code (0 or 1), -1 when they differ; -2 when the
 * kernel does not handle the code. It orients the classes: the common class is 1 xor (hp and
 * kappa), a heap-parity bit hp only when kappa >= 0. */
int gr_sparse_kappa(const gr_game *g);
/* warmup: heaps computed by the plain kernel before the first choice (0: the default, 1024). */
gr_sparse *gr_sparse_new(gr_ctx *c, const gr_game *g, int64_t warmup);
/* (Tracked memory, kept in the game's cache for later calls: freed with the context.) */

/* Computes heaps tab->n.. while the rare-value kernel is worth it, up to `to`. Returns 1 if it
 * stopped because the next value does not fit the table's width (the caller widens and calls
 * again), 0 otherwise. When it returns with tab->n <= to and 0, the plain kernel should compute
 * heaps up to gr_sparse_plain_until(s) - 1 before this is called again. */
int gr_sparse_fill(gr_ctx *c, const gr_game *g, gr_sparse *s, gr_sgtable *tab, int64_t to, gr_progress *pr);
int64_t gr_sparse_plain_until(const gr_sparse *s);
/* The heaps behind the newest that the look-ups read: the last rare heap (*rare, 0 if none)
 * plus the largest split place, plus one. */
int64_t gr_sparse_window(const gr_sparse *s, int64_t *rare);

/* For checkpoints: the kernel's choice as GR_SPARSE_SAVED numbers, and a kernel rebuilt from
 * them and the table (the rare class is read off the values). Restore returns NULL if the
 * numbers cannot be a saved choice for this table. */
enum { GR_SPARSE_SAVED = 9 };
void gr_sparse_save(const gr_sparse *s, int64_t *out);
gr_sparse *gr_sparse_restore(gr_ctx *c, const gr_game *g, int64_t warmup, const int64_t *in, const gr_sgtable *tab);

/* The classes of the kernel's latest rare-value choice: its mask, heap-parity bit and common
 * class (a heap n >= 1 is rare when parity(sg(n) & mask) xor (heap_parity and n odd) is not
 * common). Returns 0, setting nothing, if the rare-value kernel was never chosen. */
int gr_sparse_classes(const gr_sparse *s, uint64_t *mask, int *heap_parity, int *common);

/* Heaps a --threads team worked out ahead and checked, and the checks that found a new rare
 * heap; and, for tests, the team's way with one thread (the one member speculates and checks
 * by turns), so that every way a heap is done runs whatever the timing. */
void gr_sparse_spec_counts(const gr_sparse *s, int64_t *speculated, int64_t *failed);
/* Chunks of heaps (past 4096, with --threads) taken by one thread and by the team, as
 * their measured rates chose (core/pace.h). */
void gr_sparse_paced(const gr_sparse *s, int64_t *one, int64_t *team);
struct gr_pace *gr_sparse_pace_of(gr_sparse *s);   /* (tests: its rates set by hand) */
/* Tests: a table in a file is searched in pieces of `pairs` (default 2^22), sparsescan.c. */
void gr_sparse_piece(gr_sparse *s, int64_t pairs);
void gr_sparse_solo(gr_sparse *s, int on);

/* For --explain: the kernel's current choice ("rare-value kernel: mask 0x..., ..."). */
void gr_sparse_describe(const gr_sparse *s, char *buf, size_t cap);
#endif
