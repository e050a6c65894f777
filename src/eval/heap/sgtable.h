/* sgtable: a growable table of Sprague-Grundy values of heaps 0, 1, 2, ..., stored at the
 * narrowest width (1, 2, 4 or 8 bytes) that holds every value so far; it widens in place when
 * a larger value arrives. Kernels read and write the typed arrays directly; a long search's
 * table may live in a mapped file (tablefile.h). */
#ifndef GRUNDY_SGTABLE_H
#define GRUNDY_SGTABLE_H
#include <stdint.h>
#include "ctx.h"

struct gr_sgtable {
    void *data;
    int width;          /* bytes per value */
    int64_t n;          /* values computed: heaps 0..n-1 */
    int64_t cap;
    int64_t max;        /* at least the largest value so far: a bound for the kernels' bitsets, raised past it
                         * when the table is widened for a value (gr_sgt_fit: heap.c asks for max * 2 + 2);
                         * the largest value itself is read off the values (the checks do) */
    struct gr_tablefile *file;  /* NULL: data is tracked memory; else a mapped file (tablefile.h) */
};
typedef struct gr_sgtable gr_sgtable;

gr_sgtable *gr_sgt_new(gr_ctx *c, int width);
void gr_sgt_reserve(gr_ctx *c, gr_sgtable *t, int64_t n);
/* Makes the table wide enough for v. */
void gr_sgt_fit(gr_ctx *c, gr_sgtable *t, int64_t v);
void gr_sgt_push(gr_ctx *c, gr_sgtable *t, int64_t v);
/* The file's side of gr_sgt_reserve and gr_sgt_fit, defined in tablefile.c: grows the file and
 * maps it again; widening rewrites the values in place, back to front. Declared here, not in
 * tablefile.h, so that sgtable.c need not include the header that includes this one. */
void gr_tablefile_grow(gr_ctx *c, gr_sgtable *t, int64_t cap, int width);

static inline int64_t gr_sgt_get(const gr_sgtable *t, int64_t i) {
    switch (t->width) {
    case 1: return ((const uint8_t *)t->data)[i];
    case 2: return ((const uint16_t *)t->data)[i];
    case 4: return ((const uint32_t *)t->data)[i];
    default: return ((const int64_t *)t->data)[i];
    }
}
static inline void gr_sgt_put(gr_sgtable *t, int64_t i, int64_t v) {
    switch (t->width) {
    case 1: ((uint8_t *)t->data)[i] = (uint8_t)v; break;
    case 2: ((uint16_t *)t->data)[i] = (uint16_t)v; break;
    case 4: ((uint32_t *)t->data)[i] = (uint32_t)v; break;
    default: ((int64_t *)t->data)[i] = v; break;
    }
}

/* mex over a bitset: values above the number of options can never be the mex, so the set
 * only needs count + 1 bits, and only those words are cleared per position. */
typedef struct gr_mex {
    uint64_t *bits;
    size_t words;
} gr_mex;
void gr_mex_reserve(gr_ctx *c, gr_mex *m, uint64_t count);   /* clears count + 1 bits */
static inline void gr_mex_add(gr_mex *m, uint64_t count, uint64_t v) {
    if (v <= count) m->bits[v >> 6] |= UINT64_C(1) << (v & 63);
}
uint64_t gr_mex_take(const gr_mex *m, uint64_t count);      /* least value not added */
#endif
