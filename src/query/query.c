/* query: table, solve and check, as text, CSV or JSON; see query.h. */
#include "query.h"
#include "check.h"
#include "longrun.h"
#include "solve.h"
#include "census.h"
#include "family.h"
#include "progress.h"
#include "remote.h"
#include "show.h"
#include "tables.h"
#include "valuefmt.h"
#include "eval/cap_ready.h"
#include "board.h"
#include <string.h>

static const char OUTCOME_CHAR[] = { 'P', 'N', 'D' };

/* ---- JSON helpers ---- */
static void json_coords(FILE *out, const int64_t *v, int n) {
    fputc('[', out);
    for (int i = 0; i < n; i++) fprintf(out, "%s%lld", i ? "," : "", (long long)v[i]);
    fputc(']', out);
}

/* A genus cell is packed in one value: 4 bits each for g, the superscript's length L, then
 * lambda_0 .. lambda_{L-1} (see genus_pack in tables.c). */
static int genus_unpack(int64_t v, int32_t *digits) {
    int n = (int)(v >> 4 & 15);
    digits[0] = (int32_t)(v & 15);
    for (int i = 0; i < n; i++) digits[1 + i] = (int32_t)(v >> (8 + 4 * i) & 15);
    return n;
}

static void cell_json(FILE *out, const gr_table_data *t, int64_t v) {
    int outcome = t->outcome;
    if (outcome == GR_CELLS_GENUS) {
        int32_t d[16];
        int n = genus_unpack(v, d);
        fputc('[', out);
        for (int i = 0; i <= n; i++) fprintf(out, "%s%d", i ? "," : "", d[i]);
        fputc(']', out);
    } else if (outcome) fprintf(out, "\"%c\"", OUTCOME_CHAR[v]);
    else gr_value_json(out, v, &t->loopy);
}

/* A cell as text (fmt GR_FMT_TEXT: "-" where no value) or CSV ("" where none); returns its
 * length in bytes (gr_value_width gives its columns). */
enum { CELL_MAX = 4096 };   /* a loopy value's set is as long as its position's options */
static int cell_str(char *buf, size_t cap, const gr_table_data *t, int64_t v, gr_format fmt) {
    int outcome = t->outcome;
    if (outcome == GR_CELLS_GENUS) {
        int32_t d[16];
        int n = genus_unpack(v, d);
        int len = snprintf(buf, cap, "%d^", d[0]);
        for (int i = 1; i <= n && (size_t)len < cap; i++) len += snprintf(buf + len, cap - (size_t)len, "%d", d[i]);
        return len;
    }
    if (outcome) return snprintf(buf, cap, "%c", OUTCOME_CHAR[v]);
    return gr_value_str(buf, cap, fmt, v, &t->loopy);
}
static int cell_text(char *buf, size_t cap, const gr_table_data *t, int64_t v) {
    cell_str(buf, cap, t, v, GR_FMT_TEXT);
    return gr_value_width(buf);
}

/* ---- writing tables ---- */
static void table_json(FILE *out, const gr_rquery *q, const gr_table_data *t) {
    fprintf(out, "{\"query\":\"table\",\"game\":");
    gr_json_string(out, q->game->name);
    if (q->vertex_list) {
        fprintf(out, ",\"positions\":[");
        for (int i = 0; i < q->nvertex_list; i++) {
            if (i) fputc(',', out);
            gr_json_string(out, q->game->vertices[q->vertex_list[i]]);
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
            cell_json(out, t, gr_table_cell(t, r * t->cols + k));
        }
        if (t->cols > 1 || q->ndims == 2) fputc(']', out);
    }
    fprintf(out, "],\"convention\":\"%s\"}\n", gr_convention_name(t->conv));
}

static void table_csv(FILE *out, const gr_rquery *q, const gr_table_data *t) {
    char cell[CELL_MAX];
    if (q->vertex_list) {
        fprintf(out, "vertex,value\n");
        for (int64_t r = 0; r < t->rows; r++) {
            cell_str(cell, sizeof cell, t, gr_table_cell(t, r), GR_FMT_CSV);
            fprintf(out, "%s,%s\n", q->game->vertices[q->vertex_list[r]], cell);
        }
        return;
    }
    fprintf(out, q->ndims == 2 ? "x,y,value\n" : "n,value\n");
    for (int64_t r = 0; r < t->rows; r++)
        for (int64_t k = 0; k < t->cols; k++) {
            int64_t v = gr_table_cell(t, r * t->cols + k);
            cell_str(cell, sizeof cell, t, v, GR_FMT_CSV);
            if (q->ndims == 2)
                fprintf(out, "%lld,%lld,%s\n", (long long)(q->lo[q->dim[0]] + r), (long long)(q->lo[q->dim[1]] + k), cell);
            else
                fprintf(out, "%lld,%s\n", (long long)(q->lo[q->dim[0]] + r), cell);
        }
}

