/* gridplay: grid boards in `grundy play`; see gridplay.h. Positions are read from their text
 * (the form gr_board_render writes), so a sum of a board with heaps keeps its other parts as
 * they are printed, and a move is found among the listed options by its text around the board
 * and its set of removed cells: the set a move of the rule leaves (its chosen cells and every
 * cell within the rule's radius of them, among the cells left). */
#include "gridplay.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* One grid board in a position's text: its span ("grid(2, 3) - {(0, 0)}") and its cells. */
typedef struct gridview {
    size_t start, end;
    int rows, cols;
    uint8_t gone[GR_BOARD_MAXV];
} gridview;

static const char *skip_sp(const char *p) {
    while (*p == ' ') p++;
    return p;
}

static const char *read_int(const char *p, long *v) {
    char *end;
    p = skip_sp(p);
    if (!isdigit((unsigned char)*p)) return NULL;
    *v = strtol(p, &end, 10);
    return end;
}

/* "(i, j)" at p: the cell's index, the text after it in *next; -1 if not a cell of g. */
static int read_cell(const char *p, const gridview *g, const char **next) {
    long i, j;
    p = skip_sp(p);
    if (*p != '(' || !(p = read_int(p + 1, &i)) || *(p = skip_sp(p)) != ',' || !(p = read_int(p + 1, &j)) ||
        *(p = skip_sp(p)) != ')')
        return -1;
    *next = p + 1;
    return i < g->rows && j < g->cols ? (int)(i * g->cols + j) : -1;
}

/* The first grid board of text at or after from (the argument of a game: "(grid("). */
static int find_grid(const char *text, size_t from, gridview *g) {
    for (const char *p = strstr(text + from, "(grid("); p; p = strstr(p + 1, "(grid(")) {
        long r, c;
        const char *q = read_int(p + 6, &r);
        if (!q || *(q = skip_sp(q)) != ',' || !(q = read_int(q + 1, &c)) || *(q = skip_sp(q)) != ')') continue;
        if (r < 1 || c < 1 || r * c > GR_BOARD_MAXV) continue;
        memset(g, 0, sizeof *g);
        g->start = (size_t)(p + 1 - text);
        g->rows = (int)r;
        g->cols = (int)c;
        q++;
        const char *s = skip_sp(q);
        if (s[0] == '-' && *(s = skip_sp(s + 1)) == '{') {
            s++;
            for (;;) {
                int v = read_cell(s, g, &s);
                if (v < 0) break;
                g->gone[v] = 1;
                s = skip_sp(s);
                if (*s == ',') { s++; continue; }
                if (*s == '}') q = s + 1;
                break;
            }
        }
        g->end = (size_t)(q - text);
        return 1;
    }
    return 0;
}

static int digits(int n) {
    int d = 1;
    while (n >= 10) { n /= 10; d++; }
    return d;
}

/* A path (at most PATH_DRAWN vertices) drawn as one row, its vertices numbered above. */
enum { PATH_DRAWN = 40 };
static void draw_paths(FILE *out, const char *position) {
    for (const char *p = strstr(position, "(path("); p; p = strstr(p + 1, "(path(")) {
        long n, v;
        const char *q = read_int(p + 6, &n);
        if (!q || *(q = skip_sp(q)) != ')' || n < 1 || n > PATH_DRAWN) continue;
        uint8_t gone[PATH_DRAWN] = { 0 };
        const char *s = skip_sp(q + 1);
        if (s[0] == '-' && *(s = skip_sp(s + 1)) == '{')
            for (s++; (s = read_int(s, &v)) && v < n; s++) {
                gone[v] = 1;
                if (*(s = skip_sp(s)) != ',') break;
            }
        int w = digits((int)n - 1);
        fputs("    ", out);
        for (int j = 0; j < n; j++) fprintf(out, " %*d", w, j);
        fputs("\n    ", out);
        for (int j = 0; j < n; j++) fprintf(out, " %*c", w, gone[j] ? '#' : '.');
        fputc('\n', out);
    }
}

void gr_grid_draw(FILE *out, const char *position) {
    draw_paths(out, position);
    gridview g;
    for (size_t from = 0; find_grid(position, from, &g); from = g.end) {
        int rw = digits(g.rows - 1), cw = digits(g.cols - 1);
        fprintf(out, "  %*s ", rw, "");
        for (int j = 0; j < g.cols; j++) fprintf(out, " %*d", cw, j);
        fputc('\n', out);
        for (int i = 0; i < g.rows; i++) {
            fprintf(out, "  %*d ", rw, i);
            for (int j = 0; j < g.cols; j++) fprintf(out, " %*c", cw, g.gone[i * g.cols + j] ? '#' : '.');
            fputc('\n', out);
        }
    }
}

const gr_board_rule *gr_grid_rule(const gr_rquery *q) {
    const gr_board_rule *rule = NULL;
    int grids = 0;
    for (int k = 0; k < q->ncomps; k++) {
        const gr_game *g = q->comps[k].game;
        if (g->shape == SHAPE_BOARD && q->comps[k].c[GR_BPOS_KIND] == BK_GRID) { rule = g->board_rule; grids++; }
    }
    return grids == 1 ? rule : NULL;
}

int gr_grid_is_cells(const char *line) {
    int nums = 0, marks = 0;
    for (const char *p = line; *p; p++) {
        if (isdigit((unsigned char)*p)) {
            nums++;
            while (isdigit((unsigned char)p[1])) p++;
        } else if (*p == ',' || *p == '(' || *p == ')') marks++;
        else if (*p != ' ' && *p != '-' && *p != '\t') return 0;
    }
    return nums >= 2 && marks >= 0;
}

