/* longrun: the long search of --histogram FILE; see longrun.h.
 *
 * What it keeps besides the heap table: the counts of (value, heap parity), 2^(k+1) numbers for
 * values below 2^k, and the rows so far (one count per value each). The columns come from the
 * counts: the classes are those of gr_detect_rare_classes_of (oriented as the rare-value kernel
 * orients them, the same choice `check G periodic` makes for the plain kernels), rare_count is
 * read off the counts, and only last_rare reads the table again: the heaps added since the last
 * row, or (when the classes changed) backwards from the newest heap to the last rare one. */
#include "longrun.h"
#include <string.h>
#include "checktext.h"
#include "eval/evaluator.h"
#include "eval/cap_ready.h"
#include "eval/cap_heaptable.h"
#include "show.h"

enum { FIRST_ROW = 1024, BLOCK = 1 << 16, STEP = 1 << 24, DEFAULT_LONG_TO = 100000 };
#define MAX_VALUE (INT64_C(1) << 20)   /* past it no classes (as the check's columns) */

typedef struct row {
    gr_value_columns col;      /* over heaps 0..col.upto */
    int64_t *counts;           /* heaps with value 0..col.largest */
} row;

typedef struct longrun {
    gr_ctx *c;
    const gr_game *g;
    const gr_heap_table_cap *table;
    int64_t n;                 /* heaps counted: 0..n-1 */
    int64_t *h;                /* h[v | parity << k]: heaps of value v and that parity */
    int k;                     /* every value so far is below 2^k, k the least such */
    int64_t largest, largest_at;
    int too_large;             /* a value reached MAX_VALUE: counts and classes stop */
    gr_value_columns last;     /* the last row's columns (has_rare: its classes) */
    row *rows;
    int nrows;
    uint16_t *b16;             /* a block of values as read from the table */
    int64_t *b64;
} longrun;

/* Heaps lo..lo+len-1 (len <= BLOCK) into L->b64. */
static const int64_t *read_block(longrun *L, int64_t lo, int64_t len) {
    if (L->table->read16(L->g, lo, len, L->b16))
        for (int64_t i = 0; i < len; i++) L->b64[i] = L->b16[i];
    else L->table->read(L->g, lo, len, L->b64);
    return L->b64;
}

/* The counts with room for values below 2^k. */
static void widen_counts(longrun *L, int k) {
    size_t size = (size_t)1 << (k + 1), old = (size_t)1 << L->k;
    int64_t *h = gr_alloc(L->c, size * sizeof *h);
    memset(h, 0, size * sizeof *h);
    for (size_t v = 0; v < old; v++) {
        h[v] = L->h[v];
        h[v | ((size_t)1 << k)] = L->h[v | old];
    }
    gr_free(L->c, L->h);
    L->h = h;
    L->k = k;
}

/* Counts heaps L->n..n-1. */
static void count_to(longrun *L, int64_t n) {
    for (int64_t lo = L->n; lo < n; lo += BLOCK) {
        int64_t len = n - lo < BLOCK ? n - lo : BLOCK;
        const int64_t *v = read_block(L, lo, len);
        for (int64_t i = 0; i < len; i++) {
            int64_t x = v[i];
            if (x > L->largest) { L->largest = x; L->largest_at = lo + i; }
            if (L->too_large) continue;
            if (x < 0 || x >= MAX_VALUE) { L->too_large = 1; continue; }
            if (x >> L->k) {
                int k = L->k;
                while (x >> k) k++;
                widen_counts(L, k);
            }
            L->h[(size_t)x | ((size_t)((lo + i) & 1) << L->k)]++;
        }
        gr_poll(L->c);
    }
    L->n = n;
}

static int is_rare(const gr_value_columns *col, int64_t v, int64_t x) {
    return (__builtin_parityll((uint64_t)v & col->rare_mask) ^ (col->rare_heap_parity & (int)(x & 1))) != col->rare_common;
}

/* The last heap in lo..hi-1 rare under col's classes, read backwards; -1 if none. */
static int64_t last_rare_in(longrun *L, const gr_value_columns *col, int64_t lo, int64_t hi) {
    while (hi > lo) {
        int64_t len = hi - lo < BLOCK ? hi - lo : BLOCK, from = hi - len;
        const int64_t *v = read_block(L, from, len);
        for (int64_t i = len - 1; i >= 0; i--)
            if (is_rare(col, v[i], from + i)) return from + i;
        hi = from;
        gr_poll(L->c);
    }
    return -1;
}

/* The classes of heaps 0..L->n-1 from w, a copy of the counts, oriented as the rare-value
 * kernel orients them where it applies (its rule, eval/heap/sparse.c), so the columns name the
 * classes the published tables do (0.6: 0x1ee), from the values alone; elsewhere the split the
 * values give, as `check G periodic` takes them (period/detect.h). */
