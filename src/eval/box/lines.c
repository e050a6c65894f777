/* lines: the per-line bitset kernel for line-move tuple games; see lines.h. */
#include "eval/box/lines.h"
#include "progress.h"
#include <string.h>

/* One line: the values seen on it so far, and how many leading words are full. */
typedef struct line {
    uint64_t *w;
    size_t nw, full;
} line;

static void line_add(gr_ctx *c, line *l, uint64_t v) {
    size_t wi = (size_t)(v >> 6);
    if (wi >= l->nw) {
        size_t n = l->nw ? l->nw : 1;
        while (n <= wi) n *= 2;
        l->w = gr_realloc(c, l->w, gr_size_mul(c, n, sizeof *l->w));
        memset(l->w + l->nw, 0, (n - l->nw) * sizeof *l->w);
        l->nw = n;
    }
    l->w[wi] |= UINT64_C(1) << (v & 63);
    while (l->full < l->nw && l->w[l->full] == ~UINT64_C(0)) l->full++;
}

static inline uint64_t line_word(const line *l, size_t i) { return i < l->nw ? l->w[i] : 0; }

static int dirs_of(gr_ctx *c, const gr_game *g) {
    char why[200];
    int dirs = gr_lines_dirs(g, why, sizeof why);
    if (!dirs) gr_fail(c, GR_EXIT_INPUT, "internal error: '%s' is not a line-move rule set (%s)", g->name, why);
    return dirs;
}

void gr_lines_fill(gr_ctx *c, const gr_game *g, int64_t rows, int64_t cols, int64_t *out) {
    int dirs = dirs_of(c, g);
    if (rows <= 0 || cols <= 0) return;
    size_t nrow = dirs & DIR_ROW ? (size_t)rows : 0;
    size_t ncol = dirs & DIR_COL ? (size_t)cols : 0;
    size_t ndiag = dirs & DIR_DIAG ? (size_t)rows + (size_t)cols - 1 : 0;
    size_t nlines = nrow + ncol + ndiag;
    line *lines = gr_alloc(c, gr_size_mul(c, nlines, sizeof *lines));
    line *rowl = lines, *coll = lines + nrow, *diagl = coll + ncol;
    gr_progress bar;
    gr_progress_begin(&bar, c, g->name, (uint64_t)rows * (uint64_t)cols);
    for (int64_t a = 0; a < rows; a++) {
        int64_t *o = out + a * cols;
        gr_progress_update(&bar, (uint64_t)a * (uint64_t)cols);
        for (int64_t b = 0; b < cols; b++) {
            gr_poll(c);
            line *L[3] = { NULL, NULL, NULL };
            int nl = 0;
            if (nrow) L[nl++] = &rowl[a];
            if (ncol) L[nl++] = &coll[b];
            if (ndiag) L[nl++] = &diagl[a - b + cols - 1];
            /* No mex lies inside a word that is full on any one line. */
            size_t w = L[0]->full;
            for (int i = 1; i < nl; i++) if (L[i]->full > w) w = L[i]->full;
            uint64_t word;
            switch (nl) {
            case 1: word = line_word(L[0], w); break;   /* full words were skipped */
            case 2:
                while ((word = line_word(L[0], w) | line_word(L[1], w)) == ~UINT64_C(0)) w++;
                break;
            default:
                while ((word = line_word(L[0], w) | line_word(L[1], w) | line_word(L[2], w)) == ~UINT64_C(0)) w++;
                break;
            }
            uint64_t mex = (uint64_t)w * 64 + (uint64_t)__builtin_ctzll(~word);
            o[b] = (int64_t)mex;
            for (int i = 0; i < nl; i++) line_add(c, L[i], mex);
        }
    }
    gr_progress_end(&bar);
    for (size_t i = 0; i < nlines; i++) gr_free(c, lines[i].w);
    gr_free(c, lines);
}

size_t gr_lines_pbits_words(int64_t rows, int64_t cols) {
    return rows <= 0 || cols <= 0 ? 1 : (size_t)(((uint64_t)rows * (uint64_t)cols + 63) / 64);
}

void gr_lines_outcomes(gr_ctx *c, const gr_game *g, int64_t rows, int64_t cols, uint64_t *p) {
    int dirs = dirs_of(c, g);
    memset(p, 0, gr_lines_pbits_words(rows, cols) * sizeof *p);
    if (rows <= 0 || cols <= 0) return;
    /* hasp[line]: a P-position lies on the line already. A line not in use never gets one. */
    uint8_t *colp = gr_alloc(c, (size_t)cols), *diagp = gr_alloc(c, (size_t)rows + (size_t)cols - 1);
    gr_progress bar;
    gr_progress_begin(&bar, c, g->name, (uint64_t)rows * (uint64_t)cols);
    for (int64_t a = 0; a < rows; a++) {
        gr_progress_update(&bar, (uint64_t)a * (uint64_t)cols);
        gr_poll(c);
        uint8_t *dg = diagp + (cols - 1 + a);   /* dg[-b]: the diagonal a - b */
        uint64_t at = (uint64_t)a * (uint64_t)cols;
        int rowp = 0;
        for (int64_t b = 0; b < cols; b++) {
            int reached = (colp[b] & (dirs & DIR_COL)) | (dg[-b] & (dirs & DIR_DIAG));
            if (reached || rowp) continue;
            p[(at + (uint64_t)b) >> 6] |= UINT64_C(1) << ((at + (uint64_t)b) & 63);
            colp[b] = DIR_COL;
            dg[-b] = DIR_DIAG;
            rowp = dirs & DIR_ROW;
        }
    }
    gr_progress_end(&bar);
    gr_free(c, colp);
    gr_free(c, diagp);
}