/* The least p (<= 30) with vals[i + p] == vals[i] over the last two thirds of the table, so
 * a periodic table is printed in rows of its period and its columns line up. */
static int64_t display_period(const gr_table_data *t) {
    int64_t n = t->rows;
    if (n < 24) return 0;
    for (int64_t p = 1; p <= 30 && 3 * p <= n; p++) {
        int ok = 1;
        for (int64_t i = n / 3; i + p < n && ok; i++) ok = gr_table_cell(t, i) == gr_table_cell(t, i + p);
        if (ok) return p;
    }
    return 0;
}

enum { TEXT_MAX_ROWS = 60, TEXT_HEAD_ROWS = 40, TEXT_TAIL_ROWS = 10, TEXT_WIDTH = 100, TEXT_MAX_BLOCKS = 3, TEXT_HEAD_BLOCKS = 2 };

static void table_text_1d(FILE *out, const gr_rquery *q, const gr_table_data *t) {
    char cell[CELL_MAX];
    int w = 1;
    for (int64_t i = 0; i < t->rows; i++) {
        int n = cell_text(cell, sizeof cell, t, gr_table_cell(t, i));
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
            cell_text(cell, sizeof cell, t, gr_table_cell(t, r * per_row + k));
            fputc(' ', out);
            gr_value_pad(out, w, cell);
        }
        fputc('\n', out);
    }
    if (p) {
        int64_t e = t->rows;   /* where the visible period starts */
        while (e - 1 - p >= 0 && gr_table_cell(t, e - 1) == gr_table_cell(t, e - 1 - p)) e--;
        e -= p;
        if (e < 0) e = 0;
        fprintf(out, "  (as far as shown, the values repeat with period %lld from n = %lld on)\n",
                (long long)p, (long long)(lo + e));
    }
}

static void table_text_2d(FILE *out, const gr_rquery *q, const gr_table_data *t) {
    char cell[CELL_MAX];
    int w = 1;
    for (int64_t i = 0; i < t->rows * t->cols; i++) {
        int n = cell_text(cell, sizeof cell, t, gr_table_cell(t, i));
        if (n > w) w = n;
    }
    int64_t ylo = q->lo[q->dim[1]], xlo = q->lo[q->dim[0]];
    int yw = snprintf(cell, sizeof cell, "%lld", (long long)q->hi[q->dim[1]]);
    if (yw > w) w = yw;
    int xw = snprintf(cell, sizeof cell, "%lld", (long long)q->hi[q->dim[0]]);
    const char **names = gr_board_axis_names(q->game, q->lo);
    if (!names) names = q->game->rules ? q->game->rules->coord_names : NULL;
    if (names && (int)strlen(names[q->dim[0]]) > xw) xw = (int)strlen(names[q->dim[0]]);   /* the rows' name heads their column */
    int64_t per_block = (TEXT_WIDTH - xw - 4) / (w + 1);
    if (per_block < 1) per_block = 1;
    /* A long table is shortened as a 1-D one is: the first and last rows of the first two
     * blocks of columns and of the last, the rest counted and how to get it said. */
    int64_t nblocks = (t->cols + per_block - 1) / per_block;
    for (int64_t bi = 0; bi < nblocks; bi++) {
        int64_t b = bi * per_block;
        if (bi) fputc('\n', out);
        if (nblocks > TEXT_MAX_BLOCKS && bi == TEXT_HEAD_BLOCKS) {
            int64_t last = (nblocks - 1) * per_block;
            fprintf(out, "  ... %s = %lld..%lld not shown (--format csv or json prints every value)\n", names ? names[q->dim[1]] : "y",
                    (long long)(ylo + b), (long long)(ylo + last - 1));
            bi = nblocks - 2;
            continue;
        }
        int64_t end = b + per_block < t->cols ? b + per_block : t->cols;
        fprintf(out, "  %*s |", xw, names ? names[q->dim[0]] : "x");
        for (int64_t k = b; k < end; k++) fprintf(out, " %*lld", w, (long long)(ylo + k));
        fprintf(out, "   <- %s\n", names ? names[q->dim[1]] : "y");
        fprintf(out, "  %.*s-+", xw, "------------------------------------------------------------");
        for (int64_t k = b; k < end; k++) for (int i = 0; i <= w; i++) fputc('-', out);
        fputc('\n', out);
        for (int64_t r = 0; r < t->rows; r++) {
            if (t->rows > TEXT_MAX_ROWS && r == TEXT_HEAD_ROWS) {
                int64_t skip = t->rows - TEXT_HEAD_ROWS - TEXT_TAIL_ROWS;
                fprintf(out, "  %*s | ... %lld rows not shown (--format csv or json prints every value)\n", xw, "", (long long)skip);
                r += skip - 1;
                continue;
            }
            fprintf(out, "  %*lld |", xw, (long long)(xlo + r));
            for (int64_t k = b; k < end; k++) {
                cell_text(cell, sizeof cell, t, gr_table_cell(t, r * t->cols + k));
                fputc(' ', out);
                gr_value_pad(out, w, cell);
            }
            fputc('\n', out);
        }
    }
}

