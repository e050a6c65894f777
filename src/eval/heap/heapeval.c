/* heapeval: the heap recurrence (heap.h) as an evaluator (evaluator.h). It answers SG values
 * and outcomes under normal play while the rule set is a recurrence, and declines otherwise
 * (the position graph takes over). */
#include "eval/evaluator.h"
#include "eval/cap_ready.h"
#include "eval/cap_heaptable.h"
#include "eval/cap_moves.h"
#include "eval/cache.h"
#include "eval/heap/heap.h"
#include "eval/heap/heapmoves.h"
#include "eval/heap/sparse.h"
#include "eval/heap/tablefile.h"
#include "eval/rules.h"
#include <string.h>

/* --explain shows what the values of a first stretch of heaps decided (the rare-value kernel's
 * classes, a proved period): the heaps it asks computed before describing. */
enum { DESCRIBE_HEAPS = 16384 };

static int heap_value(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds,
                      gr_loc loc, gr_value *out) {
    (void)conv; (void)kinds; (void)loc;
    if (gr_heap_ensure(c, g, pos[0]) < 0) return 0;
    out->sg = gr_heap_sg(c, g, pos[0]);
    out->outcome = out->sg ? GR_WIN : GR_LOSS;
    return 1;
}

static int heap_fill(gr_ctx *c, gr_game *g, gr_conv conv, const gr_box *box, unsigned kind,
                     int64_t *out) {
    (void)conv;
    if (gr_heap_ensure(c, g, box->hi[0]) < 0) return 0;
    for (int64_t i = 0, n = box->hi[0] - box->lo[0] + 1; i < n; i++) {
        int64_t v = gr_heap_sg(c, g, box->lo[0] + i);
        out[i] = kind == GR_KIND_OUTCOME ? (v ? GR_WIN : GR_LOSS) : v;
    }
    return 1;
}

static void heap_options(gr_ctx *c, gr_game *g, const int64_t *pos, gr_option_fn fn, void *user) {
    gr_heap_options(c, g, pos[0], fn, user);
}

static int heap_ensure(gr_ctx *c, gr_game *g, const int64_t *lo, const int64_t *hi, unsigned kinds) {
    (void)lo; (void)kinds;
    return gr_heap_ensure(c, g, hi[0]) >= 0;
}

static int heap_ready(const gr_game *g, const int64_t *pos, unsigned kind, int64_t *v) {
    int64_t p, pre, n = pos[0];
    if (g->kernel != KER_NIM && (g->state->not_recurrence || !GR_CACHED(g, sg) || (n >= GR_CACHED(g, sg)->n && !gr_heap_period(g, &p, &pre))))
        return 0;
    *v = gr_heap_value(g, n);
    if (kind == GR_KIND_OUTCOME) *v = *v ? GR_WIN : GR_LOSS;
    return 1;
}

static int64_t heap_filled(const gr_game *g) { return GR_CACHED(g, sg) ? GR_CACHED(g, sg)->n : 0; }

static void heap_prefetch(gr_ctx *c, gr_game *g, int64_t hi) {
    if (g->kernel == KER_SUBTRACT || g->kernel == KER_OCTAL || g->kernel == KER_TB) gr_heap_ensure(c, g, hi);
    else if (g->kernel == KER_RULES) gr_heap_prefill(c, g, hi);
}

static int heap_moves_to(gr_ctx *c, gr_game *g, const int64_t *pos, int64_t want, int64_t limit,
                         const gr_moves_sink *sink, int64_t *count) {
    int64_t n = pos[0];
    if (g->kernel == KER_NIM && want >= 0) {
        /* the one option of value want is the heap of that size, if smaller */
        *count = want < n;
        if (want < n && limit > 0) sink->option(sink->user, &want, 1);
        return 1;
    }
    if (g->kernel == KER_NIM && n > GR_HUGE_HEAP) {
        /* every option of a huge heap: the first, in gr_heap_options' order (largest first) */
        *count = n;
        for (int64_t h = n - 1, k = 0; k < limit; k++, h--) sink->option(sink->user, &h, 1);
        return 1;
    }
    if (n <= GR_HUGE_HEAP || !gr_heap_moves_fast(c, g, n)) return -1;
    *count = gr_heap_moves_to(c, g, n, want, limit, sink->option, sink->user);
    return 1;
}

static void heap_read(const gr_game *g, int64_t lo, int64_t n, int64_t *out) {
    const gr_sgtable *t = GR_CACHED(g, sg);
    for (int64_t i = 0; i < n; i++) out[i] = gr_sgt_get(t, lo + i);
}

static int heap_read16(const gr_game *g, int64_t lo, int64_t n, uint16_t *out) {
    const gr_sgtable *t = GR_CACHED(g, sg);
    /* a table in a file is read with pread, which maps nothing in (tablefile.h) */
    if (t->file && t->width == 2 && gr_sgt_read_bytes(t, lo, n, out) == 0) return 1;
    switch (t->width) {   /* the common widths copied without a test per value */
    case 1: for (int64_t i = 0; i < n; i++) out[i] = ((const uint8_t *)t->data)[lo + i]; return 1;
    case 2: memcpy(out, (const uint16_t *)t->data + lo, (size_t)n * sizeof *out); return 1;
    default:
        for (int64_t i = 0; i < n; i++) {
            int64_t v = gr_sgt_get(t, lo + i);
            if (v > UINT16_MAX) return 0;
            out[i] = (uint16_t)v;
        }
        return 1;
    }
}

/* Kernels whose work per heap grows with the heap: the options a periodicity check may
 * enumerate by default (nim, finite subtraction and octal kernels are fast: none). */
static uint64_t heap_check_budget(const gr_game *g) {
    switch (g->kernel) {
    case KER_RULES: return UINT64_C(1) << 25;
    case KER_TB: return UINT64_C(1) << 27;
    case KER_SUBTRACT_INF: return UINT64_C(1) << 29;
    default: return 0;
    }
}

static int heap_period(const gr_game *g, int64_t *period, int64_t *pre, int64_t *saltus) {
    if (!gr_heap_period(g, period, pre)) return 0;
    *saltus = g->kernel == KER_NIM;
    return 1;
}

static int64_t heap_describe(const gr_game *g, char *buf, size_t cap) {
    if (g->kernel != KER_OCTAL || !gr_sparse_applies(g) || g->state->not_recurrence) return 0;
    gr_heap_describe(g, buf, cap);
    return DESCRIBE_HEAPS;
}

static const gr_ready_cap heap_ready_cap = {
    .ensure = heap_ensure,
    .ready = heap_ready,
    .ensure_ahead = 0,       /* the table grows from 0 as it is read */
};

static const gr_heap_table_cap heap_table_cap = {
    .filled = heap_filled,
    .prefetch = heap_prefetch,
    .period = heap_period,
    .streams = gr_heap_streams,
    .read = heap_read,
    .read16 = heap_read16,
    .rare_classes = gr_heap_rare_classes,
    .rare_orientation = gr_heap_rare_orientation,
    .check_budget = heap_check_budget,
};

static const gr_moves_cap heap_moves_cap = { .moves_to = heap_moves_to };

static const gr_evaluator_caps heap_caps = {
    .ready = &heap_ready_cap,
    .heap_table = &heap_table_cap,
    .moves = &heap_moves_cap,
};

const gr_evaluator_ops gr_heap_evaluator = {
    .name = "heap recurrence",
    .answers = gr_answers_normal_recurrence,
    .value = heap_value,
    .fill = heap_fill,
    .options = heap_options,
    .terminal = gr_rules_terminal_of,
    .describe = heap_describe,
    .caps = &heap_caps,
};
