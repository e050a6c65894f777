/* board: the boards of board games, their vertices and their text; see board.h. */
#include "board.h"
#include <stdio.h>
#include <string.h>

static const char *const KIND_NAMES[] = { "", "path", "cycle", "grid", "complete", "" };

const char *gr_board_canon_name(void) {
#ifdef GRUNDY_HAVE_NAUTY
    return "nauty's canonical labelling";
#else
    return "the exact set of vertices up to the board's symmetries: built without nauty";
#endif
}

const char *gr_board_kind_name(int kind) {
    return kind > 0 && kind < (int)(sizeof KIND_NAMES / sizeof *KIND_NAMES) ? KIND_NAMES[kind] : "";
}

const char **gr_board_axis_names(const gr_game *g, const int64_t *lo) {
    static const char *grid[] = { "rows", "columns" }, *one[] = { "n", "n" };
    if (!g->board_rule) return NULL;
    return lo[GR_BPOS_KIND] == BK_GRID ? grid : one;
}

int gr_board_kind_of(const char *name) {
    for (int k = BK_PATH; k <= BK_COMPLETE; k++)
        if (!strcmp(name, KIND_NAMES[k])) return k;
    return 0;
}

int gr_board_params(int kind) {
    return kind == BK_GRID ? 2 : kind == BK_NAMED ? 0 : 1;
}

int64_t gr_board_count(int kind, int64_t p0, int64_t p1, const gr_board_named *named, const char **why) {
    *why = NULL;
    if (kind == BK_NAMED) return named->nv <= GR_BOARD_MAXV ? named->nv : -1;
    if (p0 < 0 || (kind == BK_GRID && p1 < 0)) { *why = "a board's size cannot be negative"; return -2; }
    if (kind == BK_CYCLE && p0 > 0 && p0 < 3) { *why = "a cycle has at least 3 vertices (cycle(0) is the empty board)"; return -2; }
    if (kind != BK_GRID) return p0 <= GR_BOARD_MAXV ? p0 : -1;
    if (p0 > GR_BOARD_MAXV || p1 > GR_BOARD_MAXV || p0 * p1 > GR_BOARD_MAXV) return -1;
    return p0 * p1;
}

static void link(gr_board *b, int u, int v) {
    b->adj[(size_t)u * (size_t)b->words + (size_t)(v >> 6)] |= UINT64_C(1) << (v & 63);
    b->adj[(size_t)v * (size_t)b->words + (size_t)(u >> 6)] |= UINT64_C(1) << (u & 63);
}

int gr_board_head(const gr_game *g, const int64_t *pos, gr_board *b) {
    const char *why;
    memset(b, 0, sizeof *b);
    b->kind = (int)pos[GR_BPOS_KIND];
    b->p0 = pos[GR_BPOS_P0];
    b->p1 = pos[GR_BPOS_P1];
    if (b->kind == BK_NAMED) b->named = g->boards[b->p0];
    int64_t n = gr_board_count(b->kind, b->p0, b->p1, b->named, &why);
    if (n < 0) return 0;
    b->n = (int)n;
    b->words = b->n ? (b->n + 63) / 64 : 1;
    return 1;
}

void gr_board_make(gr_ctx *c, const gr_game *g, const int64_t *pos, gr_board *b) {
    if (!gr_board_head(g, pos, b))
        gr_fail(c, GR_EXIT_LIMIT, "a board of more than %d vertices: grundy plays on boards of at most that many", GR_BOARD_MAXV);
    b->adj = gr_alloc(c, gr_size_mul(c, (size_t)b->n + 1, (size_t)b->words * sizeof *b->adj));
    switch (b->kind) {
    case BK_PATH: for (int i = 0; i + 1 < b->n; i++) link(b, i, i + 1); break;
    case BK_CYCLE: for (int i = 0; i < b->n; i++) link(b, i, (i + 1) % b->n); break;
    case BK_COMPLETE: for (int i = 0; i < b->n; i++) for (int j = i + 1; j < b->n; j++) link(b, i, j); break;
    case BK_GRID:
        for (int i = 0; i < b->p0; i++)
            for (int j = 0; j < b->p1; j++) {
                int v = (int)(i * b->p1 + j);
                if (j + 1 < b->p1) link(b, v, v + 1);
                if (i + 1 < b->p0) link(b, v, v + (int)b->p1);
            }
        break;
    case BK_NAMED:
        for (int v = 0; v < b->n; v++)
            for (int k = b->named->adj_off[v]; k < b->named->adj_off[v + 1]; k++) link(b, v, b->named->adj[k]);
        break;
    }
}

void gr_board_free(gr_ctx *c, gr_board *b) {
    gr_free(c, b->adj);
    b->adj = NULL;
}

int gr_board_vertex(const gr_board *b, int64_t i, int64_t j) {
    if (b->kind == BK_GRID) return i >= 0 && i < b->p0 && j >= 0 && j < b->p1 ? (int)(i * b->p1 + j) : -1;
    return i >= 0 && i < b->n ? (int)i : -1;
}

int gr_board_vertex_named(const gr_board_named *nb, const char *name) {
    for (int v = 0; v < nb->nv; v++)
        if (!strcmp(nb->names[v], name)) return v;
    return -1;
}

size_t gr_board_vertex_text(const gr_board *b, int v, char *buf, size_t cap) {
    int n;
    if (b->kind == BK_GRID) n = snprintf(buf, cap, "(%lld, %lld)", (long long)(v / b->p1), (long long)(v % b->p1));
    else if (b->kind == BK_NAMED) n = snprintf(buf, cap, "%s", b->named->names[v]);
    else n = snprintf(buf, cap, "%d", v);
    return n < 0 ? 0 : (size_t)n;
}

/* Appends text at `at` of buf (cut at cap; the end returned past cap when it did not fit). */
static size_t put(char *buf, size_t cap, size_t at, const char *text) {
    size_t n = strlen(text);
    if (at < cap) {
        size_t k = at + n < cap ? n : cap - at - 1;
        memcpy(buf + at, text, k);
        buf[at + k] = '\0';
    }
    return at + n;
}

size_t gr_board_render(const gr_game *g, const int64_t *pos, char *buf, size_t cap, size_t at) {
    gr_board b;
    gr_board_head(g, pos, &b);
    char t[96];
    at = put(buf, cap, put(buf, cap, at, g->name), "(");
    if (b.kind == BK_NAMED) snprintf(t, sizeof t, "%s", b.named->name);
    else if (b.kind == BK_GRID) snprintf(t, sizeof t, "grid(%lld, %lld)", (long long)b.p0, (long long)b.p1);
    else snprintf(t, sizeof t, "%s(%lld)", KIND_NAMES[b.kind], (long long)b.p0);
    at = put(buf, cap, at, t);
    int k = 0;
    for (int v = 0; v < b.n && at < cap; v++) {
        if (!gr_board_removed(pos, v)) continue;
        at = put(buf, cap, at, k++ ? ", " : " - {");
        gr_board_vertex_text(&b, v, t, sizeof t);
        at = put(buf, cap, at, t);
    }
    if (k) at = put(buf, cap, at, "}");
    return put(buf, cap, at, ")");
}
