/* arena: bump allocation for everything a compilation builds (tokens, syntax tree, IR).
 * One arena per compilation; it is freed in one call, so front-end code never frees. */
#ifndef GRUNDY_ARENA_H
#define GRUNDY_ARENA_H
#include <stddef.h>

typedef struct gr_arena_block gr_arena_block;
typedef struct gr_arena {
    gr_arena_block *head;
    size_t total;        /* bytes handed out, for --max-memory accounting */
} gr_arena;

void gr_arena_init(gr_arena *a);
void gr_arena_free(gr_arena *a);
/* Zeroed memory, aligned for any scalar. Returns NULL only when malloc fails. */
void *gr_arena_alloc(gr_arena *a, size_t size);
char *gr_arena_strndup(gr_arena *a, const char *s, size_t n);
/* A place in the arena to go back to: gr_arena_rewind frees all allocated after the mark (a
 * query compiled against a program that stays, then forgotten). */
typedef struct gr_arena_mark { gr_arena_block *head; size_t used, total; } gr_arena_mark;
gr_arena_mark gr_arena_mark_of(const gr_arena *a);
void gr_arena_rewind(gr_arena *a, const gr_arena_mark *m);
#endif
