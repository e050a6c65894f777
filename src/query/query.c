/* query: table, solve and check, as text, CSV or JSON; see query.h. */
#include "query.h"
#include "check.h"
#include "heap.h"
#include "lines.h"
#include "sums.h"
#include "tuple.h"
#include "anyleaf.h"
#include "every.h"
#include "misere.h"
#include "turning.h"
#include <string.h>

enum { V_UNDEF = -1, O_P = 0, O_N = 1, O_D = 2 };
static const char OUTCOME_CHAR[] = { 'P', 'N', 'D' };

/* ---- JSON helpers ---- */
static void json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(out, "\\%c", ch);
        else if (ch == '\n') fputs("\\n", out);
        else if (ch < 0x20) fprintf(out, "\\u%04x", ch);
        else fputc(ch, out);
    }
    fputc('"', out);
}

static void json_coords(FILE *out, const int64_t *v, int n) {
    fputc('[', out);
    for (int i = 0; i < n; i++) fprintf(out, "%s%lld", i ? "," : "", (long long)v[i]);
    fputc(']', out);
}

/* A genus cell is packed in one value: 4 bits each for g, the superscript's length L, then
 * lambda_0 .. lambda_{L-1} (see genus_pack). */
static int genus_unpack(int64_t v, int32_t *digits) {
    int n = (int)(v >> 4 & 15);
    digits[0] = (int32_t)(v & 15);
    for (int i = 0; i < n; i++) digits[1 + i] = (int32_t)(v >> (8 + 4 * i) & 15);
    return n;
}

static void cell_json(FILE *out, int outcome, int64_t v) {
    if (outcome == 2) {
        int32_t d[16];
        int n = genus_unpack(v, d);
        fputc('[', out);
        for (int i = 0; i <= n; i++) fprintf(out, "%s%d", i ? "," : "", d[i]);
        fputc(']', out);
    } else if (outcome) fprintf(out, "\"%c\"", OUTCOME_CHAR[v]);
    else if (v < 0) fputs("null", out);
    else fprintf(out, "%lld", (long long)v);
}

static int cell_text(char *buf, size_t cap, int outcome, int64_t v) {
    if (outcome == 2) {
        int32_t d[16];
        int n = genus_unpack(v, d);
        int len = snprintf(buf, cap, "%d^", d[0]);
        for (int i = 1; i <= n && (size_t)len < cap; i++) len += snprintf(buf + len, cap - (size_t)len, "%d", d[i]);
        return len;
    }
    if (outcome) return snprintf(buf, cap, "%c", OUTCOME_CHAR[v]);
    if (v < 0) return snprintf(buf, cap, "-");
    return snprintf(buf, cap, "%lld", (long long)v);
}

/* ---- computing tables ---- */

typedef struct table_data {
    int64_t *vals;          /* row-major: first varying coordinate is the row */
    int64_t rows, cols;     /* cols == 1 for 1-D */
    int outcome;            /* 0 numbers, 1 outcomes, 2 genus (packed) */
    int kind;               /* TK_SG, TK_OUTCOME, TK_REMOTENESS, TK_GENUS as asked */
    gr_conv conv;
} table_data;

static void cell_coords(const gr_rquery *q, int64_t r, int64_t col, int64_t *pos) {
    for (int i = 0; i < q->ncoords; i++) pos[i] = q->lo[i];
    pos[q->dim[0]] = q->lo[q->dim[0]] + r;
    if (q->ndims == 2) pos[q->dim[1]] = q->lo[q->dim[1]] + col;
}

static int64_t genus_pack(gr_ctx *c, const gr_rquery *q, const int32_t *gen) {
    int n = gr_genus_len(gen);
    int64_t v = (int64_t)gen[0] | (int64_t)n << 4;
    for (int i = 0; i <= n; i++)
        if (gen[i] > 15) gr_fail_at(c, q->q->loc, GR_EXIT_LIMIT, "a genus value above 15 here; grundy prints genera of values up to 15");
    for (int i = 0; i < n; i++) v |= (int64_t)gen[1 + i] << (8 + 4 * i);
    return v;
}

