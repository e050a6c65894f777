/* textset: two small tools for exact, unbounded output lists: a growable text (no length
 * limit, tracked memory) and a set of byte strings (hashing, so membership is O(length)).
 * Winning-move lists use them: the text of a position of any size, and the positions seen. */
#ifndef GRUNDY_TEXTSET_H
#define GRUNDY_TEXTSET_H
#include <stddef.h>
#include <stdint.h>
#include "ctx.h"

typedef struct gr_text { gr_ctx *c; char *s; size_t n, cap; } gr_text;
void gr_text_init(gr_text *t, gr_ctx *c);   /* empty; t->s is "" */
void gr_text_clear(gr_text *t);
void gr_text_printf(gr_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends s (a plain copy: a solve's winning moves are written by the thousand, and printf's
 * "%s" was most of their cost). */
void gr_text_puts(gr_text *t, const char *s);
void gr_text_free(gr_text *t);

typedef struct gr_byteset {
    gr_ctx *c;
    uint8_t *bytes; size_t nbytes, capbytes;  /* the keys back to back */
    size_t *off; size_t count, capoff;        /* key k is bytes[off[k] .. off[k + 1]) */
    uint64_t *slots; size_t nslots;           /* (hash tag << 32) | (k + 1); 0 is empty */
} gr_byteset;
void gr_byteset_init(gr_byteset *s, gr_ctx *c);
/* Adds the key; returns 1 if it was new, 0 if it was there already. */
int gr_byteset_add(gr_byteset *s, const void *key, size_t len);
/* Adds the key if new (*added says which, when not NULL); returns its index: keys are numbered
 * 0, 1, ... in the order they came, key k at bytes[off[k] .. off[k + 1]). */
size_t gr_byteset_intern(gr_byteset *s, const void *key, size_t len, int *added);
void gr_byteset_free(gr_byteset *s);
#endif
