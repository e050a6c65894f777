/* tables: the values of a table query, computed or streamed; see tables.h. */
#include "tables.h"
#include "show.h"
#include "solve.h"
#include "eval/cap_ready.h"
#include "eval/cap_heaptable.h"
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static void gr_table_fits(gr_ctx *c, const char *what, double cells, size_t bytes);   /* (below) */

struct gr_table_stream {
    gr_ctx *c;
    gr_game *g;
    int64_t lo, hi, ready;  /* heaps lo..hi; sg(0..ready-1) are available */
};
enum { STREAM_BLOCK = 1 << 16 };


static void cells_step(gr_ctx *c, const gr_table_data *t);

static int64_t stream_cell(const gr_table_data *t, int64_t i) {
    gr_table_stream *s = t->stream;
    int64_t n = s->lo + i;
    if (n >= s->ready) {
        int64_t upto = n > s->hi - STREAM_BLOCK ? s->hi : n + STREAM_BLOCK;
        s->c->heap_goal = s->hi;   /* the bar runs to the table's end, block after block */
        int64_t lo = s->lo;
        int r = gr_eval_ensure(s->c, s->g, &lo, &upto, GR_KIND_SG);
        s->c->heap_goal = 0;
        cells_step(s->c, t);
        if (!r)
            gr_fail(s->c, GR_EXIT_INPUT, "%s is not a heap recurrence (%s%s)", s->g->name, s->g->explain, s->g->state->found);
        s->ready = upto + 1;
    }
    int64_t v = -1;
    gr_eval_ready(s->g, &n, GR_KIND_SG, &v);
    return t->outcome ? (v ? GR_WIN : GR_LOSS) : v;
}

/* The box of positions a table query ranges over. */
static gr_box query_box(const gr_rquery *q) {
    gr_box box = { .ncoords = q->ncoords, .ndims = q->ndims, .dim = { q->dim[0], q->dim[1] }, .loc = q->q->loc };
    memcpy(box.lo, q->lo, sizeof box.lo);
    memcpy(box.hi, q->hi, sizeof box.hi);
    return box;
}

static int64_t genus_pack(gr_ctx *c, const gr_rquery *q, const int32_t *gen) {
    int n = gr_genus_len(gen);
    int64_t v = (int64_t)gen[0] | (int64_t)n << 4;
    for (int i = 0; i <= n; i++)
        if (gen[i] > 15) gr_fail_at(c, q->q->loc, GR_EXIT_LIMIT, "a genus value above 15 here; grundy prints genera of values up to 15");
    for (int i = 0; i < n; i++) v |= (int64_t)gen[1 + i] << (8 + 4 * i);
    return v;
}

/* Tables the theories of other conventions answer (gr_sum_theory_table): step numbers ('every'
 * remoteness), genus, and the values of 'anyleaf' after leaf deletion. Returns 0 to leave the
 * table to the others. */
static int theory_table(gr_ctx *c, gr_module *m, const gr_rquery *q, gr_table_data *t) {
    if (!gr_sum_theory_tables(c, t->conv, (gr_table_kind)t->kind)) return 0;
    int genus = t->kind == TK_GENUS;
    gr_box box = query_box(q);
    int64_t rows, cols;
    if (q->vertex_list) { rows = q->nvertex_list; cols = 1; }
    else gr_box_cells(&box, &rows, &cols);
    gr_table_fits(c, q->text, (double)rows * (double)cols, sizeof(int64_t));
    size_t n = gr_size_mul(c, (size_t)rows, (size_t)cols);
    int64_t *vals = gr_alloc(c, gr_size_mul(c, n, sizeof *vals));
    /* a heap kernel fills the column itself, with no component per cell (eval/cap_convkernel.h) */
    int steps = t->kind == TK_REMOTENESS && t->conv == CONV_EVERY;
    if (!genus && !q->vertex_list && !c->no_theory &&
        gr_eval_fill(c, q->game, t->conv, &box, steps ? GR_KIND_STEPS : GR_KIND_LEAFLESS, vals)) {
        *t = (gr_table_data){ .vals = vals, .rows = rows, .cols = cols, .outcome = GR_CELLS_NUMBERS, .kind = t->kind, .conv = t->conv,
                              .loopy = t->loopy };
        return 1;
    }
    gr_comp *comps = gr_alloc(c, gr_size_mul(c, n, sizeof *comps));
    for (size_t i = 0; i < n; i++) {
        comps[i].game = q->game;
        if (q->vertex_list) comps[i].c[0] = q->vertex_list[i];
        else gr_box_cell(&box, (int64_t)i, comps[i].c);
    }
    int32_t *gen = genus ? gr_alloc(c, gr_size_mul(c, n, (GR_GENUS_K + 1) * sizeof *gen)) : NULL;
    const char *why = "";
    int ok = gr_sum_theory_table(c, m, comps, (int)n, t->conv, (gr_table_kind)t->kind, vals, gen, &why);
    gr_free(c, comps);
    if (ok < 0) {
        gr_free(c, vals);
        return 0;
    }
    for (size_t i = 0; ok > 0 && genus && i < n; i++) vals[i] = genus_pack(c, q, gen + i * (GR_GENUS_K + 1));
    gr_free(c, gen);
    if (!ok) gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "'%s' has cycles: %s", q->game->name, why);
    t->vals = vals;
    t->rows = rows;
    t->cols = cols;
    t->outcome = genus ? GR_CELLS_GENUS : GR_CELLS_NUMBERS;
    return 1;
}

