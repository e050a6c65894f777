/* btt: the board search's transposition table; see btt.h. */
#include "eval/board/btt.h"
#include <string.h>

uint64_t gr_btt_hash(const uint64_t *key, size_t len) {
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ len;
    for (size_t i = 0; i < len; i++) {
        h ^= key[i];
        h *= UINT64_C(0xbf58476d1ce4e5b9);
        h ^= h >> 31;
    }
    h *= UINT64_C(0x94d049bb133111eb);
    return h ^ (h >> 29);
}

static int same(const gr_btt *t, const gr_btt_slot *s, const uint64_t *key, size_t len, uint64_t hash) {
    return s->hash == hash && s->len == len && !memcmp(t->pool + s->off, key, len * sizeof *key);
}

int32_t gr_btt_get(const gr_btt *t, const uint64_t *key, size_t len, uint64_t hash) {
    if (!t->cap) return -1;
    for (size_t i = hash & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        const gr_btt_slot *s = &t->slots[i];
        if (s->value < 0) return -1;
        if (same(t, s, key, len, hash)) return s->value;
    }
}

/* A table twice as large (1024 slots at first), every entry moved: the same for both kinds. */
#define GROW(NAME, TABLE, SLOT, HASH)                                                             \
    static void NAME(gr_ctx *c, TABLE *t) {                                                       \
        size_t cap = t->cap ? t->cap * 2 : 1024;                                                  \
        SLOT *old = t->slots, *s = gr_alloc(c, gr_size_mul(c, cap, sizeof *s));                  \
        for (size_t i = 0; i < cap; i++) s[i].value = -1;                                         \
        for (size_t k = 0; k < t->cap; k++) {                                                     \
            if (old[k].value < 0) continue;                                                       \
            size_t i = HASH(old[k]) & (cap - 1);                                                  \
            while (s[i].value >= 0) i = (i + 1) & (cap - 1);                                      \
            s[i] = old[k];                                                                        \
        }                                                                                         \
        if (old) gr_free(c, old);                                                                 \
        t->slots = s;                                                                             \
        t->cap = cap;                                                                             \
    }
#define SLOT_HASH(e) ((e).hash)
#define SLOT2_HASH(e) gr_btt2_hash((e).k0, (e).k1)
GROW(grow, gr_btt, gr_btt_slot, SLOT_HASH)
GROW(grow2, gr_btt2, gr_btt2_slot, SLOT2_HASH)

void gr_btt_reserve(gr_ctx *c, gr_btt *t, size_t n, size_t words) {
    while ((n + 1) * 10 > t->cap * 7) grow(c, t);
    if (t->poolcap < words) {
        size_t cap = t->poolcap ? t->poolcap : 4096;
        while (cap < words) cap *= 2;
        t->pool = gr_realloc(c, t->pool, gr_size_mul(c, cap, sizeof *t->pool));
        t->poolcap = cap;
    }
}

void gr_btt_put(gr_ctx *c, gr_btt *t, const uint64_t *key, size_t len, uint64_t hash, int32_t value) {
    if ((t->used + 1) * 10 > t->cap * 7) grow(c, t);
    size_t i = hash & (t->cap - 1);
    for (; t->slots[i].value >= 0; i = (i + 1) & (t->cap - 1))
        if (same(t, &t->slots[i], key, len, hash)) { t->slots[i].value = value; return; }
    if (t->npool + len > t->poolcap) {
        size_t cap = t->poolcap ? t->poolcap * 2 : 4096;
        while (cap < t->npool + len) cap *= 2;
        t->pool = gr_realloc(c, t->pool, gr_size_mul(c, cap, sizeof *t->pool));
        t->poolcap = cap;
    }
    memcpy(t->pool + t->npool, key, len * sizeof *key);
    t->slots[i] = (gr_btt_slot){ hash, t->npool, (uint32_t)len, value };
    t->npool += len;
    t->used++;
}

void gr_btt_free(gr_ctx *c, gr_btt *t) {
    if (t->slots) gr_free(c, t->slots);
    if (t->pool) gr_free(c, t->pool);
    memset(t, 0, sizeof *t);
}


void gr_btt2_put(gr_ctx *c, gr_btt2 *t, uint64_t k0, uint64_t k1, int32_t value) {
    if ((t->used + 1) * 10 > t->cap * 7) {
        if (t->maxcap && t->cap >= t->maxcap) {   /* a cache at its size: start it again */
            for (size_t i = 0; i < t->cap; i++) t->slots[i].value = -1;
            t->used = 0;
            t->emptied++;
        } else {
            grow2(c, t);
        }
    }
    size_t i = gr_btt2_hash(k0, k1) & (t->cap - 1);
    for (; t->slots[i].value >= 0; i = (i + 1) & (t->cap - 1))
        if (t->slots[i].k0 == k0 && t->slots[i].k1 == k1) { t->slots[i].value = value; return; }
    t->slots[i] = (gr_btt2_slot){ k0, k1, value };
    t->used++;
}

void gr_btt2_free(gr_ctx *c, gr_btt2 *t) {
    if (t->slots) gr_free(c, t->slots);
    memset(t, 0, sizeof *t);
}

void gr_btt2_reserve(gr_ctx *c, gr_btt2 *t, size_t n) {
    while ((n + 1) * 10 > t->cap * 7) grow2(c, t);
}