/* Tables the theory evaluators answer: step numbers ('every' remoteness), genus, and the
 * values of 'anyleaf' after leaf deletion. Returns 0 to leave the table to the others. */
static int theory_table(gr_ctx *c, gr_module *m, const gr_rquery *q, table_data *t) {
    int genus = t->kind == TK_GENUS, steps = t->kind == TK_REMOTENESS && t->conv == CONV_EVERY;
    int leafless = t->conv == CONV_ANYLEAF && t->kind == TK_SG;
    if (!genus && !steps && !leafless) return 0;
    if (q->game->shape == SHAPE_GRAPH) { t->rows = q->nvertex_list; t->cols = 1; }
    else {
        t->rows = q->hi[q->dim[0]] - q->lo[q->dim[0]] + 1;
        t->cols = q->ndims == 2 ? q->hi[q->dim[1]] - q->lo[q->dim[1]] + 1 : 1;
    }
    size_t n = gr_size_mul(c, (size_t)t->rows, (size_t)t->cols);
    t->vals = gr_alloc(c, gr_size_mul(c, n, sizeof *t->vals));
    gr_comp *comps = gr_alloc(c, gr_size_mul(c, n, sizeof *comps));
    for (size_t i = 0; i < n; i++) {
        comps[i].game = q->game;
        if (q->game->shape == SHAPE_GRAPH) comps[i].c[0] = q->vertex_list[i];
        else cell_coords(q, (int64_t)i / t->cols, (int64_t)i % t->cols, comps[i].c);
    }
    int ok;
    t->outcome = 0;
    if (genus) {
        int32_t *gen = gr_alloc(c, gr_size_mul(c, n, (GR_GENUS_K + 1) * sizeof *gen));
        ok = gr_misere_genus(c, m, comps, (int)n, gen, NULL);
        for (size_t i = 0; ok && i < n; i++) t->vals[i] = genus_pack(c, q, gen + i * (GR_GENUS_K + 1));
        t->outcome = 2;
        gr_free(c, gen);
    } else if (steps) ok = gr_every_steps(c, m, comps, (int)n, t->vals);
    else ok = gr_anyleaf_values(c, m, comps, (int)n, t->vals);
    gr_free(c, comps);
    if (!ok) gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "'%s' has cycles: %s", q->game->name,
                        genus ? "genus is defined for games that end" : steps ? "step numbers are defined for games that end" : "leaf deletion needs a game that ends");
    return 1;
}

/* The whole table from the position graph: every cell a start of one shared graph. */
static void table_by_graph(gr_ctx *c, gr_module *m, const gr_rquery *q, table_data *t) {
    gr_sumgraph *s = gr_sumgraph_new(c, m, t->conv);
    gr_comp comp = { .game = q->game };
    int64_t n = t->rows * t->cols;
    for (int64_t i = 0; i < n; i++) {
        if (q->game->shape == SHAPE_GRAPH) comp.c[0] = q->vertex_list[i];
        else cell_coords(q, i / t->cols, i % t->cols, comp.c);
        gr_sumgraph_add(s, &comp, 1);
    }
    gr_sumgraph_solve(s);
    gr_pg *pg = gr_sumgraph_pg(s);
    /* Under normal play a loopy position may still have a (generalised) SG value. */
    int gamma = !t->outcome && t->conv == CONV_NORMAL;
    if (gamma) gr_pg_solve_gamma(pg);
    for (int64_t i = 0; i < n; i++) {
        if (q->game->shape == SHAPE_GRAPH) comp.c[0] = q->vertex_list[i];
        else cell_coords(q, i / t->cols, i % t->cols, comp.c);
        uint32_t id = gr_sumgraph_id(s, &comp, 1);
        if (t->kind == TK_REMOTENESS) t->vals[i] = gr_pg_remoteness(pg, id);
        else if (t->outcome) t->vals[i] = (int64_t)gr_pg_outcome(pg, id);
        else {
            int64_t v = gamma ? gr_pg_gamma(pg, id) : gr_pg_sg(pg, id);
            t->vals[i] = v >= 0 ? v : -1;
        }
    }
    gr_sumgraph_free(s);
}

