/* btt: the transposition table of the board search: a value under a key of any length (a
 * canonical form, eval/board/canon.h), open addressing over a pool of keys, all in tracked
 * memory (past --max-memory: status 3, as every table). */
#ifndef GRUNDY_BTT_H
#define GRUNDY_BTT_H
#include "ctx.h"
#include <stdint.h>
#include <stddef.h>

typedef struct gr_btt_slot { uint64_t hash; uint64_t off; uint32_t len; int32_t value; } gr_btt_slot;
typedef struct gr_btt {
    gr_btt_slot *slots; size_t cap, used;   /* cap a power of two; value -1: empty */
    uint64_t *pool; size_t npool, poolcap;
} gr_btt;

uint64_t gr_btt_hash(const uint64_t *key, size_t len);
/* The value kept under key, or -1. */
int32_t gr_btt_get(const gr_btt *t, const uint64_t *key, size_t len, uint64_t hash);
void gr_btt_put(gr_ctx *c, gr_btt *t, const uint64_t *key, size_t len, uint64_t hash, int32_t value);
void gr_btt_free(gr_ctx *c, gr_btt *t);
#endif
