/* octneed: a heap of the plain octal kernel (heap.c, octpar.c) by a search for every value
 * instead of a mark per split. The byte marks s[t[a] ^ t[r - a]] = 1 cost a store per pair, and
 * the stores are what that loop waits on (about 1.6 pairs a cycle here, with or without
 * vectors for the loads and xors). Here the values not met yet are a bitset held in registers
 * and each vector of 32 pairs is tested against it (the rare-value kernel's AVX-512 search,
 * sparsevec.c, asked for every value below P); a pair that meets a new value (a few thousand
 * per heap) clears its bit. Only AVX-512, u16 tables, P <= 4096; the options are those of the
 * byte marks exactly, so the value is the same. */
#ifndef GRUNDY_OCTNEED_H
#define GRUNDY_OCTNEED_H
#include "game.h"

enum { GR_OCTNEED_MAXP = 4096 };

/* 1 when this search runs here for values below P (the path in use is AVX-512, 64 < P <= 4096). */
int gr_octneed_ok(uint64_t P);
/* The splits (a, r - a), a in [a0, half], of a u16 table: each value met is cleared in need
 * (P bytes, 1 for a value not met yet) and counted off *count; stops early once none is left. */
void gr_octneed_splits(const uint16_t *t, int64_t r, int64_t a0, int64_t half, uint8_t *need, int64_t *count, uint64_t P);
/* Heap n's value (every option of the code: take, whole, '=' and the splits), with need as
 * scratch of P + 1 bytes; the least value no option has (at most P). */
uint64_t gr_octneed_value(const gr_tbcode *code, const uint16_t *t, int64_t n, uint64_t P, uint8_t *need);
#endif