static void compute_table(gr_ctx *c, gr_module *m, const gr_rquery *q, table_data *t) {
    gr_game *g = q->game;
    t->conv = q->q->has_conv ? q->conv : g->play;
    t->outcome = q->outcome || t->conv != CONV_NORMAL;
    t->kind = q->q->outcome;
    if (theory_table(c, m, q, t)) return;
    if (t->kind == TK_REMOTENESS) t->outcome = 0;
    if (g->shape == SHAPE_GRAPH) { t->rows = q->nvertex_list; t->cols = 1; }
    else {
        t->rows = q->hi[q->dim[0]] - q->lo[q->dim[0]] + 1;
        t->cols = q->ndims == 2 ? q->hi[q->dim[1]] - q->lo[q->dim[1]] + 1 : 1;
    }
    t->vals = gr_alloc(c, gr_size_mul(c, gr_size_mul(c, (size_t)t->rows, (size_t)t->cols), sizeof *t->vals));
    int by_graph = t->conv != CONV_NORMAL || g->evaluator == EVAL_GRAPH || c->no_theory || t->kind == TK_REMOTENESS;
    if (g->shape == SHAPE_COINS) {   /* single heads: by_graph is not asked of a coin table (sema) */
        for (int64_t i = 0; i < t->rows; i++) {
            int64_t v = gr_turning_value(c, g, q->lo[0] + i);
            t->vals[i] = t->outcome ? (v ? O_N : O_P) : v;
        }
        by_graph = 0;
    } else if (!by_graph && g->shape == SHAPE_HEAP) {
        if (gr_heap_ensure(c, g, q->hi[0]) < 0) by_graph = 1;
        else
            for (int64_t i = 0; i < t->rows; i++) {
                int64_t v = gr_heap_sg(c, g, q->lo[0] + i);
                t->vals[i] = t->outcome ? (v ? O_N : O_P) : v;
            }
    } else if (!by_graph && g->kernel == KER_LINES && q->lo[0] >= 0 && q->lo[1] >= 0) {
        /* The whole box from (0, 0), in order, then the requested cells. */
        int64_t rows = q->hi[0] + 1, cols = q->hi[1] + 1;
        int64_t *box = gr_alloc(c, gr_size_mul(c, gr_size_mul(c, (size_t)rows, (size_t)cols), sizeof *box));
        gr_lines_fill(c, g, rows, cols, box);
        int64_t pos[GR_MAX_ARITY];
        for (int64_t i = 0; i < t->rows * t->cols; i++) {
            cell_coords(q, i / t->cols, i % t->cols, pos);
            int64_t v = box[pos[0] * cols + pos[1]];
            t->vals[i] = t->outcome ? (v ? O_N : O_P) : v;
        }
        gr_free(c, box);
    } else if (!by_graph && g->shape == SHAPE_TUPLE) {
        int64_t pos[GR_MAX_ARITY];
        for (int64_t i = 0; i < t->rows * t->cols && !by_graph; i++) {
            cell_coords(q, i / t->cols, i % t->cols, pos);
            int64_t v = gr_tuple_sg(c, g, pos, q->q->loc);
            if (v < 0) by_graph = 1;
            else t->vals[i] = t->outcome ? (v ? O_N : O_P) : v;
        }
    }
    if (by_graph) table_by_graph(c, m, q, t);
}

