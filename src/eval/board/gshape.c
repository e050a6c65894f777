/* gshape: grid components on one word, their keys and the point-symmetric shapes; see gshape.h. */
#include "eval/board/gshape.h"
#include <string.h>

void gr_gshape_init(gr_gshape *g, const gr_board *b) {
    memset(g, 0, sizeof *g);
    if (b->kind != BK_GRID || b->n > 64 || b->n < 1) return;
    g->on = 1;
    g->rows = (int)b->p0;
    g->cols = (int)b->p1;
    uint64_t all = b->n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << b->n) - 1;
    g->vshift = g->rows > 1 ? g->cols : 0;
    g->vmask = g->rows > 1 ? all : 0;
    for (int v = 0; v < b->n; v++) {
        g->row[v] = (uint8_t)(v / g->cols);
        g->col[v] = (uint8_t)(v % g->cols);
        if (g->col[v] != 0) g->notfirst |= UINT64_C(1) << v;
        if (g->col[v] != g->cols - 1) g->notlast |= UINT64_C(1) << v;
    }
}

int gr_gshape_key(const gr_gshape *g, uint64_t comp, uint64_t key[2]) {
    int imin = 64, imax = -1, jmin = 64, jmax = -1;
    for (uint64_t x = comp; x; x &= x - 1) {
        int v = __builtin_ctzll(x), i = g->row[v], j = g->col[v];
        if (i < imin) imin = i;
        if (i > imax) imax = i;
        if (j < jmin) jmin = j;
        if (j > jmax) jmax = j;
    }
    int h = imax - imin + 1, w = jmax - jmin + 1;
    /* the images: t & 1 turns rows over, t & 2 columns, t & 4 exchanges rows and columns */
    uint64_t bits[8] = { 0 };
    for (uint64_t x = comp; x; x &= x - 1) {
        int v = __builtin_ctzll(x), i = g->row[v] - imin, j = g->col[v] - jmin;
        int fi = h - 1 - i, fj = w - 1 - j;
        bits[0] |= UINT64_C(1) << (i * w + j);
        bits[1] |= UINT64_C(1) << (fi * w + j);
        bits[2] |= UINT64_C(1) << (i * w + fj);
        bits[3] |= UINT64_C(1) << (fi * w + fj);
        bits[4] |= UINT64_C(1) << (j * h + i);
        bits[5] |= UINT64_C(1) << (fj * h + i);
        bits[6] |= UINT64_C(1) << (j * h + fi);
        bits[7] |= UINT64_C(1) << (fj * h + fi);
    }
    uint64_t dims[2] = { (uint64_t)h << 8 | (uint64_t)w, (uint64_t)w << 8 | (uint64_t)h };
    key[0] = bits[0];
    key[1] = dims[0];
    for (int t = 1; t < 8; t++) {
        uint64_t d = dims[t >> 2];
        if (d < key[1] || (d == key[1] && bits[t] < key[0])) { key[0] = bits[t]; key[1] = d; }
    }
    if (bits[3] != bits[0]) return 0;
    /* the cells at the centre, or the two next to it that are each other's image */
    uint64_t centre = 0;
    if (h & w & 1) centre = UINT64_C(1) << ((h / 2) * w + w / 2);
    else if (w & 1) centre = UINT64_C(1) << ((h / 2 - 1) * w + w / 2);
    else if (h & 1) centre = UINT64_C(1) << ((h / 2) * w + w / 2 - 1);
    return !(bits[0] & centre);
}