static void choose_classes(longrun *L, int64_t *w, gr_value_columns *col) {
    gr_detect_rare_classes_of(w, L->k, L->n, L->table->rare_orientation(L->g), col);
}

/* The row of heaps 0..L->n-1. */
static void make_row(longrun *L, row *r) {
    gr_value_columns *col = &r->col;
    memset(col, 0, sizeof *col);
    col->upto = L->n - 1;
    col->largest = L->largest;
    col->largest_at = L->largest_at;
    col->last_rare = -1;
    size_t half = (size_t)1 << L->k;
    if (!L->too_large) {
        r->counts = gr_alloc(L->c, (size_t)(L->largest + 1) * sizeof *r->counts);
        for (int64_t v = 0; v <= L->largest; v++) r->counts[v] = L->h[v] + L->h[(size_t)v | half];
        int64_t *w = gr_alloc(L->c, 2 * half * sizeof *w);    /* the transform overwrites it */
        memcpy(w, L->h, 2 * half * sizeof *w);
        choose_classes(L, w, col);
        gr_free(L->c, w);
    }
    if (col->has_rare) {
        for (size_t i = 0; i < 2 * half; i++)
            if (is_rare(col, (int64_t)(i & (half - 1)), (int64_t)(i >> L->k))) col->rare_count += L->h[i];
        const gr_value_columns *prev = &L->last;
        int same = prev->has_rare && prev->rare_mask == col->rare_mask &&
                   prev->rare_heap_parity == col->rare_heap_parity && prev->rare_common == col->rare_common;
        int64_t from = same ? prev->upto + 1 : 0;
        col->last_rare = col->rare_count ? last_rare_in(L, col, from, L->n) : -1;
        if (col->last_rare < 0 && same) col->last_rare = prev->last_rare;
    }
    L->last = *col;
}

/* ---- output ---- */

static void row_text(const row *r, const char *game, FILE *f) {
    const gr_value_columns *col = &r->col;
    fprintf(f, "heaps 0..%lld of %s: largest value %lld, first at heap %lld", (long long)col->upto, game,
            (long long)col->largest, (long long)col->largest_at);
    if (col->has_rare) {
        fprintf(f, "; rare mask 0x%llx%s: %lld rare heap%s", (unsigned long long)col->rare_mask,
                col->rare_heap_parity ? " with heap parity" : "", (long long)col->rare_count, col->rare_count == 1 ? "" : "s");
        if (col->last_rare >= 0) fprintf(f, ", the last at heap %lld", (long long)col->last_rare);
    }
    fputc('\n', f);
    if (r->counts) {
        fprintf(f, "  heaps with value 0..%lld:", (long long)col->largest);
        for (int64_t v = 0; v <= col->largest; v++) fprintf(f, " %lld", (long long)r->counts[v]);
        fputc('\n', f);
    }
}

static void row_json(const row *r, const char *game, FILE *f) {
    const gr_value_columns *col = &r->col;
    fputs("{\"query\":\"histogram\",\"game\":", f);
    gr_json_string(f, game);
    fprintf(f, ",\"n\":%lld,\"largest\":%lld,\"largest_at\":%lld", (long long)(col->upto + 1), (long long)col->largest,
            (long long)col->largest_at);
    if (col->has_rare) {
        fprintf(f, ",\"rare_mask\":%llu,\"rare_heap_parity\":%s,\"rare_count\":%lld,\"last_rare\":", (unsigned long long)col->rare_mask,
                col->rare_heap_parity ? "true" : "false", (long long)col->rare_count);
        if (col->last_rare >= 0) fprintf(f, "%lld", (long long)col->last_rare);
        else fputs("null", f);
    } else fputs(",\"rare_mask\":null,\"rare_heap_parity\":null,\"rare_count\":null,\"last_rare\":null", f);
    fputs(",\"counts\":", f);
    if (r->counts) {
        fputc('[', f);
        for (int64_t v = 0; v <= col->largest; v++) fprintf(f, "%s%lld", v ? "," : "", (long long)r->counts[v]);
        fputc(']', f);
    } else fputs("null", f);
    fputs("}\n", f);
}

/* FILE: a header n,largest,largest_at,rare_mask,rare_heap_parity,rare_count,last_rare,count_0,..,
 * count_L (L the largest value of the last row), a row per power of two (and the last heap),
 * counts past a row's largest value 0; cells empty where there are no classes or no counts. */
