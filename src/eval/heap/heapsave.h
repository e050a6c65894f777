/* heapsave: what checkpoints (checkpoint.h) write of a heap game and read back. */
#ifndef GRUNDY_HEAPSAVE_H
#define GRUNDY_HEAPSAVE_H
#include <stdio.h>
#include "game.h"

/* For checkpoints (checkpoint.h): a heap game's computed values and its kernels' state, as
 * numbers and the table's bytes. Save returns 0 when there is nothing worth saving (nim, an
 * infinite subtraction set, an empty table); restore fills an empty table of g and returns -1
 * if the numbers cannot be a state of g (a damaged or foreign checkpoint). */
enum { GR_HEAP_SAVED = 20 };
/* The values: in memory at `values`, or (values NULL) `bytes` bytes at offset `at` of the file
 * `from`, read straight into the table (a checkpoint being resumed), or (bytes 0) in the
 * table's own file (tablefile.h), synced by the save, whose name a resumed checkpoint gives as
 * `file` and whose checksum is among the numbers. */
typedef struct gr_heap_saved {
    int64_t f[GR_HEAP_SAVED];
    const void *values;
    size_t bytes;
    FILE *from;
    uint64_t at;
    const char *file;
} gr_heap_saved;
int gr_heap_save(gr_ctx *c, const gr_game *g, gr_heap_saved *out);
/* -1: the numbers do not fit g; -2: the values' own file is missing or not the one saved. */
int gr_heap_restore(gr_ctx *c, gr_game *g, const gr_heap_saved *in);
#endif