static void table_text_graph(FILE *out, const gr_rquery *q, const gr_table_data *t) {
    char cell[CELL_MAX];
    int64_t start = 0;
    while (start < t->rows) {
        size_t used = 10;
        int64_t end = start;
        while (end < t->rows) {
            size_t w = (size_t)cell_text(cell, sizeof cell, t, gr_table_cell(t, end));
            size_t name = strlen(q->game->vertices[q->vertex_list[end]]);
            if (name > w) w = name;
            if (end > start && used + w + 1 > TEXT_WIDTH) break;
            used += w + 1;
            end++;
        }
        fprintf(out, "  vertex |");
        for (int64_t i = start; i < end; i++) {
            int w = cell_text(cell, sizeof cell, t, gr_table_cell(t, i));
            fprintf(out, " %*s", w, q->game->vertices[q->vertex_list[i]]);
        }
        fprintf(out, "\n   value |");
        for (int64_t i = start; i < end; i++) {
            cell_text(cell, sizeof cell, t, gr_table_cell(t, i));
            int w = (int)strlen(q->game->vertices[q->vertex_list[i]]);
            fputc(' ', out);
            gr_value_pad(out, w, cell);
        }
        fputc('\n', out);
        start = end;
    }
}

static void table_write(FILE *out, gr_format fmt, const gr_rquery *q, const gr_table_data *t) {
    if (fmt == GR_FMT_JSON) { table_json(out, q, t); return; }
    if (fmt == GR_FMT_CSV) { table_csv(out, q, t); return; }
    fprintf(out, "%s: %s%s\n", q->text,
            t->kind == TK_GENUS ? "genus (g^lambda: the superscript's last two digits repeat)" :
            t->kind == TK_REMOTENESS ? (t->conv == CONV_EVERY ? "step numbers (0 at a leaf)" : "remoteness (moves to the end, the winner hurrying)") :
            t->outcome ? "outcomes (P: the player to move loses, N: wins, D: draw)" :
            t->conv == CONV_ANYLEAF ? "values after leaf deletion (- at a leaf)" : "Sprague-Grundy values",
            t->conv != CONV_NORMAL && !q->q->has_conv ? " (the rule set is played misere)" : "");
    if (q->vertex_list) table_text_graph(out, q, t);
    else if (q->ndims == 2) table_text_2d(out, q, t);
    else table_text_1d(out, q, t);
    fputc('\n', out);
}

static void run_table(gr_ctx *c, gr_module *m, const gr_rquery *q, const gr_sink *sk) {
    gr_table_data t = { 0 };
    gr_table_compute(c, m, q, &t);
    /* A streamed table computes its first block before writing a byte, so an error there
     * (a set builder that is not a subtraction set, say) leaves no half-written table; the
     * text form sizes its columns by the widest value, so it needs them all first. */
    if (t.stream && t.rows > 0) (void)gr_table_cell(&t, sk->out[GR_FMT_TEXT] ? t.rows - 1 : 0);
    GR_SINK_EACH(sk, fmt, out) table_write(out, fmt, q, &t);
    gr_free(c, t.vals);
    gr_free(c, t.stream);
    gr_loopy_free(&t.loopy);
}

