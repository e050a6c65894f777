/* movekeys: the keys of moves for winning-move lists; see movekeys.h. */
#include "movekeys.h"
#include <stdlib.h>
#include <string.h>

static int cmp_row(const void *x, const void *y) {
    const int64_t *a = x, *b = y;
    for (int i = 0; i < GR_MAX_ARITY; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

typedef struct count_ctx { int n; } count_ctx;
static void count_option(void *user, const int64_t *heaps, int nheaps) { (void)heaps; (void)nheaps; ((count_ctx *)user)->n++; }

/* Is a heap of 0 of g a position without moves? Asked once per game. */
static int heap_zero_dead(gr_move_keys *k, gr_game *g) {
    if (g->shape != SHAPE_HEAP) return 0;
    for (int i = 0; i < k->nzero; i++) if (k->zero_game[i] == g) return k->zero_dead[i];
    count_ctx n = { 0 };
    int64_t zero[GR_MAX_ARITY] = { 0 };
    gr_eval_options(k->c, g, zero, count_option, &n);
    if (k->nzero < 8) { k->zero_game[k->nzero] = g; k->zero_dead[k->nzero++] = (int8_t)(n.n == 0); }
    return n.n == 0;
}

void gr_move_keys_init(gr_move_keys *k, gr_ctx *c) {
    memset(k, 0, sizeof *k);
    k->c = c;
    gr_byteset_init(&k->seen, c);
}

void gr_move_keys_free(gr_move_keys *k) {
    gr_byteset_free(&k->seen);
    gr_free(k->c, k->parts);
}

int gr_move_is_new(gr_move_keys *k, gr_game *g, const int64_t *removed, const int64_t *parts, int nparts) {
    enum { W = GR_MAX_ARITY };
    size_t need = gr_size_mul(k->c, (size_t)nparts + 2, W);
    if (need > k->cap) {
        k->parts = gr_realloc(k->c, k->parts, gr_size_mul(k->c, need, sizeof *k->parts));
        k->cap = need;
    }
    int64_t *rows = k->parts, *rm = k->parts + (size_t)(nparts + 1) * W;
    int dead = heap_zero_dead(k, g), n = 0;
    for (int q = 0; q < nparts; q++) {
        const int64_t *p = parts + (size_t)q * (size_t)g->arity;
        if (dead && p[0] == 0) continue;
        memset(rows + (size_t)n * W, 0, W * sizeof *rows);
        memcpy(rows + (size_t)n * W, p, (size_t)g->arity * sizeof *p);
        n++;
    }
    memset(rm, 0, W * sizeof *rm);
    memcpy(rm, removed, (size_t)g->arity * sizeof *rm);
    if (n > 1) qsort(rows, (size_t)n, W * sizeof *rows, cmp_row);
    int64_t has_removed = 1;
    for (int q = 0; q < n; q++)
        if (cmp_row(rows + (size_t)q * W, rm) == 0) {
            memmove(rows + (size_t)q * W, rows + (size_t)(q + 1) * W, (size_t)(n - q - 1) * W * sizeof *rows);
            n--;
            has_removed = 0;
            break;
        }
    /* key: a header row (game, whether an atom is removed), the parts, then that atom */
    memmove(rows + W, rows, (size_t)n * W * sizeof *rows);
    uintptr_t gp = (uintptr_t)g;
    memset(rows, 0, W * sizeof *rows);
    memcpy(rows, &gp, sizeof gp);
    rows[1] = has_removed;
    size_t len = (size_t)(n + 1) * W * sizeof *rows;
    if (has_removed) {
        memmove(rows + (size_t)(n + 1) * W, rm, W * sizeof *rm);
        len += W * sizeof *rm;
    }
    return gr_byteset_add(&k->seen, rows, len);
}

