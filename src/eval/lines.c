/* lines: the per-line bitset kernel for line-move tuple games; see lines.h. */
#include "lines.h"
#include <stdarg.h>
#include <string.h>

/* Directions in use. A move in direction (da, db) stays on one line: */
enum {
    DIR_COL = 1,    /* (1, 0): b fixed, along a column */
    DIR_ROW = 2,    /* (0, 1): a fixed, along a row */
    DIR_DIAG = 4    /* (1, 1): a - b fixed, along a diagonal */
};

static int say(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int say(char *why, size_t cap, const char *fmt, ...) {
    if (why && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, cap, fmt, ap);
        va_end(ap);
    }
    return 0;
}

/* Is code "slot x" (step 0) or "x - k" (step 1) for the coordinate slot x? -1 otherwise. */
static int coord_step(const gr_code *code, int x, int k) {
    int s, t;
    if (gr_code_is_slot(code, &s)) return s == x ? 0 : -1;
    if (gr_code_is_slot_minus_slot(code, &s, &t)) return s == x && t == k ? 1 : -1;
    return -1;
}

/* The directions of g's moves as DIR_* bits, or 0 with the reason in why. */
static int analyse(const gr_game *g, char *why, size_t cap) {
    const gr_rules *r = g->rules;
    if (g->shape != SHAPE_TUPLE || !r) return say(why, cap, "not a rule set with tuple positions");
    if (r->arity != 2) return say(why, cap, "positions have %d coordinates, not 2", r->arity);
    if (r->where) return say(why, cap, "it has a 'where' on positions");
    if (r->nterms) return say(why, cap, "it has 'terminal' rules");
    if (r->nmoves == 0) return say(why, cap, "it has no moves");
    const int A = r->nparams, B = r->nparams + 1;
    int dirs = 0;
    for (int m = 0; m < r->nmoves; m++) {
        const gr_rmove *mv = &r->moves[m];
        if (mv->guard) return say(why, cap, "move %d has a 'where' guard", m + 1);
        if (mv->is_sum || mv->nparts != 1) return say(why, cap, "move %d leads to a sum", m + 1);
        if (mv->nbinds != 1) return say(why, cap, "move %d does not have exactly one 'for k in 1..LIMIT'", m + 1);
        const gr_rbinding *b = &mv->binds[0];
        if (!b->lo->is_const || b->lo->value != 1) return say(why, cap, "move %d: '%s' does not start at 1", m + 1, b->name);
        int da = coord_step(mv->parts[0].coords[0], A, b->slot);
        int db = coord_step(mv->parts[0].coords[1], B, b->slot);
        if (da < 0 || db < 0) return say(why, cap, "move %d is not (a - k*da, b - k*db) with da, db in {0, 1}", m + 1);
        if (da == 0 && db == 0) return say(why, cap, "move %d does not change the position", m + 1);
        /* LIMIT must be exactly what keeps the target non-negative. */
        int s, t, ok;
        if (da && db) ok = gr_code_is_min_of_slots(b->hi, &s, &t) && ((s == A && t == B) || (s == B && t == A));
        else ok = gr_code_is_slot(b->hi, &s) && s == (da ? A : B);
        if (!ok) return say(why, cap, "move %d: the range of '%s' is not exactly %s", m + 1, b->name,
                            da && db ? "1..min(a, b)" : da ? "1..a" : "1..b");
        dirs |= da && db ? DIR_DIAG : da ? DIR_COL : DIR_ROW;
    }
    return dirs;
}

int gr_lines_recognise(const gr_game *g, char *why, size_t cap) {
    int dirs = analyse(g, why, cap);
    if (!dirs) return 0;
    const char *names[3] = { "", "", "" };
    int n = 0;
    if (dirs & DIR_ROW) names[n++] = "rows";
    if (dirs & DIR_COL) names[n++] = "columns";
    if (dirs & DIR_DIAG) names[n++] = "diagonals";
    if (n == 1) say(why, cap, "line moves along %s: a bitset of values per line", names[0]);
    else if (n == 2) say(why, cap, "line moves along %s and %s: a bitset of values per line", names[0], names[1]);
    else say(why, cap, "line moves along %s, %s and %s: a bitset of values per line", names[0], names[1], names[2]);
    return 1;
}

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

void gr_lines_fill(gr_ctx *c, const gr_game *g, int64_t rows, int64_t cols, int64_t *out) {
    char why[200];
    int dirs = analyse(g, why, sizeof why);
    if (!dirs) gr_fail(c, GR_EXIT_INPUT, "internal error: '%s' is not a line-move rule set (%s)", g->name, why);
    if (rows <= 0 || cols <= 0) return;
    size_t nrow = dirs & DIR_ROW ? (size_t)rows : 0;
    size_t ncol = dirs & DIR_COL ? (size_t)cols : 0;
    size_t ndiag = dirs & DIR_DIAG ? (size_t)rows + (size_t)cols - 1 : 0;
    size_t nlines = nrow + ncol + ndiag;
    line *lines = gr_alloc(c, gr_size_mul(c, nlines, sizeof *lines));
    line *rowl = lines, *coll = lines + nrow, *diagl = coll + ncol;
    for (int64_t a = 0; a < rows; a++) {
        int64_t *o = out + a * cols;
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
    for (size_t i = 0; i < nlines; i++) gr_free(c, lines[i].w);
    gr_free(c, lines);
}