/* ---- solve ---- */
typedef struct move_list { gr_ctx *c; char **v; size_t n, cap; } move_list;

static void keep_move(void *user, const char *text, uint32_t id) {
    (void)id;
    move_list *l = user;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 8;
        l->v = gr_realloc(l->c, l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = gr_strndup(l->c, text, strlen(text));
}

static void solve_write(FILE *out, gr_format fmt, gr_conv conv, const char *position, const gr_solution *sol,
                        const move_list *moves) {
    int outcome = sol->outcome;
    int64_t sg = sol->sg, remoteness = sol->remoteness;
    if (fmt == GR_FMT_JSON) {
        fprintf(out, "{\"query\":\"solve\",\"position\":");
        gr_json_string(out, position);
        fprintf(out, ",\"convention\":\"%s\",\"outcome\":\"%c\",\"sg\":", gr_convention_name(conv), OUTCOME_CHAR[outcome]);
        gr_value_json(out, sg, &sol->loopy);
        fputs(",\"remoteness\":", out);
        if (remoteness >= 0) fprintf(out, "%lld", (long long)remoteness); else fputs("null", out);
        fprintf(out, ",\"winning_moves\":[");
        for (size_t i = 0; i < moves->n; i++) { if (i) fputc(',', out); gr_json_string(out, moves->v[i]); }
        fputc(']', out);
        /* some not listed: how many when counted, null when the rest were not searched for */
        if (sol->moves_unlisted) fprintf(out, ",\"winning_moves_not_listed\":%lld", (long long)sol->moves_unlisted);
        else if (sol->moves_partial) fputs(",\"winning_moves_not_listed\":null", out);
        fprintf(out, "}\n");
    } else if (fmt == GR_FMT_CSV) {
        fprintf(out, "position,convention,outcome,sg,winning_moves,winning_moves_not_listed\n\"%s\",%s,%c,", position,
                gr_convention_name(conv), OUTCOME_CHAR[outcome]);
        char value[CELL_MAX];
        gr_value_str(value, sizeof value, GR_FMT_CSV, sg, &sol->loopy);
        fputs(value, out);
        fputs(",\"", out);
        for (size_t i = 0; i < moves->n; i++) fprintf(out, "%s%s", i ? "; " : "", moves->v[i]);
        fputs("\",", out);   /* then as JSON: how many not listed, "unknown" when not searched for, empty when none */
        if (sol->moves_unlisted) fprintf(out, "%lld", (long long)sol->moves_unlisted);
        else if (sol->moves_partial) fputs("unknown", out);
        fputc('\n', out);
    } else {
        static const char *meaning[] = { "the player to move loses", "the player to move wins", "a draw: optimal play never ends" };
        fprintf(out, "solve %s%s%s\n", conv != CONV_NORMAL ? gr_convention_name(conv) : "", conv != CONV_NORMAL ? " " : "", position);
        fprintf(out, "  outcome %c (%s)", OUTCOME_CHAR[outcome], meaning[outcome]);
        char value[CELL_MAX];
        if (sg >= 0 || gr_is_loopy(sg)) {
            gr_value_str(value, sizeof value, GR_FMT_TEXT, sg, &sol->loopy);
            fprintf(out, ", sg %s", value);
        }
        if (remoteness >= 0) fprintf(out, ", remoteness %lld", (long long)remoteness);
        else if (sol->remoteness_skipped[0]) fprintf(out, ", remoteness not computed (%s)", sol->remoteness_skipped);
        fputc('\n', out);
        if (moves->n == 0) fprintf(out, sol->moves_partial == 2 ? "  winning moves: none found (cuts inside the largest cycles were not searched)\n" : "  winning moves: none\n");
        else {
            if (sol->moves_partial == 2) fprintf(out, "  winning moves (%zu found; cuts inside the largest cycles were not searched):\n", moves->n);
            else if (sol->moves_partial) fprintf(out, "  winning moves (one shown; others were not searched for):\n");
            else if (sol->moves_unlisted) fprintf(out, "  winning moves (%lld; %zu listed):\n", (long long)sol->moves_unlisted + (long long)moves->n, moves->n);
            else fprintf(out, "  winning moves (%zu):\n", moves->n);
            for (size_t i = 0; i < moves->n; i++) fprintf(out, "    -> %s\n", moves->v[i]);
            if (sol->moves_unlisted)
                fprintf(out, "    ... and %lld more, not listed (moves within heaps past 2^20: the first 100 of each are)\n",
                        (long long)sol->moves_unlisted);
        }
        fputc('\n', out);
    }
}

static void run_solve(gr_ctx *c, gr_module *m, const gr_rquery *q, const gr_sink *sk) {
    gr_conv conv = gr_sum_convention(q->comps, q->ncomps, q->q->has_conv, q->conv);
    const char *position = gr_render_position(c, q->comps, q->ncomps, conv);
    move_list moves = { .c = c };
    gr_solution sol;
    gr_sum_solve(c, m, q->comps, q->ncomps, conv, q->q->outcome == TK_REMOTENESS, &sol, keep_move, &moves);
    GR_SINK_EACH(sk, fmt, out) solve_write(out, fmt, conv, position, &sol, &moves);
    gr_free(c, moves.v);
    gr_solution_free(&sol);
}

/* ---- check ---- */
static void check_write(FILE *out, gr_format fmt, const gr_rquery *q, const gr_check_result *r) {
    const char *status = gr_check_status_name(r->status);
    if (fmt == GR_FMT_JSON) {
        fprintf(out, "{\"query\":\"check\",\"claim\":");
        gr_json_string(out, q->text);
        fprintf(out, ",\"status\":\"%s\"", status);
        if (r->has_period) fprintf(out, ",\"period\":%lld,\"preperiod\":%lld", (long long)r->period, (long long)r->preperiod);
        else fprintf(out, ",\"period\":null,\"preperiod\":null");
        fprintf(out, ",\"checked_to\":%lld,\"counterexample\":%s", (long long)r->checked_to,
                r->has_counterexample ? r->counterexample_json : "null");
        if (r->has_period) fprintf(out, ",\"saltus\":%lld", (long long)r->saltus);
        gr_check_columns_json(r, out);
        fprintf(out, ",\"theorem\":");
        gr_json_string(out, r->theorem);
        gr_check_kernel_json(r, out);
        fprintf(out, "}\n");
    } else if (fmt == GR_FMT_CSV) {
        fputs("claim,status,period,preperiod,saltus,checked_to" GR_CHECK_COLUMNS_CSV "\n", out);
        gr_csv_string(out, q->text);
        fprintf(out, ",%s,", status);
        if (r->has_period) fprintf(out, "%lld,%lld,%lld", (long long)r->period, (long long)r->preperiod, (long long)r->saltus);
        else fputs(",,", out);
        fprintf(out, ",%lld", (long long)r->checked_to);
        gr_check_columns_csv(r, out);
        fputc('\n', out);
    } else {
        fprintf(out, "check %s\n  %s", q->text, status);
        if (r->has_period) {
            fprintf(out, ": period %lld, preperiod %lld", (long long)r->period, (long long)r->preperiod);
            if (r->saltus) fprintf(out, ", saltus %lld", (long long)r->saltus);
        }
        fprintf(out, " (checked to %lld)\n", (long long)r->checked_to);
        if (r->has_counterexample) fprintf(out, "  counterexample: %s\n", r->counterexample_text);
        if (r->theorem[0]) fprintf(out, "  %s\n", r->theorem);
        gr_check_columns_text(r, "  ", out);
        fputc('\n', out);
    }
}

static int run_check(gr_ctx *c, gr_module *m, int qi, gr_rquery *q, const gr_sink *sk) {
    /* (with --histogram a family's periodic check is refused by the long search) */
    if (q->nmembers && q->check != CK_FORMULA && !(c->histogram && q->check == CK_PERIODIC))
        return gr_run_check_family(c, m, qi, sk);
    gr_check_result r;
    memset(&r, 0, sizeof r);
    if (c->histogram && q->check == CK_PERIODIC) {
        /* A long search prints its rows as it goes, to one stream: the text's, else the
         * JSON's (CSV has only the final row). */
        c->histogram_out = sk->out[GR_FMT_TEXT] ? sk->out[GR_FMT_TEXT] : sk->out[GR_FMT_JSON];
        c->histogram_json = !sk->out[GR_FMT_TEXT] && sk->out[GR_FMT_JSON];
        gr_long_search(c, q, &r);
        c->histogram_out = NULL;
    } else gr_check_run(c, q, &r);
    GR_SINK_EACH(sk, fmt, out) check_write(out, fmt, q, &r);
    return r.status == GR_CHECK_REFUTED;
}

int gr_run_queries(gr_ctx *c, gr_module *m, gr_format fmt, FILE *out) {
    return gr_run_queries_ex(c, m, fmt, out, NULL, NULL);
}

int gr_run_query_formats(gr_ctx *c, gr_module *m, int i, FILE *const outs[3], int after_another) {
    gr_rquery *q = &m->queries[i];
    gr_sink sk = { { outs[0], outs[1], outs[2] } };
    int refuted = 0;
    c->query_no = i + 1;            /* for a limit's message */
    c->query_text = q->text;
    c->step_label = NULL;
    c->limit_note[0] = '\0';
    gr_eval_at(c, NULL, 0);
    /* CSV blocks name themselves when more than one query runs. */
    FILE *csv = sk.out[GR_FMT_CSV];
    if (csv && after_another) fputc('\n', csv);
    if (csv && c->query_only == 0 && m->nqueries > 1)
        fprintf(csv, "# %s%s\n", q->kind == Q_CHECK ? "check " : q->kind == Q_CENSUS ? "census " : "", q->text);
    switch (q->kind) {
    case Q_TABLE: run_table(c, m, q, &sk); break;
    case Q_SOLVE: run_solve(c, m, q, &sk); break;
    case Q_CHECK: refuted = run_check(c, m, i, q, &sk); break;
    case Q_PLOT: gr_run_plot(c, m, q, &sk); break;
    case Q_DOT: gr_run_dot(c, m, q, &sk); break;
    case Q_OPTIONS: gr_run_options(c, m, q, &sk); break;
    case Q_QUOTIENT: gr_run_quotient(c, m, q, &sk); break;
    case Q_CENSUS: gr_run_census(c, m, i, &sk); break;
    }
    GR_SINK_EACH(&sk, fmt, out) { (void)fmt; fflush(out); }   /* each answer reaches the reader when its query ends */
    return refuted;
}

int gr_run_query(gr_ctx *c, gr_module *m, int i, gr_format fmt, FILE *out, int after_another) {
    FILE *outs[3] = { NULL, NULL, NULL };
    outs[fmt] = out;
    return gr_run_query_formats(c, m, i, outs, after_another);
}

int gr_run_queries_ex(gr_ctx *c, gr_module *m, gr_format fmt, FILE *out, gr_query_start_fn start, void *user) {
    int refuted = 0, ran = 0;
    if (c->query_only > m->nqueries)
        gr_fail(c, GR_EXIT_INPUT, "--query %d: the file has %d quer%s", c->query_only, m->nqueries, m->nqueries == 1 ? "y" : "ies");
    for (int i = 0; i < m->nqueries; i++) {
        if (c->query_only && i + 1 != c->query_only) continue;
        if (start) start(user, i, m->nqueries, &m->queries[i]);
        refuted |= gr_run_query(c, m, i, fmt, out, ran++ > 0);
    }
    return refuted ? GR_EXIT_REFUTED : GR_EXIT_OK;
}

void gr_explain(gr_ctx *c, gr_module *m, FILE *out) {
    char why[sizeof m->games->explain + sizeof m->games->state->found];
    for (gr_game *g = m->games; g; g = g->next) {
        char more[512];
        gr_eval_answers(g, g->play, why, sizeof why);
        int64_t want = gr_eval_describe(g, more, sizeof more);   /* choices made from the values */
        if (want > 0) {   /* computed for a first stretch, to show them */
            int64_t lo = 0, hi = want - 1;
            if (gr_eval_ensure(c, g, &lo, &hi, GR_KIND_SG)) gr_eval_describe(g, more, sizeof more);
        }
        fprintf(out, "%s: %s%s%s\n", g->name, why, more[0] ? "; " : "", more);
    }
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
        int ok = gr_sum_theory(c, m, q->comps, q->ncomps, q->conv, &t, NULL, NULL);
        fprintf(out, "%s: %s%s\n", q->text, t.why, ok ? "" : "; answered by the position graph");
    }
}