/* ---- writing tables ---- */
static void table_json(FILE *out, const gr_rquery *q, const table_data *t) {
    fprintf(out, "{\"query\":\"table\",\"game\":");
    json_string(out, q->game->name);
    if (q->game->shape == SHAPE_GRAPH) {
        fprintf(out, ",\"positions\":[");
        for (int i = 0; i < q->nvertex_list; i++) {
            if (i) fputc(',', out);
            json_string(out, q->game->vertices[q->vertex_list[i]]);
        }
        fputc(']', out);
    } else {
        fprintf(out, ",\"from\":");
        json_coords(out, q->lo, q->ncoords);
        fprintf(out, ",\"to\":");
        json_coords(out, q->hi, q->ncoords);
    }
    static const char *kinds[] = { "sg", "outcome", "remoteness", "genus" };
    fprintf(out, ",\"kind\":\"%s\",\"values\":[", t->outcome == 1 ? "outcome" : kinds[t->kind]);
    for (int64_t r = 0; r < t->rows; r++) {
        if (r) fputc(',', out);
        if (t->cols > 1 || q->ndims == 2) fputc('[', out);
        for (int64_t k = 0; k < t->cols; k++) {
            if (k) fputc(',', out);
            cell_json(out, t->outcome, t->vals[r * t->cols + k]);
        }
        if (t->cols > 1 || q->ndims == 2) fputc(']', out);
    }
    fprintf(out, "],\"convention\":\"%s\"}\n", gr_convention_name(t->conv));
}

static void table_csv(FILE *out, const gr_rquery *q, const table_data *t) {
    char cell[32];
    if (q->game->shape == SHAPE_GRAPH) {
        fprintf(out, "vertex,value\n");
        for (int64_t r = 0; r < t->rows; r++) {
            cell_text(cell, sizeof cell, t->outcome, t->vals[r]);
            fprintf(out, "%s,%s\n", q->game->vertices[q->vertex_list[r]], t->vals[r] < 0 ? "" : cell);
        }
        return;
    }
    fprintf(out, q->ndims == 2 ? "x,y,value\n" : "n,value\n");
    for (int64_t r = 0; r < t->rows; r++)
        for (int64_t k = 0; k < t->cols; k++) {
            int64_t v = t->vals[r * t->cols + k];
            cell_text(cell, sizeof cell, t->outcome, v);
            if (q->ndims == 2)
                fprintf(out, "%lld,%lld,%s\n", (long long)(q->lo[q->dim[0]] + r), (long long)(q->lo[q->dim[1]] + k), (!t->outcome && v < 0) ? "" : cell);
            else
                fprintf(out, "%lld,%s\n", (long long)(q->lo[q->dim[0]] + r), (!t->outcome && v < 0) ? "" : cell);
        }
}

/* The least p (<= 30) with vals[i + p] == vals[i] over the last two thirds of the table, so
 * a periodic table is printed in rows of its period and its columns line up. */
static int64_t display_period(const table_data *t) {
    int64_t n = t->rows;
    if (n < 24) return 0;
    for (int64_t p = 1; p <= 30 && 3 * p <= n; p++) {
        int ok = 1;
        for (int64_t i = n / 3; i + p < n && ok; i++) ok = t->vals[i] == t->vals[i + p];
        if (ok) return p;
    }
    return 0;
}

enum { TEXT_MAX_ROWS = 60, TEXT_HEAD_ROWS = 40, TEXT_TAIL_ROWS = 10, TEXT_WIDTH = 100 };

