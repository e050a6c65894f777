/* sgtable: narrow-width SG tables and the bitset mex; see sgtable.h. */
#include "eval/heap/sgtable.h"
#include <string.h>

/* The storage for cap values of the given width: tracked memory, or the table's file. */
static void resize(gr_ctx *c, gr_sgtable *t, int64_t cap, int width) {
    if (t->file) gr_tablefile_grow(c, t, cap, width);
    else t->data = gr_realloc(c, t->data, gr_size_mul(c, (size_t)(cap ? cap : 1), (size_t)width));
}

gr_sgtable *gr_sgt_new(gr_ctx *c, int width) {
    gr_sgtable *t = gr_alloc(c, sizeof *t);
    t->width = width;
    return t;
}

void gr_sgt_reserve(gr_ctx *c, gr_sgtable *t, int64_t n) {
    if (n <= t->cap) return;
    int64_t cap = t->cap ? t->cap : 1024;
    while (cap < n) cap = cap > INT64_MAX / 2 ? n : cap * 2;
    if (cap > n && cap - n > (int64_t)1 << 28 && n > 1024) cap = n + ((int64_t)1 << 28); /* do not double past need */
    resize(c, t, cap, t->width);
    t->cap = cap;
}

void gr_sgt_fit(gr_ctx *c, gr_sgtable *t, int64_t v) {
    if (v > t->max) t->max = v;
    int w = v < 256 ? 1 : v < 65536 ? 2 : v < (INT64_C(1) << 32) ? 4 : 8;
    if (w <= t->width) return;
    /* Widen in place, back to front: the new array is larger, so copy from the end. */
    int old = t->width;
    gr_sgtable tmp = *t;
    resize(c, t, t->cap, w);
    tmp.data = t->data;
    for (int64_t i = t->n - 1; i >= 0; i--) {
        tmp.width = old;
        int64_t x = gr_sgt_get(&tmp, i);
        t->width = w;
        gr_sgt_put(t, i, x);
    }
    t->width = w;
}

void gr_sgt_push(gr_ctx *c, gr_sgtable *t, int64_t v) {
    gr_sgt_reserve(c, t, t->n + 1);
    gr_sgt_fit(c, t, v);
    gr_sgt_put(t, t->n, v);
    t->n++;
}

void gr_mex_reserve(gr_ctx *c, gr_mex *m, uint64_t count) {
    size_t words = (size_t)(count / 64 + 1);
    if (words > m->words) {
        size_t nw = m->words ? m->words : 16;
        while (nw < words) nw *= 2;
        m->bits = gr_realloc(c, m->bits, gr_size_mul(c, nw, sizeof *m->bits));
        m->words = nw;
    }
    memset(m->bits, 0, words * sizeof *m->bits);
}

uint64_t gr_mex_take(const gr_mex *m, uint64_t count) {
    size_t words = (size_t)(count / 64 + 1);
    for (size_t w = 0; w < words; w++)
        if (~m->bits[w]) return w * 64 + (uint64_t)__builtin_ctzll(~m->bits[w]);
    return count + 1; /* unreachable: count options cannot fill the count + 1 bits 0..count */
}
