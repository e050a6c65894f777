/* arena: bump allocator with a linked list of blocks; see arena.h. */
#include "arena.h"
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

struct gr_arena_block {
    gr_arena_block *next;
    size_t used, cap;
    max_align_t data[];
};

void gr_arena_init(gr_arena *a) { a->head = NULL; a->total = 0; }

void gr_arena_free(gr_arena *a) {
    gr_arena_block *b = a->head;
    while (b) {
        gr_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->total = 0;
}

void *gr_arena_alloc(gr_arena *a, size_t size) {
    const size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    if (size == 0) size = align;
    gr_arena_block *b = a->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = 64 * 1024;
        if (cap < size) cap = size;
        b = malloc(sizeof *b + cap);
        if (!b) return NULL;
        b->cap = cap;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    a->total += size;
    memset(p, 0, size);
    return p;
}

char *gr_arena_strndup(gr_arena *a, const char *s, size_t n) {
    char *p = gr_arena_alloc(a, n + 1);
    if (p) { memcpy(p, s, n); p[n] = '\0'; }
    return p;
}

gr_arena_mark gr_arena_mark_of(const gr_arena *a) {
    return (gr_arena_mark){ a->head, a->head ? a->head->used : 0, a->total };
}

void gr_arena_rewind(gr_arena *a, const gr_arena_mark *m) {
    while (a->head && a->head != m->head) {    /* blocks made after the mark come first */
        gr_arena_block *next = a->head->next;
        free(a->head);
        a->head = next;
    }
    if (a->head) a->head->used = m->used;
    a->total = m->total;
}