static void table_text_1d(FILE *out, const gr_rquery *q, const table_data *t) {
    char cell[32];
    int w = 1;
    for (int64_t i = 0; i < t->rows; i++) {
        int n = cell_text(cell, sizeof cell, t->outcome, t->vals[i]);
        if (n > w) w = n;
    }
    int64_t lo = q->lo[q->dim[0]], hi = q->hi[q->dim[0]];
    int iw = snprintf(cell, sizeof cell, "%lld", (long long)hi);
    int64_t p = display_period(t);
    /* A row is a whole number of periods, about ten values wide. */
    int64_t per_row = p ? p * ((10 + p - 1) / p) : 10;
    if (per_row * (w + 1) + iw + 3 > TEXT_WIDTH) per_row = 10;
    if (per_row > t->rows) per_row = t->rows;
    int lw = snprintf(cell, sizeof cell, "%lld", (long long)(per_row - 1));
    if (lw > w) w = lw;   /* the column labels must fit too */
    /* Column header: offsets within a row. */
    fprintf(out, "  %*s |", iw, "");
    for (int64_t k = 0; k < per_row; k++) fprintf(out, " %*lld", w, (long long)k);
    fputc('\n', out);
    fprintf(out, "  %.*s-+", iw, "--------------------------");
    for (int64_t k = 0; k < per_row * (w + 1); k++) fputc('-', out);
    fputc('\n', out);
    int64_t rows = (t->rows + per_row - 1) / per_row;
    for (int64_t r = 0; r < rows; r++) {
        if (rows > TEXT_MAX_ROWS && r == TEXT_HEAD_ROWS) {
            int64_t skip = rows - TEXT_HEAD_ROWS - TEXT_TAIL_ROWS;
            fprintf(out, "  %*s | ... %lld rows not shown (--format csv or json prints every value)\n", iw, "", (long long)skip);
            r += skip - 1;
            continue;
        }
        fprintf(out, "  %*lld |", iw, (long long)(lo + r * per_row));
        for (int64_t k = 0; k < per_row && r * per_row + k < t->rows; k++) {
            cell_text(cell, sizeof cell, t->outcome, t->vals[r * per_row + k]);
            fprintf(out, " %*s", w, cell);
        }
        fputc('\n', out);
    }
    if (p) {
        int64_t e = t->rows;   /* where the visible period starts */
        while (e - 1 - p >= 0 && t->vals[e - 1] == t->vals[e - 1 - p]) e--;
        e -= p;
        if (e < 0) e = 0;
        fprintf(out, "  (as far as shown, the values repeat with period %lld from n = %lld on)\n",
                (long long)p, (long long)(lo + e));
    }
}

static void table_text_2d(FILE *out, const gr_rquery *q, const table_data *t) {
    char cell[32];
    int w = 1;
    for (int64_t i = 0; i < t->rows * t->cols; i++) {
        int n = cell_text(cell, sizeof cell, t->outcome, t->vals[i]);
        if (n > w) w = n;
    }
    int64_t ylo = q->lo[q->dim[1]], xlo = q->lo[q->dim[0]];
    int yw = snprintf(cell, sizeof cell, "%lld", (long long)q->hi[q->dim[1]]);
    if (yw > w) w = yw;
    int xw = snprintf(cell, sizeof cell, "%lld", (long long)q->hi[q->dim[0]]);
    int64_t per_block = (TEXT_WIDTH - xw - 4) / (w + 1);
    if (per_block < 1) per_block = 1;
    const char **names = q->game->rules ? q->game->rules->coord_names : NULL;
    for (int64_t b = 0; b < t->cols; b += per_block) {
        if (b) fputc('\n', out);
        int64_t end = b + per_block < t->cols ? b + per_block : t->cols;
        fprintf(out, "  %*s |", xw, names ? names[q->dim[0]] : "x");
        for (int64_t k = b; k < end; k++) fprintf(out, " %*lld", w, (long long)(ylo + k));
        fprintf(out, "   <- %s\n", names ? names[q->dim[1]] : "y");
        fprintf(out, "  %.*s-+", xw, "--------------------------");
        for (int64_t k = b; k < end; k++) for (int i = 0; i <= w; i++) fputc('-', out);
        fputc('\n', out);
        for (int64_t r = 0; r < t->rows; r++) {
            fprintf(out, "  %*lld |", xw, (long long)(xlo + r));
            for (int64_t k = b; k < end; k++) {
                cell_text(cell, sizeof cell, t->outcome, t->vals[r * t->cols + k]);
                fprintf(out, " %*s", w, cell);
            }
            fputc('\n', out);
        }
    }
}