int64_t gr_table_cell(const gr_table_data *t, int64_t i) {
    if (t->c) {
        t->c->step_done = (uint64_t)i;   /* how far the writer got, for a limit's message */
        gr_poll(t->c);
    }
    return t->stream ? stream_cell(t, i) : t->vals[i];
}

/* Fails with status 3 before any work when an array of cells x bytes would pass the memory
 * limit (with none, 3/4 of the machine's memory); names the table, its size and the limit. */
static void gr_table_fits(gr_ctx *c, const char *what, double cells, size_t bytes) {
    /* no limit (the API's default): three quarters of the machine's memory, as the command's default */
    size_t limit = c->mem_limit;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    int machine = limit == SIZE_MAX && pages > 0 && page > 0;
    if (machine) limit = (size_t)pages / 4 * 3 * (size_t)page;
    /* against the limit alone: what is in use may be values an engine evicts to make room */
    double need = cells * (double)bytes;
    if (need <= (double)limit) return;
    int named = c->query_no <= 0 && what;   /* else the message ends naming the query */
    gr_fail(c, GR_EXIT_LIMIT, "%s%sthe table's %.0f cells need %.0f MiB (%zu bytes each) before any work, more than %s%zu MiB%s "
            "(%s, or ask for fewer cells)", named ? what : "", named ? ": " : "", cells, need / 1048576.0, bytes,
            machine ? "" : "the memory limit of ", limit >> 20, machine ? ", three quarters of this machine's memory" : "",
            machine ? "give a larger --max-memory to try anyway" : "raise it with --max-memory");
}

static void table_compute(gr_ctx *c, gr_module *m, const gr_rquery *q, gr_table_data *t);

/* The step a limit's message names while the cells are read (a streamed block's fill names its own). */
static void cells_step(gr_ctx *c, const gr_table_data *t) {
    c->step_label = "cells read";
    c->step_done = 0;
    c->step_total = (uint64_t)t->rows * (uint64_t)t->cols;
}

void gr_table_compute(gr_ctx *c, gr_module *m, const gr_rquery *q, gr_table_data *t) {
    gr_loopy_init(&t->loopy, c);
    table_compute(c, m, q, t);
    t->c = c;
    cells_step(c, t);
}

static void table_compute(gr_ctx *c, gr_module *m, const gr_rquery *q, gr_table_data *t) {
    gr_game *g = q->game;
    t->conv = q->q->has_conv ? q->conv : g->play;
    t->outcome = q->outcome || t->conv != CONV_NORMAL;
    t->kind = q->q->outcome;
    if (theory_table(c, m, q, t)) return;
    if (t->kind == TK_REMOTENESS) t->outcome = 0;
    const gr_heap_table_cap *table = gr_cap_heap_table(g);
    if (table && table->streams(g, t->conv) && !q->vertex_list && t->kind != TK_REMOTENESS && !c->no_theory) {
        /* nim, subtraction and take-and-break kernels: always a recurrence, streamed */
        t->rows = q->hi[0] - q->lo[0] + 1;
        t->cols = 1;
        t->stream = gr_alloc(c, sizeof *t->stream);
        *t->stream = (gr_table_stream){ c, g, q->lo[0], q->hi[0], 0 };
        return;
    }
    gr_box box = query_box(q);
    if (q->vertex_list) { t->rows = q->nvertex_list; t->cols = 1; }
    else gr_box_cells(&box, &t->rows, &t->cols);
    gr_table_fits(c, q->text, (double)t->rows * (double)t->cols, sizeof *t->vals);
    t->vals = gr_alloc(c, gr_size_mul(c, gr_size_mul(c, (size_t)t->rows, (size_t)t->cols), sizeof *t->vals));
    gr_sum_table(c, m, g, t->conv, &box, q->vertex_list, q->nvertex_list,
                 t->kind == TK_REMOTENESS ? GR_KIND_REMOTENESS : t->outcome ? GR_KIND_OUTCOME : GR_KIND_SG, t->vals, &t->loopy);
}

int64_t *gr_table_values(gr_ctx *c, gr_module *m, const gr_rquery *q, int64_t *rows, int64_t *cols,
                         int *outcome, gr_conv *conv, gr_loopy *loopy) {
    gr_table_data t = { 0 };
    gr_table_compute(c, m, q, &t);
    if (t.stream) {   /* a streamed heap table: its cells, read once into an array */
        gr_table_fits(c, q->text, (double)t.rows, sizeof *t.vals);
        t.vals = gr_alloc(c, gr_size_mul(c, (size_t)t.rows, sizeof *t.vals));
        for (int64_t i = 0; i < t.rows; i++) t.vals[i] = gr_table_cell(&t, i);
    }
    *rows = t.rows; *cols = t.cols; *outcome = (int)t.outcome; *conv = t.conv;
    if (loopy) *loopy = t.loopy;
    else {   /* no one to read the sets: loopy cells are -1 */
        for (int64_t i = 0; !t.outcome && i < t.rows * t.cols; i++) if (gr_is_loopy(t.vals[i])) t.vals[i] = -1;
        gr_loopy_free(&t.loopy);
    }
    return t.vals;
}

