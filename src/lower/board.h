/* board: the positions of games played on boards, as the IR holds them (the search is
 * eval/board/). A board is a finite simple undirected graph: a named family (path(n),
 * cycle(n), grid(r, c), complete(n)) or one declared with `board NAME { a - b, c; }`. A rule
 * set on boards (nodekayles, arckayles, or one of the user's: a vertex or an edge chosen, every
 * vertex within a distance of it removed, a vertex maybe only of some degrees) deletes vertices,
 * so a position is a board less the vertices gone: GR_MAX_ARITY coordinates, the board's two
 * parameters, its kind and a mask of removed vertices (at most GR_BOARD_MAXV vertices). */
#ifndef GRUNDY_BOARD_H
#define GRUNDY_BOARD_H
#include "game.h"
#include <stddef.h>

enum { GR_BOARD_WORDS = 13, GR_BOARD_MAXV = GR_BOARD_WORDS * 64 };
/* The coordinates of a position: parameters first (a table varies them), then the kind. */
enum { GR_BPOS_P0 = 0, GR_BPOS_P1 = 1, GR_BPOS_KIND = 2, GR_BPOS_MASK = 3 };
typedef enum { BK_PATH = 1, BK_CYCLE, BK_GRID, BK_COMPLETE, BK_NAMED } gr_board_kind;

/* A board declared by name: its vertices and edges (CSR, both directions). */
typedef struct gr_board_named {
    const char *name;
    const char **names; int nv;
    int32_t *adj_off, *adj;
} gr_board_named;

/* A rule set on boards: a move chooses a vertex (of a degree deg_ok allows, NULL: any) or an
 * edge, and removes every vertex within `radius` of what it chose. */
typedef struct gr_board_rule {
    int edge;
    int radius;
    const uint8_t *deg_ok;         /* GR_BOARD_MAXV entries, or NULL */
} gr_board_rule;

/* A board made for the search: n vertices, adjacency as bitset rows of `words` words. */
typedef struct gr_board {
    int kind; int64_t p0, p1;
    const gr_board_named *named;
    int n, words;
    uint64_t *adj;                 /* row v: adj + v * words */
} gr_board;

/* The number of vertices of a board (p0, p1 its parameters), or -1 when it has more than
 * GR_BOARD_MAXV; *why says which parameter is wrong when it is not a board at all (-2). */
int64_t gr_board_count(int kind, int64_t p0, int64_t p1, const gr_board_named *named, const char **why);
/* The board of a position (g->boards for a named one): its head alone (no adjacency; 0 when
 * it is too large), or whole in tracked memory of c (gr_board_free; too large: status 3). */
int gr_board_head(const gr_game *g, const int64_t *pos, gr_board *b);
void gr_board_make(gr_ctx *c, const gr_game *g, const int64_t *pos, gr_board *b);
void gr_board_free(gr_ctx *c, gr_board *b);
/* How components are keyed, for --explain: nauty's canonical labelling, or the fallback. */
const char *gr_board_canon_name(void);
/* A family's name ("grid") as a kind, 0 if none; how many parameters it takes. */
int gr_board_kind_of(const char *name);
/* The names of a table's axes over a board family (a game on boards, lo its coordinates):
 * "rows" and "columns" for grids, "n" for the other families; NULL for other games. And the
 * family's name ("grid"; "" for a declared board). */
const char **gr_board_axis_names(const gr_game *g, const int64_t *lo);
const char *gr_board_kind_name(int kind);
int gr_board_params(int kind);
/* The vertex written at `at` of a board, or -1 (i, j: a grid's cell; j is ignored elsewhere). */
int gr_board_vertex(const gr_board *b, int64_t i, int64_t j);
int gr_board_vertex_named(const gr_board_named *nb, const char *name);
/* The text of vertex v ("3", "(1, 2)", "a") and of the position (nk(grid(5, 6) - {(0, 0)})). */
size_t gr_board_vertex_text(const gr_board *b, int v, char *buf, size_t cap);
size_t gr_board_render(const gr_game *g, const int64_t *pos, char *buf, size_t cap, size_t at);

static inline int gr_board_removed(const int64_t *pos, int v) {
    return (int)((uint64_t)pos[GR_BPOS_MASK + (v >> 6)] >> (v & 63) & 1);
}
static inline void gr_board_remove(int64_t *pos, int v) {
    pos[GR_BPOS_MASK + (v >> 6)] = (int64_t)((uint64_t)pos[GR_BPOS_MASK + (v >> 6)] | UINT64_C(1) << (v & 63));
}
#endif