static void table_text_graph(FILE *out, const gr_rquery *q, const table_data *t) {
    char cell[32];
    int64_t start = 0;
    while (start < t->rows) {
        size_t used = 10;
        int64_t end = start;
        while (end < t->rows) {
            cell_text(cell, sizeof cell, t->outcome, t->vals[end]);
            size_t w = strlen(q->game->vertices[q->vertex_list[end]]);
            if (strlen(cell) > w) w = strlen(cell);
            if (end > start && used + w + 1 > TEXT_WIDTH) break;
            used += w + 1;
            end++;
        }
        fprintf(out, "  vertex |");
        for (int64_t i = start; i < end; i++) {
            cell_text(cell, sizeof cell, t->outcome, t->vals[i]);
            int w = (int)strlen(cell);
            fprintf(out, " %*s", w, q->game->vertices[q->vertex_list[i]]);
        }
        fprintf(out, "\n   value |");
        for (int64_t i = start; i < end; i++) {
            cell_text(cell, sizeof cell, t->outcome, t->vals[i]);
            int w = (int)strlen(q->game->vertices[q->vertex_list[i]]);
            fprintf(out, " %*s", w, cell);
        }
        fputc('\n', out);
        start = end;
    }
}

static void run_table(gr_ctx *c, gr_module *m, const gr_rquery *q, gr_format fmt, FILE *out) {
    table_data t = { 0 };
    compute_table(c, m, q, &t);
    if (fmt == GR_FMT_JSON) table_json(out, q, &t);
    else if (fmt == GR_FMT_CSV) table_csv(out, q, &t);
    else {
        fprintf(out, "%s: %s%s\n", q->text,
                t.kind == TK_GENUS ? "genus (g^lambda: the superscript's last two digits repeat)" :
                t.kind == TK_REMOTENESS ? (t.conv == CONV_EVERY ? "step numbers (0 at a leaf)" : "remoteness (moves to the end, the winner hurrying)") :
                t.outcome ? "outcomes (P: the player to move loses, N: wins, D: draw)" :
                t.conv == CONV_ANYLEAF ? "values after leaf deletion (- at a leaf)" : "Sprague-Grundy values",
                t.conv != CONV_NORMAL && !q->q->has_conv ? " (the rule set is played misere)" : "");
        if (q->game->shape == SHAPE_GRAPH) table_text_graph(out, q, &t);
        else if (q->ndims == 2) table_text_2d(out, q, &t);
        else table_text_1d(out, q, &t);
        fputc('\n', out);
    }
    gr_free(c, t.vals);
}

/* ---- solve ---- */
typedef struct move_list { gr_ctx *c; char **v; size_t n, cap; gr_pg *pg; } move_list;

static void keep_move(move_list *l, const char *text) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 8;
        l->v = gr_realloc(l->c, l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = gr_strndup(l->c, text, strlen(text));
}

static void fast_move(void *user, const char *text, uint32_t id) { (void)id; keep_move(user, text); }
static void graph_move(void *user, const char *text, uint32_t id) {
    move_list *l = user;
    if (gr_pg_outcome(l->pg, id) == GR_LOSS) keep_move(l, text);
}

/* The theory evaluator of a convention other than normal play (1 if it decided the sum). */
static int theory_solve(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_conv conv, gr_theory *t,
                        gr_child_fn fn, void *user) {
    memset(t, 0, sizeof *t);
    if (c->no_theory) { snprintf(t->why, sizeof t->why, "--no-theory"); return 0; }
    switch (conv) {
    case CONV_EVERY: gr_every_solve(c, m, comps, n, t, fn, user); break;
    case CONV_ANYLEAF: gr_anyleaf_solve(c, m, comps, n, t, fn, user); break;
    case CONV_MISERE: gr_misere_solve(c, m, comps, n, t, fn, user); break;
    case CONV_NORMAL: break;
    }
    return t->decided;
}