/* The numbers of the line, as cells of g (pairs), into cells; how many, or -1 with msg. */
static int typed_cells(const char *line, const gridview *g, int *cells, int max, char *msg, size_t cap) {
    long v[2 * 4];
    int nv = 0;
    if (max > 4) max = 4;
    for (const char *p = line; *p; p++) {
        if (!isdigit((unsigned char)*p)) continue;
        if (nv == 2 * max) { snprintf(msg, cap, "a move takes one or two cells"); return -1; }
        char *end;
        v[nv++] = strtol(p, &end, 10);
        p = end - 1;
    }
    if (nv % 2) { snprintf(msg, cap, "a cell is two numbers, its row and its column, e.g. (0, 1)"); return -1; }
    for (int k = 0; k < nv / 2; k++) {
        long i = v[2 * k], j = v[2 * k + 1];
        if (i >= g->rows || j >= g->cols) {
            snprintf(msg, cap, "(%ld, %ld) is not a cell of the board: rows 0 to %d, columns 0 to %d", i, j, g->rows - 1,
                     g->cols - 1);
            return -1;
        }
        cells[k] = (int)(i * g->cols + j);
        if (g->gone[cells[k]]) { snprintf(msg, cap, "(%ld, %ld) is no longer on the board (#)", i, j); return -1; }
        for (int m = 0; m < k; m++)
            if (cells[m] == cells[k]) { snprintf(msg, cap, "(%ld, %ld) is named twice", i, j); return -1; }
    }
    return nv / 2;
}

static int adjacent(const gridview *g, int a, int b) {
    int ai = a / g->cols, aj = a % g->cols, bi = b / g->cols, bj = b % g->cols;
    return abs(ai - bi) + abs(aj - bj) == 1;
}

/* The cells a move choosing cells[0..n) removes: them and every cell left within radius. */
static void ball(const gridview *g, const int *cells, int n, int radius, uint8_t *out) {
    int size = g->rows * g->cols, *front = malloc((size_t)size * sizeof *front), nf = 0;
    memset(out, 0, (size_t)size);
    if (!front) return;
    for (int k = 0; k < n; k++) { out[cells[k]] = 1; front[nf++] = cells[k]; }
    for (int step = 0, lo = 0; step < radius && lo < nf; step++) {
        int hi = nf;
        for (; lo < hi; lo++) {
            int i = front[lo] / g->cols, j = front[lo] % g->cols;
            static const int DI[4] = { -1, 1, 0, 0 }, DJ[4] = { 0, 0, -1, 1 };
            for (int d = 0; d < 4; d++) {
                int ni = i + DI[d], nj = j + DJ[d], w = ni * g->cols + nj;
                if (ni < 0 || nj < 0 || ni >= g->rows || nj >= g->cols || g->gone[w] || out[w]) continue;
                out[w] = 1;
                front[nf++] = w;
            }
        }
    }
    free(front);
}

int gr_grid_pick(const gr_board_rule *rule, const char *cur, char *const *options, int n, const char *line,
                 char *msg, size_t cap) {
    gridview *g = calloc(2, sizeof *g), *o = g + 1;
    uint8_t *want = malloc(GR_BOARD_MAXV);
    int cells[4], pick = -1;
    if (!g || !want) snprintf(msg, cap, "out of memory");
    else if (!rule || !find_grid(cur, 0, g))
        snprintf(msg, cap, "cells name a move only on a position with one grid board: type a number or a position");
    else {
        int nc = typed_cells(line, g, cells, 4, msg, cap);
        int deg = 0;
        for (int w = 0; nc == 1 && w < g->rows * g->cols; w++) deg += !g->gone[w] && adjacent(g, cells[0], w);
        if (nc < 0) {}
        else if (rule->edge && nc == 2 && !adjacent(g, cells[0], cells[1]))
            snprintf(msg, cap, "(%d, %d) and (%d, %d) are not next to each other: a move here takes two adjacent cells",
                     cells[0] / g->cols, cells[0] % g->cols, cells[1] / g->cols, cells[1] % g->cols);
        else if (rule->edge && (nc != 2 || !adjacent(g, cells[0], cells[1])))
            snprintf(msg, cap, "a move here takes two adjacent cells (a domino), e.g. (0, 0) (0, 1)");
        else if (!rule->edge && nc != 1) snprintf(msg, cap, "a move here takes one cell, e.g. (0, 1)");
        else if (!rule->edge && rule->deg_ok && !rule->deg_ok[deg])
            snprintf(msg, cap, "that cell has %d neighbours left, and this rule set may not take it", deg);
        else {
            ball(g, cells, nc, rule->radius, want);
            for (int w = 0; w < g->rows * g->cols; w++) want[w] |= g->gone[w];
            for (int i = 0; i < n && pick < 0; i++) {
                if (!find_grid(options[i], 0, o) || o->start != g->start || o->rows != g->rows || o->cols != g->cols ||
                    strncmp(options[i], cur, g->start) || strcmp(options[i] + o->end, cur + g->end) ||
                    memcmp(o->gone, want, (size_t)(g->rows * g->cols)))
                    continue;
                pick = i;
            }
            if (pick < 0) snprintf(msg, cap, "that is not a move from here");
        }
    }
    free(want);
    free(g);
    return pick;
}
