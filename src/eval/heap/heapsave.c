/* heapsave: a heap game's values and kernel state as numbers and bytes, for checkpoints; see
 * heapsave.h. */
#include "eval/heap/heapsave.h"
#include "eval/heap/heapstate.h"
#include "eval/heap/sgtable.h"
#include "eval/heap/tablefile.h"
#include "hash.h"
#include <string.h>

/* ---- checkpoints ------------------------------------------------------------------------ */
enum { SV_KERNEL, SV_WIDTH, SV_N, SV_MAX, SV_PERIOD, SV_PRE, SV_NEXT_PROOF, SV_SPARSE, SV_SPARSE_AT,
       /* after the rare-value kernel's nine numbers; 0 in files written before them */
       SV_IN_FILE = 17, SV_FILE_SUM };

int gr_heap_save(gr_ctx *c, const gr_game *g, gr_heap_saved *out) {
    if (g->kernel == KER_NIM || g->kernel == KER_SUBTRACT_INF || g->kernel > KER_RULES) return 0;
    const gr_sgtable *t = GR_CACHED(g, sg);
    const struct gr_heap_state *hs = GR_CACHED(g, hstate);
    if (!t || t->n == 0 || !hs) return 0;
    memset(out, 0, sizeof *out);
    int64_t *f = out->f;
    f[SV_KERNEL] = g->kernel;
    f[SV_WIDTH] = t->width;
    f[SV_N] = t->n;
    f[SV_MAX] = t->max;
    f[SV_PERIOD] = hs->period;
    f[SV_PRE] = hs->pre;
    f[SV_NEXT_PROOF] = hs->next_proof;
    f[SV_SPARSE] = hs->sparse != NULL;
    if (hs->sparse) gr_sparse_save(hs->sparse, f + SV_SPARSE_AT);
    if (t->file) {             /* the values are in their own file: synced, not copied */
        f[SV_IN_FILE] = 1;
        f[SV_FILE_SUM] = (int64_t)gr_tablefile_sync(c, GR_CACHED(g, sg));
        return 1;
    }
    out->values = t->data;
    out->bytes = (size_t)t->n * (size_t)t->width;
    return 1;
}

int gr_heap_restore(gr_ctx *c, gr_game *g, const gr_heap_saved *in) {
    const int64_t *f = in->f;
    int64_t w = f[SV_WIDTH], n = f[SV_N];
    if (f[SV_KERNEL] != g->kernel || (w != 1 && w != 2 && w != 4 && w != 8) || n < 1 ||
        f[SV_PERIOD] < 0 || f[SV_PRE] < 0 || f[SV_NEXT_PROOF] < 0 ||
        (f[SV_PERIOD] && f[SV_PRE] + f[SV_PERIOD] > n) || (f[SV_SPARSE] & ~1) ||
        (f[SV_SPARSE] && g->kernel != KER_OCTAL) || (f[SV_IN_FILE] & ~1) || (f[SV_IN_FILE] ? in->bytes != 0 : in->bytes != (size_t)n * (size_t)w))
        return -1;
    gr_sgtable *t = GR_CACHED(g, sg);
    if (t && t->n) return 0;                  /* already computed in this run: keep it */
    if (!t) t = gr_eval_cache_of(c, g)->sg = gr_sgt_new(c, (int)w);
    t->width = (int)w;
    int64_t max = 0;
    if (f[SV_IN_FILE]) {
        uint64_t sum = GR_FNV1A_INIT;
        if (!in->file || gr_sgt_open_file(c, t, in->file, (int)w, n, c->table_memory ? c->table_memory : GR_TABLE_MEMORY_DEFAULT,
                                          &sum, &max) < 0 || sum != (uint64_t)f[SV_FILE_SUM])
            return -2;
    } else {
        gr_sgt_reserve(c, t, n);
        if (in->values) memcpy(t->data, in->values, in->bytes);
        else if (fseeko(in->from, (off_t)in->at, SEEK_SET) != 0 || fread(t->data, 1, in->bytes, in->from) != in->bytes)
            return -1;
        for (int64_t i = 0; i < n; i++) {
            int64_t v = gr_sgt_get(t, i);
            if (v < 0) return -1;
            if (v > max) max = v;
        }
    }
    if (max > f[SV_MAX]) return -1;
    t->n = n;
    t->max = f[SV_MAX];   /* a bound, not always a value: widening raises it (gr_sgt_fit) */
    struct gr_heap_state *hs = gr_heap_state_of(c, g);
    hs->period = f[SV_PERIOD];
    hs->pre = f[SV_PRE];
    hs->next_proof = f[SV_NEXT_PROOF];
    if (f[SV_SPARSE] && !(hs->sparse = gr_sparse_restore(c, g, hs->sparse_warmup, f + SV_SPARSE_AT, t))) {
        t->n = 0;
        t->max = 0;
        hs->period = 0;
        return -1;
    }
    return 0;
}