static void run_solve(gr_ctx *c, gr_module *m, const gr_rquery *q, gr_format fmt, FILE *out) {
    gr_conv conv = q->conv;
    if (!q->q->has_conv && q->ncomps == 1) conv = q->comps[0].game->play;
    char position[4096];
    gr_render_comps(q->comps, q->ncomps, position, sizeof position);
    int outcome;
    int64_t sg = -1, remoteness = -1;
    move_list moves = { .c = c };
    int64_t *vals = gr_alloc(c, sizeof *vals * (size_t)q->ncomps);
    gr_theory th = { 0 };
    if (!c->no_theory && conv == CONV_NORMAL && gr_sum_sg_fast(c, q->comps, q->ncomps, &sg, vals)) {
        outcome = sg ? O_N : O_P;
        if (sg && !gr_sum_fast_moves(c, q->comps, q->ncomps, vals, sg, fast_move, &moves)) th.moves_partial = 2;
    } else if (!c->no_theory && conv == CONV_NORMAL && q->ncomps > 1 &&
               gr_sum_gamma(c, m, q->comps, q->ncomps, &outcome, &sg, fast_move, &moves)) {
        /* decided component by component */
    } else if (conv != CONV_NORMAL && theory_solve(c, m, q->comps, q->ncomps, conv, &th, fast_move, &moves)) {
        outcome = th.outcome;
        remoteness = th.remoteness;
    } else {
        th.moves_partial = 0;   /* the graph lists every move */
        gr_sumgraph *s = gr_sumgraph_new(c, m, conv);
        uint32_t id = gr_sumgraph_add(s, q->comps, q->ncomps);
        gr_sumgraph_solve(s);
        gr_pg *pg = gr_sumgraph_pg(s);
        outcome = (int)gr_pg_outcome(pg, id);
        sg = conv == CONV_NORMAL ? gr_pg_sg(pg, id) : -1;
        remoteness = gr_pg_remoteness(pg, id);
        moves.pg = pg;
        if (outcome == O_N) gr_sumgraph_moves(s, q->comps, q->ncomps, graph_move, &moves);
        gr_sumgraph_free(s);
    }
    gr_free(c, vals);
    if (fmt == GR_FMT_JSON) {
        fprintf(out, "{\"query\":\"solve\",\"position\":");
        json_string(out, position);
        fprintf(out, ",\"convention\":\"%s\",\"outcome\":\"%c\",\"sg\":", gr_convention_name(conv), OUTCOME_CHAR[outcome]);
        if (sg >= 0) fprintf(out, "%lld", (long long)sg); else fputs("null", out);
        fprintf(out, ",\"winning_moves\":[");
        for (size_t i = 0; i < moves.n; i++) { if (i) fputc(',', out); json_string(out, moves.v[i]); }
        fprintf(out, "]}\n");
    } else if (fmt == GR_FMT_CSV) {
        fprintf(out, "position,convention,outcome,sg,winning_moves\n\"%s\",%s,%c,", position, gr_convention_name(conv), OUTCOME_CHAR[outcome]);
        if (sg >= 0) fprintf(out, "%lld", (long long)sg);
        fputs(",\"", out);
        for (size_t i = 0; i < moves.n; i++) fprintf(out, "%s%s", i ? "; " : "", moves.v[i]);
        fputs("\"\n", out);
    } else {
        static const char *meaning[] = { "the player to move loses", "the player to move wins", "a draw: optimal play never ends" };
        fprintf(out, "solve %s%s%s\n", conv != CONV_NORMAL ? gr_convention_name(conv) : "", conv != CONV_NORMAL ? " " : "", position);
        fprintf(out, "  outcome %c (%s)", OUTCOME_CHAR[outcome], meaning[outcome]);
        if (sg >= 0) fprintf(out, ", sg %lld", (long long)sg);
        if (remoteness >= 0) fprintf(out, ", remoteness %lld", (long long)remoteness);
        fputc('\n', out);
        if (moves.n == 0) fprintf(out, th.moves_partial == 2 ? "  winning moves: none found (cuts inside the largest cycles were not searched)\n" : "  winning moves: none\n");
        else {
            if (th.moves_partial == 2) fprintf(out, "  winning moves (%zu found; cuts inside the largest cycles were not searched):\n", moves.n);
            else if (th.moves_partial) fprintf(out, "  winning moves (one shown of many):\n");
            else fprintf(out, "  winning moves (%zu):\n", moves.n);
            for (size_t i = 0; i < moves.n; i++) fprintf(out, "    -> %s\n", moves.v[i]);
        }
        fputc('\n', out);
    }
    gr_free(c, moves.v);
}

