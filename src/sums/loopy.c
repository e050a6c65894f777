/* loopy: infinite generalised SG values, their sets interned beside the values; see loopy.h. */
#include "loopy.h"
#include <stdlib.h>
#include <string.h>

void gr_loopy_init(gr_loopy *l, gr_ctx *c) { gr_byteset_init(&l->sets, c); }
void gr_loopy_free(gr_loopy *l) { gr_byteset_free(&l->sets); }

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int64_t gr_loopy_value(gr_loopy *l, int64_t *k, size_t nk) {
    if (nk > 1) qsort(k, nk, sizeof *k, cmp_i64);
    size_t d = 0;
    for (size_t i = 0; i < nk; i++)
        if (d == 0 || k[i] != k[d - 1]) k[d++] = k[i];
    /* an empty set is a key of no bytes; any pointer will do for it */
    return -2 - (int64_t)gr_byteset_intern(&l->sets, d ? (const void *)k : "", d * sizeof *k, NULL);
}

const int64_t *gr_loopy_set(const gr_loopy *l, int64_t v, size_t *nk) {
    size_t j = (size_t)(-2 - v);
    const gr_byteset *s = &l->sets;
    *nk = (s->off[j + 1] - s->off[j]) / sizeof(int64_t);
    static const int64_t none[1] = { 0 };
    if (*nk == 0) return none;
    return (const int64_t *)(const void *)(s->bytes + s->off[j]);
}

int64_t gr_loopy_of_pg(gr_loopy *l, gr_pg *pg, uint32_t id) {
    int64_t v = gr_pg_sg(pg, id);
    if (v >= 0) return v;
    gr_pg_solve_gamma(pg);
    v = gr_pg_gamma(pg, id);
    if (v != GR_GAMMA_INF) return v >= 0 ? v : -1;
    gr_ctx *c = l->sets.c;
    size_t nk = gr_pg_gamma_set(pg, id, NULL, 0);
    uint32_t *k32 = gr_alloc(c, sizeof *k32 * (nk + 1));
    int64_t *k = gr_alloc(c, sizeof *k * (nk + 1));
    gr_pg_gamma_set(pg, id, k32, nk);
    for (size_t i = 0; i < nk; i++) k[i] = k32[i];
    v = gr_loopy_value(l, k, nk);
    gr_free(c, k);
    gr_free(c, k32);
    return v;
}