static int write_csv(void *user, FILE *f) {
    const longrun *L = user;
    int64_t top = L->rows[L->nrows - 1].col.largest;
    int counted = L->rows[L->nrows - 1].counts != NULL;
    fputs("n,largest,largest_at,rare_mask,rare_heap_parity,rare_count,last_rare", f);
    if (counted)
        for (int64_t v = 0; v <= top; v++) fprintf(f, ",count_%lld", (long long)v);
    fputc('\n', f);
    for (int i = 0; i < L->nrows; i++) {
        const row *r = &L->rows[i];
        const gr_value_columns *col = &r->col;
        fprintf(f, "%lld,%lld,%lld,", (long long)(col->upto + 1), (long long)col->largest, (long long)col->largest_at);
        if (col->has_rare) {
            fprintf(f, "%llu,%s,%lld,", (unsigned long long)col->rare_mask, col->rare_heap_parity ? "true" : "false",
                    (long long)col->rare_count);
            if (col->last_rare >= 0) fprintf(f, "%lld", (long long)col->last_rare);
        } else fputs(",,,", f);
        if (counted)
            for (int64_t v = 0; v <= top; v++) fprintf(f, ",%lld", r->counts && v <= col->largest ? (long long)r->counts[v] : 0LL);
        fputc('\n', f);
    }
    return 0;
}

static void emit_row(longrun *L) {
    L->rows = gr_realloc(L->c, L->rows, (size_t)(L->nrows + 1) * sizeof *L->rows);
    row *r = &L->rows[L->nrows++];
    memset(r, 0, sizeof *r);
    make_row(L, r);
    FILE *out = L->c->histogram_out;
    if (out) {
        if (L->c->histogram_json) row_json(r, L->g->name, out);
        else row_text(r, L->g->name, out);
        fflush(out);
    }
    gr_write_file(L->c, L->c->histogram, write_csv, L);
}

/* ---- the search ---- */

void gr_long_search(gr_ctx *c, gr_rquery *q, gr_check_result *out) {
    if (c->histogram_runs++)
        gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "--histogram %s serves one 'check G periodic' and an earlier query used it "
                   "(run this one with --query N and another file)", c->histogram);
    const gr_game *g = q->game;
    if (q->nmembers)
        gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "--histogram runs one game's long search, not a family's (%lld members)",
                   (long long)q->nmembers);
    if (g->play != CONV_NORMAL || g->shape != SHAPE_HEAP || !gr_cap_heap_table(g))
        gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "a long search (--histogram) counts the normal-play values of a heap recurrence; "
                   "'%s' is not one (%s%s)", g->name, g->explain, g->state->found);
    longrun L;
    memset(&L, 0, sizeof L);
    L.c = c;
    L.g = g;
    L.table = gr_cap_heap_table(g);
    L.h = gr_alloc(c, 2 * sizeof *L.h);
    memset(L.h, 0, 2 * sizeof *L.h);
    L.largest = -1;
    L.b16 = gr_alloc(c, BLOCK * sizeof *L.b16);
    L.b64 = gr_alloc(c, BLOCK * sizeof *L.b64);
    int64_t target = c->check_to > 0 ? (c->check_to < INT64_MAX ? c->check_to + 1 : INT64_MAX) : DEFAULT_LONG_TO + 1;
    int64_t goal = c->heap_goal;
    c->heap_goal = target - 1;                 /* the bar runs to the last heap, row after row */
    while (L.n < target) {
        int64_t next = L.n < FIRST_ROW ? (target < FIRST_ROW ? target : FIRST_ROW) : L.n > target / 2 ? target : 2 * L.n;
        /* counted a step at a time, while the values are new: a table kept in a file
         * (--table-memory) has them in the page cache still */
        if (next - L.n > STEP) next = L.n + STEP;
        int64_t zero = 0, last = next - 1;
        if (!gr_eval_ensure(c, q->game, &zero, &last, GR_KIND_SG) || L.table->filled(g) < next)
            gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "a long search needs the values of a heap recurrence, and '%s' is not one (%s%s)",
                       g->name, g->explain, g->state->found);
        count_to(&L, next);
        if (next == target || (next >= FIRST_ROW && !(next & (next - 1)))) emit_row(&L);
    }
    c->heap_goal = goal;
    out->status = GR_CHECK_NONE;
    out->checked_to = target - 1;
    if (c->check_to > 0) c->ckpt_keep = 1;     /* with --checkpoint, a larger --to goes on from here */
    gr_check_textf(out->theorem, sizeof out->theorem, "no period looked for (--histogram: a long search without the "
                   "period detector); heaps 0..%lld counted, a row at every power of two in %s",
                   (long long)(target - 1), c->histogram);
    out->columns = L.last;
    out->has_columns = 1;
    for (int i = 0; i < L.nrows; i++) gr_free(c, L.rows[i].counts);
    gr_free(c, L.rows);
    gr_free(c, L.h);
    gr_free(c, L.b16);
    gr_free(c, L.b64);
}