/* ---- check ---- */
static int run_check(gr_ctx *c, gr_rquery *q, gr_format fmt, FILE *out) {
    gr_check_result r;
    memset(&r, 0, sizeof r);
    gr_check_run(c, q, &r);
    static const char *status[] = { "proved", "holds", "refuted" };
    if (fmt == GR_FMT_JSON) {
        fprintf(out, "{\"query\":\"check\",\"claim\":");
        json_string(out, q->text);
        fprintf(out, ",\"status\":\"%s\"", status[r.status]);
        if (r.has_period) fprintf(out, ",\"period\":%lld,\"preperiod\":%lld", (long long)r.period, (long long)r.preperiod);
        else fprintf(out, ",\"period\":null,\"preperiod\":null");
        fprintf(out, ",\"checked_to\":%lld,\"counterexample\":%s", (long long)r.checked_to,
                r.has_counterexample ? r.counterexample_json : "null");
        if (r.has_period) fprintf(out, ",\"saltus\":%lld", (long long)r.saltus);
        fprintf(out, ",\"theorem\":");
        json_string(out, r.theorem);
        fprintf(out, "}\n");
    } else if (fmt == GR_FMT_CSV) {
        fprintf(out, "claim,status,period,preperiod,saltus,checked_to\n\"%s\",%s,", q->text, status[r.status]);
        if (r.has_period) fprintf(out, "%lld,%lld,%lld", (long long)r.period, (long long)r.preperiod, (long long)r.saltus);
        else fputs(",,", out);
        fprintf(out, ",%lld\n", (long long)r.checked_to);
    } else {
        fprintf(out, "check %s\n  %s", q->text, status[r.status]);
        if (r.has_period) {
            fprintf(out, ": period %lld, preperiod %lld", (long long)r.period, (long long)r.preperiod);
            if (r.saltus) fprintf(out, ", saltus %lld", (long long)r.saltus);
        }
        fprintf(out, " (checked to %lld)\n", (long long)r.checked_to);
        if (r.has_counterexample) fprintf(out, "  counterexample: %s\n", r.counterexample_text);
        if (r.theorem[0]) fprintf(out, "  %s\n", r.theorem);
        fputc('\n', out);
    }
    return r.status == GR_CHECK_REFUTED;
}

int gr_run_queries(gr_ctx *c, gr_module *m, gr_format fmt, FILE *out) {
    int refuted = 0;
    for (int i = 0; i < m->nqueries; i++) {
        gr_rquery *q = &m->queries[i];
        if (fmt == GR_FMT_CSV && i > 0) fputc('\n', out);
        switch (q->kind) {
        case Q_TABLE: run_table(c, m, q, fmt, out); break;
        case Q_SOLVE: run_solve(c, m, q, fmt, out); break;
        case Q_CHECK: refuted |= run_check(c, q, fmt, out); break;
        }
    }
    return refuted ? GR_EXIT_REFUTED : GR_EXIT_OK;
}

void gr_explain(gr_ctx *c, gr_module *m, FILE *out) {
    for (gr_game *g = m->games; g; g = g->next)
        fprintf(out, "%s: %s\n", g->name, g->explain);
    for (gr_gdecl *d = m->decls; d; d = d->next)
        if (d->nparams) {
            int used = 0;
            for (gr_game *g = m->games; g; g = g->next) used |= g->decl == d;
            if (!used) fprintf(out, "%s: parameterised; lowered for each instance used (none here)\n", d->name);
        }
    /* Sums under another convention: which theory decides each, or why none does. */
    for (int i = 0; i < m->nqueries; i++) {
        const gr_rquery *q = &m->queries[i];
        if (q->kind != Q_SOLVE || q->conv == CONV_NORMAL) continue;
        gr_theory t;
        int ok = theory_solve(c, m, q->comps, q->ncomps, q->conv, &t, NULL, NULL);
        fprintf(out, "%s: %s%s\n", q->text, t.why, ok ? "" : "; answered by the position graph");
    }
}
