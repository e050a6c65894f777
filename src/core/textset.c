/* textset: growable text and a set of byte strings; see textset.h. */
#include "textset.h"
#include "hash.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static size_t grown(size_t cap, size_t need) {
    size_t n = cap ? cap : 64;
    while (n < need) n *= 2;
    return n;
}

void gr_text_init(gr_text *t, gr_ctx *c) {
    t->c = c;
    t->cap = 64;
    t->s = gr_alloc(c, t->cap);
    t->n = 0;
}

void gr_text_clear(gr_text *t) { t->n = 0; t->s[0] = '\0'; }

void gr_text_printf(gr_text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= t->cap - t->n) {
        size_t cap = grown(t->cap, t->n + (size_t)n + 1);
        t->s = gr_realloc(t->c, t->s, cap);
        t->cap = cap;
        va_start(ap, fmt);
        vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
        va_end(ap);
    }
    t->n += (size_t)n;
}

void gr_text_puts(gr_text *t, const char *s) {
    size_t n = strlen(s);
    if (n >= t->cap - t->n) {
        size_t cap = grown(t->cap, t->n + n + 1);
        t->s = gr_realloc(t->c, t->s, cap);
        t->cap = cap;
    }
    memcpy(t->s + t->n, s, n + 1);
    t->n += n;
}

void gr_text_free(gr_text *t) {
    gr_free(t->c, t->s);
    t->s = NULL;
    t->n = t->cap = 0;
}

void gr_byteset_init(gr_byteset *s, gr_ctx *c) {
    memset(s, 0, sizeof *s);
    s->c = c;
}

static uint64_t hash(const uint8_t *p, size_t len) {
    uint64_t h = gr_fnv1a(GR_FNV1A_INIT ^ len, p, len);   /* FNV-1a, then a final mix */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

static void rehash(gr_byteset *s, size_t nslots) {
    /* the new table first: a limit met allocating it leaves the set whole (its owner frees it) */
    uint64_t *slots = gr_alloc(s->c, gr_size_mul(s->c, nslots, sizeof *s->slots));
    gr_free(s->c, s->slots);
    s->slots = slots;
    s->nslots = nslots;
    for (size_t k = 0; k < s->count; k++) {
        uint64_t h = hash(s->bytes + s->off[k], s->off[k + 1] - s->off[k]);
        size_t i = (size_t)h & (nslots - 1);
        while (s->slots[i]) i = (i + 1) & (nslots - 1);
        s->slots[i] = (h >> 32 << 32) | (uint64_t)(k + 1);
    }
}

size_t gr_byteset_intern(gr_byteset *s, const void *key, size_t len, int *added) {
    if ((s->count + 1) * 10 > s->nslots * 7) rehash(s, s->nslots ? s->nslots * 2 : 64);
    uint64_t h = hash(key, len), tag = h >> 32 << 32;
    size_t i = (size_t)h & (s->nslots - 1);
    for (; s->slots[i]; i = (i + 1) & (s->nslots - 1)) {
        if ((s->slots[i] & 0xffffffff00000000ULL) != tag) continue;
        size_t k = (size_t)(uint32_t)s->slots[i] - 1;
        if (s->off[k + 1] - s->off[k] == len && (len == 0 || !memcmp(s->bytes + s->off[k], key, len))) {
            if (added) *added = 0;
            return k;
        }
    }
    if (s->count + 2 > s->capoff) {
        size_t cap = grown(s->capoff, s->count + 2);
        s->off = gr_realloc(s->c, s->off, gr_size_mul(s->c, cap, sizeof *s->off));
        s->capoff = cap;
        if (s->count == 0) s->off[0] = 0;
    }
    if (s->nbytes + len > s->capbytes) {
        size_t cap = grown(s->capbytes, s->nbytes + len);
        s->bytes = gr_realloc(s->c, s->bytes, cap);
        s->capbytes = cap;
    }
    if (len) memcpy(s->bytes + s->nbytes, key, len);
    s->nbytes += len;
    s->off[s->count + 1] = s->nbytes;
    s->slots[i] = tag | (uint64_t)(s->count + 1);
    if (added) *added = 1;
    return s->count++;
}

int gr_byteset_add(gr_byteset *s, const void *key, size_t len) {
    int added;
    gr_byteset_intern(s, key, len, &added);
    return added;
}

void gr_byteset_free(gr_byteset *s) {
    gr_free(s->c, s->bytes);
    gr_free(s->c, s->off);
    gr_free(s->c, s->slots);
    memset(s, 0, sizeof *s);
}
