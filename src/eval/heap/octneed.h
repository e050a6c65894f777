/* octneed: a heap of the plain octal kernel (heap.c, octpar.c) by a search for every value
 * instead of a mark per split. The byte marks s[t[a] ^ t[r - a]] = 1 cost a store per pair, and
 * the stores are what that loop waits on (about 1.6 pairs a cycle here, with or without
 * vectors for the loads and xors). Here the values not met yet are a bitset held in registers
 * and each vector of 32 pairs is tested against it (the rare-value kernel's AVX-512 search,
 * sparsevec.c, asked for every value below P); a pair that meets a new value (a few thousand
 * per heap) clears its bit. Only AVX-512 and u16 tables; the options are those of the byte
 * marks exactly, so the value is the same. */
#ifndef GRUNDY_OCTNEED_H
#define GRUNDY_OCTNEED_H
#include "game.h"

/* The values looked for at once: a window of min(P, 4096) (eight registers of bitset). Only
 * the values below a heap's own value decide it, so the first window decides every heap whose
 * value is below 4096; a heap whose every value there is an option is searched again for the
 * next window's, [4096, 8192), and so on: a pass over the splits costs a fifth of the byte
 * marks' one. After GR_OCTNEED_WINDOWS windows (values from 16384) the heap is left to the
 * byte marks. */
enum { GR_OCTNEED_WINDOW = 4096, GR_OCTNEED_WINDOWS = 4 };

/* 1 when this search runs here for a u16 table of values below P (AVX-512, 64 < P). */
int gr_octneed_ok(uint64_t P);
uint64_t gr_octneed_window(uint64_t P);
/* For tests: a smaller window (a power of two from 64; 0: back to 4096), so that heaps past it
 * (the byte marks after the search, octpar's finisher doing a heap again) come at small sizes.
 * Not while a kernel runs. */
void gr_octneed_test_window(uint64_t w);
/* The splits (a, r - a), a in [a0, half], of a u16 table: each value x in [base, base + w) met
 * is cleared in need[x - base] (1 for a value not met yet) and counted off *count; stops early
 * once none is left. base + w <= 65536. */
void gr_octneed_splits(const uint16_t *t, int64_t r, int64_t a0, int64_t half, uint8_t *need, int64_t *count, uint64_t w,
                       uint64_t base);
/* Heap n's value (every option of the code: take, whole, '=' and the splits), with need as
 * scratch of P + 1 bytes: the least value no option has (at most P), or UINT64_MAX when every
 * value of GR_OCTNEED_WINDOWS windows is an option and they end below P, or when heap n - 1's
 * value is past them (not decided here: the byte marks). */
uint64_t gr_octneed_value(const gr_tbcode *code, const uint16_t *t, int64_t n, uint64_t P, uint8_t *need);
#endif
