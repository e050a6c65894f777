/* figure: the classes of parallel edges of a Hackenbush figure; see figure.h. */
#include "figure.h"
#include <stdlib.h>

typedef struct end_pair { int32_t lo, hi, e; } end_pair;
static int cmp_pair(const void *x, const void *y) {
    const end_pair *a = x, *b = y;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return (a->e > b->e) - (a->e < b->e);
}

void gr_hb_prepare(gr_ctx *c, gr_figure *f) {
    end_pair *p = gr_alloc(c, gr_size_mul(c, (size_t)f->ne + 1, sizeof *p));
    f->twin = GR_NEWN(c, int32_t, f->ne + 1);
    for (int e = 0; e < f->ne; e++) {
        int32_t u = f->eu[e], v = f->ev[e];
        p[e] = (end_pair){ u < v ? u : v, u < v ? v : u, e };
    }
    qsort(p, (size_t)f->ne, sizeof *p, cmp_pair);
    for (int i = 0; i < f->ne; i++)
        f->twin[p[i].e] = (i && p[i].lo == p[i - 1].lo && p[i].hi == p[i - 1].hi) ? f->twin[p[i - 1].e] : p[i].e;
    gr_free(c, p);
}
