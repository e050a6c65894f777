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
/* Room for n entries and `words` words of keys in all, made now (a team's members then add
 * without allocating); whether one more entry of len words fits without growing. */
void gr_btt_reserve(gr_ctx *c, gr_btt *t, size_t n, size_t words);
static inline int gr_btt_room(const gr_btt *t, size_t len) {
    return (t->used + 1) * 10 <= t->cap * 7 && t->npool + len <= t->poolcap;
}

/* The same for keys of exactly two words, kept in the slots (a grid component of one word and
 * its board, or its shape: gshape.h): no pool to follow, no compare of lengths. */
typedef struct gr_btt2_slot { uint64_t k0, k1; int32_t value; } gr_btt2_slot;
typedef struct gr_btt2 {
    gr_btt2_slot *slots; size_t cap, used;
    size_t maxcap;                 /* 0: grows as needed; else a cache: full at maxcap slots, it is emptied */
    uint64_t emptied;
} gr_btt2;

static inline uint64_t gr_btt2_hash(uint64_t k0, uint64_t k1) {
    uint64_t h = (k0 ^ (k1 * UINT64_C(0x9e3779b97f4a7c15))) * UINT64_C(0xbf58476d1ce4e5b9);
    return h ^ (h >> 31);
}
static inline int32_t gr_btt2_get(const gr_btt2 *t, uint64_t k0, uint64_t k1) {
    if (!t->cap) return -1;
    for (size_t i = gr_btt2_hash(k0, k1) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        const gr_btt2_slot *s = &t->slots[i];
        if (s->value < 0) return -1;
        if (s->k0 == k0 && s->k1 == k1) return s->value;
    }
}
void gr_btt2_put(gr_ctx *c, gr_btt2 *t, uint64_t k0, uint64_t k1, int32_t value);
void gr_btt2_free(gr_ctx *c, gr_btt2 *t);
void gr_btt2_reserve(gr_ctx *c, gr_btt2 *t, size_t n);
static inline int gr_btt2_room(const gr_btt2 *t) { return (t->used + 1) * 10 <= t->cap * 7; }
#endif
